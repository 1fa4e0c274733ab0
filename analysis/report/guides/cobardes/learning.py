"""¡Cobardes!: is the learning game (warriors only) fair?"""

from __future__ import annotations

from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import Answer, GuideContext, one_line, render

QUESTION = "Variant: the learning game (warriors only)"


def facts() -> dict:
    opening = R.learning_opening()
    if opening is None:
        return {"opening": None, "headline": None}
    return {"opening": opening, "value": opening["value"],
            "headline": f"{opening['value']:+.3f}"}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    return Answer(QUESTION, one_line(render("cobardes/learning.md.j2", **f)),
                  "One battle of warriors only (0-6, 7 combats), solved exactly.", f["headline"])
