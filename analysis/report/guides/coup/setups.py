"""Coup: which 2-player setup is fairest (1 coin for the starter, 2 coins each, draft)?"""

from __future__ import annotations

from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.compare import compare
from analysis.report.guides.coup.first_player import signed
from analysis.report.guides.coup.play import paragraph
from analysis.report.markdown import pct_ci, table
from analysis.report.separate import absolute
from analysis.report.templating import render
from games.coup import cards as C

QUESTION = "Which 2-player setup is fairest?"


def facts(deck: str = R.DECK) -> dict:
    """The first player's edge under each setup measured with ``deck``; ``size`` is the
    interval of the edge's size either way (what "fairest" compares)."""
    setups = []
    for s in C.SETUPS:
        e = E.edge_at(2, deck, s)
        if e is not None:
            setups.append({"setup": s, "label": E.SETUP_SHORT[s], "edge": e,
                           "text": signed(e.value, e.ci), "ci": absolute(e.ci),
                           "rulebook": s == R.SETUP})
    return {"setups": setups, "deck": deck.capitalize()}


def reply(ctx: GuideContext) -> Reply:
    setups = C.DEALT_SETUPS + (
        ("draft",) if R.blueprint_first(R.DECK, "draft") or R.seat_record(2, R.DECK, "draft")
        else ())
    pairs = [(R.SETUP_WORDS[s].capitalize(), R.DECK, s) for s in setups]
    said, model, headline = compare(pairs, f"under each setup ({R.DECK.capitalize()} deck)",
                                    [E.SETUP_SHORT[s] for s in setups], against_first=True)
    f = facts()
    if len(f["setups"]) < 2:  # fewer than two setups played: what the other records say
        answer, more = paragraph(said)
        return Reply(QUESTION, answer, more=more, headline=headline, method=model)
    answer, more = paragraph(render("coup/setups.md.j2", **f))
    headers, rows = ["setup"], []
    for deck in C.DECKS:
        headers += [f"{deck.capitalize()} deck: first player wins", "edge (points)"]
    for s in C.SETUPS:
        row = [R.SETUP_WORDS[s]]
        for deck in C.DECKS:
            e = E.edge_at(2, deck, s)
            row += [pct_ci(e.win, e.win_ci), signed(e.value, e.ci)] if e else ["–", "–"]
        rows.append(row)
    return Reply(QUESTION, answer, table(headers, rows), more, headline, model)
