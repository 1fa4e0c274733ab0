"""How a round plays out: duel success for attacker and defender, and round length."""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.goat_lords.studies.statistics import duel_success, game_length, pct
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import results


def duel_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    lines = ["## Duels: attacker or defender?\n",
             "Share of duels the attacker wins, and duels per game.\n",
             "| players | bots | games | duels | attacker wins | duels per game |",
             "|---|---|---|---|---|---|"]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for label in ("greedy", "random"):
        xs, ps, los, his = [], [], [], []
        for exp, df in res:
            if exp.label != label or df.empty:
                continue
            d = duel_success(df)
            lines.append(f"| {exp.players} | {label} | {len(df)} | {d['duels']} | "
                         f"{pct(d['attacker_rate'], d['lo'], d['hi'])} | {d['per_game']:z.1f} "
                         f"[{d['per_game_lo']:z.1f}, {d['per_game_hi']:z.1f}] |")
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
    lines.append(f"\nSeed {res[0][0].seed if res else ''}. ![Duel success]({path})")
    return "\n".join(lines)


def length_section(ctx: ReportContext) -> str:
    res = results(ctx)["seats"]
    lines = ["## How long a round lasts\n",
             "Turns per round (a duel is one turn) and decisions per game (duel answers included).\n",
             "| players | bots | games | turns: mean [95%] | median (5%–95%) | decisions | rounds with a reshuffle |",
             "|---|---|---|---|---|---|---|"]
    for exp, df in res:
        if df.empty:
            continue
        g = game_length(df)
        lines.append(f"| {exp.players} | {exp.label} | {len(df)} | {g['turns']:z.1f} [{g['lo']:z.1f}, {g['hi']:z.1f}] | "
                     f"{g['median']:z.0f} ({g['p5']:z.0f}–{g['p95']:z.0f}) | {g['decisions']:z.1f} | "
                     f"{100 * g['reshuffle_rate']:z.1f}% |")
    return "\n".join(lines)
