"""The ``farol`` command: list, play, solve, advise and report."""

from __future__ import annotations

import argparse
import contextlib
import sys

import pyspiel

from analysis import store
from analysis.cli import advise, cobardes, coup, games, goat_lords, play, report, solve
from games.errors import FarolError

# Each module defines register(subparsers), which adds one sub-command.
_COMMANDS = (games, play, solve, report, goat_lords, advise, cobardes, coup)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="farol",
        description="Farol: a game-theory lab for bluffing card games.",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help=f"folder of stored results, default {store.shown(store.DEFAULT_DATA)} of the "
        f"repository or ${store.DATA_ENV}",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for command in _COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``farol``; returns the exit status (bad input: 2, with one line naming it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # ``--data DIR`` points every study at DIR for this run (restored afterwards, so that
    # in-process callers such as the tests see no lasting change).
    data = store.use(args.data) if args.data else contextlib.nullcontext()
    try:
        with data:
            return int(args.func(args) or 0)
    except (FarolError, pyspiel.SpielError) as exc:
        message = str(exc)
        print(f"farol {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"farol {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
