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
from analysis.report.guides.coup import edges as E
from analysis.report.guides.coup import first_player
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.edges import player_counts, who_plays  # noqa: F401
from games.coup import cards as C


def pct(rate: float, ci) -> str:
    return f"{100 * rate:z.1f}% [{100 * ci[0]:z.1f}, {100 * ci[1]:z.1f}]"


def blueprint_lines() -> list[str]:
    lines = ["### Two players: the blueprint\n",
             "The blueprint is a strategy for the whole 2-player game from the deal, computed "
             "by CFR+ on every position of the game; a player's choice depends on their own "
             "cards and the public position (not on the order of past claims). How much a best "
             "response could beat it is measured from below: the true figure is at least "
             "that.\n",
             "The blueprint's own value for the first player (column 4) is exact for the "
             "blueprint and has no interval; it is not the first player's edge the guide "
             "gives, which is read from play with a 95% interval (see *The first player's "
             "edge, 2 players* below).\n",
             "| deck | setup | iterations | the blueprint's own value for the first player "
             "(no interval) | how much a best response wins more, from below (win "
             "probability) |",
             "|---|---|---|---|---|"]
    built = False
    for deck in C.DECKS:
        summary = blueprint.read_summary(deck)
        for setup in C.SETUPS:
            rec = summary.get("setups", {}).get(setup)
            if rec is None:
                lines.append(f"| {deck} | {setup} | not built yet | | |")
                continue
            built = True
            shown = blueprint.accuracy(summary, setup).text()
            lines.append(f"| {deck} | {setup} | {rec['iterations']} | "
                         f"{(1 + rec['first_player_value']) / 2:z.1%} | {shown} |")
    if not built:
        lines.append("\nBuild it with `farol coup blueprint build --deck ambassador` (and "
                     "`--deck inquisitor`).")
    lines.append("")
    return lines


def _rate_rows(tables, who: bool = False) -> list[str]:
    """One row per deck, setup and character: P(bluff | claim) and P(challenge), each with
    its 95% interval, over all the decisions at any coins with both cards in hand, whatever
    the opponent had shown (and the agent that played, if ``who``)."""
    rows = []
    for table in tables:
        claims, challenges = _overall(table, "claim"), _overall(table, "challenge")
        agent = f" | {R.SHORT.get(table.agent, table.agent)}" if who else ""
        for card in sorted(claims):
            c, ch = claims[card], challenges.get(card)
            rows.append(f"| {table.deck} | {table.setup}{agent} | {card} | "
                        f"{pct(c.rate, c.ci95)} | " + (pct(ch.rate, ch.ci95) if ch else "-")
                        + f" | {table.games} |")
    return rows


def _overall(table, question: str) -> dict:
    """Each character's row for ``question`` (and all characters' together, in the agents'
    tables): both cards in hand, any coins, whatever the opponent had shown. That is the
    context "any" of every table, or "all" where only the rates by context pool the
    characters; a row by one context (a first claim, say) is not the character's rate."""
    rows = [r for r in table.rows if r.question == question and r.influence == 0
            and r.coins == "any" and r.context in ("any", blueprint_bluffs.ALL)]
    return {r.card: r for r in sorted(rows, key=lambda r: r.context == "any")}  # "any" wins


def _header(who: bool = False) -> list[str]:
    agent = (" agent |", "---|") if who else ("", "")
    return [f"| deck | setup |{agent[0]} character | P(bluff \\| claim) | P(challenge) | games |",
            f"|---|---|{agent[1]}---|---|---|---|"]


def agent_bluff_lines() -> list[str]:
    """The rates of the 2-player agents that remember claims, from their self-play tables
    where stored, and which tables the re-solving agent has not played yet."""
    stored = [t for d in C.DECKS for t in agent_play.load_tables(d, C.SETUPS).values()]
    if not stored:
        return []
    played = {(t.deck, t.setup) for t in stored if t.agent == "resolve"}
    missing = [f"{d} {s}" for d in C.DECKS for s in C.SETUPS if (d, s) not in played]
    lines = ["### How the agents that remember claims bluff\n",
             "From each table's self-play games: the re-solving agent's (`best` at 2 "
             "players) where it has played the table, else the belief agent's; their measured "
             "strength is in the guide. P(bluff | claim): of the agent's claims of a "
             "character, the share made without it; P(challenge): how often it challenges "
             "that claim. With both cards in hand, at any coins, with 95% intervals.\n",
             *_header(who=True), *_rate_rows(stored, who=True), ""]
    if missing:
        lines.append("Not yet played by the re-solving agent: " + ", ".join(missing)
                     + " (`farol coup play-tables --agent resolve --decks DECK --setups "
                     "SETUP`).\n")
    return lines


def bluff_lines() -> list[str]:
    tables = [t for deck in C.DECKS
              for t in blueprint_bluffs.load_tables(deck, C.SETUPS).values()]
    rows = _rate_rows(tables)
    blueprint_part = [
        "### How the blueprint bluffs\n",
        "P(bluff | claim): of the blueprint's claims of a character, the share made "
        "without it; P(challenge): how often it challenges that claim. From its games "
        "against itself, with 95% intervals. The blueprint forgets who claimed what, so "
        "these rates are a weaker player's, kept for comparison.\n",
        *_header(), *rows, ""] if rows else []
    return agent_bluff_lines() + blueprint_part


def seat_lines(records, ctx: ReportContext) -> list[str]:
    lines = ["### Seat win rates, 2 to 8 players\n"]
    if not records:
        return lines + ["Not measured yet: run `farol coup balance`.", ""]
    lines.append(f"Each table is played by {who_plays(records)} in every seat; a seat's win "
                 "rate is given with its 95% interval, beside the fair share.\n")
    lines += ["The first player's edge is seat 1's win rate minus the fair share, with its 95% "
              "interval; where the interval holds 0, the largest edge it allows. The games "
              "column gives the processor time of the tables whose games were timed.\n",
              "| table | games | fair share | first player's edge | win rate by seat |",
              "|---|---|---|---|---|"]
    for r in records:
        seats = "; ".join(f"{s.seat + 1}: {pct(s.win_rate, s.ci95)}" for s in r.self_play.seats)
        cost = E.cost_words(r.cpu_seconds)
        lines.append(f"| {r.table.title} | {r.self_play.games:,}{', ' + cost if cost else ''} | "
                     f"{100 / r.table.players:z.1f}% | {E.edge(r).words} | {seats} |")
    lines.append("")
    fig = seat_chart(records)
    if fig is not None:
        lines += [f"![Seat win rates minus the fair share]({ctx.save_figure(fig, 'seat_win_rates')})",
                  ""]
    robust = [(r, m) for r in records for m in r.robustness]
    if robust:
        lines += ["Against tables of one panel agent (the strong agent in one seat, seats "
                  "rotated):\n", "| table | opponents | games | strong agent wins | fair share |",
                  "|---|---|---|---|---|"]
        short = []
        for r, m in robust:
            mine = next(t for t in m.totals() if t.agent == r.agent)
            lines.append(f"| {r.table.title} | {m.seats[-1].agent} | {mine.games} | "
                         f"{pct(mine.win_rate, mine.ci95)} | {100 / r.table.players:z.1f}% |")
            if mine.ci95[0] <= 1 / r.table.players:
                short.append(f"{m.seats[-1].agent} at {r.table.title} "
                             f"({pct(mine.win_rate, mine.ci95)})")
        lines.append("")
        if short:
            lines.append("Where the strong agent's interval does not clear the fair share, it "
                         "is not shown to beat that table: " + "; ".join(short) + ". A "
                         "blueprint is beaten by up to its measured exploitability (above), "
                         "and a fixed strategy can find that margin.\n")
        else:
            lines.append("The strong agent's interval is above the fair share against every "
                         "table.\n")
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
        best = ", ".join(f"{h.hand} {pct(h.win_rate, h.ci95)}" for h in shown[:n])
        worst = ", ".join(f"{h.hand} {pct(h.win_rate, h.ci95)}" for h in low)
        wide = E.within(shown[:n] + low)
        lines.append(f"- Starting hands, {r.table.title}: best {best}"
                     + (f"; worst {worst}" if low else "")
                     + f" ({which}; each to within ±{wide:z.1f} points).")
    lines.append("")
    return lines + difference_lines()


def difference_lines() -> list[str]:
    """Deck against deck and setup against setup: the difference of the first player's
    edge, with its 95% interval."""
    rows = [("Ambassador minus Inquisitor", d) for d in E.deck_differences()]
    for deck in C.DECKS:
        rows += [(f"{deck.capitalize()}, {E.SETUP_SHORT[d.a.table.setup]} minus "
                  f"{E.SETUP_SHORT[d.b.table.setup]}", d) for d in E.setup_differences(deck)]
    if not rows:
        return []
    lines = ["### The first player's edge compared\n",
             "Deck against deck and setup against setup: one table's first-player edge minus "
             "the other's. The two tables' games are independent, so the difference's 95% "
             "interval combines their intervals (each interval's standard error is its "
             "half-width over 1.96; the two add in squares).\n",
             "| compared | table | first player's edge | other's edge | difference | in words |",
             "|---|---|---|---|---|---|"]
    for what, d in rows:
        lines.append(f"| {what} | {E.table_words(d.a.table)} | {E.points(d.a.value, d.a.ci)} | "
                     f"{E.points(d.b.value, d.b.ci)} | {E.points(d.value, d.ci)} | {d.words} |")
    return lines + [""]


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
    lines = ["### The first player's edge, 2 players\n",
             "The answer the guide gives, for every deck and setup: of the records that "
             "could answer it, the most faithful measurement with an interval (the strongest "
             "agent against itself, seats swapped), else the blueprint's own value, else the "
             "whole game's proven range.\n",
             "| deck | setup | first player wins | edge over the fair 50% | from |",
             "|---|---|---|---|---|"]
    for deck in C.DECKS:
        for setup in C.SETUPS:
            f = first_player.facts(deck, setup)
            if f["source"] == "missing":
                continue
            shown = (f"between {f['headline']}" if f["source"] == "bracket" else f["headline"])
            edge = f["edge"].words if f["source"] == "seats" else ""
            lines.append(f"| {deck} | {setup} | {shown} | {edge} | {SOURCE_WORDS[f['source']]} |")
    return lines + [""]


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
    lines = ["### Why duplicate deals\n",
             "Each shuffled deal is played once in every rotation of the seats (the same "
             "hands, court order and later draws), so the luck of the deal falls on every "
             "seat alike and the intervals are taken over deals. Measured on the same number "
             "of games, plain against duplicate (`benchmarks/coup_duplicate_deals.py`, seed "
             f"{bench['seed']}), the variance of the seat comparison shrinks by:\n",
             "| agents | games | duplicate deals: variance factor | control variate on top |",
             "|---|---|---|---|"]
    for x in bench["lines"]:
        lo, hi = x["duplicate_factor_ci95"]
        clo, chi = x["cv_factor_ci95"]
        lines.append(f"| {x['agent']} ×{x['players']} | {x['games']:,} ({x['deals']:,} deals) | "
                     f"{x['duplicate_factor']:z.2f} [{lo:z.2f}, {hi:z.2f}] | "
                     f"{x['cv_factor']:z.3f} [{clo:z.3f}, {chi:z.3f}] |")
    kept = "kept" if bench["control_variate_pays"] else "not kept: it does not pay"
    lines += ["", "A factor of 2 halves the games an interval of a given width needs; near "
              "1, duplicate deals buy little. The control variate (each starting hand's win "
              f"rate in each seat as a baseline) is {kept} (a factor above 1 on every line and intervals 5% "
              "narrower were asked of it).", ""]
    return lines
