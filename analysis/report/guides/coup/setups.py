"""Coup: which 2-player setup is fairest (1 coin for the starter, 2 coins each, draft)?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.compare import compare
from games.coup import cards as C

QUESTION = "2-player setup"


def answer(ctx: GuideContext) -> Answer:
    setups = C.DEALT_SETUPS + (
        ("draft",) if R.blueprint_first(R.DECK, "draft") or R.seat_record(2, R.DECK, "draft")
        else ())
    pairs = [(R.SETUP_WORDS[s].capitalize(), R.DECK, s) for s in setups]
    text, model, headline = compare(pairs, f"under each setup ({R.DECK.capitalize()} deck)")
    return Answer(QUESTION, text, model, headline)
