"""How much the Goat Lords answers depend on the assumed point values."""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.plan import VALUE_SETS, budget
from analysis.goat_lords.studies.statistics import (
    duel_success,
    game_length,
    pct,
    seat_win_rates,
    wild_worth,
)
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import results


def sensitivity_section(ctx: ReportContext) -> str:
    res = results(ctx)["sensitivity"]
    names = list(VALUE_SETS)
    lines = ["## How much the answers depend on the assumed point values\n",
             "The same questions with all-greedy tables under other value sets (the greedy bot "
             "plays by the values, so its play changes too). Value sets, listed as "
             "wilds (Goat Lord/Goatini) / Goat-a-Corn / the nine other goats:\n"]
    for name in names:
        v = VALUE_SETS[name]
        lines.append(f"- **{name}**: {v[0]}/{v[1]} / {v[2]} / {', '.join(map(str, v[3:]))}")
    lines += ["", "| values | players | games | seat 0 − fair | attacker wins | win rate per extra wild | turns |",
              "|---|---|---|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    for n in budget(ctx.quick).sensitivity_players:
        xs, ys, los, his = [], [], [], []
        for i, name in enumerate(names):
            found = [(e, df) for e, df in res if e.label == name and e.players == n and not df.empty]
            if not found:
                continue
            exp, df = found[0]
            rates = seat_win_rates(df).set_index("seat").loc[0]
            d = duel_success(df)
            w = wild_worth(df)
            g = game_length(df)
            fair = 1.0 / n
            lines.append(
                f"| {name} | {n} | {len(df)} | {100 * (rates.win_rate - fair):+z.1f} pp "
                f"[{100 * (rates.lo - fair):+z.1f}, {100 * (rates.hi - fair):+z.1f}] | "
                f"{pct(d['attacker_rate'], d['lo'], d['hi'])} | "
                f"{100 * w['win'][0]:+z.1f} pp [{100 * w['win'][1]:+z.1f}, {100 * w['win'][2]:+z.1f}] | {g['turns']:z.1f} |"
            )
            xs.append(i + (n - 3) * 0.08)
            ys.append(100 * w["win"][0])
            los.append(100 * (w["win"][0] - w["win"][1]))
            his.append(100 * (w["win"][2] - w["win"][0]))
        if xs:
            ax.errorbar(xs, ys, yerr=[los, his], fmt="o", capsize=3, label=f"{n} players")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_ylabel("win rate per extra wild (pp)")
    ax.set_xlabel("point values assumed")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.legend(fontsize=8)
    ax.set_title("Worth of a wild under other point values")
    path = ctx.save_figure(fig, "value_sensitivity")
    plt.close(fig)
    lines.append(f"\nSeed {res[0][0].seed if res else ''}. ![Sensitivity]({path})")
    return "\n".join(lines)
