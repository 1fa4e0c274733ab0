"""The Goat Lords guide: the rules used, what happens at each table size, the answers."""

from __future__ import annotations

from analysis.report.guides.common import Guide, render
from analysis.report.guides.goat_lords import duels, first_player, play, strength, values, wilds

GUIDE = Guide(
    key="goat_lords",
    title="Goat Lords",
    intro=render("goat_lords/intro.md.j2"),
    play=(play.part,),
    questions=(first_player.answer, wilds.answer, duels.answer, values.answer, strength.answer),
)
