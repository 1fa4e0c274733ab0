"""Goat Lords: what is one more wild (Goat Lord or Goatini) in the opening hand worth?"""

from __future__ import annotations

from analysis.report.facts.goat_lords import records as R
from analysis.report.facts.goat_lords.wilds import facts
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.markdown import pp, table
from analysis.report.templating import render

QUESTION = "What is one more wild worth?"


def model(f: dict) -> str:
    rows, rulebook = f["rows"], f["rulebook"]
    if not rows:
        return "One round, greedy bots."
    games = "one round: " + R.count_words({r["players"]: r["games"] for r in rows})
    if rulebook:
        book = R.count_words({r["players"]: r["games"] for r in rulebook})
        games = f"the rulebook's game: {book}; {games}"
    return ("The same deals replayed with one goat of the opening hand swapped for a wild, "
            f"every seat in turn ({f['who']}), against the fair share; {games}; "
            "95% intervals.")


def reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    rows, rulebook = f["rows"], f["rulebook"]
    if not rows:
        return Reply(QUESTION, f"Not measured yet: run `{R.PLAN}` (it plays the missing games).")
    book = {r["players"]: r for r in rulebook}
    headers = ["players"] + (["rulebook's game: win rate gained"] if book else []) + [
        "one round: win rate gained"]
    lines = [[str(r["players"])] + ([pp(book[r["players"]]["win"], book[r["players"]]["ci"])
                                     if r["players"] in book else "–"] if book else [])
             + [pp(r["win"], r["ci"])] for r in rows]
    answer, more = paragraph(render("goat_lords/wilds.md.j2", **f))
    return Reply(QUESTION, answer, table(headers, lines), more, lines[0][1], model(f))
