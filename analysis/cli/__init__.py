"""The ``farol`` command: list, play, solve, advise, explore and report."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys

import pyspiel

from analysis import store
from analysis.cli import (
    advise,
    advise_coup,
    cobardes,
    coup,
    explore,
    games,
    goat_lords,
    play,
    report,
    solve,
)
from games.errors import FarolError

# Each module defines register(subparsers), which adds one sub-command.
_COMMANDS = (games, play, solve, report, goat_lords, advise, cobardes, coup, explore)


_NEGATIVE_NUMBER = re.compile(
    r"^-(\.?\d.*|inf|infinity|nan)$", re.IGNORECASE
)


class ArgumentValueError(FarolError):
    """A flag given a value it does not take (argparse's check or a ``type=`` check);
    the message is the whole line, ``farol <command>: error: argument --flag: ...``."""


class FarolParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``farol <command>: error: <what>``
    (exit 2), without the usage text; ``--help`` still prints it. Sub-commands'
    parsers are of this class too (``add_subparsers`` uses the parent's class).

    A bad value of a flag (argparse words these ``argument --flag: ...``) is raised as
    :class:`ArgumentValueError`, so :func:`main` returns 2 as for any other bad input;
    a malformed command line (an unknown option, a missing argument) exits with 2.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # argparse takes only ``-1``/``-.5`` for negative numbers; let ``-1e-3``, ``-5GB``,
        # ``-inf`` and ``-nan`` be values too (no option starts so), so that the checks name
        # the flag and its range instead of argparse saying "expected one argument".
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message: str):  # noqa: D102 (argparse's hook)
        line = f"{self.prog}: error: {message} (see {self.prog} --help)"
        if message.startswith("argument "):
            raise ArgumentValueError(line)
        self.exit(2, line + "\n")


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
    for command in _COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``farol``; returns the exit status (bad input: 2, with one line naming it)."""
    parser = build_parser()
    argv = advise_coup.protect_position(list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(argv)
    except ArgumentValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    # ``--data DIR`` points every study at DIR for this run (restored afterwards, so that
    # in-process callers such as the tests see no lasting change).
    data = store.use(args.data) if args.data else contextlib.nullcontext()
    try:
        with data:
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
