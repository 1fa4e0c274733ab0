"""The Goat Lords guide: what strong play does, from the strongest agent's own games, and
whether the game is balanced; each question answered in its first sentence, then one
table or chart."""

from __future__ import annotations

from analysis.report.facts.goat_lords import records
from analysis.report.guides.common import Guide, GuideContext, Section
from analysis.report.guides.goat_lords import (
    duels,
    first_player,
    parameters,
    play,
    strength,
    values,
    wilds,
)
from analysis.report.templating import render


def balance_caveat(ctx: GuideContext) -> str:
    t = records.seat_tables(ctx.outdir)
    return render("goat_lords/balance_caveat.md.j2", who=t.who, games=records.games_words(t.main),
                  strong=t.strong)


GUIDE = Guide(
    key="goat_lords",
    title="Goat Lords",
    intro=render("goat_lords/intro.md.j2"),
    sections=(
        Section("How to play", (play.duel, play.wild, play.keep, strength.reply), play.caveat),
        Section("Is it balanced?", (first_player.reply, first_player.seats_reply, wilds.reply,
                                    duels.reply, values.reply), balance_caveat),
    ),
    notes=(parameters.note,),
)
