"""``farol coup openings``: solve the first decision of 2-player Coup once per deck and
setup, and store every hand's advice, so that ``farol advise coup`` answers the opening
at once (analysis/coup/advice/openings.py)."""

from __future__ import annotations

import argparse

from analysis.cli.lists import comma_list
from analysis.cli.numbers import finite_float
from analysis.cli.parser import add_examples
from analysis.coup.advice import openings
from analysis.coup.solvers.position_endgames import TARGET
from analysis.shared import store
from analysis.shared.progress import say
from games.coup import cards as C
from games.errors import InvalidParameterError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("openings", help="solve the 2-player opening once and store "
                            "every hand's advice (each deck and setup: some 6 to 15 minutes and 3 GB)")
    parser.add_argument("--deck", default="ambassador", choices=C.DECKS)
    parser.add_argument("--setups", default="basic", metavar="S,...",
                        help=f"setups, comma-separated, of {', '.join(openings.OPENING_COINS)} "
                        "(default basic)")
    parser.add_argument("--target", type=finite_float(0), default=TARGET,
                        help=f"CFR+ until this exploitability (default {TARGET:zg})")
    parser.add_argument("--minutes", type=finite_float(0), default=None,
                        help="or stop CFR+ after this many minutes (the stored answers carry "
                             "the exploitability reached)")
    parser.set_defaults(func=run)
    add_examples(parser, "farol coup openings --deck inquisitor --setups basic")


def run(args: argparse.Namespace) -> int:
    setups = comma_list("--setups", args.setups)
    for setup in setups:
        if setup not in openings.OPENING_COINS:
            raise InvalidParameterError(f"--setups: {setup!r} is not one of "
                                        f"{', '.join(openings.OPENING_COINS)}")
    seconds = None if args.minutes is None else 60 * args.minutes
    say(f"solving the 2-player opening of the {args.deck} deck ({', '.join(setups)}): some 6 "
        "to 15 minutes and 3 GB a setup unless already solved in the cache; progress follows")
    table = openings.build(args.deck, setups, target=args.target, seconds=seconds)
    path = table.save()
    worst = max(a["exploitability"] for a in table.answers.values())
    print(f"{len(table.answers)} opening answers of the {args.deck} deck, exploitability "
          f"at most {worst:z.2g}; stored {store.shown(path)}")
    return 0
