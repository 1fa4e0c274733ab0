"""Every bot (and ``farol play`` coach) Farol has, registered: the commands that take a
bot's name import this module.

Bots register themselves with :func:`analysis.play.bots.register_bot` when their study's
module is imported; this is the one place that imports them all.
"""

from __future__ import annotations

import pyspiel

from analysis.cobardes import advise as cobardes_advise
from analysis.cobardes import bot as cobardes_bot
from analysis.coup import agents as coup_agents
from analysis.coup.advice import multiplayer as coup_multi_advice
from analysis.coup.advice import resolve as coup_best_advice
from analysis.goat_lords import bots as goat_lords_bots
from analysis.play.bots import Bot, bots_for, make_bot

# The modules whose import registered their bots and coaches (kept so the imports are
# used); Coup's, bot by bot, are in the table analysis.coup.agents.BOTS.
REGISTERED_BY = (cobardes_advise, cobardes_bot, coup_agents, coup_best_advice,
                 coup_multi_advice, goat_lords_bots)


def build(name: str, game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """:func:`analysis.play.bots.make_bot` from this module, so that a worker process that
    unpickles it imports every bot first (whatever way it was started)."""
    return make_bot(name, game, seat, seed)


__all__ = ["REGISTERED_BY", "bots_for", "build", "make_bot"]
