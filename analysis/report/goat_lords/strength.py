"""How strong the bots are: two-player head-to-head win rates."""

from __future__ import annotations

from analysis.goat_lords.statistics import bot_win_rates, pct
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import results


def matchup_section(ctx: ReportContext) -> str:
    res = results(ctx)["matchups"]
    lines = ["## How strong are the bots\n",
             "Two-player head-to-head, seats alternating game by game. Win rate of the first-named "
             "bot (ties share).\n",
             "| match | games | seed | win rate of the first bot |", "|---|---|---|---|"]
    for exp, df in res:
        if df.empty:
            continue
        rates = bot_win_rates(df).set_index("bot").loc[exp.bots[0]]
        lines.append(f"| {exp.label} | {len(df)} | {exp.seed} | "
                     f"{pct(rates.win_rate, rates.lo, rates.hi)} |")
    lines.append("\nMCTS sees the hidden cards (it searches the true deal), so its edge over "
                 "ISMCTS is partly the value of information, not of search.")
    return "\n".join(lines)
