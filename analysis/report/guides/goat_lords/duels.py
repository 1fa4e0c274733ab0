"""Goat Lords: do duels favour the attacker or the defender?"""

from __future__ import annotations

from analysis.goat_lords.studies.statistics import duel_success, game_length
from analysis.report.facts.goat_lords import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.markdown import pct, pct_ci, table
from analysis.report.separate import excludes
from analysis.report.templating import render

QUESTION = "Do duels favour the attacker?"


def _rows(tables) -> list[dict]:
    rows = []
    for exp, df in tables:
        d = duel_success(df)
        rows.append({"players": exp.players, "rate": d["attacker_rate"], "ci": (d["lo"], d["hi"]),
                     "per_game": d["per_game"], "games": len(df), "params": exp.game_params(),
                     "turns": game_length(df)["turns"]})
    return rows


def facts(ctx: GuideContext) -> dict:
    """The rulebook's scoring with the strong agent once its tables are complete (one
    round beside it), else the greedy tournaments."""
    t = R.seat_tables(ctx.outdir)
    rows, other = _rows(t.main), _rows(t.one_round) if t.strong else []
    headline = "; ".join(f"{r['players']}p {pct(r['rate'])}" for r in rows) or None
    both = rows + other
    side = ("attacker" if both and all(excludes(r["ci"], 0.5) and r["rate"] > 0.5 for r in both)
            else "defender" if both and all(excludes(r["ci"], 0.5) and r["rate"] < 0.5
                                            for r in both) else None)
    return {"rows": rows, "other": other, "side": side, "headline": headline, "who": t.who,
            "games": R.games_words(t.main)}


def model(f: dict) -> str:
    rows = f["rows"]
    also = " (and one round, `scoring=single`, beside it)" if f["other"] else ""
    return (f"{R.scoring_words(rows[0]['params']).capitalize()}{also}, {f['who']}, "
            f"{f['games']}; 95% intervals clustered by game." if rows else
            "One round, greedy bots.")


def reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    rows = f["rows"]
    if not rows:
        return Reply(QUESTION, f"Not measured yet: run `{R.PLAN}` (it plays the missing games).")
    one_round = {r["players"]: r for r in f["other"]}
    headers = ["players", "attacker wins a duel"] + (
        ["in one round", "duels a round", "turns a round"] if one_round else [])
    lines = []
    for r in rows:
        line = [str(r["players"]), pct_ci(r["rate"], r["ci"])]
        if one_round:
            o = one_round.get(r["players"])
            line += [pct_ci(o["rate"], o["ci"]), f"{o['per_game']:z.0f}", f"{o['turns']:z.0f}"] \
                if o else ["–", "–", "–"]
        lines.append(line)
    answer, more = paragraph(render("goat_lords/duels.md.j2", **f))
    return Reply(QUESTION, answer, table(headers, lines), more, lines[0][1], model(f))
