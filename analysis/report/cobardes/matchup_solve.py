"""¡Cobardes!, methods: how one full matchup with hidden villains is solved, how fast, and
where its accuracy floors.

Facts: the committed speed benchmark (one matchup compiled by the Python walk and the
compiled walk, solved the old way and the new), the convergence curves of four CFR
methods on full matchups, and the stored record of the benchmark's matchup (its value
for each villain deal). Chart: the curves. Text: what they say.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

from analysis.cobardes.studies import balance
from analysis.cobardes.studies.hidden_sweep import load_hidden
from analysis.report.cobardes.common import BENCHMARKS, duration_text, heatmap, villain_frame
from analysis.report.context import ReportContext
from analysis.shared.store import read_json
from analysis.solve.cfr import METHOD_NAMES

SPEED_JSON = BENCHMARKS / "cobardes_matchup_speed.json"
CURVES_JSON = BENCHMARKS / "cobardes_solve_curves.json"


def facts() -> dict | None:
    """The benchmarks' figures and the benchmark matchup's record; None without them."""
    if not SPEED_JSON.exists():
        return None
    speed = read_json(SPEED_JSON)
    pairing = tuple(speed["pairing"])
    curves = read_json(CURVES_JSON) if CURVES_JSON.exists() else {"matchups": {}}
    floors = {}
    for name, m in curves["matchups"].items():
        for method, c in m.get("curves", {}).items():
            late = [p["exploitability"] for p in c["points"] if p["iterations"] >= 100]
            if late:
                floors.setdefault(name, {})[method] = (min(late), max(late))
    return {"speed": speed, "pairing": pairing, "curves": curves["matchups"],
            "floors": floors, "record": load_hidden([pairing]).get(pairing)}


def curves_chart(ctx: ReportContext, curves: dict) -> str:
    """Exploitability within the abstraction against CPU seconds, a panel a matchup."""
    names = [n for n, m in curves.items() if m.get("curves")]
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.4), squeeze=False)
    for ax, name in zip(axes[0], names, strict=True):
        for method, c in curves[name]["curves"].items():
            pts = c["points"]
            ax.plot([p["seconds"] for p in pts], [p["exploitability"] for p in pts],
                    marker="o", ms=2.5, label=METHOD_NAMES.get(method, method))
        ax.set_yscale("log")
        ax.set_title(name.replace("/", " vs "), fontsize=9)
        ax.set_xlabel("CPU seconds of solving", fontsize=8)
        ax.set_ylabel("exploitability within the abstraction", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    path = ctx.save_figure(fig, "matchup_solve_curves")
    plt.close(fig)
    return path


def text(ctx: ReportContext) -> str:
    f = facts()
    if f is None:
        return ""
    s = f["speed"]
    py, pk, old, new = s["python"], s["packed"], s["old_solve"], s["new_solve"]
    pairing = f"{f['pairing'][0]} vs {f['pairing'][1]}"
    method = METHOD_NAMES.get(new["method"], new["method"])
    floors = "; ".join(
        f"{name.replace('/', ' vs ')}: " + ", ".join(
            f"{METHOD_NAMES.get(m, m)} {lo:z.3f} to {hi:z.3f}" for m, (lo, hi) in by.items())
        for name, by in f["floors"].items())
    out = [f"""

### One matchup, solved

The full battle ({pairing}, warriors 0-6, 7 combats, both villains dealt hidden from all
nine: 72 deals), as every matchup of the sweep is solved, measured in one run
(`benchmarks/cobardes_matchup_speed.py`; CPU seconds on a machine busy with other work):

| step | the old way | the new |
|---|---|---|
| compile: the deal-lifted walk, public subgames solved exactly ({pk['exact_positions']:,} positions), how each battle ends kept | {py['cpu_seconds']:z.0f} CPU s (in Python) | {pk['cpu_seconds']:z.0f} CPU s (compiled with numba; the same graph, array for array: {'yes' if s['same_graph'] else 'no'}) |
| solve the trunk ({s['nodes']:,} nodes, {s['infosets']:,} information sets) | CFR+, {old['iterations']} iterations: {old['cpu_seconds']:z.0f} CPU s, exploitability within the abstraction {old['exploitability']:z.3f} | {method} until its exploitability stops improving ({new['total_iterations']} iterations, the best at {new['iterations']}): {new['cpu_seconds']:z.0f} CPU s, {new['exploitability']:z.3f} |
| in all | {duration_text(s['old_total_cpu_seconds'])} | {duration_text(s['new_total_cpu_seconds'])}, at a peak of {s['peak_gb']:z.1f} GB |

Every figure of exploitability here is measured within the abstraction, against a best
response that forgets as much as the key does: a **lower bound** on the true one, which
needs the perfect-recall tree."""]
    if f["curves"]:
        chart = curves_chart(ctx, f["curves"])
        out.append(f"""
**Where the solve floors.** The key forgets the order of past moves, so no CFR method is
guaranteed to converge on it. Run to 1,000 iterations on full matchups
(`benchmarks/cobardes_solve_curves.py`), every method falls fast, then wanders in a band
it does not leave (the least and greatest figure after 100 iterations: {floors}). Running
longer buys nothing, so each matchup is solved until its figure stops improving and the
best strategy measured is kept.

![Exploitability within the abstraction against CPU seconds, four CFR methods]({chart})""")
    record = f["record"]
    if record is not None:
        deals = villain_frame(record.deals)
        path = heatmap(ctx, deals, "full_battle_villains",
                       f"{pairing}: value for player 0 by the villains dealt, hidden",
                       "battle value", vmin=-1.5, vmax=1.5, diagonal="each villain exists once")
        strength = balance.seat_neutral_strength(deals).dropna()
        ranking = ", ".join(f"{name} {v:+z.2f}" for name, v in strength.items())
        out.append(f"""
![{pairing}, hidden villain deals]({path})

In this one matchup (not the guide's answer, which is over every matchup), each villain's
value for its holder, mean over the rival's villain and both seats: {ranking}.""")
    return "\n".join(out)
