"""Every bot Farol has, registered: the commands that take a bot's name import this module.

Bots register themselves with :func:`analysis.bots.register_bot` when their study's
module is imported; this is the one place that imports them all.
"""

from __future__ import annotations

from analysis.bots import bots_for, make_bot
from analysis.cobardes import bot as cobardes_bot
from analysis.coup import advise as coup_advise
from analysis.goat_lords import bots as goat_lords_bots

# The modules whose import registered their bots (kept so the imports are used).
REGISTERED_BY = (cobardes_bot, coup_advise, goat_lords_bots)

__all__ = ["REGISTERED_BY", "bots_for", "make_bot"]
