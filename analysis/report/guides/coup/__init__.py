"""The Coup guide: how to play two players from the strongest agent's games, and the
balance answers."""

from __future__ import annotations

from analysis.report.guides.common import Guide, render
from analysis.report.guides.coup import (
    decks,
    first_player,
    frequencies,
    grid,
    hands,
    seats,
    setups,
    shown,
    thumbs,
)

GUIDE = Guide(
    key="coup",
    title="Coup",
    intro=render("coup/intro.md.j2"),
    play=(frequencies.part, grid.part, shown.part, thumbs.part),
    questions=(first_player.answer, seats.answer, hands.answer, decks.answer, setups.answer),
)
