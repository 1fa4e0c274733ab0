"""Goat Lords: do duels favour the attacker or the defender?"""

from __future__ import annotations

from analysis.goat_lords.statistics import duel_success
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pct

QUESTION = "Duels: attacker or defender"


def facts(ctx: GuideContext) -> dict:
    """The rulebook's scoring with the strong agent once its tables are complete, else the
    greedy tournaments."""
    strong = R.strong_group("seats")
    if strong is not None:
        tables, who = [(e, df) for e, df in strong if e.label == "rounds"], R.strong_words()
    else:
        tables, who = R.greedy_tables(ctx.outdir), "the greedy bot in every seat"
    rows = []
    for exp, df in tables:
        d = duel_success(df)
        rows.append({"players": exp.players, "rate": d["attacker_rate"], "ci": (d["lo"], d["hi"]),
                     "per_game": d["per_game"], "games": len(df), "params": exp.game_params()})
    headline = "; ".join(f"{r['players']}p {pct(r['rate'])}" for r in rows) or None
    side = ("attacker" if rows and all(r["ci"][0] > 0.5 for r in rows) else
            "defender" if rows and all(r["ci"][1] < 0.5 for r in rows) else None)
    return {"rows": rows, "side": side, "headline": headline, "who": who,
            "games": R.games_words({e.players: len(df) for e, df in tables}) if tables else ""}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    model = (f"{R.scoring_words(rows[0]['params']).capitalize()}, {f['who']}, {f['games']}; "
             "95% intervals." if rows else "One round, greedy bots.")
    return Answer(QUESTION, one_line(render("goat_lords/duels.md.j2", **f)), model,
                  f["headline"])
