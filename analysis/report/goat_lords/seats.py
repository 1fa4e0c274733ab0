"""Seat advantage: does the first player win more?"""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.statistics import pct, seat_win_rates
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import results


def seat_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    lines = ["## Seat advantage: does the first player win more?\n",
             "Win rate of each seat (seat 0 moves first) with every seat played by the same bot; "
             "a fair seat wins 1/n of the games.\n",
             "| players | bots | games | seat 0 (first) | seat 1 | last seat | first − fair |",
             "|---|---|---|---|---|---|---|"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, label in zip(axes, ("greedy", "random"), strict=True):
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            rates = seat_win_rates(df)
            n = exp.players
            r = rates.set_index("seat")
            first, second, last = r.loc[0], r.loc[1], r.loc[n - 1]
            lines.append(
                f"| {n} | {label} | {len(df)} | {pct(first.win_rate, first.lo, first.hi)} | "
                f"{pct(second.win_rate, second.lo, second.hi)} | "
                f"{pct(last.win_rate, last.lo, last.hi)} | {100 * (first.win_rate - 1 / n):+z.1f} pp |"
            )
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
    seed = res[0][0].seed if res else ""
    lines.append(f"\nSeed {seed}. ![Seat win rates]({path})")
    return "\n".join(lines)
