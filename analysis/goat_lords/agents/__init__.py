"""The Goat Lords agents: one module per bot, named after it, and the table from a bot's
name to its module (:data:`BOTS`).

Each bot's module registers it with :func:`analysis.play.bots.register_bot` when it is
imported, and importing this package imports every one of them in the order of the
table. ``greedy`` sees only its hand and the public table; ``mcts`` is OpenSpiel's MCTS
on the full state (it sees every hand: a cheating yardstick); ``ismcts`` is OpenSpiel's
ISMCTS, searching worlds resampled from its own information state (fair); ``lord`` is
Farol's own information-set search and ``best`` names the strongest agent. ``random``
is every game's (:func:`analysis.play.bots.uniform_random_bot`). :mod:`.by_name` builds
a bot from a name with a budget (``lord:N``) and pins a name to its budget.
"""

from __future__ import annotations

# In the order of the table: each import registers its bot.
# isort: off
from analysis.goat_lords.agents import greedy
from analysis.goat_lords.agents import mcts
from analysis.goat_lords.agents import ismcts
from analysis.goat_lords.agents import lord
from analysis.goat_lords.agents import best
# isort: on
from analysis.goat_lords.agents.by_name import STRONGEST, build_bot, pinned
from analysis.play import bots as every_game

# Every name ``farol goat-lords match --agents`` takes (besides ``mcts:N``...) -> its module.
BOTS = {
    "random": every_game,
    "greedy": greedy,
    "mcts": mcts,
    "ismcts": ismcts,
    "lord": lord,
    "best": best,
}

__all__ = ["BOTS", "STRONGEST", "build_bot", "pinned"]
