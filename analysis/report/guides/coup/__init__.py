"""The Coup guide: how strong players play 2-player Coup and 3-6 player Coup, from the
strongest agent's games, and whether the game is balanced; each question answered in its first sentence, then
one table or chart."""

from __future__ import annotations

from analysis.report.guides.common import Guide, Section
from analysis.report.guides.coup import decks, first_player, hands, play, seats, setups
from analysis.report.guides.coup import table_play as multi
from analysis.report.guides.coup.balance import caveat as balance_caveat
from analysis.report.templating import render

GUIDE = Guide(
    key="coup",
    title="Coup",
    intro=render("coup/intro.md.j2"),
    sections=(
        Section("How to play (2 players)",
                (play.bluff, play.challenge, play.block, play.turn, play.strength),
                play.caveat),
        Section("How strong players play at 3-6 players",
                (multi.bluff, multi.challenge, multi.aimed, multi.block, multi.target,
                 multi.coup, multi.strength),
                multi.caveat),
        Section("Is it balanced?",
                (first_player.reply, seats.reply, hands.reply, decks.reply, setups.reply),
                balance_caveat),
    ),
)
