"""Heatmaps as SVG: every cell annotated in a colour readable on its fill, and a
``<title>`` per cell so a browser shows its full value on hover (no script, no server)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

from matplotlib import colormaps

from analysis.report.cells import ink

CELL_W, CELL_H = 64, 30
FONT = "font-family='DejaVu Sans, Arial, sans-serif'"


def hex_colour(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{round(255 * c):02x}" for c in rgb[:3])


def heatmap(values: Sequence[Sequence[float | None]], rows: Sequence[str], cols: Sequence[str], *,
            title: str, xlabel: str, ylabel: str, fmt: Callable[[float], str],
            hover: Callable[[int, int, float], str], vmin: float, vmax: float,
            cmap: str = "viridis", blank: str = "not measured") -> str:
    """An SVG heatmap; ``None`` (or NaN) cells are left blank and say ``blank`` on hover."""
    colour = colormaps[cmap]
    left = 14 + 7 * max(len(r) for r in rows) + 24
    # Column labels too long for a cell are slanted, and the header grows to hold them.
    slant = max(len(c) for c in cols) * 7 > CELL_W - 6
    top = 60 + (int(5 * max(len(c) for c in cols)) if slant else 0)
    width = left + CELL_W * len(cols) + 16 + (40 if slant else 0)
    width = max(width, int(8.6 * len(title)) + 20)  # room for the title
    height = top + CELL_H * len(rows) + 44
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
           f"viewBox='0 0 {width} {height}' role='img' aria-label='{escape(title)}'>",
           f"<title>{escape(title)}</title>",
           f"<text x='{width / 2:z.0f}' y='18' text-anchor='middle' font-size='15' "
           f"font-weight='bold' {FONT}>{escape(title)}</text>",
           f"<text x='{left + CELL_W * len(cols) / 2:z.0f}' y='38' text-anchor='middle' "
           f"font-size='13' {FONT}>{escape(xlabel)}</text>"]
    for j, name in enumerate(cols):
        x = left + CELL_W * j + CELL_W / 2
        turn = f" transform='rotate(-40 {x:z.0f} {top - 6})'" if slant else ""
        out.append(f"<text x='{x:z.0f}' y='{top - 6}' text-anchor='{'start' if slant else 'middle'}' "
                   f"font-size='12'{turn} {FONT}>{escape(name)}</text>")
    for i, name in enumerate(rows):
        y = top + CELL_H * i
        out.append(f"<text x='{left - 6}' y='{y + CELL_H / 2 + 4:z.0f}' text-anchor='end' "
                   f"font-size='12' {FONT}>{escape(name)}</text>")
        for j, value in enumerate(values[i]):
            x = left + CELL_W * j
            if value is None or (isinstance(value, float) and math.isnan(value)):
                out.append(f"<g><title>{escape(name)}, {escape(cols[j])}: {escape(blank)}</title>"
                           f"<rect x='{x}' y='{y}' width='{CELL_W}' height='{CELL_H}' "
                           "fill='#ffffff' stroke='#bbbbbb'/></g>")
                continue
            span = (vmax - vmin) or 1.0
            rgb = colour(min(1.0, max(0.0, (value - vmin) / span)))
            out.append(f"<g><title>{escape(hover(i, j, value))}</title>"
                       f"<rect x='{x}' y='{y}' width='{CELL_W}' height='{CELL_H}' "
                       f"fill='{hex_colour(rgb)}' stroke='#ffffff'/>"
                       f"<text x='{x + CELL_W / 2:z.0f}' y='{y + CELL_H / 2 + 4:z.0f}' "
                       f"text-anchor='middle' font-size='12' fill='{ink(rgb)}' {FONT}>"
                       f"{escape(fmt(value))}</text></g>")
    out.append(f"<text x='12' y='{top + CELL_H * len(rows) / 2:z.0f}' text-anchor='middle' "
               f"font-size='13' transform='rotate(-90 12 {top + CELL_H * len(rows) / 2:z.0f})' "
               f"{FONT}>{escape(ylabel)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
