"""¡Cobardes!: does the first player (quicker in combats 1, 3, 5, 7) win more wars?"""

from __future__ import annotations

from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.markdown import pct

QUESTION = "First-player advantage"


def facts() -> dict:
    sol = R.renewal()
    if sol is None:
        return {"win": None, "headline": None, "command": R.RENEWAL}
    values = [sol.value(p) for p in sol.model.pairings]
    win = (1 + sum(values) / len(values)) / 2
    return {"win": win, "pairings": len(values), "residual": sol.residual,
            "headline": pct(win), "command": R.RENEWAL}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    model = ("The war to 3 victories with courtiers dealt at random and renewed between "
             f"battles ({f['pairings']} pairings, equally likely), solved exactly; villains "
             "left out." if f["win"] is not None else "The war with courtiers renewed.")
    return Answer(QUESTION, one_line(render("cobardes/first_player.md.j2", **f)), model,
                  f["headline"])
