"""Heatmap cells a reader can read: text in black or white, whichever contrasts more
with the cell's colour, and blank cells hatched and explained rather than left empty.
Shared by the SVG heatmaps (``svg``) and the matplotlib charts of the appendices."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from matplotlib.patches import Patch, Rectangle

BLANK_FILL = "0.93"
BLANK_EDGE = "0.55"


def luminance(rgb: Sequence[float]) -> float:
    """Relative luminance (WCAG) of an sRGB colour with channels in [0, 1]."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink(rgb: Sequence[float]) -> str:
    """Black or white, whichever contrasts more with the fill ``rgb``."""
    lum = luminance(rgb)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def annotate(ax, image, data, fmt: Callable[[float], str], *, fontsize: float = 8,
             blank: str | None = None) -> bool:
    """Write each finite cell of ``data`` (drawn by ``ax.imshow`` as ``image``) in a
    readable ink; hatch the NaN cells and, if ``blank`` says what they mean, add it to
    the legend under the axes. Returns whether any cell was blank."""
    data = np.asarray(data, dtype=float)
    blanks = []
    for (r, c), v in np.ndenumerate(data):
        if np.isfinite(v):
            rgb = image.cmap(image.norm(v))
            ax.text(c, r, fmt(v), ha="center", va="center", fontsize=fontsize, color=ink(rgb))
        else:
            blanks.append((r, c))
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=BLANK_FILL,
                                   edgecolor=BLANK_EDGE, hatch="///", lw=0.0))
    if blanks and blank:
        ax.legend(handles=[Patch(facecolor=BLANK_FILL, edgecolor=BLANK_EDGE, hatch="///",
                                 label=blank)],
                  loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False,
                  fontsize=fontsize + 1)
    return bool(blanks)
