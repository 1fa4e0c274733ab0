"""Villains: named-villain matchups, hidden villains and the abstraction's measured loss,
the full battle with hidden villains."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.cobardes.solvers import subgames, villains
from analysis.cobardes.studies import balance
from analysis.cobardes.studies.hidden_sweep import complete, hidden_matchups, load_hidden
from analysis.cobardes.studies.sweep import is_mirror
from analysis.report.cobardes import matchup_solve
from analysis.report.cobardes.common import (
    BENCHMARK_JSON,
    EXACT,
    REFINED_KEY_JSON,
    RENEWAL_COMPOSITION_JSON,
    WAR_COMPOSITION_JSON,
    heatmap,
    villain_frame,
)
from analysis.report.context import ReportContext
from analysis.shared.store import read_json


def villain_section(ctx: ReportContext) -> str:
    full = balance.villain_table()
    small = balance.villain_table(warriors=4, combats=5)
    table, army = (full, "full armies (warriors 0-6, 7 combats)") \
        if full.notna().to_numpy().sum() >= 72 else (small, "warriors 0-4, 5 combats")
    n = int(table.notna().to_numpy().sum())
    if n == 0:
        return ("## Villains\n\nNo villain sweep is cached yet: run "
                "`farol cobardes sweep --kind villains`.")
    path = heatmap(ctx, table, "villain_matchups", f"Battle value for player 0, both "
                    f"villains known ({army})", "battle value", vmin=-2, vmax=2,
                    diagonal="each villain exists once")
    strength = balance.seat_neutral_strength(table).dropna()
    ranking = ", ".join(f"{name} {v:+z.2f}" for name, v in strength.items()) \
        if n >= 72 else "(shown when all 72 pairs are solved)"
    return f"""## Villains: the value of holding each one

Each pair of villains (player 0's in rows) in a battle of warriors + villains, both
villains **named, so known to both players**: a game of public information, solved
exactly ({army}; {n} of 72 pairs; {EXACT}). The diagonal is empty (each villain
exists once). Knowing the rival's villain removes the surprise that makes a hidden
villain dangerous, so these values are the villains' worth *when the rival is ready
for them*; the hidden case follows.

![Villain matchups]({path})

Mean battle value over opponents, both seats: {ranking}."""


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
    worst = max((r["ratio"] for r in others), default=float("nan"))
    said = (f"\n\n**A finer key?** Keyed also by the order of the rival's plays while its "
            f"villain is hidden, the Procuress deck's strategy is exploitable by "
            f"{refined['true']:z.1e} in the true game ({refined['ratio']:z.1f}x what its "
            f"abstraction measures), against {coarse['true']:z.1e} ({coarse['ratio']:z.1f}x) "
            f"with the coarse key, after the same {b['iterations']} CFR+ iterations")
    if b["refined_helps"]:
        return said + ": the finer key is the better one here."
    return (said + f": remembering the order makes it worse, not better (a finer "
            f"imperfect-recall key need not give a less exploitable strategy), while on "
            f"the decks without the Procuress the refined key's ratio is at most "
            f"{worst:z.2f}x. The matchups keep the coarse key; their exploitability with the "
            f"Procuress stays a lower bound, {coarse['ratio']:z.1f} times too low on this "
            f"reduced deck (`benchmarks/cobardes_refined_key.py`).")


def war_composition_text(path=WAR_COMPOSITION_JSON, stored: int | None = None) -> str:
    """What composing the war from one solved battle a matchup would cost, measured on
    the villain-free pairings (``benchmarks/cobardes_war_composition.py``); ``stored``:
    the dealt matchups solved with how each battle ends, now (the one count the guide
    gives too; None: not said)."""
    if not path.exists():
        return ""
    b = read_json(path)
    dealt = sum(not is_mirror(p) for p in hidden_matchups())
    if stored is None:
        now = ""
    elif stored >= dealt:
        now = (f" All {dealt} dealt matchups are solved with how each battle ends: the guide's "
               "war with villains is composed from them (below).")
    else:
        now = (f" The war with villains is not given yet: {stored} of the {dealt} dealt "
               "matchups are solved with how each battle ends, and it needs every one.")
    exact, composed = b["ranking_exact"], b["ranking_composed"]
    order = ("the same order of courtiers" if b["same_order"] else
             "the same strongest and weakest courtier" if b["same_ends"] else
             "a different strongest or weakest courtier")
    return (f"\n\n**The war with villains: one battle solution at every score?** The war "
            f"without villains solves the battle again at every score, since a draw and a "
            f"token are worth different amounts there: a median of "
            f"{b['solves_per_war_median']:z.0f} battle solves a pairing. With hidden villains "
            f"one battle solve took a median of {b['hidden_seconds_median']:z.0f} s when this "
            f"was measured, so that route would take about "
            f"{b['exact_route_hours']:z.0f} hours for the {b['matchups']} matchups on "
            f"{b['processes']} processes. The cheaper model plays one battle solution "
            f"(a Victory worth 1, the Crown 3) at every score and chains its outcome "
            f"probabilities. On the {b['pairings']} villain-free pairings where both are "
            f"stored, its war value from 0-0 misses the exact one by a median of "
            f"{b['error_median']:z.3f} (90th percentile {b['error_p90']:z.3f}, largest "
            f"{b['error_max']:z.3f}, {' vs '.join(b['worst'])}), in P(win) - P(lose); over the "
            f"{b['ranked_pairings']} courtier matchups it gives {order} as the exact war "
            f"(strongest {composed[0][0]} {composed[0][1]:+z.2f} against {exact[0][0]} "
            f"{exact[0][1]:+z.2f}; weakest {composed[-1][0]} {composed[-1][1]:+z.2f} against "
            f"{exact[-1][0]} {exact[-1][1]:+z.2f}).{now}")


def _endings_stored() -> int:
    return sum(map(complete, (r for p, r in load_hidden().items() if not is_mirror(p))))


def renewal_composition_text(path=RENEWAL_COMPOSITION_JSON) -> str:
    """The war with villains and keep-or-renew: the model, and what it misses on the
    villain-free pairings (``benchmarks/cobardes_renewal_composition.py``)."""
    if not path.exists():
        return ""
    b = read_json(path)
    fp = b["first_player_value"]
    share = b["choices_agreeing"] / b["choices"]
    ends = ("the same strongest and weakest courtier" if b["same_ends"] else
            "a different strongest or weakest courtier")
    return (f"\n\n**Keeping or renewing, with villains.** Once every matchup record says how "
            f"its battle ends and which courtiers it played (20 endings), the war with "
            f"villains lets each player keep an unplayed courtier or renew it, as the rules "
            f"allow: each pairing's battle is played as solved at every score, and only the "
            f"keep-or-renew choices are solved, exactly, for those battles. Its "
            f"approximations: villains are dealt afresh in every battle (a villain kept "
            f"unplayed is not followed); a battle's strategy does not change with the score "
            f"or with what a courtier kept in hand is worth afterwards, except that where "
            f"moves tie the mover keeps its courtier unplayed. Measured on the "
            f"{b['pairings']} villain-free pairings against the exact renewal war (which "
            f"re-solves every battle at every score): the war value from 0-0 misses by a "
            f"median of {b['error_median']:z.3f} (90th percentile {b['error_p90']:z.3f}, "
            f"largest {b['error_max']:z.3f}, {' vs '.join(b['worst'])}) in P(win) - P(lose); "
            f"the first player's war value is {fp['composed']:+z.3f} against "
            f"{fp['exact']:+z.3f}; it gives {ends}; and {share:z.1%} of the "
            f"{b['choices']:,} keep-or-renew choices with something to choose are the same.")


def hidden_section(ctx: ReportContext) -> str:
    rows = []
    verdict = ""
    if villains.abstraction_loss_path().exists():
        measured = read_json(villains.abstraction_loss_path())
        worst = max(measured, key=lambda r: r["graph_exploitability_true"]
                    - r["tree_exploitability"])
        verdict = (
            f"\n\nThe largest loss is on the deck *{worst['label']}*: after the same "
            f"{worst['iterations']} CFR+ iterations the exact tree solution is exploitable by "
            f"{worst['tree_exploitability']:z.1e}, the state-keyed one by "
            f"{worst['graph_exploitability_true']:z.1e} in the true game (it believes "
            f"{worst['graph_exploitability_in_abstraction']:z.1e}).")
        others = [r for r in measured if r is not worst]
        if "Procuress" in worst["label"] and all(
                r["graph_exploitability_true"] < 10 * max(r["tree_exploitability"], 1e-4)
                for r in others):
            verdict += (" On the other decks (villains only played, no private swap) "
                        "forgetting the order of events costs nothing measurable: the "
                        "Procuress's private swaps are where remembering who saw what "
                        "matters, so abstraction numbers with her are approximate.")
        rows = _loss_rows(measured)
    bench = ""
    if BENCHMARK_JSON.exists():
        b = read_json(BENCHMARK_JSON)
        bench = "\n\n**Benchmark** (`benchmarks/cobardes_villains.py`, committed output in " \
                "`benchmarks/results/`):\n\n" + "\n".join(f"* {line}" for line in b["lines"])
    table = ("| reduced deck | tree nodes / infosets | graph nodes / infosets | CFR+ "
             "iterations | exact tree value (expl.) | graph value | graph expl. in "
             "abstraction | graph expl. in the true game |\n|---|---|---|---|---|---|---|---|\n"
             + "\n".join(rows)) if rows else "(no measurement cached: run " \
        "`farol cobardes abstraction`)"
    hidden = ""
    cut = _cut_text(ctx)
    if subgames.hidden_villains_path().exists():
        h = read_json(subgames.hidden_villains_path())
        deals = villain_frame(h["table"])
        path = heatmap(ctx, deals, "hidden_villains", f"Battle value for player 0 by the "
                        f"villains dealt, hidden ({h['label']})", "battle value",
                        vmin=-1.5, vmax=1.5, diagonal="each villain exists once")
        strength = balance.seat_neutral_strength(deals).dropna()
        ranking = ", ".join(f"{name} {v:+z.2f}" for name, v in strength.items())
        hidden = (f"\n\n**The value of holding each villain, hidden.** One battle with both "
                  f"villains dealt at random ({h['label']}), solved by {h['provenance']}; "
                  f"the value of each deal read off the solution:\n\n![Hidden villain "
                  f"deals]({path})\n\nMean over the rival's villain, both seats: {ranking}.")
    return f"""## Hidden villains: the state-keyed abstraction and its measured loss

With a hidden villain each player has private information. The solver engine keys
information sets on (own cards, public position) — it forgets the order of past
events, an imperfect-recall abstraction. On reduced decks whose perfect-recall tree
fits we solve both with the same CFR+ iterations, then evaluate the abstraction's
strategy **in the perfect-recall tree** with an exact best response: that true
exploitability, next to the exploitability measured inside the abstraction, is the
abstraction's loss.

{table}

On the full game only the exploitability inside the abstraction is measurable; it is
a **lower bound** on the true exploitability (a best response that also forgets is
weaker than a true one).{verdict}{refined_text()}{cut}{hidden}{matchup_solve.text(ctx)}{war_composition_text(stored=_endings_stored())}{renewal_composition_text()}{bench}"""


def _loss_rows(measured: list[dict]) -> list[str]:
    """Table rows of abstraction-loss measurements (tree against state-keyed graph)."""
    return [f"| {r['label']} | {r['tree_nodes']:,} / {r['tree_infosets']:,} | "
            f"{r['graph_nodes']:,} / {r['graph_infosets']:,} | {r['iterations']} | "
            f"{r['tree_value']:+z.4f} ({r['tree_exploitability']:z.1e}) | "
            f"{r['graph_value']:+z.4f} | {r['graph_exploitability_in_abstraction']:z.1e} | "
            f"{r['graph_exploitability_true']:z.1e} |" for r in measured]


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
    rows = _loss_rows(measured)
    worst = max(measured, key=lambda r: r["graph_exploitability_true"])
    understated = ""
    if worst["graph_exploitability_true"] > 2 * worst["graph_exploitability_in_abstraction"]:
        understated = (
            f" There the exploitability measured inside the abstraction "
            f"({worst['graph_exploitability_in_abstraction']:z.1e}) understates the true one "
            f"{worst['graph_exploitability_true'] / worst['graph_exploitability_in_abstraction']:z.0f}"
            "-fold, and the loss grows with the number of combats: the full battle's figure "
            "below is a lower bound, and its true exploitability is likely larger.")
    return f"""

**Public subgames solved exactly.** A battle with hidden villains stops being a game of
hidden information once every villain left in a hand is known to both players (played,
exchanged, drawn by an Inquisitor) or none is left: every past move is then known to
both, and the rest of the battle is a public subgame that backward induction solves
exactly (`analysis/cobardes/solvers/subgames.py`). Cutting those subgames off leaves the
*trunk*, where a villain is still hidden. The cut is exact: on small battles the
sequence-form LP of the trunk (exact values at its leaves) equals the LP of the whole
battle (`tests/cobardes/test_cobardes_subgames.py`). The trunk's perfect-recall tree is several
times smaller than the battle's, so the state-keyed abstraction's loss can now be
measured with all nine villains. Both the exact tree and the state-keyed trunk are
solved by CFR+ with the same iterations, and the state-keyed strategy is then played in
the tree:

| deck | trunk tree nodes / infosets | trunk graph nodes / infosets | CFR+ iterations | exact value (expl.) | graph value | graph expl. in abstraction | graph expl. in the true game |
|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

![The state-keyed trunk's loss]({chart})

The largest true exploitability of a state-keyed trunk solution is
{worst['graph_exploitability_true']:z.1e}, on *{worst['label']}*.{understated} (The trunk's
abstraction refines the whole graph's, since public positions are no longer merged with
hidden ones, so its values can differ slightly from the table above.)"""
