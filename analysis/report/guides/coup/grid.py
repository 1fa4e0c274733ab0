"""Coup for players: the range grid, what the strongest agent does on its turn with each
hand."""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import BluffTable
from analysis.report.markdown import pct

MOVES = ("Income", "Foreign Aid", "Tax", "Steal", "Assassinate", "Exchange", "Examine", "Coup")


def turn_grid(table: BluffTable) -> tuple[list[str], list[list[str]]]:
    """Headers and rows: for each two-card hand, the share of turns each move is made
    (hands held at fewer than 30 turns are left out as too noisy)."""
    cells = {(r.hand, r.move): r for r in table.grid if r.situation == "your turn"}
    moves = [m for m in MOVES if any(move == m for _, move in cells)]
    hands = sorted({h for h, _ in cells if "+" in h
                    and cells[(h, moves[0])].decisions >= 30})
    rows = [[h] + [pct(cells[(h, m)].rate, 0) if (h, m) in cells else "–" for m in moves]
            for h in hands]
    return ["hand held"] + moves, rows
