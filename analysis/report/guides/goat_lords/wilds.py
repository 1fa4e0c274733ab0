"""Goat Lords: what is one more wild (Goat Lord or Goatini) in the opening hand worth?"""

from __future__ import annotations

from analysis.report.goat_lords.results import extra_wild_rows
from analysis.report.guides.common import GuideContext, Reply, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.guides.separate import excludes
from analysis.report.markdown import pp, table

QUESTION = "What is one more wild worth?"


def facts(ctx: GuideContext) -> dict:
    """The strong agent's games once its tables are complete, else the greedy tournaments:
    ``rows`` in one round, ``rulebook`` in the rulebook's game (the strong agent only), and
    whether any of the rulebook's intervals leaves out zero."""
    one_round = R.strong_group("extra_wild", "single")
    if one_round is not None:
        effects, who = extra_wild_rows(R.strong_results(), "single"), R.strong_words()
    else:
        effects, who = extra_wild_rows(R.plan(ctx.outdir)), "the greedy bot in every seat"
    rows = _rows(effects)
    rulebook = []
    if one_round is not None and R.strong_group("extra_wild", "rounds") is not None:
        rulebook = _rows(extra_wild_rows(R.strong_results(), "rounds"))
    headline = "; ".join(f"{r['players']}p {pp(r['win'])}" for r in rulebook or rows) or None
    return {"rows": rows, "rulebook": rulebook, "headline": headline, "who": who,
            "rulebook_measurable": any(excludes(r["ci"], 0.0) for r in rulebook)}


def thumb(wf: dict) -> str:
    """The rule of thumb on wilds, from the same figures as *Strength of a wild card*: the
    rulebook's game first where measured, then one round, each with its interval."""

    def gains(rows: list[dict]) -> str:
        return ", ".join(f"{r['players']}p {pp(r['win'], r['ci'])}" for r in rows)

    one_round = f"in one round (`scoring=single`) it adds {gains(wf['rows'])} of win rate"
    if not wf["rulebook"]:
        return f"Wilds: one more wild in the opening hand, {one_round}."
    verdict = ("adds" if wf["rulebook_measurable"] else
               "adds no measurable win rate, every interval taking in zero:")
    return (f"Wilds: in the rulebook's game (`scoring=rounds`) one more wild in the opening hand "
            f"{verdict} {gains(wf['rulebook'])}; {one_round}, where that hand is the only "
            "one dealt.")


def _rows(effects: list[tuple[int, dict]]) -> list[dict]:
    return [{"players": n, "win": e["win"][0], "ci": e["win"][1:], "games": e["games"],
             "points": e["points"]} for n, e in effects]


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
