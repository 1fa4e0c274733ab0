"""Every bot (and ``farol play`` coach) Farol has, registered: the commands that take a
bot's name import this module.

Bots register themselves with :func:`analysis.play.bots.register_bot` when their study's
module is imported; this is the one place that imports them all.
"""

from __future__ import annotations

import pyspiel

from analysis.cobardes import advise as cobardes_advise
from analysis.cobardes import bot as cobardes_bot
from analysis.coup import advise as coup_advise
from analysis.coup import blueprint_advice as coup_blueprint_advice
from analysis.coup import blueprint_agent as coup_blueprint_agent
from analysis.coup import panel as coup_panel
from analysis.coup import search_agent as coup_search_agent
from analysis.coup.agents import belief_search as coup_belief_agent
from analysis.coup.agents import best as coup_best
from analysis.coup.agents import fast_search as coup_fast_agent
from analysis.coup.agents import resolve_agent as coup_resolve_agent
from analysis.goat_lords import bots as goat_lords_bots
from analysis.play.bots import Bot, bots_for, make_bot

# The modules whose import registered their bots (kept so the imports are used).
REGISTERED_BY = (cobardes_advise, cobardes_bot, coup_advise, coup_belief_agent, coup_best,
                 coup_fast_agent,
                 coup_blueprint_advice, coup_blueprint_agent, coup_panel, coup_resolve_agent,
                 coup_search_agent,
                 goat_lords_bots)


def build(name: str, game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """:func:`analysis.play.bots.make_bot` from this module, so that a worker process that
    unpickles it imports every bot first (whatever way it was started)."""
    return make_bot(name, game, seat, seed)


__all__ = ["REGISTERED_BY", "bots_for", "build", "make_bot"]
