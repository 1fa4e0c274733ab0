"""Coup: which starting hands (which characters) are strongest?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.coup import records as R

QUESTION = "Strongest and weakest starting hands, 2 players"
MIN_DEALS = 30


def facts() -> dict:
    rec = R.seat_record(2)
    hands = sorted((h for h in (rec.hands if rec else ()) if h.games >= MIN_DEALS),
                   key=lambda h: (-h.win_rate, h.hand))
    return {"best": hands[:3], "worst": hands[-3:][::-1] if len(hands) > 3 else [],
            "command": R.BALANCE, "rec": rec,
            "headline": hands[0].hand if hands else None}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    rec = f["rec"]
    model = (f"The whole 2-player game ({R.SETUP_WORDS[R.SETUP]}, {R.DECK.capitalize()} "
             f"deck), {rec.self_play.games:,} games of {rec.agent} against itself; hands dealt "
             f"at least {MIN_DEALS} times; 95% intervals." if f["best"] else
             "The whole 2-player game, strong agents in both seats.")
    return Answer(QUESTION, one_line(render("coup/hands.md.j2", **f)), model, f["headline"])
