"""Goat Lords: what is one more wild (Goat Lord or Goatini) in the opening hand worth?
The answer's facts, read once for the guide and the methods appendix alike."""

from __future__ import annotations

from analysis.report.facts.goat_lords import records as R
from analysis.report.facts.goat_lords.results import extra_wild_rows
from analysis.report.markdown import pp
from analysis.report.separate import excludes


def facts(ctx) -> dict:
    """The strong agent's games once its tables are complete, else the greedy tournaments
    (played into the folder ``ctx.outdir`` of a report or a guide where missing):
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


def _rows(effects: list[tuple[int, dict]]) -> list[dict]:
    return [{"players": n, "win": e["win"][0], "ci": e["win"][1:], "games": e["games"],
             "points": e["points"]} for n, e in effects]
