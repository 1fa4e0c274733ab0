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
from analysis.report.cobardes.common import duration_text, heatmap
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes.stored import BENCHMARKS, villain_frame
from analysis.report.templating import fill
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
    pairing = f"{f['pairing'][0]} vs {f['pairing'][1]}"
    floors = [(name.replace("/", " vs "),
               [(METHOD_NAMES.get(m, m), lo, hi) for m, (lo, hi) in by.items()])
              for name, by in f["floors"].items()]
    record, deals_chart, strength = f["record"], "", None
    curves = curves_chart(ctx, f["curves"]) if f["curves"] else ""
    if record is not None:
        deals = villain_frame(record.deals)
        deals_chart = heatmap(ctx, deals, "full_battle_villains",
                              f"{pairing}: value for player 0 by the villains dealt, hidden",
                              "battle value", vmin=-1.5, vmax=1.5,
                              diagonal="each villain exists once")
        strength = balance.seat_neutral_strength(deals).dropna()
    return "\n\n" + fill("cobardes/appendix/matchup_solve.md.j2", s=s, pairing=pairing,
                          method=METHOD_NAMES.get(s["new_solve"]["method"],
                                                  s["new_solve"]["method"]),
                          old_total=duration_text(s["old_total_cpu_seconds"]),
                          new_total=duration_text(s["new_total_cpu_seconds"]), floors=floors,
                          curves_chart=curves, deals_chart=deals_chart,
                          strength=strength).rstrip("\n")
