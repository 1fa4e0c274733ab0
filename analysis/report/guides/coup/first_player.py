"""Coup: does the first of two players win more often? (Ambassador deck, 1-coin rule.)

The answer is read once, by :func:`facts`, for the guide and the methods appendix alike.
Of the records that could answer it, the rule is: the most faithful measurement with an
interval first (the strongest agent against itself, seats swapped, 95% interval), then
the blueprint's own value (exact for the blueprint, with how much a best response beats
it), then the whole game's proven range."""

from __future__ import annotations

from analysis.coup.agents.best import AGENT_WORDS
from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.facts.coup.first_player import facts
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.play import paragraph
from analysis.report.markdown import pct, pct_ci, table
from analysis.report.separate import by_chance, clear_among, excludes
from analysis.report.templating import one_line, render
from games.coup.cards import DECKS

QUESTION = "Does the first player win more?"
# What an agent of a seat record was, in a few words (by the bot's kind).
KINDS = AGENT_WORDS


def method(f: dict) -> str:
    """What the 2-player answer was measured on, in plain words."""
    return one_line(render("coup/first_player_model.md.j2", **f))


def signed(value: float, ci) -> str:
    """A signed difference in points with its interval: ``-3.6 [-4.1, -3.0]``."""
    return f"{100 * value:+z.1f} [{100 * ci[0]:+z.1f}, {100 * ci[1]:+z.1f}]"


def cell(players: int, deck: str) -> tuple[str, str]:
    """Seat 1's win rate at a table and its edge (points) as table cells; "–" where not
    measured. The 2-player table is the rulebook's setup; where no seat record is stored
    the cell says what answers instead (the blueprint's play, a proven range)."""
    e = E.edge_at(players, deck)
    if e is not None:
        return (pct_ci(e.win, e.win_ci),
                signed(e.value, e.ci) if excludes(e.ci, 0.0) else "none clear")
    if players == 2:
        f = facts(deck)
        if f["source"] == "blueprint":
            return f"{f['headline']} (blueprint self-play, no interval)", "–"
        if f["source"] == "bracket":
            return f"between {pct(f['lo'])} and {pct(f['hi'])}", "–"
    return "–", "–"


def table_facts() -> dict:
    """One row per player count measured: the fair share, then seat 1's win rate and
    edge with each deck; ``ahead``/``behind`` the tables of 3 to 8 players (and deck)
    whose edge is clear."""
    counts = sorted({r.table.players for r in R.seat_records()} | {2})
    rows, clear, tables = [], [], 0
    for n in counts:
        row = [str(n), pct(1 / n)]
        for deck in DECKS:
            row += cell(n, deck)
            e = E.edge_at(n, deck)
            tables += n > 2 and e is not None
            if n > 2 and e is not None and excludes(e.ci, 0.0):
                clear.append({"players": n, "deck": deck.capitalize(),
                              "edge": signed(e.value, e.ci), "ahead": e.value > 0})
        rows.append(row)
    # The tables of 3 to 8 players are many intervals at once: an edge among them is clear
    # only where more leave the fair share out than chance alone gives (the seats' rule).
    chance = {"found": len(clear), "total": tables, "expected": by_chance(tables)[0]}
    kept = []
    for c in clear:
        if clear_among(E.edge_at(c["players"], c["deck"].lower()).ci, 0.0, tables):
            kept.append(c)
            continue
        row = rows[counts.index(c["players"])]
        at = 3 + 2 * DECKS.index(c["deck"].lower())
        row[at] = f"none clear among {tables} tables ({row[at]})"
    clear = kept
    headers = ["players", "fair share"]
    for deck in DECKS:
        headers += [f"{deck.capitalize()} deck: seat 1 wins", "edge (points)"]
    others = [n for n in counts if n > 2 and any(E.edge_at(n, d) for d in DECKS)]
    return {"rows": rows, "headers": headers, "clear": clear, "chance": chance,
            "others": E.player_counts(others) if others else ""}


def reply(ctx: GuideContext) -> Reply:
    f = facts()
    t = table_facts()
    answer, more = paragraph(render("coup/first_player.md.j2", **f, **t))
    shown = ("Seat 1 starts; 2 players: " + R.SETUP_WORDS[R.SETUP] + ".\n\n"
             + table(t["headers"], t["rows"]))
    return Reply(QUESTION, answer, shown, more, f["headline"], method(f))
