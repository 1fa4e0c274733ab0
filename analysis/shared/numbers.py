"""Numbers as users read them: signed, to the precision their accuracy supports, and
never a negative zero ("-0", "-0.00")."""

from __future__ import annotations

import math

# Decimals shown for an exact figure (no error to round to).
EXACT_DECIMALS = 4


def decimals_for(error: float, most: int = EXACT_DECIMALS) -> int:
    """How many decimals a figure with absolute ``error`` supports: the first significant
    decimal of the error (0.032 -> 2, 0.0008 -> 4, 0.3 -> 1); ``most`` for an exact one."""
    if not error or error <= 0 or not math.isfinite(error):
        return most
    return max(0, min(most, -math.floor(math.log10(error))))


def signed(x: float, decimals: int = EXACT_DECIMALS) -> str:
    """``x`` with its sign to ``decimals`` decimals, a value that rounds to zero written
    ``+0`` (with its decimals), never ``-0``."""
    text = f"{x:+z.{decimals}f}"
    if float(text) == 0:
        text = "+" + text[1:]
    return text


def signed_g(x: float) -> str:
    """``x`` in the shortest form (``%+g``), never ``-0``."""
    return f"{x + 0.0:+zg}" if x != 0 else "+0"
