"""Table cells and figures shared by the Coup report's sections."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.coup.solvers.endgames import SOLVER
from analysis.report.cells import annotate
from analysis.report.context import ReportContext
from analysis.report.markdown import number


def solver_note(df) -> str:
    return (f"{SOLVER}; {int(df['iterations'].min())}-{int(df['iterations'].max())} iterations; "
            f"exploitability at most {df['exploitability'].max():z.1e}")


def fmt(x, spec=".3f") -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "–"
    return number(x, spec)  # never a negative zero


def heatmaps(ctx: ReportContext, df, column: str, title: str, stem: str, cmap: str,
             vmin: float, vmax: float, blank: str = "not solved") -> str:
    """One coins-by-coins heatmap of ``column`` per deck, every cell labelled."""
    decks = sorted(df["deck"].unique())
    fig = Figure(figsize=(6.4 * len(decks), 5.6))
    for i, deck in enumerate(decks):
        ax = fig.add_subplot(1, len(decks), i + 1)
        grid = df[df["deck"] == deck].pivot_table(index="mover", columns="other", values=column)
        im = ax.imshow(grid.values, origin="lower", cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_xticks(range(len(grid.columns)), grid.columns)
        ax.set_yticks(range(len(grid.index)), grid.index)
        ax.set_xlabel("other player's coins")
        ax.set_ylabel("coins of the player to move")
        ax.set_title(f"{title}: {deck}")
        annotate(ax, im, grid.values, lambda v: f"{v:z.2f}", fontsize=8, blank=blank)
        fig.colorbar(im, ax=ax, shrink=0.8)
    return ctx.save_figure(fig, stem)


def win_cell(r, bold: bool = True) -> str:
    """A tightest bracket as a table cell: one number (bold) where it has converged."""
    if r.width <= 1e-3:
        mid = f"{(r.lower_win + r.upper_win) / 2:z.3f}"
        return f"**{mid}**" if bold else mid
    digits = 3 if r.width < 0.02 else 2  # three decimals where two would hide the gap
    return f"{r.lower_win:z.{digits}f}-{r.upper_win:z.{digits}f}"




def solve_cells(r: dict) -> str:
    # The two solves' larger iteration count and exploitability, as two table cells.
    return (f"{max(r.low['iterations'], r.high['iterations'])} | "
            f"{max(r.low['exploitability'], r.high['exploitability']):z.1e} |")


def span(values) -> str:
    """``lo-hi`` to two decimals, or one number when they print the same."""
    values = list(values)
    lo, hi = f"{min(values):z.2f}", f"{max(values):z.2f}"
    return lo if lo == hi else f"{lo}-{hi}"
