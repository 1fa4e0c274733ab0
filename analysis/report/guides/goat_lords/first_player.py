"""Goat Lords: does the first player (seat 1) win more than the fair share?"""

from __future__ import annotations

from analysis.goat_lords.statistics import seat_win_rates
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pp

QUESTION = "First-player advantage"


def facts(ctx: GuideContext) -> dict:
    rows = []
    for exp, df in R.greedy_tables(ctx.outdir):
        r = seat_win_rates(df).set_index("seat").loc[0]
        fair = 1 / exp.players
        rows.append({"players": exp.players, "games": len(df), "edge": r.win_rate - fair,
                     "ci": (r.lo - fair, r.hi - fair), "fair_inside": r.lo <= fair <= r.hi,
                     "params": exp.game_params()})
    headline = "; ".join(f"{r['players']}p {pp(r['edge'])}" for r in rows) or None
    return {"rows": rows, "headline": headline}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    model = (f"{R.scoring_words(rows[0]['params']).capitalize()}, the greedy bot in every seat, "
             f"{rows[0]['games']:,} games per player count; 95% intervals." if rows else
             "One round, the greedy bot in every seat.")
    return Answer(QUESTION, one_line(render("goat_lords/first_player.md.j2", **f)), model,
                  f["headline"])
