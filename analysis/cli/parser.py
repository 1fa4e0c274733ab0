"""The ``farol`` command line's parser: one-line errors, and commands filled in lazily.

A command's parser is declared by name and help line, and its module
(``configure(parser)``) is imported only when that command runs: ``farol advise coup``
then loads neither the solver engine nor the reports and their charts.
"""

from __future__ import annotations

import argparse
import importlib
import re

from games.errors import FarolError

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

    ``configure``: a module whose ``configure(parser)`` fills this parser in, imported
    the first time the parser reads a command line (its help included).
    """

    def __init__(self, *args, configure: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._configure = configure
        self.examples: tuple[str, ...] = ()
        # argparse takes only ``-1``/``-.5`` for negative numbers; let ``-1e-3``, ``-5GB``,
        # ``-inf`` and ``-nan`` be values too (no option starts so), so that the checks name
        # the flag and its range instead of argparse saying "expected one argument".
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def parse_known_args(self, args=None, namespace=None):  # noqa: D102 (argparse's)
        self.configure_now()
        return super().parse_known_args(args, namespace)

    def configure_now(self) -> None:
        """Fill this parser in now (its help and its examples), as reading a command line
        would."""
        if self._configure is not None:
            module, self._configure = self._configure, None
            importlib.import_module(module).configure(self)

    def format_help(self) -> str:  # noqa: D102 (argparse's): the help, then its examples
        self.configure_now()
        text = super().format_help()
        if self.examples:
            text += "\nexamples:\n" + "".join(f"  {line}\n" for line in self.examples)
        return text

    def error(self, message: str):  # noqa: D102 (argparse's hook)
        line = f"{self.prog}: error: {message} (see {self.prog} --help)"
        if message.startswith("argument "):
            raise ArgumentValueError(line)
        self.exit(2, line + "\n")


def add_examples(parser: argparse.ArgumentParser, *commands: str) -> None:
    """Show ``commands`` (whole command lines, each run as written by
    ``tests/cli/test_examples.py``) under "examples:" at the end of ``parser``'s help."""
    parser.examples = tuple(commands)


def add_command(subparsers: argparse._SubParsersAction, name: str, help: str,
                module: str) -> argparse.ArgumentParser:
    """A sub-command ``name`` (``help``: its line in the list of commands) whose options
    ``module``'s ``configure(parser)`` adds when the command is parsed."""
    return subparsers.add_parser(name, help=help, configure=module)
