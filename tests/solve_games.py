"""Small hand-built games for the solver tests (not part of Farol's catalog).

``python_test_pennies_race``: a simultaneous race of public information. Each round
both players show heads (0) or tails (1); heads-heads gives player 0 one point,
tails-tails two points, a mismatch gives player 1 one point; the first to ``target``
points wins 1 (the loser pays 1). With ``hidden=true`` chance first tells player 0 alone
whether the stakes are doubled. States offer ``state_key()``/``infoset_key()``, and
positions repeat along different histories (transpositions), so the graph is smaller
than the tree.
"""

from __future__ import annotations

import numpy as np
import pyspiel

_GAME_TYPE = pyspiel.GameType(
    short_name="python_test_pennies_race",
    long_name="Test pennies race",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"target": 3, "hidden": False},
)


class PenniesRaceGame(pyspiel.Game):
    def __init__(self, params=None):
        params = params or {}
        self.target = int(params.get("target", 3))
        self.hidden = bool(params.get("hidden", False))
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=2,
            num_players=2,
            min_utility=-2.0,
            max_utility=2.0,
            utility_sum=0.0,
            max_game_length=4 * self.target,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self):
        return PenniesRaceState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(iig_obs_type)


class PenniesRaceState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.target = game.target
        self.hidden = game.hidden
        self.stakes = None if game.hidden else 1
        self.score = [0, 0]
        self.history_text = ""

    def current_player(self):
        if max(self.score[0], self.score[1]) >= self.target:
            return pyspiel.PlayerId.TERMINAL
        if self.stakes is None:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.SIMULTANEOUS

    def _legal_actions(self, player):
        return [0, 1]

    def chance_outcomes(self):
        return [(1, 0.5), (2, 0.5)]

    def _apply_action(self, action):
        self.stakes = action

    def _apply_actions(self, actions):
        a0, a1 = actions
        if a0 == a1:
            self.score[0] += 1 if a0 == 0 else 2
        else:
            self.score[1] += 1
        self.history_text += f"{a0}{a1},"

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"stakes {action}"
        return "heads" if action == 0 else "tails"

    def is_terminal(self):
        return max(self.score) >= self.target

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        sign = 1.0 if self.score[0] >= self.target else -1.0
        return [sign * self.stakes, -sign * self.stakes]

    def __str__(self):
        return f"stakes={self.stakes} score={self.score} history={self.history_text}"

    # The solver protocol (games.keys.KeyedState).
    def state_key(self):
        return (self.stakes, self.score[0], self.score[1])

    def infoset_key(self, player):
        if player == 0 or not self.hidden:
            return (self.stakes, self.score[0], self.score[1])
        return (self.score[0], self.score[1])


class _Observer:
    def __init__(self, iig_obs_type):
        self.perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        self.tensor = np.zeros(0)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        stakes = state.stakes if (player == 0 or not state.hidden) else "?"
        if self.perfect_recall:
            return f"p{player} stakes={stakes} history={state.history_text}"
        return f"p{player} stakes={stakes} score={state.score}"


pyspiel.register_game(_GAME_TYPE, PenniesRaceGame)


def solve_2x2(a: float, b: float, c: float, d: float) -> float:
    """Value of the zero-sum matrix game [[a, b], [c, d]] for the row (maximising) player."""
    lower = max(min(a, b), min(c, d))
    upper = min(max(a, c), max(b, d))
    if lower == upper:  # a saddle point
        return lower
    return (a * d - b * c) / (a + d - b - c)


def pennies_race_value(target: int, stakes: float = 1.0) -> float:
    """Backward induction over the scores: the exact value of the public race."""
    memo: dict[tuple[int, int], float] = {}

    def value(s0: int, s1: int) -> float:
        if s0 >= target:
            return stakes
        if s1 >= target:
            return -stakes
        if (s0, s1) not in memo:
            heads, tails, miss = value(s0 + 1, s1), value(s0 + 2, s1), value(s0, s1 + 1)
            memo[(s0, s1)] = solve_2x2(heads, miss, miss, tails)
        return memo[(s0, s1)]

    return value(0, 0)
