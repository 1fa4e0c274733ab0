"""Every bot (and ``farol play`` coach) Farol has, registered: the commands that take a
bot's name import this module.

Bots register themselves with :func:`analysis.play.bots.register_bot` when their study's
module is imported; every game's wing (:mod:`analysis.wings`) names the modules that
register its bots and coaches, and importing the wings imports them all.
"""

from __future__ import annotations

import pyspiel

from analysis.play.bots import Bot, bots_for, make_bot
from analysis.wings import WINGS

# The modules whose import registered the bots and coaches, game by game; each game's
# bots, name by name, are in the table of its agents package (``BOTS``).
REGISTERED_BY = tuple(module for wing in WINGS for module in wing.registers)


def build(name: str, game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """:func:`analysis.play.bots.make_bot` from this module, so that a worker process that
    unpickles it imports every bot first (whatever way it was started)."""
    return make_bot(name, game, seat, seed)


__all__ = ["REGISTERED_BY", "bots_for", "build", "make_bot"]
