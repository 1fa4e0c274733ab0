"""¡Cobardes!: is the learning game (warriors only) fair?"""

from __future__ import annotations

from analysis.report.facts.cobardes import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.markdown import pct
from analysis.report.templating import one_line, render

QUESTION = "Is the learning game (warriors only) fair?"


def facts() -> dict:
    opening = R.learning_opening()
    if opening is None:
        return {"opening": None, "headline": None}
    return {"opening": opening, "value": opening["value"],
            "headline": f"{opening['value']:+z.3f}"}


def opening_words(opening: dict) -> str:
    """The learning game's first combat in a sentence: the cards played, most often first,
    and the lowest card never played."""
    played = sorted(((p, c) for c, p in opening["mix"].items() if p >= 0.005), reverse=True)
    lowest = min(int(c) for _, c in played)
    lower = sum(p for c, p in opening["mix"].items() if int(c) < lowest)
    cards = [f"the {c}" for _, c in played]
    shares = [pct(p, 0) for p, _ in played]
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]
    said = shares[0] if len(shares) == 1 else ", ".join(shares[:-1]) + " and " + shares[-1]
    return (f"Open with {listed} ({said} of the time); never a card below the {lowest} "
            f"({pct(lower, 0)}).")


def reply(ctx: GuideContext) -> Reply:
    f = facts()
    return Reply(QUESTION, one_line(render("cobardes/q_learning.md.j2", **f)), "",
                 opening_words(f["opening"]) if f["opening"] is not None else "",
                 f["headline"],
                 "One battle of warriors only (0-6, 7 combats), solved exactly." if f["opening"]
                 is not None else "")
