"""¡Cobardes!: does the first player (quicker in combats 1, 3, 5, 7) win more wars?"""

from __future__ import annotations

from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.markdown import pct

QUESTION = "First-player advantage"


def facts() -> dict:
    sol = R.renewal()
    vw = R.villain_war()
    base = {"vw": vw, "command": R.RENEWAL, "sweep": R.SWEEP, "villain_win": None}
    if vw is not None and vw.complete:
        base["villain_win"] = vw.first_player_win()
    if sol is None:
        return base | {"win": None, "headline": None}
    values = [sol.value(p) for p in sol.model.pairings]
    win = (1 + sum(values) / len(values)) / 2
    headline = pct(base["villain_win"] if base["villain_win"] is not None else win)
    return base | {"win": win, "pairings": len(values), "residual": sol.residual,
                   "headline": headline}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    model = ("The war to 3 victories with courtiers dealt at random and renewed between "
             f"battles ({f['pairings']} pairings, equally likely), solved exactly; villains "
             "left out." if f["win"] is not None else "The war with courtiers renewed.")
    if f["villain_win"] is not None:
        model = (f"{R.villain_war_model(f['vw'])} Every courtier matchup equally likely. "
                 f"Without villains: {model}")
    return Answer(QUESTION, one_line(render("cobardes/first_player.md.j2", **f)), model,
                  f["headline"])
