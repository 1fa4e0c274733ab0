"""How strong the bots are: two-player head-to-head win rates."""

from __future__ import annotations

from analysis.goat_lords.studies.statistics import bot_win_rates, pct
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import results
from analysis.report.guides.goat_lords.records import MIN_GAMES, matches, scoring_words


def lineup_words(m) -> str:
    """Who sat at the table: "`lord:432` against 3 × `greedy`" (``lord:N``: N simulations a move)."""
    return " against ".join(f"{t.games // m.games} × `{t.agent}`" if t.games > m.games
                            else f"`{t.agent}`" for t in m.totals())


def matchup_section(ctx: ReportContext) -> str:
    res = results(ctx)["matchups"]
    lines = ["## How strong are the bots\n"]
    stored = [(name, m) for name, m in matches() if m.games >= MIN_GAMES]
    short = [(name, m.games) for name, m in matches() if m.games < MIN_GAMES]
    if stored:
        lines += [f"The strongest agent's matches (seats rotated; the first-named agent's win "
                  f"rate over all its seats, ties shared). Bot strength is stated only from "
                  f"matches of at least {MIN_GAMES:,} games.\n",
                  "| match | agents | players | games | scoring | win rate of the first agent | "
                  "fair share |",
                  "|---|---|---|---|---|---|---|"]
        for name, m in stored:
            first = m.totals()[0]
            players = m.params.get("players", 2)
            lines.append(f"| {name} | {lineup_words(m)} | {players} | "
                         f"{m.games:,} | {scoring_words(m.params)} | "
                         f"{pct(first.win_rate, first.ci95[0], first.ci95[1])} | "
                         f"{100 / players:z.0f}% |")
        lines.append("")
    for name, games in short:
        lines.append(f"Match `{name}` has {games:,} games so far, fewer than {MIN_GAMES:,}: "
                     "not used to rank the agents yet.\n")
    lines += ["Two-player head-to-head of the tournament bots, seats alternating game by game. "
              f"Win rate of the first-named bot (ties share); fewer than {MIN_GAMES:,} games "
              "each, too few to rank these bots.\n",
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
