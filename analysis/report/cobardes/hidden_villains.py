"""Villains: named-villain matchups, hidden villains and the abstraction's measured loss,
the full battle with hidden villains."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.cobardes.model import is_mirror
from analysis.cobardes.solvers import subgames, villains
from analysis.cobardes.studies import balance
from analysis.cobardes.studies.hidden_sweep import complete, hidden_matchups, load_hidden
from analysis.report.cobardes import matchup_solve
from analysis.report.cobardes.common import EXACT, heatmap
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes.stored import (
    BENCHMARK_JSON,
    REFINED_KEY_JSON,
    RENEWAL_COMPOSITION_JSON,
    WAR_COMPOSITION_JSON,
    villain_frame,
)
from analysis.report.templating import fill, render
from analysis.shared.store import read_json


def villain_section(ctx: ReportContext) -> str:
    full = balance.villain_table()
    small = balance.villain_table(warriors=4, combats=5)
    table, army = (full, "full armies (warriors 0-6, 7 combats)") \
        if full.notna().to_numpy().sum() >= 72 else (small, "warriors 0-4, 5 combats")
    n = int(table.notna().to_numpy().sum())
    if n == 0:
        return fill("cobardes/appendix/villains.md.j2", pairs=0)
    path = heatmap(ctx, table, "villain_matchups", f"Battle value for player 0, both "
                    f"villains known ({army})", "battle value", vmin=-2, vmax=2,
                    diagonal="each villain exists once")
    return fill("cobardes/appendix/villains.md.j2", pairs=n, army=army, exact=EXACT,
                chart=path, strength=balance.seat_neutral_strength(table).dropna())


def refined_text(path=REFINED_KEY_JSON) -> str:
    """The refined key's measurement (``benchmarks/cobardes_refined_key.py``): the
    Procuress deck's true/within ratio with the coarse key and with the key that also
    remembers the order of the rival's plays while its villain is hidden."""
    if not path.exists():
        return ""
    b = read_json(path)
    rows = [r for r in b["rows"] if "Procuress" in r["deck"]]
    coarse, refined = (next(r for r in rows if r["key"] == k) for k in ("coarse", "refined"))
    others = [r for r in b["rows"] if "Procuress" not in r["deck"] and r["key"] == "refined"]
    return "\n\n" + render("cobardes/appendix/refined_key.md.j2", refined=refined,
                            coarse=coarse, iterations=b["iterations"],
                            helps=b["refined_helps"],
                            worst=max((r["ratio"] for r in others), default=float("nan")))


def war_composition_text(path=WAR_COMPOSITION_JSON, stored: int | None = None) -> str:
    """What composing the war from one solved battle a matchup would cost, measured on
    the villain-free pairings (``benchmarks/cobardes_war_composition.py``); ``stored``:
    the dealt matchups solved with how each battle ends, now (the one count the guide
    gives too; None: not said)."""
    if not path.exists():
        return ""
    return "\n\n" + render("cobardes/appendix/war_composition.md.j2", b=read_json(path),
                            dealt=sum(not is_mirror(p) for p in hidden_matchups()),
                            stored=stored)


def _endings_stored() -> int:
    return sum(map(complete, (r for p, r in load_hidden().items() if not is_mirror(p))))


def renewal_composition_text(path=RENEWAL_COMPOSITION_JSON) -> str:
    """The war with villains and keep-or-renew: the model, and what it misses on the
    villain-free pairings (``benchmarks/cobardes_renewal_composition.py``)."""
    if not path.exists():
        return ""
    return "\n\n" + render("cobardes/appendix/renewal_composition.md.j2", b=read_json(path))


def hidden_section(ctx: ReportContext) -> str:
    measured, worst, procuress_only = [], None, False
    if villains.abstraction_loss_path().exists():
        measured = read_json(villains.abstraction_loss_path())
        worst = max(measured, key=lambda r: r["graph_exploitability_true"]
                    - r["tree_exploitability"])
        others = [r for r in measured if r is not worst]
        procuress_only = "Procuress" in worst["label"] and all(
            r["graph_exploitability_true"] < 10 * max(r["tree_exploitability"], 1e-4)
            for r in others)
    dealt_hidden = None
    cut = _cut_text(ctx)
    if subgames.hidden_villains_path().exists():
        h = read_json(subgames.hidden_villains_path())
        deals = villain_frame(h["table"])
        path = heatmap(ctx, deals, "hidden_villains", f"Battle value for player 0 by the "
                        f"villains dealt, hidden ({h['label']})", "battle value",
                        vmin=-1.5, vmax=1.5, diagonal="each villain exists once")
        dealt_hidden = {"label": h["label"], "provenance": h["provenance"], "chart": path,
                        "strength": balance.seat_neutral_strength(deals).dropna()}
    return fill("cobardes/appendix/hidden.md.j2", measured=measured, worst=worst,
                procuress_only=procuress_only, refined=refined_text(), cut=cut,
                dealt_hidden=dealt_hidden, solve=matchup_solve.text(ctx),
                war=war_composition_text(stored=_endings_stored()),
                renewal=renewal_composition_text(),
                bench=read_json(BENCHMARK_JSON)["lines"] if BENCHMARK_JSON.exists() else [])


def loss_chart(ctx: ReportContext, measured: list[dict], stem: str, title: str) -> str:
    """Bars per deck: the exact tree's exploitability, the state-keyed solution's within
    its abstraction and in the true game (log scale)."""
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(measured) + 1.6))
    y = np.arange(len(measured))
    series = (("tree_exploitability", "exact tree (CFR+)", "0.6"),
              ("graph_exploitability_in_abstraction", "state-keyed, within the abstraction",
               "tab:blue"),
              ("graph_exploitability_true", "state-keyed, in the true game", "tab:red"))
    for k, (field, label, color) in enumerate(series):
        ax.barh(y + (k - 1) * 0.27, [max(r[field], 1e-8) for r in measured], height=0.27,
                color=color, label=label)
    ax.set_xscale("log")
    ax.set_yticks(y, [r["label"].replace(", ", ",\n", 1) for r in measured], fontsize=7)
    ax.invert_yaxis()
    ax.set_ylabel("reduced deck")
    ax.set_xlabel(f"exploitability after {measured[0]['iterations']} CFR+ iterations (value units)")
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title(title, fontsize=10)
    path = ctx.save_figure(fig, stem)
    plt.close(fig)
    return path


def _cut_text(ctx: ReportContext) -> str:
    """The trunk's loss, public subgames exact (``farol cobardes abstraction``)."""
    if not subgames.cut_loss_path().exists():
        return ""
    measured = read_json(subgames.cut_loss_path())
    chart = loss_chart(ctx, measured, "trunk_loss",
                       "Public subgames exact: the state-keyed trunk's loss")
    return "\n\n" + render("cobardes/appendix/cut.md.j2", measured=measured, chart=chart,
                            worst=max(measured, key=lambda r: r["graph_exploitability_true"]))
