"""The ``farol`` command: list, play, solve, advise and report."""

from __future__ import annotations

import argparse
import importlib
import sys

import pyspiel

from games.errors import FarolError

# Each module defines register(subparsers), which adds one sub-command.
_COMMAND_MODULES = (
    "analysis.games_command",
    "analysis.play",
    "analysis.solve.command",
    "analysis.report.command",
    "analysis.goat_lords",
    "analysis.advise",
    "analysis.cobardes.command",
    "analysis.coup.command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="farol",
        description="Farol: a game-theory lab for bluffing card games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for module in _COMMAND_MODULES:
        importlib.import_module(module).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``farol``; returns the exit status (bad input: 2, with one line naming it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (FarolError, KeyError, ValueError, pyspiel.SpielError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"farol {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"farol {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
