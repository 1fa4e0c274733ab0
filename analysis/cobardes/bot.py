"""The ``solved`` bot: ¡Cobardes! battles played by their equilibrium strategy.

Without hidden villains it plays the exact solution of the position in front of it;
while a villain is hidden, the battle's stored solution when there is one (the one
advice reads, :mod:`analysis.cobardes.hidden_advice`), else the CFR+ strategy of the
battle's trunk (:func:`analysis.cobardes.trunk.solve_trunk`), solved at its first such
decision (slow on full armies: prefer reduced decks).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.bots import Bot, BotSpec, register_bot
from analysis.cobardes.fast_exact import FastExactSolver
from analysis.cobardes.hidden_advice import solution_for, strategy_at
from analysis.cobardes.trunk import solve_trunk, trunk_key
from analysis.cobardes.villains import strategy_lookup
from games.cobardes.hidden import any_villain_unknown

GAME = "python_cobardes_battle"


def _sample(probs: dict[int, float], legal: list[int], rng: np.random.Generator) -> int:
    actions = [a for a in legal if probs.get(a, 0.0) > 0]
    if not actions:
        return int(legal[rng.integers(len(legal))])
    p = np.array([probs[a] for a in actions])
    return int(actions[rng.choice(len(actions), p=p / p.sum())])


def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """A bot for ``seat`` playing the solved strategy of ``game``."""
    rng = np.random.default_rng(seed)
    rules = game.rules
    exact = FastExactSolver(rules.cfg, rules.pay)
    lookup: dict = {}

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        pos = state.position
        if not rules.villains or not any_villain_unknown(pos):
            return _sample(exact.strategy(pos), legal, rng)
        if "stored" not in lookup:
            lookup["stored"] = solution_for(game, solve_missing=False)
        if lookup["stored"] is not None:
            return _sample(strategy_at(lookup["stored"], state.history()), legal, rng)
        if "compiled" not in lookup:
            cut, solver, _ = solve_trunk(game, iterations=200)
            lookup["compiled"] = cut.compiled
            lookup["strategy"] = strategy_lookup(cut.compiled, solver.average_strategy())
        # Every reachable key of the trunk is in its tree or graph.
        key = trunk_key(lookup["compiled"], state, seat)
        return _sample(lookup["strategy"][key], legal, rng)

    return act


register_bot(BotSpec("solved", "the equilibrium strategy (exact without hidden villains, "
                     "state-keyed CFR+ with them)", solved_bot, games=(GAME,)))
