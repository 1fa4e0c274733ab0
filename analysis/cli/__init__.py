"""The ``farol`` command: list, play, solve, advise and report."""

from __future__ import annotations

import argparse
import sys

import pyspiel

from analysis.cli import advise, cobardes, coup, games, goat_lords, play, report, solve
from games.errors import FarolError

# Each module defines register(subparsers), which adds one sub-command.
_COMMANDS = (games, play, solve, report, goat_lords, advise, cobardes, coup)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="farol",
        description="Farol: a game-theory lab for bluffing card games.",
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
    try:
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
