"""¡Cobardes!: which villain is worth most to its holder, dealt hidden in a full battle?"""

from __future__ import annotations

from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import Answer, GuideContext, one_line, render

QUESTION = "Strongest and weakest villain"


def facts() -> dict:
    v = R.villain_values()
    swept = len(R.hidden_sweep())
    base = {"v": v, "swept": swept, "size": R.sweep_size(), "command": R.SWEEP}
    if v is None:
        return base | {"headline": None}
    return base | {"best": v.values.index[0], "worst": v.values.index[-1],
                   "headline": f"{v.values.index[0]} {v.values.iloc[0]:+.2f}"}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    return Answer(QUESTION, one_line(render("cobardes/villains.md.j2", **f)),
                  one_line(render("cobardes/villains_model.md.j2", **f)), f["headline"])
