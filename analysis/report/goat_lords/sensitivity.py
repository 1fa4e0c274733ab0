"""How much the Goat Lords answers depend on the assumed point values."""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.plan import VALUE_SETS, budget
from analysis.goat_lords.studies.statistics import (
    duel_success,
    game_length,
    seat_win_rates,
    wild_worth,
)
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords.results import results
from analysis.report.templating import fill


def sensitivity_section(ctx: ReportContext) -> str:
    res = results(ctx)["sensitivity"]
    names = list(VALUE_SETS)
    rows = []
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
            rows.append({"name": name, "players": n, "games": len(df), "fair": 1.0 / n,
                         "seat": rates, "duels": d, "wild": w, "turns": g["turns"]})
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
    return fill("goat_lords/appendix/sensitivity.md.j2",
                value_sets=[(name, VALUE_SETS[name]) for name in names], rows=rows,
                seed=res[0][0].seed if res else "", chart=path)
