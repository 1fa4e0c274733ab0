"""The command line's one vocabulary for lists and game parameters.

Every option that takes several values takes them as one comma list (``--decks
ambassador,inquisitor``), read by :func:`comma_list`; game parameters are given as
``--param K=V``, repeated for each. An option that used to be spelled otherwise keeps
working through :func:`old_spelling`, which says the new spelling in one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from games.errors import FarolError, InvalidParameterError

T = TypeVar("T")


def comma_list(flag: str, text: str, item: Callable[[str], T] = str, *,
               choices: Sequence[str] | None = None, hint: str | None = None,
               empty_ok: bool = False) -> tuple[T, ...]:
    """The values of the comma list ``text`` given to option ``flag``, each stripped of
    spaces and converted by ``item`` (``empty_ok``: empty values are left out).

    Raises
    ------
    InvalidParameterError
        In one line naming ``flag``: for an empty value or one ``item`` refuses (with
        ``hint``, how to write the list), or a value not among ``choices``.
    """
    words = [word.strip() for word in text.split(",")]
    if empty_ok:
        words = [word for word in words if word]
    elif not all(words):
        raise InvalidParameterError(
            f"{flag} {text!r}: " + (hint or "a value is empty; separate values by single commas"))
    if choices is not None:
        bad = [word for word in words if word not in choices]
        if bad:
            raise InvalidParameterError(f"{flag} {bad[0]!r}: choose from {', '.join(choices)}")
    try:
        return tuple(item(word) for word in words)
    except FarolError:
        raise  # ``item`` refused a value in its own words
    except ValueError:
        raise InvalidParameterError(
            f"{flag} {text!r}: " + (hint or "a value cannot be read")) from None


def add_param_argument(parser: argparse.ArgumentParser, help: str = "game parameter") -> None:
    """``--param K=V`` (repeatable), and the older ``--params K=V,...`` for the same list."""
    parser.add_argument("--param", action="append", default=[], metavar="K=V",
                        help=f"{help} (repeat it for each parameter)")
    parser.add_argument("--params", dest="param", metavar="K=V,...", help=argparse.SUPPRESS,
                        action=old_spelling("--param K=V (repeat it for each parameter)",
                                            split=True))


def old_spelling(new: str, split: bool = False) -> type[argparse.Action]:
    """An argparse action for an option's former spelling: it stores the value as the
    new option would (``split``: a comma list appended item by item to the new option's
    list) and says the new spelling in one line on stderr."""

    class OldSpelling(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            print(f"farol: {option_string} is now spelled {new}", file=sys.stderr)
            if split:
                items = comma_list(option_string, values, empty_ok=True)
                setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), *items])
            else:
                setattr(namespace, self.dest, values)

    return OldSpelling
