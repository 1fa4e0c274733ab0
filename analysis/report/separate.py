"""When the data separate: the one rule every guide ranks by.

A word that ranks ("most", "least", "more", "less", "strongest", "fairest") is printed
only when the 95% intervals of what it compares do not overlap; an "edge" over a fair
share is called only when its interval leaves the fair share out. Otherwise the text
says there is no clear difference. Where one answer looks at many intervals at once (every
seat of every table), one in twenty leaves its fair value out by chance alone: an edge
among them is called clear only when its interval, widened to the family's level
(Bonferroni's correction), still leaves the fair value out (:func:`clear_among`); and how
many leave it out is set beside what chance alone gives (:func:`by_chance`).

Intervals are judged as the reader sees them: each end rounded to the digits printed
(in percent, or in percentage points), so two intervals that touch once rounded
(``[17, 27]`` and ``[27, 30]``) overlap, and an interval printed as ``[20.0, 21.9]``
does not leave out a fair share printed as ``20.0%``.

Every function takes intervals as ``(low, high)`` in proportions (0.25 is 25%); an item
compared is a mapping or an object with its interval under ``ci`` (or the name given).
The templates call them as Jinja globals (:mod:`analysis.report.guides.common`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

NO_CLEAR = "no clear difference"
DIGITS = 1  # the guides print rates and points to a tenth unless told


def shown(ci: Sequence[float], digits: int = DIGITS) -> tuple[float, float]:
    """An interval's ends as printed, in percent (or points) rounded to ``digits``."""
    return round(100 * ci[0], digits), round(100 * ci[1], digits)


def above(a: Sequence[float], b: Sequence[float], digits: int = DIGITS) -> bool:
    """Whether interval ``a`` lies wholly above ``b`` as printed (they do not touch)."""
    return shown(a, digits)[0] > shown(b, digits)[1]


def apart(a: Sequence[float], b: Sequence[float], digits: int = DIGITS) -> bool:
    """Whether two intervals, as printed, do not overlap."""
    return above(a, b, digits) or above(b, a, digits)


def excludes(ci: Sequence[float], value: float, digits: int = DIGITS) -> bool:
    """Whether an interval, as printed, leaves ``value`` out (an edge over a fair share
    ``value``, a difference from 0)."""
    lo, hi = shown(ci, digits)
    v = round(100 * value, digits)
    return v < lo or v > hi


def compared(a: Sequence[float], b: Sequence[float], more: str = "more", less: str = "less",
             same: str = NO_CLEAR, digits: int = DIGITS) -> str:
    """How ``a`` stands to ``b``: ``more`` when its interval lies above, ``less`` below,
    else ``same`` (no clear difference)."""
    if above(a, b, digits):
        return more
    if above(b, a, digits):
        return less
    return same


def interval(item, attr: str = "ci") -> Sequence[float]:
    return item[attr] if isinstance(item, Mapping) else getattr(item, attr)


def top(items: Iterable, digits: int = DIGITS, attr: str = "ci"):
    """The item whose interval lies above every other's (the one a "most" may name), or
    None where no item does (or fewer than two are compared)."""
    items = list(items)
    if len(items) < 2:
        return None
    for item in items:
        if all(above(interval(item, attr), interval(o, attr), digits)
               for o in items if o is not item):
            return item
    return None


def bottom(items: Iterable, digits: int = DIGITS, attr: str = "ci"):
    """The item whose interval lies below every other's (a "least"), or None."""
    items = list(items)
    if len(items) < 2:
        return None
    for item in items:
        if all(above(interval(o, attr), interval(item, attr), digits)
               for o in items if o is not item):
            return item
    return None


def contenders(items: Iterable, value: str = "rate", digits: int = DIGITS,
               attr: str = "ci", highest: bool = True) -> list:
    """The items that may be the highest (``highest``) or the lowest: the one with the
    highest (lowest) ``value`` and every item whose interval overlaps its interval, in
    order of ``value``. Every item left out lies clearly below (above) the first."""
    items = sorted(items, key=lambda x: _value(x, value), reverse=highest)
    if not items:
        return []
    first = interval(items[0], attr)
    return [x for x in items if x is items[0] or not apart(interval(x, attr), first, digits)]


def _value(item, name: str) -> float:
    return item[name] if isinstance(item, Mapping) else getattr(item, name)


def absolute(ci: Sequence[float]) -> tuple[float, float]:
    """The interval of the size of a signed quantity (an edge either way): from 0 where
    the interval holds 0, else from its nearer end."""
    lo, hi = ci
    if lo <= 0 <= hi:
        return 0.0, max(-lo, hi)
    return (lo, hi) if lo > 0 else (-hi, -lo)


def by_chance(total: int, level: float = 0.05) -> tuple[float, int]:
    """Of ``total`` 95% intervals around true values, how many leave their value out by
    chance alone: the number expected, and the most that 97.5% of such sets show (more
    than that is more than chance)."""
    from scipy.stats import binom

    return total * level, int(binom.ppf(0.975, total, level))



def clear_among(ci: Sequence[float], value: float, total: int, digits: int = DIGITS) -> bool:
    """Whether an interval, one of ``total`` looked at together, leaves ``value`` out
    beyond what chance alone gives: its 95% interval widened to the family's level (a
    normal interval at 5% / ``total``, Bonferroni's correction), then judged as
    :func:`excludes` judges. With one interval it is :func:`excludes`."""
    from scipy.stats import norm

    lo, hi = ci
    if total <= 1:
        return excludes(ci, value, digits)
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    wide = half * norm.ppf(1 - 0.025 / total) / norm.ppf(0.975)
    return excludes((mid - wide, mid + wide), value, digits)
