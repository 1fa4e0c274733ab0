"""Coup: does the deck variant (Ambassador or Inquisitor) change the balance?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext
from analysis.report.guides.coup import edges as E
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.compare import compare, said
from games.coup import cards as C

QUESTION = "Ambassador or Inquisitor deck"


def others() -> list[E.Difference]:
    """Ambassador minus Inquisitor at every table but the rulebook's 2-player one."""
    return [d for d in E.deck_differences()
            if (d.a.table.players, d.a.table.setup) != (2, R.SETUP)]


def answer(ctx: GuideContext) -> Answer:
    pairs = [(deck.capitalize(), deck, R.SETUP) for deck in C.DECKS]
    text, model, headline = compare(pairs, f"with each deck ({R.SETUP_WORDS[R.SETUP]})")
    rest = others()
    if rest:
        text += (" At the other tables, the first player's edge, Ambassador minus "
                 "Inquisitor: " + "; ".join(f"{E.table_words(d.a.table)}: {said(d)}"
                                           for d in rest) + ".")
        recs = [r for r in R.seat_records() if any(
            r.table in (d.a.table, d.b.table) for d in rest)]
        model += (f" The other tables: {E.who_plays(recs)} in every seat. A difference's 95% "
                  "interval combines the two tables' intervals (their games are independent).")
    return Answer(QUESTION, text, model, headline)
