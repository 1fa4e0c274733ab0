"""``farol advise coup``: advice at any spot of 2-6 player Coup, in seconds.

At 3 to 6 players (``--players N``, or a position of N players) the answer is each
move's chance of winning with a 95% interval, played out against opponents who play
like ``best`` from beliefs weighed by what each player has claimed and shown
(:mod:`analysis.coup.advice.multiplayer`), moves whose intervals overlap called ties.
At 2 players:

The spot is a position string, or ``--history`` (with ``--param``, and ``--hand`` for
your own cards): the moves from the start of a 2-player game by their names. The answer
is ``best``'s, the re-solving agent brought along the moves so far as it plays them
(:mod:`analysis.coup.advice.resolve`): its mix at your hand, each move's value and the
opponent's likely hands, the same answer ``farol play``'s hint and the explorer give.
``--exact`` solves the position's capped endgame exactly instead (minutes; the opening
is shipped solved), and ``--blueprint`` answers from the deck's blueprint once built.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random

import pyspiel

from analysis.cli.numbers import int_in
from analysis.cli.outputs import with_schema
from analysis.cli.parser import add_examples
from analysis.cli.spots import add_spot_arguments, spot_from_args
from analysis.coup.advice import multiplayer as multi
from analysis.coup.advice.blueprint import (
    ROLLOUTS,
    SpotAdvice,
    advise_spot,
    blueprint_for,
    position_spot,
)
from analysis.coup.advice.endgame import advise, position_at
from analysis.coup.advice.openings import SOLVE_MINUTES, refusal, stored_advice, stored_note
from analysis.coup.advice.resolve import advise_state, position_state
from analysis.coup.solvers.position_endgames import CAP_PRICINGS, DEFAULT_CAP
from analysis.shared.lists import comma_list
from analysis.shared.params import load_game, parse_params
from analysis.shared.progress import expect
from games.coup import cards as C
from games.coup.positions import parse_position
from games.errors import InvalidParameterError, InvalidPositionError
from games.history import history_names, replay

GAME = "python_coup"


EXACT_OPTIONS = ("turn_cap", "cap_pricing", "solve")
BLUEPRINT_OPTIONS = ("rollouts", "seed")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__.split("\n\n")[0].replace("``", "")
    parser.add_argument("position", nargs="?", default=None,
                        help="each player as hidden/revealed/coins (face-down cards, lost "
                        "cards, coins), then move:K, the player to move, e.g. "
                        "'duke/contessa/3;?/contessa/0;move:0' (your face-down cards by "
                        "name, the opponent's as ?, - for none; both hands are weighed as "
                        "freshly dealt); or give --history")
    add_spot_arguments(parser, ("deck=inquisitor", "two_player_setup=standard"),
                       "the moves from the start of the game, as the game names them, "
                       "e.g. 'Draw Duke;Draw Contessa;Draw Captain;Draw Assassin;Income': "
                       "the deal's draws go P0, P1, P0, P1 (here P0 holds Duke+Captain, P1 "
                       "Contessa+Assassin), or leave them out and give --hand; advice for "
                       "the player to move at the end, at any decision")
    parser.add_argument("--hand", default=None, metavar="CARD,CARD",
                        help="your dealt cards, e.g. Duke,Contessa, with --history listing "
                        "only the moves after the deal: you are the player to move at its "
                        "end (the others' cards do not change the advice; at 3-6 players a deal of"
                        " theirs that the moves allow is found)")
    parser.add_argument("--deck", default="ambassador", choices=C.DECKS)
    parser.add_argument("--players", type=int_in(C.MIN_PLAYERS, multi.PLAYERS[-1]), default=None,
                        help="players at the table with --history (2-6; default 2, or as "
                        "--param players= says); at 3-6 each move's chance of winning "
                        "against opponents who play like best, with its 95%% interval")
    parser.add_argument("--exact", action="store_true",
                        help="solve the position's endgame exactly in a game capped at "
                        "--turn-cap turns instead of asking best: seconds with one face-down "
                        "card each, a minute or more with two against one, over 20 minutes "
                        "with two each (the opening is shipped solved); from a history, at "
                        "the start of a turn only")
    parser.add_argument("--turn-cap", type=int_in(1), default=None,
                        help=f"with --exact: turns solved from the position (default "
                        f"{DEFAULT_CAP})")
    parser.add_argument("--cap-pricing", default=None, choices=CAP_PRICINGS,
                        help="with --exact: markov (default): a game stopped at the cap pays "
                        "what each player's Markov policy still guarantees, and the mix "
                        "secures you the most; draw: the cap scores 0 for both")
    parser.add_argument("--solve", action="store_true",
                        help="with --exact: solve a spot with two face-down cards each now, "
                        "rather than refuse (over 20 minutes and several GB)")
    parser.add_argument("--blueprint", action="store_true",
                        help="answer from the deck's blueprint instead of asking best "
                        "(farol coup blueprint build, once)")
    parser.add_argument("--rollouts", type=int_in(2), default=None,
                        help=f"with --blueprint: games per move that value it where the "
                             f"spot is not re-solved (default {ROLLOUTS}); at 3-6 players: "
                             f"games each move is played out in (default {multi.ROLLOUTS})")
    parser.add_argument("--seed", type=int_in(0), default=None,
                        help="with --blueprint, or at 3-6 players: the seed of those games "
                        "(default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write caches")
    parser.set_defaults(func=run)
    add_examples(
        parser,
        "farol advise coup 'duke/contessa/3;?/contessa/0;move:0'",
        "farol advise coup --history 'Draw Duke;Draw Contessa;Draw Captain;Draw Assassin;Income'",
        "farol advise coup --hand Duke,Contessa --history 'Income;Tax (claims Duke)' --json",
        "farol advise coup --param deck=inquisitor --param two_player_setup=standard "
        "--history 'Draw Duke;Draw Contessa;Draw Captain;Draw Assassin;Income'")


def check_options(args: argparse.Namespace) -> None:
    """Fill the defaults of ``--exact``'s and ``--blueprint``'s options, refusing in one
    line an option given without its flag (it would be ignored)."""
    if args.exact and args.blueprint:
        raise InvalidParameterError("--exact or --blueprint: give one of the two")
    for flag, names, on in (("--exact", EXACT_OPTIONS, args.exact),
                            ("--blueprint", BLUEPRINT_OPTIONS, args.blueprint)):
        for name in names:
            if not on and getattr(args, name) not in (None, False):
                raise InvalidParameterError(f"--{name.replace('_', '-')} goes with {flag}")
    if args.hand is not None and args.history is None:
        raise InvalidParameterError("--hand goes with --history (the moves after the deal; "
                                    "it may be empty: --history '')")
    if args.hand is not None and (args.exact or args.blueprint):
        raise InvalidParameterError("--hand asks best; with --exact or --blueprint give the "
                                    "deal's draws in --history")
    args.turn_cap = DEFAULT_CAP if args.turn_cap is None else args.turn_cap
    args.cap_pricing = args.cap_pricing or "markov"
    args.rollouts = ROLLOUTS if args.rollouts is None else args.rollouts
    args.seed = 0 if args.seed is None else args.seed


def check_one_spot(args: argparse.Namespace) -> None:
    """Refuse in one line both or neither of a position and ``--history``."""
    if (args.position is None) == (args.history is None):
        raise InvalidPositionError("give a position or --history (one of the two)")


def spot(args: argparse.Namespace) -> tuple[str, str]:
    """The position string and deck the arguments name (a position, or a history)."""
    check_one_spot(args)
    state = spot_from_args(GAME, args, {"deck": args.deck})
    if state is None:
        return args.position, args.deck
    changed = state.core.cfg.numbers.changed()
    if changed:
        raise InvalidParameterError(
            f"the endgame solves and stored openings are for the printed rules, not "
            f"{changed[0]}={getattr(state.core.cfg.numbers, changed[0])}; a 2-player turn "
            "action, challenge or block is re-solved for the variant")
    return position_at(state), state.core.cfg.deck


def run(args: argparse.Namespace) -> int:
    if table_players(args) > 2:
        return run_multi(args)
    check_options(args)
    if args.exact or args.blueprint:
        return answer(args)
    check_one_spot(args)
    if args.history is None:
        state = position_state(args.position, args.deck)
    else:
        state = history_state(args)
    advice = advise_state(state, show_hands=args.history is not None and args.hand is None)
    print(json.dumps(with_schema("advise-coup", advice.to_json()), indent=2) if args.json
          else advice.text())
    return 0


def table_players(args: argparse.Namespace) -> int:
    """The players at the table the arguments name: ``--players``, ``--param players=``
    or the position's entries (2 when none says)."""
    if args.players is not None:
        if any(p.replace(" ", "").startswith("players=") for p in args.param):
            raise InvalidParameterError("--players or --param players=: give one of the two")
        if args.history is None:
            raise InvalidParameterError("--players goes with --history (a position counts "
                                        "its own players)")
        args.param = [*args.param, f"players={args.players}"]
        return args.players
    if args.history is not None:
        return int(parse_params(GAME, args.param).get("players", 2))
    if args.position is not None:
        entries = [e for e in args.position.split(";")
                   if e.strip() and not e.strip().lower().startswith("move:")]
        return len(entries)
    return 2


def run_multi(args: argparse.Namespace) -> int:
    """Advice at 3-6 players (the options of 2-player solving refused in one line)."""
    for flag, on in (("--exact", args.exact), ("--blueprint", args.blueprint),
                     ("--turn-cap", args.turn_cap is not None),
                     ("--cap-pricing", args.cap_pricing is not None), ("--solve", args.solve)):
        if on:
            raise InvalidParameterError(f"{flag} is for 2 players; at 3-6 players the advice "
                                        "plays each move out against opponents who play "
                                        "like best")
    if args.hand is not None and args.history is None:
        raise InvalidParameterError("--hand goes with --history (the moves after the deal; "
                                    "it may be empty: --history '')")
    check_one_spot(args)
    if args.history is None:
        state = multi.position_state(args.position, args.deck)
    elif args.hand is not None:
        state = multi_hand_state(args)
    else:
        state = spot_from_args(GAME, args, {"deck": args.deck})
    rollouts = multi.ROLLOUTS if args.rollouts is None else args.rollouts
    advice = multi.advise_multi(state, rollouts, multi.SEED if args.seed is None else args.seed,
                                show_hands=args.history is not None and args.hand is None)
    print(json.dumps(with_schema("advise-coup-table", advice.to_json()), indent=2)
          if args.json else advice.text())
    return 0


HAND_TRIES = 400  # deals of the others' cards tried for each seat with --hand at 3-6


def multi_hand_state(args: argparse.Namespace) -> pyspiel.State:
    """At 3-6 players, the spot the moves after the deal reach with the player to move
    dealt ``--hand`` and the others cards the moves allow, found among seeded random
    deals of the rest (the advice reads only what the player to move sees)."""
    game = load_game(GAME, {"deck": args.deck} | parse_params(GAME, args.param))
    cfg = game.config
    names = history_names(args.history)
    if names and names[0].casefold().startswith("draw "):
        raise InvalidPositionError("--hand replaces the deal's draws: list only the moves "
                                   "after the deal in --history")
    mine = hand_cards(args.hand, cfg)
    pool = [c for c in range(C.NUM_CHARACTERS) for _ in range(cfg.copies)]
    for c in mine:
        pool.remove(c)
    n = cfg.num_players
    rng = random.Random(0)
    first = None
    for seat in range(n):
        for _ in range(HAND_TRIES):
            rng.shuffle(pool)
            others = iter(pool)
            hands = [mine if p == seat else tuple(next(others) for _ in mine) for p in range(n)]
            deal = [f"Draw {C.card_name(hands[p][k], cfg.deck)}"
                    for k in range(len(mine)) for p in range(n)]
            try:
                state = replay(game, ";".join(deal + names))
            except InvalidPositionError as exc:
                first = first or exc
                continue
            if state.current_player() == seat:
                return state
            break  # the moves do not depend on the others' cards here: another seat
    raise InvalidPositionError(f"--hand: no deal gives the player to move {args.hand} with "
                               "these moves (check the moves, and whose turn it is)"
                               + (f"; {first}" if first is not None else ""))


def history_state(args: argparse.Namespace) -> pyspiel.State:
    """The spot ``--history`` reaches (the deal dealt from ``--hand`` when given)."""
    if args.hand is None:
        return spot_from_args(GAME, args, {"deck": args.deck})
    return hand_state(args)


def hand_state(args: argparse.Namespace) -> pyspiel.State:
    """The spot the moves after the deal reach, the player to move there dealt ``--hand``
    and the opponent the first cards the moves allow (the advice reads only what the
    player to move sees)."""
    game = load_game(GAME, {"deck": args.deck} | parse_params(GAME, args.param))
    cfg = game.config
    if cfg.setup == "draft":
        raise InvalidParameterError("--hand: a draft game deals one card and picks the "
                                    "other; give the whole --history")
    names = history_names(args.history)
    if names and names[0].casefold().startswith("draw "):
        raise InvalidPositionError("--hand replaces the deal's draws: list only the moves "
                                   "after the deal in --history")
    mine = hand_cards(args.hand, cfg)
    court = [cfg.copies] * C.NUM_CHARACTERS
    for c in mine:
        court[c] -= 1
    pool = [c for c in range(C.NUM_CHARACTERS) for _ in range(court[c])]
    first, replayed = None, False  # the first refusal; whether any deal replays the moves
    for seat in (0, 1):
        for theirs in sorted(set(itertools.combinations(pool, len(mine)))):
            hands = (mine, theirs) if seat == 0 else (theirs, mine)
            deal = [f"Draw {C.card_name(hands[p][k], cfg.deck)}"
                    for k in range(len(mine)) for p in (0, 1)]
            try:
                state = replay(game, ";".join(deal + names))
            except InvalidPositionError as exc:
                first = first or exc
                continue
            if state.current_player() == seat:
                return state
            replayed = True
    if first is not None and not replayed:
        raise InvalidPositionError(f"{first} (counting the deal's {len(deal)} draws)")
    raise InvalidPositionError(f"--hand: no deal gives the player to move {args.hand} with "
                               "these moves (check the moves, and whose turn it is)")


def hand_cards(text: str, cfg) -> tuple[int, ...]:
    """The cards ``--hand`` names (``Duke,Contessa``), checked against the deck."""
    deck_cards = [C.card_name(c, cfg.deck) for c in range(C.NUM_CHARACTERS)]
    names = {name.casefold(): c for c, name in enumerate(deck_cards)}
    cards = []
    for name in comma_list("--hand", text):
        if name.casefold() not in names:
            raise InvalidParameterError(f"--hand: {name!r} is not a card of the {cfg.deck} "
                                        f"deck ({', '.join(deck_cards)})")
        cards.append(names[name.casefold()])
    size = cfg.numbers.hand_size
    if len(cards) != size:
        raise InvalidParameterError(f"--hand: {len(cards)} cards; a hand holds {size}")
    if any(cards.count(c) > cfg.copies for c in cards):
        raise InvalidParameterError(f"--hand: the deck holds {cfg.copies} of each character")
    return tuple(sorted(cards))


def answer_schema(args: argparse.Namespace) -> str:
    """The JSON schema of an answer of --blueprint or --exact (docs/json.md)."""
    return "advise-coup-blueprint" if args.blueprint else "advise-coup-exact"


def answer(args: argparse.Namespace) -> int:
    """``--blueprint``: the blueprint's advice; ``--exact``: the stored opening's, or the
    exact endgame solve's."""
    advice = blueprint_advice(args) if args.blueprint else None
    if args.blueprint and advice is None:
        raise InvalidParameterError("--blueprint: no blueprint of this deck and setup is "
                                    f"built (farol coup blueprint build --deck {args.deck})")
    stored = None
    if advice is None:
        position, deck = spot(args)
        advice = stored = stored_advice(position, deck, args.turn_cap, args.cap_pricing)
    if stored is not None:
        out = advice.to_json() | {"stored": stored_note(deck)}
        print(json.dumps(with_schema(answer_schema(args), out), indent=2) if args.json else
              f"{advice.text()}\nSolved once and stored: {stored_note(deck)}")
        return 0
    if advice is None:
        check_size(position, deck, args)
        advice = advise(position, deck, args.turn_cap, use_cache=not args.no_cache,
                        cap=args.cap_pricing)
    print(json.dumps(with_schema(answer_schema(args), advice.to_json()), indent=2) if args.json
          else advice.text())
    return 0


def check_size(position: str, deck: str, args: argparse.Namespace) -> None:
    """Refuse in one line, before any work, the exact solve of a spot with two face-down
    cards each past one turn (many minutes, GB): unless ``--solve``, it names what
    answers it instead. The cap's Markov pricing refuses such spots itself."""
    spot_position = parse_position(position, deck)
    cards = sum(len(h) for h in spot_position.hidden)
    if cards < 4 or args.turn_cap < 2 or args.cap_pricing != "draw":
        return
    setup = "basic"
    if args.history is not None:
        setup = spot_from_args(GAME, args, {"deck": args.deck}).core.cfg.setup
    if not args.solve:
        raise InvalidPositionError(refusal(spot_position, deck, setup))
    expect("solving this spot with two face-down cards each", 60 * SOLVE_MINUTES,
           f"farol coup blueprint build --deck {deck} --setups {setup} (once), then any "
           "decision at once")


def blueprint_advice(args: argparse.Namespace) -> SpotAdvice | None:
    """The blueprint's advice at a history's decision or a position; ``None`` when no
    blueprint of the game's deck and setup is built."""
    if args.history is not None:
        state = spot_from_args(GAME, args, {"deck": args.deck})
    else:
        position, deck = spot(args)
        state = position_spot(position, deck, "standard", args.seed)
    bp = blueprint_for(state)
    return None if bp is None else advise_spot(state, bp, args.rollouts, args.seed)
