"""The one Markdown-table helper of the reports, and the number formats the guides share."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


def cell(value: object) -> str:
    """A value as a table cell: pipes escaped, no line breaks."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table (no trailing newline); every row must have len(headers) cells."""
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
             "|" + "---|" * len(headers)]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"a row of {len(row)} cells under {len(headers)} headers")
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def number(value: float, spec: str) -> str:
    """``value`` formatted by ``spec`` (Python's format mini-language, e.g. ``+.2f``), never
    as a negative zero: a value that rounds to zero is shown ``0.00`` (``+0.00`` signed)."""
    match = re.fullmatch(r"([<>^=]?[+ -]?)z?(.*)", spec)
    try:
        return format(value, f"{match.group(1)}z{match.group(2)}")
    except ValueError:  # an integer's format (``,``, ``d``): it has no negative zero
        return format(value, spec)


def pct(rate: float, digits: int = 1) -> str:
    """A probability as a percentage, e.g. ``52.3%``."""
    return f"{100 * rate:z.{digits}f}%"


def pct_ci(rate: float, ci: Sequence[float], digits: int = 1) -> str:
    """A probability with its 95% interval, e.g. ``52.3% [51.0, 53.6]``."""
    return f"{pct(rate, digits)} [{100 * ci[0]:z.{digits}f}, {100 * ci[1]:z.{digits}f}]"


def pp(delta: float, ci: Sequence[float] | None = None) -> str:
    """A difference of probabilities in percentage points, e.g. ``+0.5 pp [-1.3, +2.3]``."""
    text = f"{100 * delta:+z.1f} pp"
    return text if ci is None else f"{text} [{100 * ci[0]:+z.1f}, {100 * ci[1]:+z.1f}]"
