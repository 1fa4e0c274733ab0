"""Coup: which 2-player setup is fairest (1 coin for the starter, 2 coins each, draft)?"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext
from analysis.report.guides.coup import edges as E
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.compare import compare, difference_sentence
from analysis.report.markdown import pct_ci
from games.coup import cards as C

QUESTION = "2-player setup"


def other_deck(deck: str) -> str:
    """The setups with ``deck`` (not the rulebook's): each first player's win rate and
    edge, and each setup's edge against the rulebook setup's."""
    measured = [(s, e) for s in C.SETUPS if (e := E.edge_at(2, deck, s)) is not None]
    if not measured:
        return ""
    wins = ", ".join(f"{pct_ci(e.win, e.win_ci)} with {E.SETUP_SHORT[s]} ({e.words})"
                     for s, e in measured)
    diffs = [difference_sentence(d, E.SETUP_SHORT[d.a.table.setup], E.SETUP_SHORT[R.SETUP])
             for d in E.setup_differences(deck)]
    return (f"{deck.capitalize()} deck: the first player wins {wins}"
            + (f"; the first player's edge, {'; '.join(diffs)}" if diffs else "") + ".")


def answer(ctx: GuideContext) -> Answer:
    setups = C.DEALT_SETUPS + (
        ("draft",) if R.blueprint_first(R.DECK, "draft") or R.seat_record(2, R.DECK, "draft")
        else ())
    pairs = [(R.SETUP_WORDS[s].capitalize(), R.DECK, s) for s in setups]
    text, model, headline = compare(pairs, f"under each setup ({R.DECK.capitalize()} deck)",
                                    [E.SETUP_SHORT[s] for s in setups], against_first=True)
    rest = [said for deck in C.DECKS if deck != R.DECK and (said := other_deck(deck))]
    if rest:
        text += " " + " ".join(rest)
        model += (" The other deck's tables are played the same way. A difference's 95% "
                  "interval combines the two tables' intervals (their games are independent).")
    return Answer(QUESTION, text, model, headline)
