"""Goat Lords: do the answers hold under other point values (the rules leave them open)?"""

from __future__ import annotations

from analysis.goat_lords.statistics import seat_win_rates
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R

QUESTION = "Point values (a variant the rules leave open)"


def facts(ctx: GuideContext) -> dict:
    sens = [(e, df) for e, df in R.plan(ctx.outdir)["sensitivity"] if not df.empty]
    rows = []
    for n in sorted({e.players for e, _ in sens}):
        at_n = [(e, df) for e, df in sens if e.players == n]
        seat0 = [seat_win_rates(df).set_index("seat").loc[0] for _, df in at_n]
        edges = [r.win_rate - 1 / n for r in seat0]
        rows.append({"players": n, "sets": len(at_n), "games": len(at_n[0][1]),
                     "fair_inside": sum(r.lo <= 1 / n <= r.hi for r in seat0),
                     "lo": min(edges), "hi": max(edges)})
    headline = ("; ".join(f"{r['players']}p {r['fair_inside']} of {r['sets']}" for r in rows)
                or None)
    return {"rows": rows, "headline": headline}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    model = (f"One round, greedy bots (who play by the values), {rows[0]['sets']} value sets "
             f"(flat, reversed, cheap or rich wilds, a random draw, the assumed one), "
             f"{rows[0]['games']:,} games each; 95% intervals." if rows else
             "One round, greedy bots, several value sets.")
    return Answer(QUESTION, one_line(render("goat_lords/values.md.j2", **f)), model,
                  f["headline"])
