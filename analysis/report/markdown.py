"""The one Markdown-table helper of the reports, and the number formats the guides share."""

from __future__ import annotations

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


def pct(rate: float, digits: int = 1) -> str:
    """A probability as a percentage, e.g. ``52.3%``."""
    return f"{100 * rate:.{digits}f}%"


def pct_ci(rate: float, ci: Sequence[float], digits: int = 1) -> str:
    """A probability with its 95% interval, e.g. ``52.3% [51.0, 53.6]``."""
    return f"{pct(rate, digits)} [{100 * ci[0]:.{digits}f}, {100 * ci[1]:.{digits}f}]"


def pp(delta: float, ci: Sequence[float] | None = None) -> str:
    """A difference of probabilities in percentage points, e.g. ``+0.5 pp [-1.3, +2.3]``."""
    text = f"{100 * delta:+.1f} pp"
    return text if ci is None else f"{text} [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"
