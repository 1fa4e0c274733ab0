"""``farol advise coup``: the mix and value of the player to move in 2-player Coup.

The spot is a position string, or ``--history`` (with ``--param``): the moves from the
start of a 2-player game by their names. With the deck's blueprint built (``farol coup
blueprint build``), a history is advised at any decision (a claim to challenge, a block,
a card to lose, an exchange) from the blueprint, with the opponent's cards as the moves
seen suggest. Without it, a spot the exact endgame solve or the shipped opening answers
is answered from them; any other turn action, challenge or block is answered at once by
re-solving the rest of the turn over the public beliefs (its first line says what that
leaves out).
"""

from __future__ import annotations

import argparse
import json

from analysis.cli.numbers import int_in
from analysis.cli.spots import add_spot_arguments, spot_from_args
from analysis.coup.advice import resolve as resolve_advice
from analysis.coup.advice.blueprint import (
    ROLLOUTS,
    SpotAdvice,
    advise_spot,
    blueprint_for,
    position_spot,
)
from analysis.coup.advice.endgame import advise, position_at
from analysis.coup.advice.openings import SOLVE_MINUTES, refusal, stored_advice, stored_note
from analysis.coup.advice.resolve import advise_state
from analysis.coup.solvers.position_endgames import CAP_PRICINGS, DEFAULT_CAP, can_price_cap
from analysis.shared.progress import expect
from games.coup import cards as C
from games.coup.positions import parse_position
from games.errors import FarolError, InvalidParameterError, InvalidPositionError

GAME = "python_coup"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__.split("\n\n")[0].replace("``", "")
    parser.add_argument("position", nargs="?", default=None,
                        help="e.g. 'duke/contessa/3;?/contessa/0;move:0' (your face-down "
                        "cards by name, the opponent's as ?); or give --history")
    add_spot_arguments(parser, "deck=inquisitor,two_player_setup=standard",
                       "the moves from the start of the game, as the game names them "
                       "(card draws included), e.g. 'Draw Duke;Draw Contessa;Draw Captain;"
                       "Draw Assassin;Income'; advice for the player to move there: any "
                       "turn action, challenge or block at once (re-solving the rest of the "
                       "turn), any decision once the deck's blueprint is built (farol coup "
                       "blueprint build)")
    parser.add_argument("--deck", default="ambassador", choices=C.DECKS)
    parser.add_argument("--turn-cap", type=int_in(1), default=DEFAULT_CAP,
                        help=f"turns solved from the position (default {DEFAULT_CAP})")
    parser.add_argument("--cap-pricing", default="markov", choices=CAP_PRICINGS,
                        help="markov (default): a game stopped at the cap pays what each "
                        "player's Markov policy still guarantees, and the mix secures you "
                        "the most; draw: the cap scores 0 for both")
    parser.add_argument("--rollouts", type=int_in(2), default=ROLLOUTS,
                        help=f"with the blueprint: games per move that value it where the "
                             f"spot is not re-solved (default {ROLLOUTS}; the blueprint's build "
                             "stores what re-solving needs)")
    parser.add_argument("--seed", type=int_in(0), default=0,
                        help="with the blueprint: the seed of those games (default 0)")
    parser.add_argument("--solve", action="store_true",
                        help="solve a spot with two face-down cards each now, rather than "
                        "refuse (it takes over 20 minutes and several GB; the opening is "
                        "shipped solved)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write caches")
    parser.set_defaults(func=run)


def spot(args: argparse.Namespace) -> tuple[str, str]:
    """The position string and deck the arguments name (a position, or a history)."""
    if (args.position is None) == (args.history is None):
        raise InvalidPositionError("give a position or --history (one of the two)")
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


def fits_exact(position: str, deck: str) -> bool:
    """Whether the exact endgame solve prices this position's cap (1v1, 2v1, 1v2); 2v2
    positions go to the blueprint when it is built."""
    return can_price_cap(parse_position(position, deck))


def run(args: argparse.Namespace) -> int:
    try:
        return answer(args)
    except FarolError:
        state = resolvable_spot(args)
        if state is None:
            raise
    advice = advise_state(state)
    print(json.dumps(advice.to_json(), indent=2) if args.json else advice.text())
    return 0


def resolvable_spot(args: argparse.Namespace):
    """The state of a history the re-solve advises (a 2-player turn action, challenge or
    block) when the other ways refused it and no exact solve was asked for; else None."""
    if args.history is None or args.solve:
        return None
    state = spot_from_args(GAME, args, {"deck": args.deck})
    return state if resolve_advice.resolvable(state) else None


def answer(args: argparse.Namespace) -> int:
    """The blueprint's advice, the stored opening's, or the exact endgame solve's."""
    advice = blueprint_advice(args)
    stored = None
    if advice is None:
        position, deck = spot(args)
        advice = stored = stored_advice(position, deck, args.turn_cap, args.cap_pricing)
    if stored is not None:
        out = advice.to_json() | {"stored": stored_note(deck)}
        print(json.dumps(out, indent=2) if args.json else
              f"{advice.text()}\nSolved once and stored: {stored_note(deck)}")
        return 0
    if advice is None:
        check_size(position, deck, args)
        advice = advise(position, deck, args.turn_cap, use_cache=not args.no_cache,
                        cap=args.cap_pricing)
    print(json.dumps(advice.to_json(), indent=2) if args.json else advice.text())
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
    """The blueprint's advice where it answers: a history at any decision, or a position
    the exact solve cannot price (two cards each); ``None`` elsewhere, or when no
    blueprint of the game's deck and setup is built."""
    if args.history is not None:
        state = spot_from_args(GAME, args, {"deck": args.deck})
    else:
        position, deck = spot(args)
        if args.cap_pricing != "markov" or fits_exact(position, deck):
            return None
        state = position_spot(position, deck, "standard", args.seed)
    bp = blueprint_for(state)
    return None if bp is None else advise_spot(state, bp, args.rollouts, args.seed)
