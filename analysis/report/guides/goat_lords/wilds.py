"""Goat Lords: what is one more wild (Goat Lord or Goatini) in the opening hand worth?"""

from __future__ import annotations

from analysis.goat_lords.statistics import wild_worth
from analysis.report.goat_lords.results import extra_wild_rows
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pp

QUESTION = "Strength of a wild card"


def facts(ctx: GuideContext) -> dict:
    """The strong agent's games once its tables are complete, else the greedy tournaments:
    ``rows`` in one round, ``rulebook`` in the rulebook's game (the strong agent only)."""
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
    # Without the experiment in the rulebook's game: what each wild received goes with
    # there (observational), shown only when it and the experiment are the strong agent's.
    seats = R.seat_tables(ctx.outdir)
    received = []
    if seats.strong and one_round is not None and not rulebook:
        for exp, df in seats.main:
            slope, lo, hi = wild_worth(df)["win"]
            received.append({"players": exp.players, "win": slope, "ci": (lo, hi)})
    return {"rows": rows, "rulebook": rulebook, "headline": headline, "who": who,
            "received": received}


def _rows(effects: list[tuple[int, dict]]) -> list[dict]:
    return [{"players": n, "win": e["win"][0], "ci": e["win"][1:], "games": e["games"],
             "points": e["points"]} for n, e in effects]


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows, rulebook = f["rows"], f["rulebook"]
    if not rows:
        model = "One round, greedy bots."
    else:
        also = ("; in the rulebook's game, each seat's win share against the wilds it received "
                "over the game, in the same agent's seat games" if f["received"] else "")
        games = R.count_words({r["players"]: r["games"] for r in rulebook or rows})
        scoring = ("the rulebook's game and one round" if rulebook else "one round")
        model = ("The same deals replayed with one goat of the opening hand swapped for a wild, "
                 f"every seat in turn ({scoring}, {f['who']}), against the fair share{also}; "
                 f"{games}{' in each scoring' if rulebook else ''}; 95% intervals.")
    return Answer(QUESTION, one_line(render("goat_lords/wilds.md.j2", **f)), model,
                  f["headline"])
