"""Goat Lords: do the answers hold under other point values (the rules leave them open)?"""

from __future__ import annotations

from analysis.goat_lords.studies.statistics import seat_win_rates
from analysis.report.facts.goat_lords import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.markdown import pp, table
from analysis.report.separate import excludes
from analysis.report.templating import render

QUESTION = "Do the point values matter?"


def facts(ctx: GuideContext) -> dict:
    """The strong agent's games once its tables are complete (the assumed values are its
    one-round seat tables), else the greedy tournaments."""
    strong = R.strong_group("sensitivity")
    if strong is not None:
        players = {e.players for e, _ in strong}
        assumed = [(e, df) for e, df in R.strong_results()["seats"]
                   if e.label == "single" and e.players in players]
        sens, who = strong + assumed, R.strong_words()
    else:
        sens = [(e, df) for e, df in R.plan(ctx.outdir)["sensitivity"] if not df.empty]
        who = "greedy bots"
    rows = []
    for n in sorted({e.players for e, _ in sens}):
        at_n = [(e, df) for e, df in sens if e.players == n]
        seat0 = [seat_win_rates(df).set_index("seat").loc[0] for _, df in at_n]
        edges = [r.win_rate - 1 / n for r in seat0]
        rows.append({"players": n, "sets": len(at_n), "games": len(at_n[0][1]),
                     "fair_inside": sum(not excludes((r.lo, r.hi), 1 / n) for r in seat0),
                     "lo": min(edges), "hi": max(edges)})
    headline = ("; ".join(f"{r['players']}p {r['fair_inside']} of {r['sets']}" for r in rows)
                or None)
    return {"rows": rows, "headline": headline, "who": who}


def model(f: dict) -> str:
    rows = f["rows"]
    games = "; ".join(f"{r['games']:,} games each at {r['players']} players" for r in rows)
    return (f"One round, {f['who']}, playing by the values, {rows[0]['sets']} value sets "
            f"(flat, reversed, cheap or rich wilds, a random draw, the assumed one), "
            f"{games}; 95% intervals." if rows else "One round, greedy bots, several value sets.")


def reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    rows = f["rows"]
    if not rows:
        return Reply(QUESTION, f"Not measured yet: run `{R.PLAN}` (it plays the missing games).")
    lines = [[str(r["players"]), str(r["sets"]), f"{pp(r['lo'])} to {pp(r['hi'])}",
              f"{r['sets'] - r['fair_inside']} of {r['sets']}"] for r in rows]
    answer, more = paragraph(render("goat_lords/values.md.j2", **f))
    return Reply(QUESTION, answer, table(["players", "value sets", "seat 1 − fair share, "
                                          "lowest to highest", "sets with a clear edge"], lines),
                 more, lines[0][2], model(f))
