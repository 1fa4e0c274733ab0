"""Coup: does the deck variant (Ambassador or Inquisitor) change the balance?"""

from __future__ import annotations

from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.compare import compare
from analysis.report.guides.coup.first_player import signed
from analysis.report.guides.coup.play import paragraph
from analysis.report.markdown import table
from analysis.report.separate import by_chance, clear_among, excludes
from analysis.report.templating import render
from games.coup import cards as C

QUESTION = "Does the deck matter?"


def facts() -> dict:
    """Ambassador minus Inquisitor at every table both decks measured with the same
    agent: each difference, and those whose interval leaves out 0 (``differ``)."""
    diffs = [{"table": E.table_words(d.a.table), "diff": d, "text": signed(d.value, d.ci),
              "clear": excludes(d.ci, 0.0)} for d in E.deck_differences()]
    # Many tables compared at once: a difference is clear only where more of them leave 0
    # out than chance alone gives (the rule of every answer that compares many).
    found = sum(d["clear"] for d in diffs)
    chance = {"found": found, "total": len(diffs), "expected": by_chance(len(diffs))[0]}
    for d in diffs:
        d["clear"] = d["clear"] and clear_among(d["diff"].ci, 0.0, len(diffs))
    rows = [[d["table"], signed(d["diff"].a.value, d["diff"].a.ci),
             signed(d["diff"].b.value, d["diff"].b.ci), d["text"] if d["clear"] else
             f"none clear ({d['text']})"] for d in diffs]
    base = next((d for d in diffs if d["diff"].a.table.players == 2
                 and d["diff"].a.table.setup == R.SETUP), None)
    return {"diffs": diffs, "differ": [d for d in diffs if d["clear"]], "base": base,
            "chance": chance,
            "rows": rows, "headers": ["table", "Ambassador: first player's edge",
                                      "Inquisitor: first player's edge",
                                      "difference (points)"]}


def reply(ctx: GuideContext) -> Reply:
    f = facts()
    pairs = [(deck.capitalize(), deck, R.SETUP) for deck in C.DECKS]
    said, model, headline = compare(pairs, f"with each deck ({R.SETUP_WORDS[R.SETUP]})")
    if not f["diffs"]:  # no seat records of both decks: what the other records say
        answer, more = paragraph(said)
        return Reply(QUESTION, answer, more=more, headline=headline, method=model)
    answer, more = paragraph(render("coup/decks.md.j2", **f))
    shown = ("Edges in points: seat 1's win rate minus its fair share.\n\n"
             + table(f["headers"], f["rows"]))
    model += (" At 3 to 8 players and the other setups: the same agents in every seat with "
              "each deck; a difference's 95% interval combines the two tables' intervals "
              "(their games are independent).")
    shown_first = (f["differ"] or [f["base"] or f["diffs"][0]])[0]["text"]
    return Reply(QUESTION, answer, shown, more, shown_first, model)
