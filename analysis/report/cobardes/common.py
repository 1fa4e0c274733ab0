"""Shared pieces of the ¡Cobardes! report: the army solved, chart helpers, the method's
words (the stored results are read by :mod:`analysis.report.facts.cobardes.stored`)."""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis.cobardes.model import BattleSpec
from analysis.report.cells import annotate, ink
from analysis.report.context import ReportContext

EXACT = "exact backward induction (LP per confrontation), exploitability 0"


def battle_spec(ctx: ReportContext) -> BattleSpec:
    # Quick mode (CI, notebooks): a reduced army so everything solves in seconds.
    return BattleSpec(warriors=4, combats=5) if ctx.quick else BattleSpec()


def army_text(spec: BattleSpec) -> str:
    return f"warriors 0-{spec.warriors}, {spec.combats} combats"


def mix_bars(ax, mix: dict, title: str) -> None:
    names = list(mix)
    ax.bar(names, [100 * mix[n] for n in names], color="#4a78a8")
    ax.set_ylabel("% of the time")
    ax.set_xlabel("card played")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, 100)


def heatmap(ctx: ReportContext, table: pd.DataFrame, stem: str, title: str, label: str,
            cmap: str = "RdBu", vmin: float = -1, vmax: float = 1, fmt: str = "{:+z.2f}",
            hypothetical_diagonal: bool = False, diagonal: str = "never dealt") -> str:
    """A matchup heatmap (player 0 in rows), every cell labelled; a blank cell is hatched
    and the legend says why: ``diagonal`` on the diagonal, not solved elsewhere."""
    fig, ax = plt.subplots(figsize=(9, 7.6))
    data = table.to_numpy(dtype=float)
    im = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax)
    if hypothetical_diagonal:
        # Mirror matchups cannot be dealt (one card per courtier): hatched, labelled.
        for i in range(min(data.shape)):
            if np.isfinite(data[i, i]):
                ax.add_patch(plt.Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False,
                                           hatch="///", edgecolor="0.35", lw=0.0))
                ax.text(i, i + 0.32, "hyp.", ha="center", va="center", fontsize=7,
                        color=ink(im.cmap(im.norm(data[i, i]))))
        title += "\n(hatched diagonal: hypothetical mirror battles, never dealt)"
    ax.set_xticks(range(len(table.columns)), table.columns, rotation=45, ha="right")
    ax.set_yticks(range(len(table.index)), table.index)
    ax.set_xlabel("player 1 (columns)")
    ax.set_ylabel("player 0 (rows)")
    missing = ~np.isfinite(data)
    on_diagonal = missing & np.eye(*data.shape, dtype=bool)
    reasons = ([f"{diagonal} (diagonal)"] if on_diagonal.any() else []) \
        + (["not solved yet"] if (missing & ~on_diagonal).any() else [])
    annotate(ax, im, data, fmt.format, fontsize=8, blank="blank: " + "; ".join(reasons))
    fig.colorbar(im, ax=ax, label=label)
    ax.set_title("\n".join(textwrap.fill(line, 72) for line in title.split("\n")), fontsize=10)
    path = ctx.save_figure(fig, stem)
    plt.close(fig)
    return path


def duration_text(seconds: float) -> str:
    """``"27 s"`` under a minute and a half, else ``"4.3 min"``."""
    return f"{seconds:z.0f} s" if seconds < 90 else f"{seconds / 60:z.1f} min"

