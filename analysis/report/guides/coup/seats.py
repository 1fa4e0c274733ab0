"""Coup: at 3 to 8 players, does any seat win more than its share? (The first player's
edge at 2 players is the first-player answer's.)"""

from __future__ import annotations

from analysis.report import svg
from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.play import paragraph
from analysis.report.markdown import pct, pct_ci
from analysis.report.separate import by_chance, excludes
from analysis.report.templating import render
from games.coup.cards import DECKS

QUESTION = "Does any seat win more at 3 to 8 players?"


def facts(deck: str = R.DECK) -> dict:
    rows = []
    for players in range(3, 9):
        rec = R.seat_record(players, deck)
        if rec is None:
            continue
        seats = sorted(rec.self_play.seats, key=lambda s: s.seat)
        rows.append({"players": players, "fair": 1 / players, "seats": seats,
                     "first": seats[0], "edge": E.edge(rec), "games": rec.self_play.games,
                     "agent": rec.agent, "rec": rec,
                     "label": f"{deck.capitalize()}, {players} players"})
    unfair = [f"{r['players']} players seat {s.seat + 1} ({pct_ci(s.win_rate, s.ci95)})"
              for r in rows for s in r["seats"] if excludes(s.ci95, r["fair"])]
    headline = "; ".join(f"{r['players']} players: **{pct_ci(r['first'].win_rate, r['first'].ci95)}**"
                         for r in rows) or None
    total = sum(r["players"] for r in rows)
    return {"rows": rows, "unfair": unfair, "total": total, "command": R.BALANCE,
            "headline": headline, "deck": deck}


def chart(rows: list[dict]) -> str:
    """Each seat's win rate minus its fair share, by player count (hover: the interval)."""
    width = max(r["players"] for r in rows)
    values = [[(r["seats"][k].win_rate - r["fair"]) * 100 if k < r["players"] else None
               for k in range(width)] for r in rows]

    def hover(i: int, j: int, v: float) -> str:
        s, r = rows[i]["seats"][j], rows[i]
        return (f"{r['label']}, seat {j + 1}: wins {pct_ci(s.win_rate, s.ci95)} "
                f"of {r['games']} games (fair {pct(r['fair'])})")

    return svg.heatmap(values, [r["label"] for r in rows],
                       [f"seat {k + 1}" for k in range(width)],
                       title="Coup: win rate minus the fair share (percentage points)",
                       xlabel="seat (seat 1 starts)", ylabel="table",
                       fmt=lambda v: f"{v:+z.1f}", hover=hover, vmin=-5, vmax=5, cmap="RdBu_r")


def model(rows: list[dict], decks: list[str]) -> str:
    """What the seat answer was measured on, in words, with who played and what it cost."""
    recs = [r["rec"] for r in rows]
    games = sorted({r["games"] for r in rows})
    count = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,}-{games[-1]:,}"
    named = " and ".join(d.capitalize() for d in decks)
    cost, clocked = E.total_cost(recs)
    spent = ""
    if cost:
        spent = (f" ({cost} in all)" if clocked == len(recs) else
                 f" ({cost} for the {clocked} of {len(recs)} tables timed)")
    over = any(r.duplicate for r in recs)
    return (f"The whole game, {named} deck{'s' if len(decks) > 1 else ''}, every seat played "
            f"by {E.who_plays(recs)}, {count} games a table{spent}; 95% intervals"
            + (" (over deals where each deal is played from every seat)" if over else "")
            + "; the edge is seat 1's win rate minus the fair share.")


def reply(ctx: GuideContext) -> Reply:
    measured = [f for f in (facts(deck) for deck in DECKS) if f["rows"]]
    if not measured:
        return Reply(QUESTION, f"Not measured yet: run `{R.BALANCE}`.")
    rows = [r for f in measured for r in f["rows"]]
    unfair = [f"{f['deck'].capitalize()} deck, {u}" for f in measured for u in f["unfair"]]
    total = sum(f["total"] for f in measured)
    expected, most = by_chance(total)
    answer, more = paragraph(render("seats_by_chance.md.j2", unfair=unfair, total=total,
                                    expected=expected, most=most))
    name = ctx.save_svg(chart(rows), "seats")
    return Reply(QUESTION, answer,
                 f"![Coup: each seat's win rate minus its fair share]({name})", more,
                 f"{len(unfair)} of {total} seat", model(rows, [f["deck"] for f in measured]))
