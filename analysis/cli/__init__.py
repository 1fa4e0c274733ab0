"""The ``farol`` command: list, play, solve, advise, explore and report."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

import pyspiel

from analysis.cli.parser import ArgumentValueError, FarolParser, add_command
from analysis.cli.spots import protect_position
from analysis.shared import store
from analysis.shared.distribute import Stopped, ended_by_signals
from games.errors import FarolError

# Each command: its name, its line in ``farol --help``, and the module under
# analysis/cli/ whose configure(parser) adds its options (imported when it runs).
COMMANDS = (
    ("games", "list the games with their parameters", "games"),
    ("play", "play a game in the terminal against a bot", "play"),
    ("solve", "solve a two-player zero-sum game (CFR+, DCFR, linear CFR)", "solve"),
    ("report", "write the strategy guides, their methods appendices and the website",
     "report"),
    ("goat-lords", "Goat Lords: matches, tournaments and the balance sweep", "goat_lords"),
    ("advise", "equilibrium advice for a position: the mix to play and its value", "advise"),
    ("cobardes", "¡Cobardes!: sweeps of solved battles, abstraction loss", "cobardes"),
    ("coup", "Coup: matches, balance, the blueprint, endgame sweeps", "coup"),
    ("explore", "the strategy explorer in the browser: pick a spot, see the advice",
     "explore"),
    ("whatif", "a designer's what-if: a variant's balance beside the printed rules'",
     "whatif"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = FarolParser(
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
    for name, line, module in COMMANDS:
        add_command(subparsers, name, line, f"analysis.cli.{module}")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``farol``; returns the exit status (bad input: 2, with one line naming it)."""
    parser = build_parser()
    argv = protect_position(list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(argv)
    except ArgumentValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    # ``--data DIR`` points every study at DIR for this run (restored afterwards, so that
    # in-process callers such as the tests see no lasting change).
    data = store.use(args.data) if args.data else contextlib.nullcontext()
    try:
        with data, ended_by_signals():
            status = int(args.func(args) or 0)
            sys.stdout.flush()
            return status
    except BrokenPipeError:
        # The reader went away (``farol games | head -1``): end quietly, as Unix tools do.
        # Python flushes stdout again at exit; point it at devnull so that flush is silent.
        _silence_stdout()
        return 1
    except (FarolError, pyspiel.SpielError) as exc:
        print(f"farol {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except Stopped as stop:
        print(f"farol {args.command}: stopped ({stop})", file=sys.stderr)
        return 128 + stop.signum
    except KeyboardInterrupt:
        print(f"farol {args.command}: interrupted", file=sys.stderr)
        return 130


def one_line(message: str) -> str:
    """``message`` on one line: characters that would break it or that a terminal does not
    print (a user's input echoed back may hold them) are written as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message.strip())


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # no real file descriptor behind stdout (e.g. captured in tests)


if __name__ == "__main__":
    sys.exit(main())
