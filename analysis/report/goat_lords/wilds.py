"""What a wild is worth: the observational slope and the paired experiment."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from analysis.goat_lords.studies.statistics import wild_worth
from analysis.goat_lords.studies.tournament import Experiment
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords.results import extra_wild_rows, results
from analysis.report.templating import fill


def wild_section(ctx: ReportContext) -> str:
    res = results(ctx)
    groups = []
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for label in ("greedy", "random"):
        exps = [(e, df) for e, df in res["seats"] if e.label == label and not df.empty]
        if not exps:
            continue
        df = pd.concat([d for _, d in exps])
        w = wild_worth(df)
        groups.append({"label": label, "games": len(df), "worth": w, "by_players": [
            {"players": exp.players, "games": len(part), "worth": wild_worth(part)}
            for exp, part in exps]})
        by = w["by_count"]
        ax.errorbar(by["wilds"], by["win_rate"] / by["fair"],
                    yerr=[(by["win_rate"] - by["lo"]) / by["fair"], (by["hi"] - by["win_rate"]) / by["fair"]],
                    fmt="o-", capsize=3, label=f"{label} tables")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("wilds received in the round (3 = 3 or more)")
    ax.set_ylabel("win rate ÷ fair share")
    ax.set_xticks([0, 1, 2, 3])
    ax.legend(fontsize=8)
    ax.set_title("Wilds and winning")
    path = ctx.save_figure(fig, "wild_worth")
    plt.close(fig)
    return fill("goat_lords/appendix/wilds.md.j2", groups=groups, causal=extra_wild_rows(res),
                seed=Experiment("x", 2, (), 1).seed, chart=path)
