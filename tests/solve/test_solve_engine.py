"""The solver engine: values, exploitability against OpenSpiel's, best responses, LP."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr as openspiel_cfr
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from analysis.solve import (
    CFRSolver,
    best_response,
    compile_game,
    exploitability,
    make_result,
    solve,
    solve_lp,
    uniform_strategy,
)

GOOFSPIEL4 = "turn_based_simultaneous_game(game=goofspiel(num_cards=4,imp_info=True))"


def strategy_from(cg, rows: dict[str, dict[int, float]]) -> np.ndarray:
    """A strategy array: uniform except at the named information sets."""
    strategy = uniform_strategy(cg)
    for key, probs in rows.items():
        i = cg.infoset_keys.index(key)
        lo, hi = cg.infoset_offset[i], cg.infoset_offset[i + 1]
        actions = cg.infoset_actions[lo:hi].tolist()
        strategy[lo:hi] = [probs.get(a, 0.0) for a in actions]
    return strategy


def test_kuhn_value_is_minus_one_eighteenth(tmp_path):
    result = solve("kuhn_poker", target_exploitability=1e-5, use_cache=False)
    assert result.exploitability <= 1e-5
    assert abs(result.value - (-1 / 18)) < 1e-4
    assert result.mode == "tree" and not result.abstraction


def test_leduc_value():
    """Leduc poker's value for player 0 is about -0.0856."""
    result = solve("leduc_poker", target_exploitability=1e-4, use_cache=False)
    assert result.exploitability <= 1e-4
    assert abs(result.value - (-0.0856)) < 1e-3


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", GOOFSPIEL4])
def test_exploitability_equals_openspiel(name):
    game = pyspiel.load_game(name)
    cg = compile_game(game)
    solver = CFRSolver(cg)
    solver.iterate(7)  # an unconverged strategy: every digit of the comparison matters
    report = solver.exploitability()
    tabular = make_result(game, cg, solver, report).to_tabular_policy(game)
    theirs = openspiel_exploitability.exploitability(game, tabular)
    assert abs(report.exploitability - theirs) < 1e-9
    assert report.exploitability > 1e-3


@pytest.mark.slow
def test_exploitability_equals_openspiel_liars_dice():
    game = pyspiel.load_game("liars_dice")
    cg = compile_game(game)
    solver = CFRSolver(cg)
    solver.iterate(5)
    report = solver.exploitability()
    tabular = make_result(game, cg, solver, report).to_tabular_policy(game)
    theirs = pyspiel.exploitability(game, policy_lib.python_policy_to_pyspiel_policy(tabular))
    assert abs(report.exploitability - theirs) < 1e-9


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_cfr_plus_matches_openspiel_iterates(name):
    """Same algorithm (alternating updates, linear averaging): same average strategy."""
    game = pyspiel.load_game(name)
    theirs = openspiel_cfr.CFRPlusSolver(game)
    for _ in range(10):
        theirs.evaluate_and_update_policy()
    expected = openspiel_exploitability.exploitability(game, theirs.average_policy())
    solver = CFRSolver(compile_game(game), engine="history")
    solver.iterate(10)
    assert abs(solver.exploitability().exploitability - expected) < 1e-9


def test_public_tree_engine_agrees_with_history_engine():
    cg = compile_game(pyspiel.load_game("leduc_poker"))
    history = CFRSolver(cg, engine="history")
    public = CFRSolver(cg, engine="public")
    assert public.engine == "public" and history.engine == "history"
    history.iterate(1)
    public.iterate(1)
    np.testing.assert_allclose(public.regret, history.regret, atol=1e-12)
    np.testing.assert_allclose(public.strategy_sum, history.strategy_sum, atol=1e-12)
    history.iterate(300)
    public.iterate(300)
    assert history.exploitability().exploitability < 5e-3
    assert public.exploitability().exploitability < 5e-3


def test_goofspiel_does_not_factor():
    """Player 0's card is hidden from player 1 until both have chosen: no public tree."""
    solver = CFRSolver(compile_game(pyspiel.load_game(GOOFSPIEL4)))
    assert solver.engine == "history"


@pytest.mark.parametrize("method", ["cfr+", "dcfr", "lcfr"])
def test_methods_converge_on_kuhn(method):
    result = solve("kuhn_poker", method=method, iterations=3000, use_cache=False)
    assert result.exploitability < 2e-3
    assert abs(result.value + 1 / 18) <= result.nash_conv + 1e-12


def test_best_response_rock_paper_scissors():
    """Against rock 0.5, paper 0.3, scissors 0.2 the best reply is paper, worth 0.5 - 0.2."""
    game = pyspiel.load_game("matrix_rps")
    cg = compile_game(game)
    p1 = cg.infoset_keys[int(np.flatnonzero(cg.infoset_player == 1)[0])]
    strategy = strategy_from(cg, {p1: {0: 0.5, 1: 0.3, 2: 0.2}})
    value, choice = best_response(cg, strategy, 0)
    assert value == pytest.approx(0.3, abs=1e-12)
    i0 = int(np.flatnonzero(cg.infoset_player == 0)[0])
    assert cg.infoset_actions[cg.infoset_offset[i0] + choice[i0]] == 1  # paper


def test_best_response_kuhn_against_a_player_who_always_folds():
    """Player 1 checks behind and folds to every bet: betting always wins the ante."""
    cg = compile_game(pyspiel.load_game("kuhn_poker"))
    pass_, bet = 0, 1
    folder = {f"{card}{h}": {pass_: 1.0} for card in range(3) for h in ("p", "b")}
    value, _ = best_response(cg, strategy_from(cg, folder), 0)
    assert value == pytest.approx(1.0, abs=1e-12)
    # Player 0 always bets and always calls: player 1 calls with the king (+2), folds the
    # jack (-1) and is indifferent with the queen (0): (2 - 1 + 0) / 3.
    bettor = {f"{card}": {bet: 1.0} for card in range(3)}
    bettor |= {f"{card}pb": {bet: 1.0} for card in range(3)}
    value, _ = best_response(cg, strategy_from(cg, bettor), 1)
    assert value == pytest.approx(1 / 3, abs=1e-12)


def test_exploitability_of_an_equilibrium_is_zero():
    """Kuhn's equilibrium family with alpha = 0: player 0 always checks (bets the king with
    probability 3 alpha = 0), then calls with the king, with the queen a third of the time;
    player 1 bets the king, bluffs the jack a third of the time after a check, and calls a
    bet with the king and with the queen a third of the time."""
    cg = compile_game(pyspiel.load_game("kuhn_poker"))
    p, b = 0, 1
    rows = {
        "0": {p: 1.0},
        "1": {p: 1.0},
        "2": {p: 1.0},
        "0pb": {p: 1.0},
        "1pb": {p: 2 / 3, b: 1 / 3},
        "2pb": {b: 1.0},
        "0p": {p: 2 / 3, b: 1 / 3},
        "1p": {p: 1.0},
        "2p": {b: 1.0},
        "0b": {p: 1.0},
        "1b": {p: 2 / 3, b: 1 / 3},
        "2b": {b: 1.0},
    }
    report = exploitability(cg, strategy_from(cg, rows))
    assert report.exploitability == pytest.approx(0.0, abs=1e-12)
    assert report.value == pytest.approx(-1 / 18, abs=1e-12)


@pytest.mark.parametrize("name, expected", [("kuhn_poker", -1 / 18), ("leduc_poker", -0.0856)])
def test_lp_value(name, expected):
    value = solve_lp(compile_game(pyspiel.load_game(name)))
    assert value == pytest.approx(expected, abs=1e-4)


def test_lp_agrees_with_cfr_on_goofspiel():
    game = pyspiel.load_game("turn_based_simultaneous_game(game=goofspiel(num_cards=3))")
    cg = compile_game(game)
    result = solve(game, target_exploitability=1e-6, use_cache=False)
    assert abs(result.value - solve_lp(cg)) <= result.nash_conv + 1e-9
