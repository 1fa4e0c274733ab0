"""The ¡Cobardes! guide: the first combat by villain held, keep or renew, the answers."""

from __future__ import annotations

from analysis.report.guides.cobardes import courtiers, first_player, learning, play, villains
from analysis.report.guides.common import Guide, render

GUIDE = Guide(
    key="cobardes",
    title="¡Cobardes!",
    intro=render("cobardes/intro.md.j2"),
    play=(play.part,),
    questions=(first_player.answer, courtiers.answer, villains.answer, learning.answer),
)
