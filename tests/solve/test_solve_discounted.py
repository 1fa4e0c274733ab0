"""CFR+, Discounted CFR and Linear CFR step by step against plain re-implementations of
their papers' update rules (as ``test_solve_predictive`` checks PCFR+ and PDCFR+): every
iterate's average strategy, on both engines, before it has converged (so every discount
shows in the digits compared).

Discounted CFR (Brown & Sandholm, AAAI 2019): after iteration ``t`` the cumulative
positive regrets are multiplied by ``t^alpha / (t^alpha + 1)``, the negative ones by
``t^beta / (t^beta + 1)`` and the strategy sum by ``(t / (t + 1))^gamma``; the paper's
defaults alpha 1.5, beta 0, gamma 2. Linear CFR is iteration ``t``'s regrets and
strategy weighted by ``t`` (written here as those weighted sums, not as discounts, so the
reference does not repeat the engine's form). CFR+ (Tammelin 2014): regrets floored at 0
after every update, the average weighted by ``t``.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from analysis.solve import CFRSolver, compile_game, make_result


class PaperSolver:
    """The three methods over OpenSpiel states, one information state at a time, in plain
    Python, alternating updates (player 0's pass, then player 1's with 0's new strategy)."""

    def __init__(self, game, method, alpha=1.5, beta=0.0, gamma=2.0):
        self.game, self.method = game, method
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self.regret, self.play, self.total = {}, {}, {}
        self.t = 0

    def _strategy(self, key, n):
        if key not in self.play:
            self.play[key] = np.full(n, 1.0 / n)
            self.regret[key] = np.zeros(n)
            self.total[key] = np.zeros(n)
        return self.play[key]

    def _walk(self, state, p, own, other, instant, reach):
        if state.is_terminal():
            return state.returns()[p]
        if state.is_chance_node():
            return sum(q * self._walk(state.child(a), p, own, other * q, instant, reach)
                       for a, q in state.chance_outcomes())
        mover = state.current_player()
        key = state.information_state_string(mover)
        actions = state.legal_actions()
        x = self._strategy(key, len(actions))
        if mover != p:
            return sum(x[k] * self._walk(state.child(a), p, own, other * x[k], instant, reach)
                       for k, a in enumerate(actions))
        values = np.array([self._walk(state.child(a), p, own * x[k], other, instant, reach)
                           for k, a in enumerate(actions)])
        v = float(x @ values)
        instant[key] = instant.get(key, 0.0) + other * (values - v)
        reach[key] = own  # the player's own reach: the same at every history of the set
        return v

    def _update(self, key, r, own, t):
        if self.method == "cfr+":
            self.regret[key] = np.maximum(self.regret[key] + r, 0.0)
            self.total[key] = self.total[key] + t * own * self.play[key]
        elif self.method == "lcfr":
            self.regret[key] = self.regret[key] + t * r
            self.total[key] = self.total[key] + t * own * self.play[key]
        else:
            summed = self.regret[key] + r
            pos = t**self.alpha / (t**self.alpha + 1.0)
            neg = t**self.beta / (t**self.beta + 1.0)
            self.regret[key] = np.where(summed > 0, summed * pos, summed * neg)
            self.total[key] = (self.total[key] + own * self.play[key]) * (t / (t + 1.0)) ** self.gamma
        positive = np.maximum(self.regret[key], 0.0)
        s = positive.sum()
        self.play[key] = positive / s if s > 0 else np.full(len(r), 1 / len(r))

    def iterate(self, count):
        for _ in range(count):
            self.t += 1
            for p in (0, 1):
                instant, reach = {}, {}
                self._walk(self.game.new_initial_state(), p, 1.0, 1.0, instant, reach)
                for key, r in instant.items():
                    self._update(key, r, reach[key], self.t)

    def average_policy(self):
        policy = policy_lib.TabularPolicy(self.game)
        for key, total in self.total.items():
            row = policy.state_lookup[key]
            legal = np.flatnonzero(policy.legal_actions_mask[row])
            policy.action_probability_array[row] = 0.0
            policy.action_probability_array[row, legal] = (
                total / total.sum() if total.sum() > 0 else 1.0 / len(legal))
        return policy


def engine_policy(game, method, engine, iterations):
    cg = compile_game(game)
    solver = CFRSolver(cg, method, engine=engine)
    solver.iterate(iterations)
    return solver, make_result(game, cg, solver, solver.exploitability()).to_tabular_policy(game)


METHODS = ["dcfr", "lcfr", "cfr+"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("engine", ["history", "public"])
@pytest.mark.parametrize("name, iterations", [("kuhn_poker", 1), ("kuhn_poker", 12),
                                              ("leduc_poker", 4)])
def test_update_rules_match_the_papers(name, iterations, engine, method):
    """The engines' average strategy after each count of iterations is the papers'."""
    game = pyspiel.load_game(name)
    paper = PaperSolver(game, method)
    paper.iterate(iterations)
    solver, ours = engine_policy(game, method, engine, iterations)
    theirs_policy = paper.average_policy()
    np.testing.assert_allclose(ours.action_probability_array,
                               theirs_policy.action_probability_array, atol=1e-9)
    theirs = openspiel_exploitability.exploitability(game, theirs_policy)
    assert abs(solver.exploitability().exploitability - theirs) < 1e-9
    assert theirs > 1e-3  # unconverged: every digit of the comparison matters


@pytest.mark.parametrize("method", ["dcfr", "lcfr"])
def test_regrets_and_strategy_sums_are_the_papers_in_scale(method):
    """Beyond the average strategy: DCFR's cumulative regrets (negative ones halved each
    iteration at beta 0) and strategy sums are the paper's own numbers; Linear CFR's are
    the weighted sums divided by ``t + 1`` (the same strategies: regret matching and the
    average do not see a common factor)."""
    game = pyspiel.load_game("kuhn_poker")
    iterations = 6
    paper = PaperSolver(game, method)
    paper.iterate(iterations)
    cg = compile_game(game)
    solver = CFRSolver(cg, method, engine="history")
    solver.iterate(iterations)
    scale = 1.0 if method == "dcfr" else 1.0 / (iterations + 1)
    negatives = 0
    for key in paper.regret:
        i = cg.infoset_keys.index(key)
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        np.testing.assert_allclose(solver.regret[lo:hi], scale * paper.regret[key], atol=1e-12)
        np.testing.assert_allclose(solver.strategy_sum[lo:hi], scale * paper.total[key],
                                   atol=1e-12)
        negatives += int((paper.regret[key] < -1e-6).sum())
    assert negatives >= 4  # the negative-regret discount is exercised


def test_the_discounts_change_the_iterates():
    """Each DCFR parameter matters on these 12 Kuhn iterations (a reference blind to one
    would pass a solver without it): with beta = gamma = alpha = 1 it is Linear CFR, and
    neither beta = 0 (negative regrets halved) nor gamma = 2 gives the same average."""
    game = pyspiel.load_game("kuhn_poker")
    base = PaperSolver(game, "dcfr")
    base.iterate(12)
    for change in ({"beta": 50.0}, {"gamma": 0.0}, {"alpha": 50.0}):
        other = PaperSolver(game, "dcfr", **({"alpha": 1.5, "beta": 0.0, "gamma": 2.0} | change))
        other.iterate(12)
        gap = np.abs(base.average_policy().action_probability_array
                     - other.average_policy().action_probability_array).max()
        assert gap > 1e-3, change
    linear = PaperSolver(game, "lcfr")
    linear.iterate(12)
    as_dcfr = PaperSolver(game, "dcfr", alpha=1.0, beta=1.0, gamma=1.0)
    as_dcfr.iterate(12)
    np.testing.assert_allclose(linear.average_policy().action_probability_array,
                               as_dcfr.average_policy().action_probability_array, atol=1e-12)


GOOFSPIEL3 = ("turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True,"
              "points_order=descending))")


@pytest.mark.parametrize("method", METHODS)
def test_a_game_with_a_player_at_its_root(method):
    """Goofspiel with 3 cards and the prizes in a known order: no chance node, player 0
    moves first (the row numbering of a decision at the root starts at 0), and the game
    does not factor into a public tree (history engine only). Measured after 3 DCFR
    iterations: exploitability 0.083."""
    game = pyspiel.load_game(GOOFSPIEL3)
    paper = PaperSolver(game, method)
    paper.iterate(3)
    solver, ours = engine_policy(game, method, "history", 3)
    assert solver.compiled.kind[0] == 2  # player 0's decision at the root
    np.testing.assert_allclose(ours.action_probability_array,
                               paper.average_policy().action_probability_array, atol=1e-9)
    assert openspiel_exploitability.exploitability(game, paper.average_policy()) > 1e-3
