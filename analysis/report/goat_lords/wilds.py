"""What a wild is worth: the observational slope and the paired experiment."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from analysis.goat_lords.studies.statistics import wild_worth
from analysis.goat_lords.studies.tournament import Experiment
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import extra_wild_rows, results
from analysis.report.markdown import pp


def wild_section(ctx: ReportContext) -> str:
    res = results(ctx)
    lines = ["## What a wild is worth\n"]
    rows = []
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for label in ("greedy", "random"):
        exps = [(e, df) for e, df in res["seats"] if e.label == label and not df.empty]
        if not exps:
            continue
        df = pd.concat([d for _, d in exps])
        w = wild_worth(df)
        n_games = len(df)
        rows.append(f"| all-{label} tables, 2–6 players | {n_games} | {w['seats']} | "
                    f"{100 * w['win'][0]:+z.1f} pp [{100 * w['win'][1]:+z.1f}, {100 * w['win'][2]:+z.1f}] | "
                    f"{w['points'][0]:+z.0f} [{w['points'][1]:+z.0f}, {w['points'][2]:+z.0f}] |")
        for exp, part in exps:
            wn = wild_worth(part)
            rows.append(f"| all-{label}, {exp.players} players | {len(part)} | {wn['seats']} | "
                        f"{100 * wn['win'][0]:+z.1f} pp [{100 * wn['win'][1]:+z.1f}, {100 * wn['win'][2]:+z.1f}] | "
                        f"{wn['points'][0]:+z.0f} [{wn['points'][1]:+z.0f}, {wn['points'][2]:+z.0f}] |")
        by = w["by_count"]
        ax.errorbar(by["wilds"], by["win_rate"] / by["fair"],
                    yerr=[(by["win_rate"] - by["lo"]) / by["fair"], (by["hi"] - by["win_rate"]) / by["fair"]],
                    fmt="o-", capsize=3, label=f"{label} tables")
    lines += [
        "Each seat's win share and herd points against the number of wilds it received during the "
        "round (dealt or drawn), pooled over 2–6 players with the player count as a fixed effect. "
        "This is observational: a wild arrives with the luck of the draw.\n",
        "| tables | games | seats | win rate per extra wild | herd points per extra wild |",
        "|---|---|---|---|---|", *rows,
    ]
    causal = extra_wild_rows(res)
    if causal:
        lines += [
            "",
            "**One more wild, as an experiment.** The all-greedy games above were replayed with one "
            "change: after the deal, seat *i* mod *n* (so every seat in turn) swaps its cheapest goat "
            "for a wild from the draw pile. The table gives that seat's win rate minus its fair share "
            "1/*n*: without the wild, a seat taken in turn wins exactly its fair share on average "
            "(a game's win shares add up to one), so the fair share is an exact baseline. The deal "
            "is otherwise identical, so each game also pairs with its original: the last two columns "
            "compare with the same seat in the original game, a noisier check (95% intervals over "
            "the pairs). The experiment isolates the card; the slope above also carries whatever "
            "else comes with drawing many wilds over a round.\n",
            "| players | games | win rate gained over the fair share | gained over the same deal "
            "without it | herd points, one more wild |",
            "|---|---|---|---|---|",
        ]
        for n, e in causal:
            lines.append(f"| {n} | {e['games']} | {pp(e['win'][0], e['win'][1:])} | {pp(e['win_paired'][0], e['win_paired'][1:])} | "
                         f"{e['points'][0]:+z.0f} [{e['points'][1]:+z.0f}, {e['points'][2]:+z.0f}] |")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("wilds received in the round (3 = 3 or more)")
    ax.set_ylabel("win rate ÷ fair share")
    ax.set_xticks([0, 1, 2, 3])
    ax.legend(fontsize=8)
    ax.set_title("Wilds and winning")
    path = ctx.save_figure(fig, "wild_worth")
    plt.close(fig)
    lines.append(f"\nSeed {Experiment('x', 2, (), 1).seed}. ![Wild worth]({path})")
    return "\n".join(lines)
