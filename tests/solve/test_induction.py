"""The shared backward induction (``analysis.solve.induction``) and the three exact
¡Cobardes! solvers built on it: the Python reference (``ExactSolver``), the compiled one
(``FastExactSolver``) and the compiled battle graph (``BattleGraph``) agree."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis.cobardes.model import payoff_values
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.solve import induction
from analysis.solve.matrix_game import solve_matrix
from games.cobardes.options import make_rules


class _Tree:
    """A hand-made game: nodes are names; leaves carry player 0's payoff."""

    def __init__(self, nodes: dict, leaves: dict):
        self.nodes, self.leaves = nodes, leaves
        self.seen: list[str] = []
        self.met: list[tuple[str, int]] = []

    def terminal(self, s):
        return self.leaves.get(s, math.nan)

    def keep(self, s):
        return True

    def key(self, s):
        return s

    def blank(self):
        return None

    def expand(self, s):
        kind, kids, probs, m, n = self.nodes[s]
        return kind, len(kids), probs, m, n, list(range(len(kids))), kids

    def child(self, s, kind, actions, kids, m, n, i):
        return kids[i]

    def matrix(self, a, counts):
        sol = solve_matrix(a)
        return sol.value, sol.row, sol.col

    def solved(self, s, key, kind, actions, kids, probs, vals, v, row, col):
        self.seen.append(s)

    def reached(self, c, how, key):
        self.met.append((c, how))


def test_one_source_for_python_and_numba():
    """The Python routine is the compiled one's own code, not a copy of it."""
    assert induction.solve.__code__ is induction.solve_compiled.py_func.__code__


def test_a_small_graph_by_hand():
    """Matching pennies (value 0), a coin (the mean), a max and a min, and a shared
    child solved once."""
    tree = _Tree(
        nodes={
            "root": (induction.CHANCE, ["pennies", "pick"], [0.25, 0.75], 0, 0),
            "pennies": (induction.MATRIX, ["a", "b", "b", "a"], (), 2, 2),
            "pick": (induction.MAX, ["low", "shared"], (), 0, 0),
            "low": (induction.MIN, ["b", "shared"], (), 0, 0),
            "shared": (induction.MIN, ["c", "d"], (), 0, 0),
        },
        leaves={"a": 1.0, "b": -1.0, "c": 0.5, "d": 2.0})
    memo: dict = {}
    counts = [0, 0, 0]
    value = induction.solve("root", tree, None, None, memo, counts)
    assert value == pytest.approx(0.25 * 0.0 + 0.75 * 0.5)
    assert memo["pennies"] == pytest.approx(0.0) and memo["low"] == -1.0
    assert counts[:2] == [5, 1] and tree.seen.count("shared") == 1
    # Every child is told once its value is known, saying how it was found: the shared
    # child twice (solved, then remembered), each leaf as finished.
    assert tree.met.count(("shared", induction.KEPT)) == 2
    assert tree.met.count(("a", induction.FINISHED)) == 2
    assert len(tree.met) == 2 + 4 + 2 + 2 + 2
    assert induction.solve("a", tree, None, None, memo, counts) == 1.0


PAIRINGS = [("Squire", "Archer"), ("Wolf", "Fortune-Teller"), ("Inquisitor", "Maiden"), ("Sentinel", "Royal Guard"),
            (None, None)]


@pytest.mark.parametrize("courtiers", PAIRINGS)
def test_the_three_solvers_agree_on_reduced_decks(courtiers, monkeypatch):
    """Warriors 0-3 in 3 combats: the same value from the Python solver (memo of every
    position, or only before reveals), the compiled one and the battle graph, the same
    positions and matrix games counted; the Python ones go through the shared routine."""
    params = {"warriors": 3, "combats": 3, "kinds": "warriors"}
    if courtiers[0]:
        params.update(kinds="warriors+courtiers", courtier0=courtiers[0],
                      courtier1=courtiers[1])
    rules = make_rules(params)
    calls = []
    shared = induction.solve
    monkeypatch.setattr(induction, "solve", lambda *a: calls.append(a[0]) or shared(*a))

    full = ExactSolver(rules.cfg, payoff_values(rules.pay), track_draws=True)
    lean = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False, combat_memo=True)
    fast = FastExactSolver(rules.cfg, rules.pay)
    pay = rules.pay
    graph = BattleGraph(rules.cfg, rules.initial).solve(
        (pay.win, pay.loss, pay.crown, pay.crown_loss, pay.draw))

    want = full.value(rules.initial)
    assert lean.value(rules.initial) == want
    assert fast.value(rules.initial) == pytest.approx(want, abs=1e-12)
    assert graph.value == pytest.approx(want, abs=1e-12)
    assert len(calls) == 3  # graph, full, lean
    assert fast.solved == lean.solved and fast.matrix_games == lean.matrix_games
    assert full.matrix_games == lean.matrix_games
    # The graph's outcome probabilities and the Python solver's draws agree too.
    draw = graph.outcome_probs[-1]
    assert draw == pytest.approx(full.draw_probability(rules.initial), abs=1e-9)
    assert np.sum(graph.outcome_probs) == pytest.approx(1.0)
