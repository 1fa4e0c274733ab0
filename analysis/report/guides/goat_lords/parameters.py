"""Goat Lords: the rules the guide's numbers were played with (for the methods appendix)."""

from __future__ import annotations

from analysis.goat_lords.studies.plan import SCORINGS
from analysis.report.facts.goat_lords import records as R
from analysis.report.guides.common import GuideContext
from analysis.report.markdown import table
from analysis.shared.params import game_parameter_spec

VALUE_KINDS = ("goat_lord", "goatini", "goatacorn", "dragon", "kraken", "ninja", "tgoat",
               "fairy", "ghoast", "ladypug", "foodie", "fainting")


def parameter_rows(ctx: GuideContext) -> list[list[str]]:
    """The parameters the tournaments and the strongest agent's matches were played with."""
    spec = game_parameter_spec(R.GAME)
    greedy = R.greedy_tables(ctx.outdir)
    tour = spec | (greedy[0][0].game_params() if greedy else {})
    match = next((m for _, m in R.matches() if m.games >= R.MIN_GAMES), None)
    played = spec | (match.params if match else {})

    def values(p: dict) -> str:
        return "/".join(str(p[f"value_{k}"]) for k in VALUE_KINDS)

    rows = [["scoring of the greedy bots' tournaments", R.scoring_words(tour)],
            ["players", ", ".join(str(e.players) for e, _ in greedy) or "–"],
            ["duel answer (`duel_answer`)", f"`{tour['duel_answer']}`"],
            ["point values, Goat Lord/Goatini/Goat-a-Corn/the nine others", values(tour)]]
    if match is not None:
        rows.insert(1, ["scoring of the strongest agent's matches", R.scoring_words(played)])
    # Each answer switches to the strong agent's games on its own (the wild per scoring).
    parts = [("seats", None), *(("extra_wild", s) for s in SCORINGS), ("sensitivity", None)]
    strong = [R.strong_group(g, label) for g, label in parts]
    strong = [tables for tables in strong if tables is not None]
    if strong:
        scorings = sorted({exp.game_params()["scoring"] for tables in strong for exp, _ in tables})
        rows.insert(1, ["scoring of the answers from the strong agent's games",
                        "; ".join(R.scoring_words({"scoring": s}) for s in scorings)])
    return rows


def note(ctx: GuideContext) -> str:
    return ("The rules the numbers were played with (the point values are an assumption: the "
            "rules leave them open):\n\n" + table(["parameter", "value"], parameter_rows(ctx)))
