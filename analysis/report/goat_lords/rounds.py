"""How a round plays out: duel success for attacker and defender, and round length."""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.statistics import duel_success, game_length
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords.results import results
from analysis.report.templating import fill


def duel_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    rows = []
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for label in ("greedy", "random"):
        xs, ps, los, his = [], [], [], []
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            d = duel_success(df)
            rows.append({"players": exp.players, "label": label, "games": len(df), "duels": d})
            xs.append(exp.players)
            ps.append(d["attacker_rate"])
            los.append(d["attacker_rate"] - d["lo"])
            his.append(d["hi"] - d["attacker_rate"])
        if xs:
            ax.errorbar(xs, ps, yerr=[los, his], fmt="o-", capsize=3, label=f"{label} tables")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("players")
    ax.set_ylabel("attacker win rate")
    ax.legend(fontsize=8)
    path = ctx.save_figure(fig, "duel_success")
    plt.close(fig)
    return fill("goat_lords/appendix/duels.md.j2", rows=rows,
                seed=res[0][0].seed if res else "", chart=path)


def length_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    rows = [{"players": exp.players, "label": exp.label, "games": len(df),
             "length": game_length(df)} for exp, df in res if not df.empty]
    return fill("goat_lords/appendix/length.md.j2", rows=rows)
