"""Goat Lords: does the first player (seat 1) win more than the fair share, and does any
seat at any table size?"""

from __future__ import annotations

from analysis.goat_lords.studies.statistics import seat_win_rates
from analysis.report import svg
from analysis.report.facts.goat_lords import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.goat_lords.play import paragraph
from analysis.report.markdown import pct, pct_ci, pp, table
from analysis.report.separate import by_chance, excludes
from analysis.report.templating import render

QUESTION = "Does the first player win more?"
SEATS = "Does any seat win more?"


def _rows(tables) -> list[dict]:
    rows = []
    for exp, df in tables:
        seats = seat_win_rates(df).set_index("seat")
        r = seats.loc[0]
        fair = 1 / exp.players
        rows.append({"players": exp.players, "games": len(df), "edge": r.win_rate - fair,
                     "ci": (r.lo - fair, r.hi - fair), "fair_inside": not excludes((r.lo, r.hi), fair),
                     "params": exp.game_params(), "fair": fair,
                     "seats": [(s.win_rate, (s.lo, s.hi)) for _, s in seats.sort_index().iterrows()]})
    return rows


def facts(ctx: GuideContext) -> dict:
    """The rulebook's scoring with the strong agent once its tables are complete (the
    one-round scoring beside it), else the greedy tournaments."""
    t = R.seat_tables(ctx.outdir)
    tables, other, who = t.main, _rows(t.one_round) if t.strong else [], t.who
    rows = _rows(tables)
    unfair = [f"{r['players']} players seat {k + 1} ({pct_ci(rate, ci)})" for r in rows
              for k, (rate, ci) in enumerate(r["seats"]) if excludes(ci, r["fair"])]
    headline = "; ".join(f"{r['players']}p {pp(r['edge'])}" for r in rows) or None
    total = sum(r["players"] for r in rows)
    return {"rows": rows, "other": other, "unfair": unfair, "total": total,
            "headline": headline, "who": who, "games": R.games_words(tables)}


def chart(rows: list[dict]) -> str:
    """Each seat's win rate minus its fair share, by player count (hover: the interval)."""
    width = max(r["players"] for r in rows)
    values = [[100 * (r["seats"][k][0] - r["fair"]) if k < r["players"] else None
               for k in range(width)] for r in rows]

    def hover(i: int, j: int, v: float) -> str:
        r = rows[i]
        rate, ci = r["seats"][j]
        return (f"{r['players']} players, seat {j + 1}: wins {pct_ci(rate, ci)} of "
                f"{r['games']:,} games (fair {pct(r['fair'])})")

    return svg.heatmap(values, [f"{r['players']} players" for r in rows],
                       [f"seat {k + 1}" for k in range(width)],
                       title="Goat Lords: win rate minus the fair share (percentage points)",
                       xlabel="seat (seat 1 starts)", ylabel="table",
                       fmt=lambda v: f"{v:+z.1f}", hover=hover, vmin=-5, vmax=5, cmap="RdBu_r",
                       blank="no such seat at this table")


def model(f: dict) -> str:
    rows = f["rows"]
    if not rows:
        return "One round, the greedy bot in every seat."
    scoring = R.scoring_words(rows[0]["params"]).capitalize()
    also = " (and one round, `scoring=single`, beside it)" if f["other"] else ""
    return f"{scoring}{also}, {f['who']}, {f['games']}; 95% intervals."


def reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    if not f["rows"]:
        return Reply(QUESTION, f"Not measured yet: run `{R.PLAN}` (it plays the missing games).")
    one_round = {r["players"]: r for r in f["other"]}
    main = R.scoring_words(f["rows"][0]["params"]).startswith("rounds")
    headers = ["players", "fair share",
               "rulebook's game: seat 1 − fair share" if main else "seat 1 − fair share"]
    if one_round:
        headers.append("one round: seat 1 − fair share")
    rows = []
    for r in f["rows"]:
        row = [str(r["players"]), pct(r["fair"]), pp(r["edge"], r["ci"])]
        if one_round:
            o = one_round.get(r["players"])
            row.append(pp(o["edge"], o["ci"]) if o else "–")
        rows.append(row)
    answer, more = paragraph(render("goat_lords/first_player.md.j2", rows=f["rows"],
                                    other=f["other"], main=main))
    return Reply(QUESTION, answer, table(headers, rows), more, rows[0][2], model(f))


def seats_reply(ctx: GuideContext) -> Reply:
    f = facts(ctx)
    if not f["rows"]:
        return Reply(SEATS, f"Not measured yet: run `{R.PLAN}` (it plays the missing games).")
    expected, most = by_chance(f["total"])
    answer, more = paragraph(render("seats_by_chance.md.j2", unfair=f["unfair"],
                                    total=f["total"], expected=expected, most=most))
    name = ctx.save_svg(chart(f["rows"]), "seats")
    return Reply(SEATS, answer,
                 f"![Goat Lords: each seat's win rate minus its fair share]({name})", more,
                 f"{len(f['unfair'])} of {f['total']} seat", model(f))
