"""Coup: does the deck variant (Ambassador or Inquisitor) change the balance?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.compare import compare
from games.coup import cards as C

QUESTION = "Ambassador or Inquisitor deck"


def answer(ctx: GuideContext) -> Answer:
    pairs = [(deck.capitalize(), deck, R.SETUP) for deck in C.DECKS]
    text, model, headline = compare(pairs, f"with each deck ({R.SETUP_WORDS[R.SETUP]})")
    return Answer(QUESTION, text, model, headline)
