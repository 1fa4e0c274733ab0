"""``farol coup``: run the Coup sweeps (endgames, brackets, full game, turn caps, larger
endgames, state-keyed estimates); their results are what ``farol report coup`` reads.
``farol coup match`` plays seeded games between agents and prints their win rates.

Each sweep is resumable: what is on disk already is kept, so an interrupted run resumes
where it stopped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pyspiel

from analysis.cli import bots, coup_balance, coup_blueprint, coup_openings, coup_play_tables
from analysis.cli.lists import comma_list, old_spelling
from analysis.cli.matches import (
    add_common_arguments,
    behind,
    parse_agents,
    print_result,
    show_progress,
)
from analysis.cli.numbers import finite_float, int_in
from analysis.cli.parser import add_examples
from analysis.coup import model
from analysis.coup.model import GAME
from analysis.coup.studies import abstraction, full_game, larger, sweep
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.match import play_match
from analysis.shared import store
from analysis.solve.compile import parse_memory
from games.coup import cards
from games.errors import InvalidParameterError


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="coup_command", metavar="WHAT")
    sub.required = True
    endgames = sub.add_parser("sweep", help="solve every 1v1 endgame not yet on disk")
    add_sweep_arguments(endgames)
    endgames.set_defaults(func=run_sweep)
    add_examples(endgames, "farol coup sweep --caps 1 --coins 0,3,6 --decks ambassador "
                 "--revealed contessa-contessa")
    brackets = sub.add_parser("brackets", help="bounds on the uncapped values (cap payoff -1 and +1)")
    add_bracket_arguments(brackets)
    brackets.set_defaults(func=run_brackets)
    add_examples(brackets, "farol coup brackets --caps 1,2 --pairs 1/7,2/7 --decks ambassador "
                 "--revealed contessa-contessa --max-memory 20GB",
                 "farol coup brackets --caps 1,2 --coins 0,3,6 --decks ambassador")
    full = sub.add_parser("full-game", help="the 2-player game from the deal: sizes and bounds")
    full.add_argument("--budget", type=finite_float(1), default=1e7, help="most histories to compile")
    full.add_argument("--markov", action="store_true",
                      help="price the cap with the whole game's Markov guarantees (caps 1-2; "
                           f"records go to {store.shown(full_game.markov_path())})")
    full.add_argument("--decks", default="ambassador,inquisitor", help="decks, comma-separated")
    full.set_defaults(func=run_full_game)
    add_examples(full, "farol coup full-game --decks ambassador --budget 100000")
    cap = sub.add_parser("cap-study", help="the same endgames at turn caps 1-3")
    cap.set_defaults(func=run_cap_study)
    add_examples(cap, "farol coup cap-study")
    bigger = sub.add_parser("larger", help="2v1, 1v2 and 2v2 endgames as far as they fit")
    bigger.add_argument("--markov", action="store_true",
                        help="bracket the 2v1 and 1v2 uncapped values, the cap priced by "
                             f"Markov guarantees ({store.shown(larger.markov_path())})")
    bigger.add_argument("--budget", type=finite_float(1), default=1.5e7,
                        help="with --markov: most histories to compile (cases found over a "
                             "smaller budget are tried again)")
    bigger.set_defaults(func=run_larger)
    add_examples(bigger, "farol coup larger")
    estimates = sub.add_parser(
        "abstraction", help="state-keyed estimates of uncapped values where brackets are wide")
    add_abstraction_arguments(estimates)
    estimates.set_defaults(func=run_abstraction)
    add_examples(estimates, "farol coup abstraction --decks ambassador --caps 2 --pairs 1/2")
    match = sub.add_parser("match", help="seeded games between agents: each seat's win rate")
    add_match_arguments(match)
    match.set_defaults(func=run_match)
    add_examples(match, "farol coup match --agents honest,bluffer --games 200 --seed 1",
                 "farol coup match --agents fast --players 4 --games 20 --json")
    coup_balance.register(sub)
    coup_blueprint.register(sub)
    coup_openings.register(sub)
    coup_play_tables.register(sub)


# --------------------------------------------------------------------------- option texts
def parse_coins(text: str) -> tuple[int, ...]:
    """``"0-9"`` or ``"0,3,6"`` as a tuple of coin counts (one-line error otherwise)."""
    hint = "write numbers like 0-9 or 0,3,6"
    if "-" in text and "," not in text:
        try:
            lo, hi = (int(x) for x in text.split("-"))
        except ValueError:
            raise InvalidParameterError(f"--coins {text!r}: {hint}") from None
        return tuple(range(lo, hi + 1))
    return comma_list("--coins", text, int, hint=hint)


def parse_revealed(text: str) -> tuple[str, str]:
    """``"duke-captain"`` as the two revealed cards (one-line error otherwise)."""
    revealed = tuple(text.split("-"))
    if len(revealed) != 2:
        raise InvalidParameterError(f"--revealed {text!r}: write two cards, e.g. duke-captain")
    return revealed


def parse_caps(text: str) -> tuple[int, ...]:
    """``"4,8,16,32"`` as increasing turn caps of at least 1 (one-line error otherwise)."""
    caps = comma_list("--caps", text, int, hint="write turn caps like 4,8,16,32")
    if any(c < 1 for c in caps) or list(caps) != sorted(set(caps)):
        raise InvalidParameterError(f"--caps {text!r}: caps must be increasing numbers >= 1")
    return caps


def parse_decks(text: str) -> tuple[str, ...]:
    """``"ambassador,inquisitor"`` as decks (one-line error naming an unknown one)."""
    return comma_list("--decks", text, choices=cards.DECKS)


def parse_pairs(text: str) -> tuple[tuple[int, int], ...]:
    """``"0/0,1/2"`` as (mover, other) coin pairs, each 0-9."""
    hint = "write mover/other coins like 0/0,1/2"
    pairs = comma_list("--pairs", text, lambda p: tuple(int(x) for x in p.split("/")), hint=hint)
    if any(len(p) != 2 or not all(0 <= x <= 9 for x in p) for p in pairs):
        raise InvalidParameterError(f"--pairs {text!r}: {hint}")
    return pairs


# --------------------------------------------------------------------------- sweep
def add_sweep_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``farol coup sweep``."""
    parser.add_argument("--caps", default=str(model.DEFAULT_CAP), help="turn caps, comma-separated")
    parser.add_argument("--coins", default="0-9", help="coin range, e.g. 0,3,6 or 0-9")
    parser.add_argument("--decks", default=",".join(cards.DECKS), help="decks, comma-separated")
    parser.add_argument("--revealed", default="-".join(model.MAIN_REVEALED),
                        help="mover's and other's revealed card, e.g. contessa-contessa")
    parser.add_argument("--workers", type=int_in(1), default=2, help="processes in parallel")
    parser.add_argument("--cap-pricing", default="draw", choices=("draw", "markov"),
                        help="draw (default): the cap scores 0; markov: the cap pays the "
                             "Markov guarantees and the study walks each player's safe "
                             f"strategy (records go to {store.shown(model.priced_dir())} "
                             "unless --directory)")
    parser.add_argument("--directory", default=None,
                        help=f"where the records go (one JSON file per endgame; default "
                             f"{store.shown(model.endgames_dir())})")


def run_sweep(args: argparse.Namespace) -> int:
    """``farol coup sweep``: solve the endgames the options describe."""
    coins = parse_coins(args.coins)
    caps = list(comma_list("--caps", args.caps, int, hint="write numbers like 4,8,16"))
    revealed = parse_revealed(args.revealed)
    decks = parse_decks(args.decks)
    endgames = [eg for cap in caps for eg in sweep.grid(coins, decks, revealed, cap)]
    priced = args.cap_pricing == "markov"
    default = model.priced_dir() if priced else model.endgames_dir()
    directory = Path(args.directory) if args.directory else default
    records = sweep.sweep(endgames, directory, args.workers, priced=priced)
    print(f"{len(records)} endgames in {store.shown(directory)}")
    return 0


# --------------------------------------------------------------------------- brackets
def add_bracket_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``farol coup brackets``."""
    parser.add_argument("--caps", default="1,2,3", help="turn caps, comma-separated")
    parser.add_argument("--coins", default="0-9", help="coin range, e.g. 0,3,6 or 0-9")
    parser.add_argument("--pairs", default=None,
                        help="only these mover/other coin pairs, e.g. 1/7,2/7 (instead of "
                             "--coins)")
    parser.add_argument("--decks", default=",".join(cards.DECKS), help="decks, comma-separated")
    parser.add_argument("--revealed", default="-".join(model.MAIN_REVEALED),
                        help="the two revealed cards, e.g. contessa-contessa")
    parser.add_argument("--limit", type=int_in(0), default=0,
                        help="solve at most this many endgames per cap (in --order)")
    parser.add_argument("--order", default="widest",
                        help="widest: the widest brackets at lower caps first (default); "
                             "narrowest: only the still open ones, narrowest first (the "
                             "likeliest to close); with the default directories both "
                             "pricings' brackets count")
    parser.add_argument("--decisive-coup", action="store_true",
                        help="compile with winning Coups played (exact; far smaller trees "
                             "where a player has 7+ coins)")
    parser.add_argument("--markov", action="store_true",
                        help="the cap pays each player's Markov guarantee instead of a loss "
                             "or a win (still rigorous, far tighter; implies --decisive-coup; "
                             f"records go to {store.shown(model.markov_brackets_dir())} "
                             "unless --directory)")
    parser.add_argument("--workers", type=int_in(1), default=2, help="processes in parallel")
    parser.add_argument("--max-memory", metavar="SIZE", default=None,
                        help="each compile's memory budget, e.g. 20GB (default: half of the "
                             "available memory; an endgame over it is skipped)")
    parser.add_argument("--directory", default=None,
                        help=f"where the records go (one JSON file per endgame and cap; "
                             f"default {store.shown(model.brackets_dir())})")


def run_brackets(args: argparse.Namespace) -> int:
    """``farol coup brackets``: the bracket sweep the options describe, cap by cap."""
    coins = parse_coins(args.coins)
    caps = sorted(comma_list("--caps", args.caps, int, hint="write numbers like 1,2,3"))
    revealed = parse_revealed(args.revealed)
    max_memory = parse_memory(args.max_memory)
    if args.order not in sweep.ORDERS:
        raise InvalidParameterError(f"--order {args.order!r}: choose widest or narrowest")
    plain, markov = model.brackets_dir(), model.markov_brackets_dir()
    directory = Path(args.directory) if args.directory else (markov if args.markov else plain)
    # With the default directories the order counts the other pricing's brackets too: an
    # endgame one of them has closed needs no more.
    also = None if args.directory else (plain if args.markov else markov)
    pairs = set(parse_pairs(args.pairs)) if args.pairs else None
    total = sweep.bracket_caps(caps, directory, coins=coins, pairs=pairs,
                               decks=parse_decks(args.decks), revealed=revealed,
                               order=args.order, also=also, limit=args.limit,
                               workers=args.workers, decisive=args.decisive_coup,
                               markov=args.markov, max_memory=max_memory)
    print(f"{total} brackets in {store.shown(directory)}")
    return 0


# --------------------------------------------------------------------------- full game, caps, larger
def run_full_game(args: argparse.Namespace) -> int:
    """``farol coup full-game``: the capped 2-player games from the deal."""
    decks = parse_decks(args.decks)
    if args.markov:
        rows = full_game.run_markov(decks=decks, budget=int(args.budget), progress=True)
        print(f"{len(rows)} full-game rows in {store.shown(full_game.markov_path())}")
        return 0
    rows = full_game.run(decks=decks, budget=int(args.budget))
    print(f"{len(rows)} full-game rows in {store.shown(full_game.rows_path())}")
    return 0


def run_cap_study(args: argparse.Namespace) -> int:
    """``farol coup cap-study``: the same endgames at turn caps 1-3."""
    rows = sweep.cap_study_sweep()
    print(f"{len(rows)} cap-study rows in {store.shown(sweep.cap_study_path())}")
    return 0


def run_larger(args: argparse.Namespace) -> int:
    """``farol coup larger``: 2v1, 1v2 and 2v2 endgames."""
    if args.markov:
        rows = larger.run_markov(budget=int(args.budget))
        print(f"{len(rows)} larger-endgame rows in {store.shown(larger.markov_path())}")
        return 0
    rows = larger.run()
    print(f"{len(rows)} larger-endgame rows in {store.shown(larger.rows_path())}")
    return 0


# --------------------------------------------------------------------------- abstraction
def add_abstraction_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``farol coup abstraction``."""
    parser.add_argument("--decks", default=",".join(cards.DECKS), help="decks, comma-separated")
    parser.add_argument("--deck", dest="decks", help=argparse.SUPPRESS,
                        action=old_spelling("--decks (a comma list)"))
    parser.add_argument("--keys", default="plain",
                        help="the abstraction: plain (state keys) or memory (with claim memory; "
                             f"default caps {','.join(map(str, abstraction.MEMORY_CAPS))}, "
                             f"written to {store.shown(abstraction.records_dir('memory'))})")
    parser.add_argument("--caps", default=None,
                        help="turn caps to try in order (default 4,8,16,32; memory keys 4,5,6)")
    parser.add_argument("--pairs", default=",".join(f"{a}/{b}" for a, b in abstraction.SCOPE_PAIRS),
                        help="mover/other coin pairs (those with a converged bracket are skipped)")
    parser.add_argument("--jobs", type=int, default=1, help="processes in parallel")
    parser.add_argument("--directory", default=None,
                        help=f"where the records go (default {store.shown(abstraction.records_dir())}, "
                             f"memory keys {store.shown(abstraction.records_dir('memory'))})")


def run_abstraction(args: argparse.Namespace) -> int:
    """``farol coup abstraction``: the state-keyed estimates the options describe."""
    decks = parse_decks(args.decks)
    keys = abstraction.check_keys(args.keys, "--keys")
    caps = (parse_caps(args.caps) if args.caps
            else abstraction.MEMORY_CAPS if keys == "memory" else abstraction.CAPS)
    directory = Path(args.directory) if args.directory else abstraction.records_dir(keys)
    pairs = parse_pairs(args.pairs)
    endgames = abstraction.scope(decks, pairs)
    if args.jobs < 1:
        raise InvalidParameterError(f"--jobs {args.jobs}: at least 1")
    records = abstraction.sweep(endgames, directory, caps, args.jobs, keys=keys)
    shown = args.directory or store.shown(directory)
    print(f"{len(records)} state-keyed estimates ({keys} keys) in {shown}")
    return 0


# --------------------------------------------------------------------------- match
# Agents that play 2-player endgame positions only (a match starts from the deal).
ENDGAME_ONLY = ("solved",)


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``farol coup match``."""
    names = ", ".join(spec.name for spec in bots.bots_for(GAME) if spec.name not in ENDGAME_ONLY)
    add_common_arguments(parser, f"one agent per seat, or one agent for every seat ({names})")
    parser.add_argument("--players", type=int_in(cards.MIN_PLAYERS, cards.MAX_PLAYERS),
                        default=cards.MIN_PLAYERS,
                        help=f"players at the table (2-{cards.MAX_PLAYERS}; 7-8 play with 4 "
                             "copies of each character; default 2)")
    parser.add_argument("--deck", choices=cards.DECKS, default="ambassador",
                        help="ambassador (default) or inquisitor")
    parser.add_argument("--setup", choices=cards.SETUPS, default=None,
                        help="2 players only: basic (default; the first player starts with 1 "
                             "coin), standard (2 coins each) or draft (each picks a card)")
    parser.add_argument("--duplicate", action="store_true",
                        help="duplicate deals: play each shuffled deal once in every rotation "
                             "of the seats, each agent keeping its cards while the seats turn "
                             "round it and the court giving the same cards, so the luck of the "
                             "deal falls on every seat alike; games are rounded up to whole "
                             "deals and the intervals are over deals")


def run_match(args: argparse.Namespace) -> int:
    """``farol coup match``: play the games and print each seat's win rate."""
    agents = parse_agents(args.agents)
    for name in agents:
        if name in ENDGAME_ONLY:
            raise InvalidParameterError(
                f"--agents {name}: that agent plays 2-player endgame positions only (farol "
                "advise coup, farol play); a match starts from the deal")
    if len(agents) == 1:
        agents = agents * args.players
    if len(agents) != args.players:
        raise InvalidParameterError(
            f"--agents names {len(agents)} agents for {args.players} players: give one agent "
            f"per seat, or one agent for every seat")
    if args.setup is not None and args.players != 2:
        raise InvalidParameterError(
            f"--setup {args.setup}: the setups are for 2 players only; with {args.players} "
            f"players leave it out")
    params = {"players": args.players, "deck": args.deck}
    if args.players == 2:
        params["two_player_setup"] = args.setup or "basic"
    result = play_match(GAME, agents, args.games, args.seed, params, workers=args.workers,
                        progress=show_progress(), build=bots.build,
                        deal=deal_chance if args.duplicate else None)
    print_result(result, args.json, *behind(agents, pyspiel.load_game(GAME, params)))
    return 0
