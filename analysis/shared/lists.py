"""Comma lists, read one way everywhere: the command line's list options, the explorer's
game parameters and the positions users type (``--mine 0,1,2``)."""

from __future__ import annotations

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
