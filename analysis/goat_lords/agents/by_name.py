"""Goat Lords bots by name: ``mcts:N``, ``ismcts:N`` and ``lord:N`` with their budgets,
:data:`STRONGEST` (what ``best`` plays), and :func:`pinned` (a name with the budget it
plays at today, as stored matches record it).
"""

from __future__ import annotations

import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents.ismcts import ismcts_bot
from analysis.goat_lords.agents.lord import DEFAULT, lord_bot
from analysis.goat_lords.agents.mcts import OPENSPIEL_SIMULATIONS, mcts_bot
from analysis.play.bots import Bot, make_bot
from games.errors import UnknownBotError

# The strongest Goat Lords agent; ``best`` always plays it.
STRONGEST = "lord"

SEARCH_BOTS = {"mcts": mcts_bot, "ismcts": ismcts_bot, "lord": lord_bot}


def build_bot(name: str, game: pyspiel.Game, seat: int, seed: int) -> Bot:
    """A bot by name; ``mcts:N`` / ``ismcts:N`` set the simulations per move."""
    if ":" in name:
        kind, sims = name.split(":", 1)
        if kind not in SEARCH_BOTS or not sims.isdigit():
            raise UnknownBotError(f"no bot {name!r} for {GAME}; with simulations choose mcts:N, ismcts:N or lord:N")
        if int(sims) < 1:
            raise UnknownBotError(f"bot {name!r}: {kind} needs at least 1 simulation per move")
        return SEARCH_BOTS[kind](game, seat, seed, simulations=int(sims))
    return make_bot(name, game, seat, seed)


def pinned(name: str) -> str:
    """``name`` with the budget it plays at today: ``lord`` -> ``lord:<default>``, and
    ``best`` -> whatever :data:`STRONGEST` is, pinned; stored matches say what played,
    whatever the defaults become."""
    if name == "best":
        return pinned(STRONGEST)
    if name in SEARCH_BOTS:
        return f"{name}:{DEFAULT.simulations if name == 'lord' else OPENSPIEL_SIMULATIONS}"
    return name
