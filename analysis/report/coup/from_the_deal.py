"""Coup as people play it, from the deal: the 2-player blueprint and its accuracy, its
bluffing, and seat win rates at 2-8 players played by strong agents."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.coup import blueprint, blueprint_bluffs, seat_balance
from analysis.report.context import ReportContext
from analysis.report.guides.coup import first_player
from games.coup import cards as C


def pct(rate: float, ci) -> str:
    return f"{100 * rate:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


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
                         f"{(1 + rec['first_player_value']) / 2:.1%} | {shown} |")
    if not built:
        lines.append("\nBuild it with `farol coup blueprint build --deck ambassador` (and "
                     "`--deck inquisitor`).")
    lines.append("")
    return lines


def bluff_lines() -> list[str]:
    rows = []
    for deck in C.DECKS:
        for setup, table in blueprint_bluffs.load_tables(deck, C.SETUPS).items():
            claims = {r.card: r for r in table.rows if r.question == "claim"
                      and r.influence == 0 and r.coins == "any"}
            challenges = {r.card: r for r in table.rows if r.question == "challenge"
                          and r.influence == 0 and r.coins == "any"}
            for card in sorted(claims):
                c, ch = claims[card], challenges.get(card)
                rows.append(f"| {deck} | {setup} | {card} | {pct(c.rate, c.ci95)} | "
                            + (pct(ch.rate, ch.ci95) if ch else "-") + f" | {table.games} |")
    if not rows:
        return []
    return ["### How the blueprint bluffs\n",
            "P(bluff | claim): of the blueprint's claims of a character, the share made "
            "without it; P(challenge): how often it challenges that claim. From its games "
            "against itself, with 95% intervals.\n",
            "| deck | setup | character | P(bluff \\| claim) | P(challenge) | games |",
            "|---|---|---|---|---|---|", *rows, ""]


KINDS = first_player.KINDS


def who_plays(records) -> str:
    """The agents of the tables in a few words: each agent name, and for an alias such
    as ``best`` what it stood for at each player count."""
    parts = []
    for agent in sorted({r.agent for r in records}):
        counts: dict[str, set[int]] = {}
        for r in records:
            if r.agent == agent and r.plays:
                counts.setdefault(KINDS.get(r.plays, r.plays), set()).add(r.table.players)
        kinds = [f"{kind} at {player_counts(sorted(n))}" for kind, n in
                 sorted(counts.items(), key=lambda t: min(t[1]))]
        name = "`best`, the strongest agent" if agent == "best" else f"`{agent}`"
        parts.append(name + (f" ({'; '.join(kinds)})" if kinds else ""))
    return ", ".join(parts)


def player_counts(ns: list[int]) -> str:
    """``[2]`` -> "2 players", ``[3, 4, 5]`` -> "3 to 5 players", ``[3, 5]`` -> "3 and 5 players"."""
    if len(ns) == 1:
        return f"{ns[0]} players"
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]} players"
    return f"{', '.join(map(str, ns[:-1]))} and {ns[-1]} players"


def seat_lines(records, ctx: ReportContext) -> list[str]:
    lines = ["### Seat win rates, 2 to 8 players\n"]
    if not records:
        return lines + ["Not measured yet: run `farol coup balance`.", ""]
    lines.append(f"Each table is played by {who_plays(records)} in every seat; a seat's win "
                 "rate is given with its 95% interval, beside the fair share.\n")
    lines += ["| table | games | fair share | win rate by seat |", "|---|---|---|---|"]
    for r in records:
        seats = "; ".join(f"{s.seat + 1}: {pct(s.win_rate, s.ci95)}" for s in r.self_play.seats)
        lines.append(f"| {r.table.title} | {r.self_play.games} | "
                     f"{100 / r.table.players:.1f}% | {seats} |")
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
                         f"{pct(mine.win_rate, mine.ci95)} | {100 / r.table.players:.1f}% |")
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
        ranked = sorted(r.hands, key=lambda h: -h.win_rate)
        shown = [h for h in ranked if h.games >= 30]
        which = "hands dealt at least 30 times"
        if not shown:
            shown, which = ranked, "every hand is dealt fewer than 30 times so far"
        best = ", ".join(f"{h.hand} {pct(h.win_rate, h.ci95)}" for h in shown[:3])
        worst = ", ".join(f"{h.hand} {pct(h.win_rate, h.ci95)}" for h in shown[-3:])
        lines.append(f"- Starting hands, {r.table.title}: best {best}; worst {worst} "
                     f"({which}).")
    lines.append("")
    return lines


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
             "| deck | setup | first player wins | from |", "|---|---|---|---|"]
    for deck in C.DECKS:
        for setup in C.SETUPS:
            f = first_player.facts(deck, setup)
            if f["source"] == "missing":
                continue
            shown = (f"between {f['headline']}" if f["source"] == "bracket" else f["headline"])
            lines.append(f"| {deck} | {setup} | {shown} | {SOURCE_WORDS[f['source']]} |")
    return lines + [""]


def section_from_the_deal(ctx: ReportContext) -> str:
    lines = ["## Coup from the deal\n"]
    lines += first_player_lines()
    lines += blueprint_lines()
    lines += bluff_lines()
    lines += seat_lines(seat_balance.load_answers(), ctx)
    return "\n".join(lines)
