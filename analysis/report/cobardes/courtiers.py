"""Courtier matchups, the hypothetical mirror battles and the war by score."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.cobardes.solvers.war import solve_war, value_table
from analysis.cobardes.studies import balance, sweep
from analysis.report.cells import annotate
from analysis.report.cobardes.common import EXACT, army_text, battle_spec, heatmap
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes.stored import load_renewal
from analysis.report.templating import fill, render
from analysis.shared import store
from games.cobardes import cards as C


def courtier_section(ctx: ReportContext) -> str:
    shown_tables = balance.courtier_tables(mirrors=True)
    tables = {k: balance.without_diagonal(t) for k, t in shown_tables.items()}
    battle, war_win = tables["battle"], tables["war_win"]
    n_battle = int(battle.notna().to_numpy().sum())
    n_war = int(war_win.notna().to_numpy().sum())
    n_mirror = int(np.isfinite(np.diag(shown_tables["war_win"].to_numpy(dtype=float))).sum())
    folder = store.shown(sweep.pairings_dir())
    if n_battle == 0:
        return fill("cobardes/appendix/courtiers.md.j2", battles=0, folder=folder)
    battle_chart = heatmap(ctx, shown_tables["battle"], "courtier_battle", "Battle value for "
                           "player 0 (win 1, crown 3, draw 0)", "battle value", vmin=-1.5,
                           vmax=1.5, hypothetical_diagonal=True,
                           diagonal="mirror battle not solved")
    war_chart, mirror, keep = "", "", None
    if n_war:
        war_chart = heatmap(ctx, shown_tables["war_win"], "courtier_war", "Player 0's "
                            "probability of winning the war from 0-0", "P(win war)",
                            cmap="RdBu", vmin=0, vmax=1, fmt="{:.2f}",
                            hypothetical_diagonal=True, diagonal="mirror battle not solved")
        mirror = mirror_paragraph()
        gain = balance.keep_or_renew(tables["war"])
        if int(gain.notna().to_numpy().sum()) and load_renewal() is None:
            path = heatmap(ctx, gain, "keep_or_renew", "Keep (+) or renew (-) an unused "
                            "courtier: war value gained by keeping it", "war value gain",
                            vmin=-1, vmax=1)
            wins = (gain > 0).sum(axis=1)
            keep = {"chart": path, "counts": [(name, int(wins[name])) for name in wins.index
                                              if gain.loc[name].notna().any()]}
    by_war = n_war == 90
    strength = balance.seat_neutral_strength(tables["war"] if by_war else battle).dropna()
    tiers = [{"tier": t.tier, "name": t.name, "strength": t.strength,
              "kind": "vanguard" if C.is_vanguard(C.courtier_id(t.name)) else "rearguard"}
             for t in balance.tier_list(strength) if np.isfinite(t.strength)]
    none = sweep.load_task(sweep.task_path(sweep.pairings_dir(), ("none", "none"), 6, 7, False))
    return fill("cobardes/appendix/courtiers.md.j2", battles=n_battle, wars=n_war,
                mirrors=n_mirror, folder=folder, exact=EXACT, battle_chart=battle_chart,
                war_chart=war_chart, mirror=mirror, keep=keep, by_war=by_war, tiers=tiers,
                warriors_only=None if none is None else none.battle["value"])


def mirror_paragraph() -> str:
    """The hypothetical mirror matchups: a table and what their symmetry shows."""
    table = balance.mirror_table()
    rear = table[table["kind"] == "rearguard"] if not table.empty else table
    return "\n" + render(
        "cobardes/appendix/mirrors.md.j2", rows=list(table.iterrows()), exact=EXACT,
        rear_largest=rear[["battle", "war"]].abs().to_numpy().max() if len(rear)
        else float("nan"),
        broken=[n for n, r in table.iterrows() if abs(r["p0"] + r["p1"]) > 1e-6])


def war_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
    war = solve_war(warriors=spec.warriors, combats=spec.combats)
    table = value_table(war)
    examples = []
    for pairing in (("Squire", "Archer"), ("Royal Guard", "Maiden"), ("Wolf", "Inquisitor")):
        data = sweep.load_results([pairing], 6, 7, war=True).get(pairing)
        if data is not None:
            examples.append((pairing, data))
    fig, axes = plt.subplots(1, 1 + len(examples), figsize=(4 * (1 + len(examples)), 3.6))
    axes = np.atleast_1d(axes)

    def draw(ax, t, title):
        image = ax.imshow((1 + t) / 2, cmap="RdBu", vmin=0, vmax=1)
        annotate(ax, image, (1 + t) / 2, lambda v: f"{v:z.2f}", fontsize=9)
        ax.set_xticks(range(3), [f"P1: {b}" for b in range(3)])
        ax.set_yticks(range(3), [f"P0: {a}" for a in range(3)])
        ax.set_xlabel("battles won by player 1")
        ax.set_ylabel("battles won by player 0")
        ax.set_title(title, fontsize=9)

    draw(axes[0], table, f"warriors only ({army_text(spec)})")
    for ax, (pairing, data) in zip(axes[1:], examples, strict=True):
        t = np.zeros((3, 3))
        for key, s in data.war["scores"].items():
            a, b = (int(x) for x in key.split("-"))
            t[a, b] = s["value"]
        draw(ax, t, f"{pairing[0]} vs {pairing[1]}")
    path = ctx.save_figure(fig, "war_by_score")
    plt.close(fig)
    return fill("cobardes/appendix/war.md.j2", army=army_text(spec), exact=EXACT,
                solves=sum(s.solves for s in war.scores.values()),
                scores=sorted(war.scores.items()), chart=path)
