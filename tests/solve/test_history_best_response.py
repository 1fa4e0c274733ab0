"""The perfect-recall best response walked over the responder's information states.

Checked against two independent computations: the exact best response on the compiled
perfect-recall tree, and OpenSpiel's own NashConv, on ¡Cobardes! battles with hidden
villains small enough for both.
"""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

import games  # noqa: F401  (registers the games)
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.trunk import PublicCut, compile_cut
from analysis.cobardes.solvers.villains import REDUCED_DECKS
from analysis.solve import CFRSolver, compile_game, exploitability
from analysis.solve.abstraction import graph_strategy_on_tree
from analysis.solve.best_response import best_response
from analysis.solve.errors import GameTooLargeError, SolveError
from analysis.solve.history_best_response import graph_policy, walked_best_response

GAME = "python_cobardes_battle"


def _trunk(params, iterations=60):
    game = pyspiel.load_game(GAME, params)
    graph = compile_cut(game, graph=True).compiled
    solver = CFRSolver(graph, "cfr+")
    solver.run(iterations=iterations, progress=False)
    rules = game.rules
    walker = PublicCut(game.solver_walker(history=True), FastExactSolver(rules.cfg, rules.pay))
    policy = graph_policy(graph, solver.average_strategy(), walker.infoset_key)
    return game, graph, solver.average_strategy(), walker, policy


@pytest.mark.parametrize("deck", [0, 2])
def test_walk_equals_the_tree_best_response(deck):
    label, params = REDUCED_DECKS[deck]
    game, graph, strategy, walker, policy = _trunk(params)
    tree = compile_cut(game, graph=False, abstract_keys=True).compiled
    true = exploitability(tree, graph_strategy_on_tree(graph, strategy, tree))
    for player in (0, 1):
        walked = walked_best_response(walker, player, policy)
        assert walked.value == pytest.approx(true.best_response[player], abs=1e-12), label
        # One world per tree node: the walk visits the tree, grouped.
        assert walked.worlds == tree.num_nodes


def test_walk_beats_the_abstractions_own_best_response():
    """The state-keyed best response forgets the order of events; remembering it can
    only gain (on this deck it gains strictly for at least one player)."""
    _, params = REDUCED_DECKS[3]
    _, graph, strategy, walker, policy = _trunk(params)
    gains = []
    for player in (0, 1):
        forgetful, _ = best_response(graph, strategy, player)
        walked = walked_best_response(walker, player, policy).value
        assert walked >= forgetful - 1e-12
        gains.append(walked - forgetful)
    assert max(gains) > 1e-6


class _GraphPolicy(policy_lib.Policy):
    """A graph strategy as an OpenSpiel policy, read at each state's state-keyed key."""

    def __init__(self, game, policy):
        super().__init__(game, [0, 1])
        self._policy = policy

    def action_probabilities(self, state, player_id=None):
        player = state.current_player() if player_id is None else player_id
        return dict(self._policy(state, player))


def test_walk_equals_openspiels_nash_conv():
    """On the whole battle (no public subgames cut off), OpenSpiel's NashConv is the sum
    of the two walked best responses."""
    params = {"kinds": "warriors+villains", "warriors": 2, "combats": 2,
              "villain_deck": "Thug/Sheep/Executioner"}
    game = pyspiel.load_game(GAME, params)
    graph = compile_game(game, graph=True)
    solver = CFRSolver(graph, "cfr+")
    solver.run(iterations=30, progress=False)
    strategy = solver.average_strategy()
    walker = game.solver_walker(history=True)
    policy = graph_policy(graph, strategy, walker.infoset_key)
    state_policy = graph_policy(graph, strategy, lambda s, p: s.infoset_key(p))
    theirs = openspiel_exploitability.nash_conv(game, _GraphPolicy(game, state_policy))
    ours = sum(walked_best_response(walker, p, policy).value for p in (0, 1))
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours > 1e-4  # 30 iterations: far from equilibrium, so the check has teeth


def test_walk_budget_and_unknown_states_are_clear_errors():
    _, params = REDUCED_DECKS[0]
    _, graph, strategy, walker, policy = _trunk(params, iterations=5)
    with pytest.raises(GameTooLargeError, match="1,000 worlds"):
        walked_best_response(walker, 0, policy, max_worlds=1000)
    other = pyspiel.load_game(GAME, dict(params, warriors=3))
    rules = other.rules
    foreign = PublicCut(other.solver_walker(history=True), FastExactSolver(rules.cfg, rules.pay))
    with pytest.raises(SolveError, match="no information set"):
        walked_best_response(foreign, 0, policy)
