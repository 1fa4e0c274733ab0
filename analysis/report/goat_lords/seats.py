"""Seat advantage: does the first player win more?"""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.statistics import seat_win_rates
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords.results import results
from analysis.report.templating import fill


def seat_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    rows = []
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, label in zip(axes, ("greedy", "random"), strict=True):
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            rates = seat_win_rates(df)
            n = exp.players
            r = rates.set_index("seat")
            first, second, last = r.loc[0], r.loc[1], r.loc[n - 1]
            rows.append({"players": n, "label": label, "games": len(df), "first": first,
                         "second": second, "last": last})
            x = rates["seat"] + (n - 4) * 0.06
            ratio = rates["win_rate"] * n
            ax.errorbar(x, ratio, yerr=[(rates["win_rate"] - rates["lo"]) * n, (rates["hi"] - rates["win_rate"]) * n],
                        fmt="o-", capsize=3, label=f"{n} players")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_title(f"all-{label} tables")
        ax.set_xlabel("seat (0 moves first)")
    for ax in axes:
        ax.set_ylabel("win rate × n  (1 = fair)")
    axes[1].legend(fontsize=7)
    path = ctx.save_figure(fig, "seat_win_rates")
    plt.close(fig)
    return fill("goat_lords/appendix/seats.md.j2", rows=rows,
                seed=res[0][0].seed if res else "", chart=path)
