"""The blueprint as an agent: ``farol play python_coup --opponent blueprint`` and
``farol coup match --agents blueprint,...`` for 2-player games from the deal.

It samples its move from the blueprint's mix. Where the position is not in the
blueprint (someone declined a Coup that would have won at once, or a position set up by
hand), it plays that move as the honest agent would, and counts it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyspiel

from analysis.coup.agents.honest import HonestAgent
from analysis.coup.model import GAME, printed_rules_only
from analysis.coup.solvers.blueprint import Blueprint, load_blueprint
from analysis.play.bots import Bot, BotSpec, register_bot
from analysis.shared import store
from games.errors import InvalidParameterError


@lru_cache(maxsize=2)
def load_deck_blueprint(deck: str, cache_root: str) -> Blueprint:
    """``deck``'s blueprint, loaded once per deck, cache folder and process (seconds for
    a whole deck)."""
    return load_blueprint(deck)


class BlueprintAgent:
    """Bound to ``seat``; ``off_blueprint`` counts the moves the honest agent made."""

    def __init__(self, blueprint: Blueprint, seat: int, seed: int):
        self.blueprint = blueprint
        self.seat = seat
        self.rng = np.random.default_rng(seed)
        self.fallback = HonestAgent(seat)
        self.off_blueprint = 0

    def __call__(self, state: pyspiel.State) -> int:
        mix = self.blueprint.action_probabilities(state)
        if not mix:
            self.off_blueprint += 1
            return self.fallback(state)
        actions = list(mix)
        probs = np.array([mix[a] for a in actions])
        return int(actions[self.rng.choice(len(actions), p=probs / probs.sum())])


def blueprint_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The blueprint of ``game``'s deck bound to ``seat`` (2 players only)."""
    params = game.get_parameters()
    if params["players"] != 2:
        raise InvalidParameterError(
            f"the blueprint plays 2-player Coup; this game has {params['players']} players")
    printed_rules_only(game.config.numbers, "the blueprint")
    return BlueprintAgent(load_deck_blueprint(params["deck"], str(store.cache_root())), seat, seed)


register_bot(BotSpec("blueprint", "the 2-player blueprint: a strong strategy for the whole "
                     "game (farol coup blueprint build)", blueprint_bot, games=(GAME,)))
