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
    best, worst = v.values.index[0], v.values.index[-1]
    return base | {"best": best, "worst": worst, "firsts": firsts(best, worst),
                   "headline": f"{best} {v.values.iloc[0]:+.2f}"}


def firsts(best: str, worst: str) -> tuple[int, int] | None:
    """In how many solved matchups ``best`` is worth the most to its holder and ``worst``
    the least (both seats averaged), or None with fewer than two matchups."""
    sweep = R.hidden_sweep()
    if len(sweep) < 2:
        return None
    top = low = 0
    for r in sweep.values():
        one, two = r.villain_values(0), r.villain_values(1)
        mean = {k: (one[k] + two[k]) / 2 for k in one}
        top += max(mean, key=mean.get) == best
        low += min(mean, key=mean.get) == worst
    return top, low


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    return Answer(QUESTION, one_line(render("cobardes/villains.md.j2", **f)),
                  one_line(render("cobardes/villains_model.md.j2", **f)), f["headline"])
