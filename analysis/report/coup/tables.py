"""The solver note and the coins-by-coins heatmaps shared by the Coup report's sections
(their table cells are macros of templates/coup/appendix/macros.md.j2)."""

from __future__ import annotations

from matplotlib.figure import Figure

from analysis.coup.solvers.endgames import SOLVER
from analysis.report.cells import annotate
from analysis.report.context import ReportContext


def solver_note(df) -> str:
    return (f"{SOLVER}; {int(df['iterations'].min())}-{int(df['iterations'].max())} iterations; "
            f"exploitability at most {df['exploitability'].max():z.1e}")


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
