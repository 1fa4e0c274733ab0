"""Goat Lords: do duels favour the attacker or the defender?"""

from __future__ import annotations

from analysis.goat_lords.statistics import duel_success
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pct

QUESTION = "Duels: attacker or defender"


def _rows(tables) -> list[dict]:
    rows = []
    for exp, df in tables:
        d = duel_success(df)
        rows.append({"players": exp.players, "rate": d["attacker_rate"], "ci": (d["lo"], d["hi"]),
                     "per_game": d["per_game"], "games": len(df), "params": exp.game_params()})
    return rows


def facts(ctx: GuideContext) -> dict:
    """The rulebook's scoring with the strong agent once its tables are complete (one
    round beside it), else the greedy tournaments."""
    t = R.seat_tables(ctx.outdir)
    rows, other = _rows(t.main), _rows(t.one_round) if t.strong else []
    headline = "; ".join(f"{r['players']}p {pct(r['rate'])}" for r in rows) or None
    both = rows + other
    side = ("attacker" if both and all(r["ci"][0] > 0.5 for r in both) else
            "defender" if both and all(r["ci"][1] < 0.5 for r in both) else None)
    return {"rows": rows, "other": other, "side": side, "headline": headline, "who": t.who,
            "games": R.games_words(t.main)}


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    also = " (and one round, `scoring=single`, beside it)" if f["other"] else ""
    model = (f"{R.scoring_words(rows[0]['params']).capitalize()}{also}, {f['who']}, "
             f"{f['games']}; 95% intervals." if rows else "One round, greedy bots.")
    return Answer(QUESTION, one_line(render("goat_lords/duels.md.j2", **f)), model,
                  f["headline"])
