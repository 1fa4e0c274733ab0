"""The ¡Cobardes! guide: how to play a battle (the first combat by villain held, keep or
renew) and whether the war is fair; each question answered in its first sentence, then one
table or chart."""

from __future__ import annotations

from analysis.report.guides.cobardes import courtiers, first_player, learning, play, villains
from analysis.report.guides.common import Guide, Section
from analysis.report.templating import render

GUIDE = Guide(
    key="cobardes",
    title="¡Cobardes!",
    intro=render("cobardes/intro.md.j2"),
    sections=(
        Section("How to play", (play.first_combat_reply, play.keep_reply), play.caveat),
        Section("Is it balanced?",
                (first_player.reply, courtiers.reply, villains.reply, learning.reply),
                first_player.caveat),
    ),
)
