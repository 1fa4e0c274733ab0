"""``mcts``: OpenSpiel's MCTS on the full state of Goat Lords (it sees every hand: a
cheating yardstick), with random roll-outs played on the rules table.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from analysis.goat_lords import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from games.goat_lords import rules
from games.goat_lords.table import OVER


class TableRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's random roll-out evaluation, played on the rules table without the wrapper.

    Same semantics as ``mcts.RandomRolloutEvaluator`` (uniform legal actions,
    chance by its probabilities, average terminal returns), without the state wrapper.
    """

    def __init__(self, n_rollouts: int = 1, seed: int = 0):
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state):
        n = state.table.cfg.players
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            t = state.table.copy(record=False)
            rng = self._rng
            while t.phase != OVER:
                if t.to_move < 0:
                    kinds, probs = zip(*t.chance_outcomes(), strict=True)
                    t.apply_chance(rng.choices(kinds, probs)[0])
                else:
                    legal = t.legal_actions()
                    t.apply_action(legal[rng.randrange(len(legal))])
            total += rules.returns_for(t.winning, n)
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


OPENSPIEL_SIMULATIONS = 100  # OpenSpiel's MCTS and ISMCTS bots, per move


def mcts_bot(game: pyspiel.Game, seat: int, seed: int = 0,
             simulations: int = OPENSPIEL_SIMULATIONS) -> Bot:
    """OpenSpiel's MCTS on the full state (it sees every hand: a cheating yardstick)."""
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations,
        evaluator=TableRolloutEvaluator(1, seed), solve=False,
        random_state=np.random.RandomState(seed),
    )
    return bot.step


register_bot(BotSpec("mcts", f"OpenSpiel MCTS, {OPENSPIEL_SIMULATIONS} simulations, random roll-outs; "
                     "sees all hands (cheats)",
                     mcts_bot, games=(GAME,)))
