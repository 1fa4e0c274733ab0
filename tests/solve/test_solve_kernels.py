"""The CFR kernels' small steps on arrays written by hand (``analysis.solve.kernels``):
regret matching, its predictive form, the average strategy, the clearing of rows and one
player's update of each method, each against numbers worked out here. Together with the
step-by-step comparisons of ``test_solve_discounted`` and ``test_solve_predictive``,
these are what the mutation testing of the CFR update counts on
(``benchmarks/mutation.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solve import kernels as K

# Three information sets: 0 (player 0, rows 0-2), 1 (player 1, rows 3-4), 2 (player 0,
# rows 5-6).
OFFSET = np.array([0, 3, 5, 7], dtype=np.int64)
IPLAYER = np.array([0, 1, 0], dtype=np.int64)


def test_regret_matching_by_hand():
    regret = np.array([2.0, -1.0, 6.0, -3.0, -0.5, 0.0, 0.0])
    sigma = np.full(7, -9.0)
    K.regret_matching(regret, OFFSET, IPLAYER, -1, sigma)
    np.testing.assert_array_equal(sigma, [0.25, 0.0, 0.75, 0.5, 0.5, 0.5, 0.5])


def test_regret_matching_one_player_leaves_the_other_alone():
    regret = np.array([1.0, 1.0, 2.0, 4.0, 1.0, 0.0, 3.0])
    sigma = np.full(7, -9.0)
    K.regret_matching(regret, OFFSET, IPLAYER, 1, sigma)
    np.testing.assert_array_equal(sigma, [-9.0, -9.0, -9.0, 0.8, 0.2, -9.0, -9.0])
    K.regret_matching(regret, OFFSET, IPLAYER, 0, sigma)
    np.testing.assert_array_equal(sigma, [0.25, 0.25, 0.5, 0.8, 0.2, 0.0, 1.0])


def test_predictive_matching_by_hand():
    regret = np.array([2.0, 0.0, 1.0, 0.0, 0.0, 0.0, 5.0])
    pred = np.array([-1.0, 3.0, -2.0, -1.0, -2.0, 0.0, -5.0])
    sigma = np.full(7, -9.0)
    K.predictive_matching(regret, pred, OFFSET, IPLAYER, 0, sigma)
    # Row 0: 1, 3, -1 -> 1/4, 3/4, 0; row 2: 0, 0 -> uniform; player 1's row untouched.
    np.testing.assert_array_equal(sigma, [0.25, 0.75, 0.0, -9.0, -9.0, 0.5, 0.5])
    K.predictive_matching(regret, pred, OFFSET, IPLAYER, -1, sigma)
    np.testing.assert_array_equal(sigma[3:5], [0.5, 0.5])


def test_normalize_rows_with_an_empty_row():
    weights = np.array([1.0, 3.0, 0.0, 0.0, 0.0, 2.0, 2.0])
    out = np.full(7, -9.0)
    K.normalize_rows(weights, OFFSET, out)
    np.testing.assert_array_equal(out, [0.25, 0.75, 0.0, 0.5, 0.5, 0.5, 0.5])
    wide = np.array([0, 4], dtype=np.int64)
    out4 = np.zeros(4)
    K.normalize_rows(np.zeros(4), wide, out4)
    np.testing.assert_array_equal(out4, [0.25] * 4)


def test_clear_rows_clears_only_the_sets_given():
    rows = np.arange(1.0, 8.0)
    K.clear_rows(np.array([0, 2], dtype=np.int64), OFFSET, rows)
    np.testing.assert_array_equal(rows, [0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0])


def _update(plus, t, alpha, beta, gamma):
    regret = np.array([3.0, -2.0, 1.0, 9.0, 9.0, -4.0, 0.0])
    strat = np.array([1.0, 2.0, 3.0, 9.0, 9.0, 0.5, 0.5])
    sigma = np.array([0.5, 0.25, 0.25, 9.0, 9.0, 0.5, 0.5])
    own = np.array([0.8, 7.0, 0.4])
    infos = np.array([0, 2], dtype=np.int64)
    K.update_player(t, infos, OFFSET, regret, strat, sigma, own, plus, alpha, beta, gamma)
    return regret, strat, sigma


def test_update_player_discounted_by_hand():
    t, alpha, beta, gamma = 3, 1.5, 0.5, 2.0
    regret, strat, sigma = _update(False, t, alpha, beta, gamma)
    pos = t**alpha / (t**alpha + 1)
    neg = t**beta / (t**beta + 1)
    avg = (t / (t + 1)) ** gamma
    np.testing.assert_allclose(regret, [3 * pos, -2 * neg, pos, 9, 9, -4 * neg, 0.0],
                               rtol=1e-15)
    np.testing.assert_allclose(strat, [(1 + 0.8 * 0.5) * avg, (2 + 0.8 * 0.25) * avg,
                                       (3 + 0.8 * 0.25) * avg, 9, 9, (0.5 + 0.4 * 0.5) * avg,
                                       (0.5 + 0.4 * 0.5) * avg], rtol=1e-15)
    np.testing.assert_allclose(sigma, [0.75, 0.0, 0.25, 9, 9, 0.5, 0.5], rtol=1e-15)


def test_update_player_cfr_plus_by_hand():
    """CFR+: regrets floored at 0, the strategy added weighted by t (here 4)."""
    regret, strat, sigma = _update(True, 4, 0.0, 0.0, 0.0)
    np.testing.assert_array_equal(regret, [3.0, 0.0, 1.0, 9, 9, 0.0, 0.0])
    np.testing.assert_allclose(strat, [1 + 4 * 0.8 * 0.5, 2 + 4 * 0.8 * 0.25,
                                       3 + 4 * 0.8 * 0.25, 9, 9, 0.5 + 4 * 0.4 * 0.5,
                                       0.5 + 4 * 0.4 * 0.5], rtol=1e-15)
    np.testing.assert_array_equal(sigma, [0.75, 0.0, 0.25, 9, 9, 0.5, 0.5])


def _update_predictive(plus, t, alpha, gamma):
    regret = np.array([3.0, 0.0, 1.0, 9.0, 9.0, 0.0, 2.0])
    pred = np.array([-1.0, 2.0, -3.0, 9.0, 9.0, 1.0, -1.0])
    strat = np.array([1.0, 2.0, 3.0, 9.0, 9.0, 0.5, 0.5])
    sigma = np.array([0.5, 0.25, 0.25, 9.0, 9.0, 0.5, 0.5])
    own = np.array([0.8, 7.0, 0.4])
    infos = np.array([0, 2], dtype=np.int64)
    K.update_player_predictive(t, infos, OFFSET, regret, pred, strat, sigma, own, plus,
                               alpha, gamma)
    return regret, strat, sigma


def test_update_player_predictive_cfr_plus_by_hand():
    """PCFR+: R = max(R + r, 0); strategy weighted by t^2 (t = 3); next strategy regret
    matching on R + r."""
    regret, strat, sigma = _update_predictive(True, 3, 0.0, 0.0)
    np.testing.assert_array_equal(regret, [2.0, 2.0, 0.0, 9, 9, 1.0, 1.0])
    np.testing.assert_allclose(strat, [1 + 9 * 0.8 * 0.5, 2 + 9 * 0.8 * 0.25,
                                       3 + 9 * 0.8 * 0.25, 9, 9, 0.5 + 9 * 0.4 * 0.5,
                                       0.5 + 9 * 0.4 * 0.5], rtol=1e-15)
    # R + r: row 0: 1, 4, -3 -> 1/5, 4/5, 0; row 2: 2, 0 -> 1, 0.
    np.testing.assert_allclose(sigma, [0.2, 0.8, 0.0, 9, 9, 1.0, 0.0], rtol=1e-15)


def test_update_player_predictive_discounted_by_hand():
    """PDCFR+: R = max(R + r, 0) * t^a / (t^a + 1); the sum times (t / (t + 1))^gamma."""
    t, alpha, gamma = 2, 2.3, 5.0
    regret, strat, sigma = _update_predictive(False, t, alpha, gamma)
    d = t**alpha / (t**alpha + 1)
    avg = (t / (t + 1)) ** gamma
    np.testing.assert_allclose(regret, [2 * d, 2 * d, 0.0, 9, 9, d, d], rtol=1e-15)
    np.testing.assert_allclose(strat, [(1 + 0.8 * 0.5) * avg, (2 + 0.8 * 0.25) * avg,
                                       (3 + 0.8 * 0.25) * avg, 9, 9, (0.5 + 0.4 * 0.5) * avg,
                                       (0.5 + 0.4 * 0.5) * avg], rtol=1e-15)
    q = np.array([2 * d - 1, 2 * d + 2])
    np.testing.assert_allclose(sigma[:3], [q[0] / q.sum(), q[1] / q.sum(), 0.0], rtol=1e-14)
    assert d - 1 < 0  # row 2: R + r = d + 1, d - 1: all on the first move
    np.testing.assert_array_equal(sigma[5:], [1.0, 0.0])


@pytest.mark.parametrize("method", ["update_player", "update_player_predictive"])
def test_only_the_players_sets_change(method):
    """Information set 1 (the other player's) keeps its rows through either update."""
    if method == "update_player":
        regret, strat, sigma = _update(False, 2, 1.5, 0.0, 2.0)
    else:
        regret, strat, sigma = _update_predictive(False, 2, 2.3, 5.0)
    assert list(regret[3:5]) == [9.0, 9.0] and list(strat[3:5]) == [9.0, 9.0]
    assert list(sigma[3:5]) == [9.0, 9.0]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_the_graph_passes_on_a_tree_are_the_tree_passes(name):
    """A tree is a state graph whose nodes have one parent each: run as a graph (reaches
    summed over parents, own reaches summed over each set's nodes), the same game gives
    the tree's CFR iterates and best responses (the tree's are OpenSpiel's,
    ``test_solve_engine``). This is what checks the graph passes of the kernels."""
    import dataclasses

    import pyspiel

    from analysis.solve import CFRSolver, compile_game, exploitability

    tree = compile_game(pyspiel.load_game(name))
    graph = dataclasses.replace(tree, mode="graph")
    runs = []
    for cg in (tree, graph):
        solver = CFRSolver(cg, "dcfr", engine="history")
        solver.iterate(6)
        runs.append(solver)
    assert runs[0]._tree and not runs[1]._tree
    np.testing.assert_allclose(runs[1].average_strategy(), runs[0].average_strategy(),
                               atol=1e-12)
    strategy = runs[0].average_strategy()
    ours, theirs = exploitability(graph, strategy), exploitability(tree, strategy)
    assert ours.best_response == pytest.approx(theirs.best_response, abs=1e-12)
    assert ours.value == pytest.approx(theirs.value, abs=1e-12)
    assert theirs.exploitability > 1e-3


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_expected_value_is_openspiels(name):
    """Player 0's expected payoff of an unconverged strategy, against OpenSpiel's value
    of the same policy (the best-response tests compare exploitabilities only)."""
    import pyspiel
    from open_spiel.python.algorithms import expected_game_score

    from analysis.solve import CFRSolver, compile_game, make_result
    from analysis.solve.best_response import expected_value

    game = pyspiel.load_game(name)
    cg = compile_game(game)
    solver = CFRSolver(cg, "dcfr", engine="history")
    solver.iterate(4)
    strategy = solver.average_strategy()
    policy = make_result(game, cg, solver, solver.exploitability()).to_tabular_policy(game)
    theirs = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    assert expected_value(cg, strategy) == pytest.approx(theirs, abs=1e-12)
    assert abs(theirs) > 1e-3
