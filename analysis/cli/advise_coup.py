"""``farol advise coup POSITION``: the mix and value of the player to move in a Coup endgame."""

from __future__ import annotations

import argparse
import json

from analysis.cli.numbers import int_in
from analysis.coup.advise import CAP_PRICINGS, DEFAULT_CAP, advise
from games.coup import cards as C


def protect_position(argv: list[str]) -> list[str]:
    """``argv`` with a Coup position that starts with ``-`` (player 0 out, e.g.
    ``-/duke+captain/0;?/contessa/2;move:1``) moved after ``--``, so argparse reads it as
    the position rather than as an unknown option. Only ``advise coup`` is touched; a
    position is told from an option by its ``/`` (options hold none)."""
    for i in range(len(argv) - 1):
        if argv[i] == "advise" and argv[i + 1] == "coup":
            rest = argv[i + 2 :]
            if "--" in rest:
                return argv
            positions = [a for a in rest if a.startswith("-") and "/" in a and "=" not in a]
            if len(positions) != 1:
                return argv
            rest.remove(positions[0])
            return argv[: i + 2] + rest + ["--", positions[0]]
    return argv


def add_advise_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "coup", help="equilibrium mix and value of the player to move in a Coup endgame",
        description=__doc__.splitlines()[0])
    parser.add_argument("position", help="e.g. 'duke/contessa/3;?/contessa/0;move:0' (your "
                        "face-down cards by name, the opponent's as ?)")
    parser.add_argument("--deck", default="ambassador", choices=C.DECKS)
    parser.add_argument("--turn-cap", type=int_in(1), default=DEFAULT_CAP,
                        help=f"turns solved from the position (default {DEFAULT_CAP})")
    parser.add_argument("--cap-pricing", default="markov", choices=CAP_PRICINGS,
                        help="markov (default): a game stopped at the cap pays what each "
                        "player's Markov policy still guarantees, and the mix secures you "
                        "the most; draw: the cap scores 0 for both")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write caches")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    advice = advise(args.position, args.deck, args.turn_cap, use_cache=not args.no_cache,
                    cap=args.cap_pricing)
    print(json.dumps(advice.to_json(), indent=2) if args.json else advice.text())
    return 0

