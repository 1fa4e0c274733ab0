"""The ``solved`` bot: ¡Cobardes! battles played by their equilibrium strategy.

``farol play python_cobardes_battle --opponent solved`` seats it. Without hidden
villains (warriors only, courtiers, named villains) it plays the exact solution of
the position in front of it (:class:`analysis.cobardes.exact.ExactSolver`, solved on
demand and remembered); with hidden villains it plays the state-keyed engine's CFR+
strategy (:mod:`analysis.cobardes.villains`), solved once when the game starts (for
full armies that takes minutes: prefer reduced decks).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.bots import Bot, BotSpec, register_bot

GAME = "python_cobardes_battle"


def _sample(probs: dict[int, float], legal: list[int], rng: np.random.Generator) -> int:
    actions = [a for a in legal if probs.get(a, 0.0) > 0]
    if not actions:
        return int(legal[rng.integers(len(legal))])
    p = np.array([probs[a] for a in actions])
    return int(actions[rng.choice(len(actions), p=p / p.sum())])


def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """A bot for ``seat`` playing the solved strategy of ``game``."""
    from analysis.cobardes.exact import ExactSolver, payoff_values

    rng = np.random.default_rng(seed)
    rules = game.rules
    exact = ExactSolver(rules.cfg, payoff_values(rules.pay))
    lookup: dict = {}

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        pos = state.position
        if not rules.villains or not _any_hidden(pos):
            return _sample(exact.strategy(pos), legal, rng)
        if not lookup:
            from analysis.cobardes.villains import graph_lookup, solve_villains

            params = {k: v for k, v in game.get_parameters().items()}
            _, solver = solve_villains(params, iterations=200)
            lookup.update(graph_lookup(solver))
        # Every reachable key is in the graph (the keys are closed under moves).
        return _sample(lookup[repr(state.infoset_key(seat))], legal, rng)

    return act


def _any_hidden(pos) -> bool:
    """Whether either player holds a villain the other does not know."""
    from games.cobardes import cards as C

    return any(pos.h[p] & C.VILLAIN_MASK & ~pos.kv[1 - p] for p in (0, 1))


register_bot(BotSpec("solved", "the equilibrium strategy (exact without hidden villains, "
                     "state-keyed CFR+ with them)", solved_bot, games=(GAME,)))
