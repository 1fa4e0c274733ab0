"""Goat Lords: what is one more wild (Goat Lord or Goatini) in the opening hand worth?"""

from __future__ import annotations

from analysis.report.goat_lords.results import extra_wild_rows
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pp

QUESTION = "Strength of a wild card"


def facts(ctx: GuideContext) -> dict:
    rows = [{"players": n, "win": e["win"][0], "ci": e["win"][1:], "games": e["games"],
             "points": e["points"]} for n, e in extra_wild_rows(R.plan(ctx.outdir))]
    headline = "; ".join(f"{r['players']}p {pp(r['win'])}" for r in rows) or None
    return {"rows": rows, "headline": headline}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    model = ("The same deals replayed with one goat of the opening hand swapped for a wild, "
             "every seat in turn (one round, greedy bots), against the fair share; "
             f"{rows[0]['games']:,} games per player count; 95% intervals." if rows else
             "One round, greedy bots.")
    return Answer(QUESTION, one_line(render("goat_lords/wilds.md.j2", **f)), model,
                  f["headline"])
