"""Goat Lords: does the first player (seat 1) win more than the fair share, and does any
seat at any table size?"""

from __future__ import annotations

from analysis.goat_lords.statistics import seat_win_rates
from analysis.report import svg
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.goat_lords import records as R
from analysis.report.markdown import pct, pct_ci, pp

QUESTION = "First-player advantage"


def _rows(tables) -> list[dict]:
    rows = []
    for exp, df in tables:
        seats = seat_win_rates(df).set_index("seat")
        r = seats.loc[0]
        fair = 1 / exp.players
        rows.append({"players": exp.players, "games": len(df), "edge": r.win_rate - fair,
                     "ci": (r.lo - fair, r.hi - fair), "fair_inside": r.lo <= fair <= r.hi,
                     "params": exp.game_params(), "fair": fair,
                     "seats": [(s.win_rate, (s.lo, s.hi)) for _, s in seats.sort_index().iterrows()]})
    return rows


def facts(ctx: GuideContext) -> dict:
    """The rulebook's scoring with the strong agent once its tables are complete (the
    one-round scoring beside it), else the greedy tournaments."""
    t = R.seat_tables(ctx.outdir)
    tables, other, who = t.main, _rows(t.one_round) if t.strong else [], t.who
    rows = _rows(tables)
    unfair = [f"{r['players']}p seat {k + 1}" for r in rows
              for k, (_, (lo, hi)) in enumerate(r["seats"]) if not lo <= r["fair"] <= hi]
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
                       fmt=lambda v: f"{v:+.1f}", hover=hover, vmin=-5, vmax=5, cmap="RdBu_r",
                       blank="no such seat at this table")


def answer(ctx: GuideContext) -> Answer:
    f = facts(ctx)
    rows = f["rows"]
    if not rows:
        return Answer(QUESTION, one_line(render("goat_lords/first_player.md.j2", **f)),
                      "One round, the greedy bot in every seat.", None)
    scoring = R.scoring_words(rows[0]["params"]).capitalize()
    also = " (and one round, `scoring=single`, beside it)" if f["other"] else ""
    model = f"{scoring}{also}, {f['who']}, {f['games']}; 95% intervals."
    name = ctx.save_svg(chart(rows), "seats")
    return Answer(QUESTION, one_line(render("goat_lords/first_player.md.j2", **f)), model,
                  f["headline"], f"![Goat Lords: each seat's win rate minus its fair share]({name})")
