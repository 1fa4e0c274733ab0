"""Goat Lords: how strong is the strongest agent (only from matches of 1,000 games or more)?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pct

QUESTION = "Strongest agent against the greedy heuristic"


def facts(ctx: GuideContext) -> dict:
    """The 2-player matches of the strongest agent with enough games."""
    rows = []
    for name, m in R.matches():
        totals = {t.agent: t for t in m.totals()}
        if len(totals) != 2 or "lord" not in totals:
            continue
        rival = next(a for a in totals if a != "lord")
        row = {"name": name, "rival": rival, "lord": totals["lord"], "games": m.games,
               "scoring": R.scoring_words(m.params)}
        if m.games >= R.MIN_GAMES and m.params.get("players") == 2:
            rows.append(row)
    headline = "; ".join(pct(r["lord"].win_rate) for r in rows) or None
    return {"rows": rows, "headline": headline, "min": R.MIN_GAMES,
            "command": R.MATCH}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    model = (f"{rows[0]['scoring'].capitalize()}, 2 players, {rows[0]['games']:,} "
             "games, seats swapped; 95% interval. Bot strength is stated from matches of "
             f"{R.MIN_GAMES:,} games or more only." if rows else
             f"Matches of {R.MIN_GAMES:,} games or more.")
    return Answer(QUESTION, one_line(render("goat_lords/strength.md.j2", **f)), model,
                  f["headline"])

