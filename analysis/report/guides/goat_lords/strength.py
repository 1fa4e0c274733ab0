"""Goat Lords: how strong is the strongest agent (only from matches of 1,000 games or more)?"""

from __future__ import annotations

from analysis.goat_lords.agents import STRONGEST
from analysis.goat_lords.agents.lord import DEFAULT
from analysis.report.facts.goat_lords import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.markdown import pct, pct_ci, table
from analysis.report.templating import render

QUESTION = "How strong is the player these numbers come from?"


def facts(ctx: GuideContext) -> dict:
    """The strongest agent's matches against one other bot (one seat of ``lord`` at some
    simulation budget, the others all that bot), with enough games, by number of
    players and budget."""
    rows = []
    for name, m in R.matches():
        totals = {t.agent: t for t in m.totals()}
        lords = [a for a in totals if a == "lord" or a.startswith("lord:")]
        if len(totals) != 2 or len(lords) != 1:
            continue
        lord = lords[0]
        rival = next(a for a in totals if a != lord)
        players = m.params.get("players", 2)
        sims = int(lord.partition(":")[2] or DEFAULT.simulations)
        row = {"name": name, "rival": rival, "lord": totals[lord], "games": m.games,
               "players": players, "fair": 1 / players, "scoring": R.scoring_words(m.params),
               "simulations": sims}
        if m.games >= R.MIN_GAMES:
            rows.append(row)
    rows.sort(key=lambda r: (r["players"], r["simulations"]))
    headline = "; ".join(pct(r["lord"].win_rate) for r in rows) or None
    return {"rows": rows, "headline": headline, "min": R.MIN_GAMES,
            "command": R.MATCH, "default": DEFAULT.simulations,
            "strongest": STRONGEST}


def model(f: dict) -> str:
    rows = f["rows"]
    counts = " and ".join(f"{r['games']:,} games at {r['players']} players "
                          f"({r['simulations']} simulations a move)" for r in rows)
    return (f"{rows[0]['scoring'].capitalize()}; {counts}; seats rotated; 95% intervals. "
            f"Bot strength is stated from matches of {R.MIN_GAMES:,} games or more only."
            if rows else f"Matches of {R.MIN_GAMES:,} games or more.")


def reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    rows = f["rows"]
    if not rows:
        return Reply(QUESTION, f"Not measured yet: run `{f['command']}`.")
    lines = [[str(r["players"]), f"`lord:{r['simulations']}`", f"{r['players'] - 1} × "
              f"`{r['rival']}`", f"{r['games']:,}", pct_ci(r["lord"].win_rate, r["lord"].ci95),
              pct(r["fair"])] for r in rows]
    answer, more = paragraph(render("goat_lords/strength.md.j2", **f))
    return Reply(QUESTION, answer, table(["players", "agent", "against", "games",
                                          "its win rate", "fair share"], lines), more,
                 f["headline"], model(f))
