"""Coup for players: how good play changes with what the opponent has shown (caught
bluffing before or not, a character claimed before or not, one card left or two), from
the strongest 2-player agent's games. The blueprint cannot show this: it forgets who
claimed what."""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import ALL, BluffRow, BluffTable
from analysis.report.guides.common import GuideContext, render
from analysis.report.guides.coup import records as R
from analysis.report.markdown import pct_ci

MIN_DECISIONS = 30  # rows counted fewer times are left out of the tables as too noisy


def by_context(table: BluffTable, question: str) -> dict[tuple[str, int, str], BluffRow]:
    """(character or "all", cards left (0: any), context) -> row."""
    return {(r.card, r.influence, r.context): r for r in table.rows
            if r.question == question and r.context != "any" and r.coins == "any"}


def cell(rows: dict, key: tuple) -> str:
    r = rows.get(key)
    return pct_ci(r.rate, r.ci95, 0) if r is not None and r.decisions >= MIN_DECISIONS else "–"


def compare(a: BluffRow | None, b: BluffRow | None) -> str:
    """How rate ``a`` stands to ``b``: "more", "less", or "no clear difference" when the
    95% intervals overlap."""
    if a is None or b is None:
        return ""
    if a.ci95[0] > b.ci95[1]:
        return "more"
    if a.ci95[1] < b.ci95[0]:
        return "less"
    return "no clear difference"


def fact(rows: dict, key_a: tuple, key_b: tuple) -> dict | None:
    a, b = rows.get(key_a), rows.get(key_b)
    if a is None or b is None or min(a.decisions, b.decisions) < MIN_DECISIONS:
        return None
    return {"a": pct_ci(a.rate, a.ci95, 0), "b": pct_ci(b.rate, b.ci95, 0),
            "a_n": f"{a.decisions:,.0f}", "b_n": f"{b.decisions:,.0f}", "verdict": compare(a, b)}


def part(ctx: GuideContext) -> str:
    table = R.bluff_table()
    if table is None or not any(r.context != "any" for r in table.rows):
        return ""
    chal, claim = by_context(table, "challenge"), by_context(table, "claim")
    cards = sorted({c for c, _, _ in chal if c != ALL})
    chal_rows = [[c, cell(chal, (c, 0, "never caught")), cell(chal, (c, 0, "caught before")),
                  cell(chal, (c, 0, "first claim")), cell(chal, (c, 0, "claimed before"))]
                 for c in cards + [ALL]]
    cards = sorted({c for c, _, _ in claim if c != ALL})
    claim_rows = [[c, cell(claim, (c, 0, "first claim")), cell(claim, (c, 0, "claimed before")),
                   cell(claim, (c, 2, "all")), cell(claim, (c, 1, "all"))]
                  for c in cards + [ALL]]
    return render(
        "coup/shown.md.j2", who=R.SHORT[table.agent], games=f"{table.games:,}",
        chal_headers=["claim of", "claimer never caught bluffing", "claimer caught before",
                      "their first claim of it", "claimed it before"],
        chal_rows=chal_rows,
        claim_headers=["claiming", "a first claim of it", "claimed it before",
                       "with 2 cards", "with 1 card"],
        claim_rows=claim_rows,
        duke=fact(chal, ("Duke", 0, "caught before"), ("Duke", 0, "never caught")),
        caught=fact(chal, (ALL, 0, "caught before"), (ALL, 0, "never caught")),
        repeat=fact(claim, (ALL, 0, "claimed before"), (ALL, 0, "first claim")),
        last=fact(claim, (ALL, 1, "all"), (ALL, 2, "all")),
        min_decisions=MIN_DECISIONS)
