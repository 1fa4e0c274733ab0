"""Argparse ``type=`` checks for numeric flags: finite numbers and whole numbers in a range.

Each returns a converter that refuses NaN, infinities and values out of range with a
message naming the allowed range; argparse prefixes it with the flag's name.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from analysis.cli.lists import comma_list
from games.errors import InvalidParameterError


def _shown(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:zg}"


def _range_text(lo: float | None, hi: float | None, what: str) -> str:
    if lo is not None and hi is not None:
        return f"{what} from {_shown(lo)} to {_shown(hi)}"
    if lo is not None:
        return f"{what} of at least {_shown(lo)}"
    if hi is not None:
        return f"{what} of at most {_shown(hi)}"
    return what


def finite_float(
    lo: float | None = None, hi: float | None = None, *, above: bool = False
) -> Callable[[str], float]:
    """A converter to a finite float in ``[lo, hi]`` (``(lo, hi]`` with ``above``)."""
    if above:
        wanted = f"a finite number above {_shown(lo)}" + (
            f" and at most {_shown(hi)}" if hi is not None else ""
        )
    else:
        wanted = _range_text(lo, hi, "a finite number")

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes {wanted}, not {text!r}") from None
        if (
            not math.isfinite(value)
            or (lo is not None and (value <= lo if above else value < lo))
            or (hi is not None and value > hi)
        ):
            raise argparse.ArgumentTypeError(f"takes {wanted}, not {text!r}")
        return value

    convert.__name__ = "finite number"
    return convert


def int_in(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A converter to a whole number in ``[lo, hi]`` (either bound may be open)."""
    wanted = _range_text(lo, hi, "a whole number")

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"takes {wanted}, not {text!r}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"takes {wanted}, not {text!r}")
        return value

    convert.__name__ = "whole number"
    return convert



def parse_counts(text: str, lo: int, hi: int, game: str, flag: str = "--players") -> tuple[int, ...]:
    """``"2-8"`` or ``"2,4,6"`` as player counts from ``lo`` to ``hi`` (one-line error
    naming ``game``'s range otherwise)."""
    hint = f"write a range like {lo}-{hi} or a list like {lo},{lo + 2}"
    try:
        if "-" in text:
            first, last = (int(x) for x in text.split("-"))
            counts = tuple(range(first, last + 1))
        else:
            counts = comma_list(flag, text, int, hint=hint)
    except ValueError:
        raise InvalidParameterError(f"{flag} {text!r}: {hint}") from None
    if not counts or any(not lo <= n <= hi for n in counts):
        raise InvalidParameterError(f"{flag} {text!r}: {game} is played by {lo}-{hi} players")
    return counts
