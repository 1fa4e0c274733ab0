"""Coup as people play it, from the deal: the 2-player blueprint and its accuracy, its
bluffing, and seat win rates at 2-8 players played by strong agents."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from analysis.coup.solvers import blueprint
from analysis.coup.studies import agent_play, blueprint_bluffs, seat_balance
from analysis.report.context import ReportContext
from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import first_player
from analysis.report.facts.coup import records as R
from analysis.report.templating import fill
from games.coup import cards as C


def blueprint_lines() -> list[str]:
    rows, built = [], False
    for deck in C.DECKS:
        summary = blueprint.read_summary(deck)
        for setup in C.SETUPS:
            rec = summary.get("setups", {}).get(setup)
            built = built or rec is not None
            rows.append((deck, setup, rec, None if rec is None
                         else blueprint.accuracy(summary, setup).text()))
    return [fill("coup/appendix/deal/blueprint.md.j2", rows=rows, built=built)]


def _rate_rows(tables) -> list[tuple]:
    """One row per deck, setup and character: P(bluff | claim) and P(challenge), each with
    its 95% interval, over all the decisions at any coins with both cards in hand, whatever
    the opponent had shown; with the agent that played, in words."""
    rows = []
    for table in tables:
        claims, challenges = _overall(table, "claim"), _overall(table, "challenge")
        agent = R.SHORT.get(table.agent, table.agent)
        rows += [(table, agent, card, claims[card], challenges.get(card))
                 for card in sorted(claims)]
    return rows


def _overall(table, question: str) -> dict:
    """Each character's row for ``question`` (and all characters' together, in the agents'
    tables): both cards in hand, any coins, whatever the opponent had shown. That is the
    context "any" of every table, or "all" where only the rates by context pool the
    characters; a row by one context (a first claim, say) is not the character's rate."""
    rows = [r for r in table.rows if r.question == question and r.influence == 0
            and r.coins == "any" and r.context in ("any", blueprint_bluffs.ALL)]
    return {r.card: r for r in sorted(rows, key=lambda r: r.context == "any")}  # "any" wins


def agent_bluff_lines() -> list[str]:
    """The rates of the 2-player agents that remember claims, from their self-play tables
    where stored, and which tables the re-solving agent has not played yet."""
    stored = [t for d in C.DECKS for t in agent_play.load_tables(d, C.SETUPS).values()]
    if not stored:
        return []
    played = {(t.deck, t.setup) for t in stored if t.agent == "resolve"}
    return [fill("coup/appendix/deal/agent_bluffs.md.j2", rows=_rate_rows(stored),
                 missing=[f"{d} {s}" for d in C.DECKS for s in C.SETUPS
                          if (d, s) not in played])]


def bluff_lines() -> list[str]:
    tables = [t for deck in C.DECKS
              for t in blueprint_bluffs.load_tables(deck, C.SETUPS).values()]
    rows = _rate_rows(tables)
    blueprint_part = [fill("coup/appendix/deal/blueprint_bluffs.md.j2", rows=rows)] if rows else []
    return agent_bluff_lines() + blueprint_part


def seat_lines(records, ctx: ReportContext) -> list[str]:
    if not records:
        return [fill("coup/appendix/deal/seats.md.j2", rows=[])[:-1]]
    rows = [(r, E.cost_words(r.cpu_seconds), E.edge(r).words) for r in records]
    fig = seat_chart(records)
    chart = ctx.save_figure(fig, "seat_win_rates") if fig is not None else ""
    robust = []
    for r in records:
        for m in r.robustness:
            robust.append((r, m, next(t for t in m.totals() if t.agent == r.agent)))
    hands = []
    for r in records:
        if not r.hands:
            continue
        shown = E.ranked_hands(r)
        which = f"hands dealt at least {E.MIN_DEALS} times"
        if not shown:
            shown = sorted(r.hands, key=lambda h: (-h.win_rate, h.hand))
            which = f"every hand is dealt fewer than {E.MIN_DEALS} times so far"
        n = E.SHOWN_HANDS
        low = shown[max(n, len(shown) - n):]  # the weakest, none of them among the best
        hands.append((r, shown[:n], low, which, E.within(shown[:n] + low)))
    text = fill("coup/appendix/deal/seats.md.j2", rows=rows, who=E.who_plays(records),
                chart=chart, robust=robust,
                short=[(r, m, mine) for r, m, mine in robust
                       if mine.ci95[0] <= 1 / r.table.players], hands=hands)
    return [text[:-1]] + difference_lines()


def difference_lines() -> list[str]:
    """Deck against deck and setup against setup: the difference of the first player's
    edge, with its 95% interval."""
    rows = [("Ambassador minus Inquisitor", d) for d in E.deck_differences()]
    for deck in C.DECKS:
        rows += [(f"{deck.capitalize()}, {E.SETUP_SHORT[d.a.table.setup]} minus "
                  f"{E.SETUP_SHORT[d.b.table.setup]}", d) for d in E.setup_differences(deck)]
    if not rows:
        return []
    return [fill("coup/appendix/deal/differences.md.j2", rows=[
        (what, E.table_words(d.a.table), E.points(d.a.value, d.a.ci),
         E.points(d.b.value, d.b.ci), E.points(d.value, d.ci), d.words) for what, d in rows])]


def seat_chart(records) -> Figure | None:
    """Each seat's win rate minus the fair share, with its 95% interval, per table."""
    if not records:
        return None
    fig = Figure(figsize=(11, 0.9 + 0.45 * len(records)))
    ax = fig.add_subplot(1, 1, 1)
    y = 0
    ticks, labels = [], []
    for r in records:
        n = r.table.players
        for s in r.self_play.seats:
            lo, hi = s.ci95
            ax.errorbar(100 * (s.win_rate - 1 / n), y, xerr=[[100 * (s.win_rate - lo)],
                                                             [100 * (hi - s.win_rate)]],
                        fmt="o", color=f"C{s.seat % 10}", ms=4)
            y += 1
        ticks.append(y - (n + 1) / 2)
        labels.append(r.table.title)
        y += 1
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(np.array(ticks), labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("win rate minus the fair share (percentage points; seats in order, "
                  "seat 1 on top of each table)")
    ax.set_ylabel("table")
    ax.set_title("Coup seat win rates (95% intervals)")
    return fig


SOURCE_WORDS = {"seats": "self-play with seats swapped, 95% interval",
                "blueprint": "the blueprint's own value, exact for the blueprint, no interval",
                "bracket": "the whole game's proven range"}


def first_player_lines() -> list[str]:
    """The guide's answer, read by the same function: for each deck and setup, the most
    faithful measurement with an interval."""
    rows = [(deck, setup, f) for deck in C.DECKS for setup in C.SETUPS
            if (f := first_player.facts(deck, setup))["source"] != "missing"]
    return [fill("coup/appendix/deal/first_player.md.j2", rows=rows,
                 source_words=SOURCE_WORDS)]


def section_from_the_deal(ctx: ReportContext) -> str:
    lines = ["## Coup from the deal\n"]
    lines += first_player_lines()
    lines += blueprint_lines()
    lines += bluff_lines()
    lines += seat_lines(seat_balance.load_answers(), ctx)
    lines += variance_lines()
    return "\n".join(lines)


DUPLICATE_BENCHMARK = Path("benchmarks/results/coup_duplicate_deals.json")


def variance_lines(path: Path = DUPLICATE_BENCHMARK) -> list[str]:
    """What duplicate deals and the control variate buy: the variance factors measured on
    the same number of games (``benchmarks/coup_duplicate_deals.py``)."""
    try:
        bench = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    return [fill("coup/appendix/deal/variance.md.j2", bench=bench)]
