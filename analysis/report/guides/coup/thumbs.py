"""Coup for players: a few rules of thumb, each with the strongest agent's numbers."""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import BluffTable
from analysis.report.guides.common import GuideContext, render
from analysis.report.guides.coup import records as R
from analysis.report.guides.coup.frequencies import rows_of
from analysis.report.markdown import pct, pct_ci


def pooled(table: BluffTable, question: str, influence: int) -> float | None:
    """A question's rate over every character (weighted by its decisions)."""
    rows = [r for r in table.rows if r.question == question and r.influence == influence
            and r.coins == "any" and r.context == "any"]
    den = sum(r.decisions for r in rows)
    return sum(r.rate * r.decisions for r in rows) / den if den else None


def thumbs(table: BluffTable) -> list[str]:
    out = []
    claim = [r for (_, i, c), r in rows_of(table, "claim").items() if i == 0 and c == "any"]
    if claim:
        most, least = max(claim, key=lambda r: r.rate), min(claim, key=lambda r: r.rate)
        out.append(f"Bluff the {most.card} most and the {least.card} least: "
                   f"{pct_ci(most.rate, most.ci95, 0)} of {most.card} claims are bluffs, "
                   f"{pct_ci(least.rate, least.ci95, 0)} of {least.card} claims.")
    chal = [r for (_, i, c), r in rows_of(table, "challenge").items() if i == 0 and c == "any"]
    if chal:
        top = max(chal, key=lambda r: r.rate)
        out.append(f"Challenge the {top.card} most: {pct_ci(top.rate, top.ci95, 0)} of its "
                   "claims are challenged; challenge the others rarely ("
                   + ", ".join(f"{r.card} {pct(r.rate, 0)}" for r in
                               sorted(chal, key=lambda r: -r.rate)[1:]) + ").")
    two, one = pooled(table, "claim", 2), pooled(table, "claim", 1)
    if two is not None and one is not None:
        out.append(f"With one card left, claims are bluffs {pct(one, 0)} of the time, "
                   f"against {pct(two, 0)} with two: "
                   + ("bluff less when a caught bluff ends your game." if one < two else
                      f"a last card does not make {R.SHORT[table.agent]} bluff less."))
    blocks = [r for (_, i, c), r in rows_of(table, "block bluff").items()
              if i == 0 and c == "any"]
    if blocks:
        top = max(blocks, key=lambda r: r.rate)
        out.append(f"Blocks are bluffs too: {pct_ci(top.rate, top.ci95, 0)} of blocks with "
                   f"the {top.card} are made without it.")
    return out


def part(ctx: GuideContext) -> str:
    table = R.bluff_table()
    return render("coup/thumbs.md.j2", thumbs=thumbs(table) if table is not None else [])
