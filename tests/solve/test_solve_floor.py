"""Solving to the floor (``analysis.solve.floor``): the strategy kept is the best one
measured, its figure is its own, and the rule stops where it says."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from analysis.solve import CFRSolver, SolveError, compile_game
from analysis.solve.best_response import exploitability
from analysis.solve.floor import FloorRule, solve_to_floor


@pytest.fixture(scope="module")
def leduc():
    return compile_game(pyspiel.load_game("leduc_poker"))


def test_the_kept_strategy_is_the_best_measured_and_its_figure_its_own(leduc):
    run = solve_to_floor(CFRSolver(leduc, "cfr+"), FloorRule(every=7, patience=2, gain=0.5,
                                                              max_iterations=200))
    assert run.exploitability == min(e for _, e in run.checks)
    assert (run.iterations, run.exploitability) in run.checks
    again = exploitability(leduc, run.strategy)
    assert again.exploitability == pytest.approx(run.exploitability, rel=1e-12)
    assert again.value == pytest.approx(run.value, rel=1e-12)


def test_it_stops_after_patience_checks_without_the_gain(leduc):
    # CFR+ on Leduc never halves its exploitability in 5 iterations once past the start:
    # with gain 0.99 every check but the first stalls.
    rule = FloorRule(every=5, patience=3, gain=0.99, max_iterations=500)
    run = solve_to_floor(CFRSolver(leduc, "cfr+"), rule)
    assert run.total_iterations == 5 * (1 + rule.patience)
    assert len(run.checks) == 1 + rule.patience


def test_it_stops_at_the_target_and_at_the_most_iterations(leduc):
    run = solve_to_floor(CFRSolver(leduc, "cfr+"), FloorRule(every=20, patience=100,
                                                              target=0.05, max_iterations=1000))
    assert run.exploitability <= 0.05 and run.total_iterations < 1000
    assert all(e > 0.05 for _, e in run.checks[:-1])
    capped = solve_to_floor(CFRSolver(leduc, "cfr+"), FloorRule(every=30, patience=100,
                                                                 max_iterations=50))
    assert capped.total_iterations == 50 and [i for i, _ in capped.checks] == [30, 50]


def test_a_rule_that_makes_no_sense_is_refused_in_one_line():
    for bad in ({"every": 0}, {"gain": 1.0}, {"target": -1.0}, {"patience": 0}):
        with pytest.raises(SolveError):
            FloorRule(**bad)


def test_the_rule_reads_as_words():
    words = FloorRule(every=10, patience=3, gain=0.05, target=0.02).words()
    assert "3 checks in a row, 10 iterations apart" in words and "0.02" in words
    assert np.isclose(FloorRule().to_json()["gain"], 0.05)
