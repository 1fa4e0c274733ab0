"""The engine on Farol's own games: exact LP values agree with CFR, graph with tree."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

from analysis.solve import CFRSolver, compile_game, solve, solve_lp

# The catalog's smallest battles (games/cobardes/catalog_entry.py) and Coup endgames.
WARRIORS_ONLY = {"kinds": "warriors", "warriors": 2, "combats": 3}
HIDDEN_VILLAINS = {
    "warriors": 2,
    "combats": 3,
    "kinds": "warriors+villains",
    "villain_deck": "Thug/Sheep/Executioner",
}
COUP_ENDGAME = {"position": "?/duke/3;?/captain/0;move:0", "turn_cap": 1}


def solved(compiled, iterations):
    solver = CFRSolver(compiled)
    return solver.run(iterations=iterations, progress=False)


def test_cobardes_warriors_battle_graph_is_exact():
    """Warriors only: public information, so the state graph is exact and its value is the
    tree's (LP) value."""
    game = pyspiel.load_game("python_cobardes_battle", WARRIORS_ONLY)
    tree, graph = compile_game(game), compile_game(game, graph=True)
    assert not graph.imperfect_recall
    assert graph.num_nodes < tree.num_nodes
    exact = solve_lp(tree)
    for compiled in (tree, graph):
        report = solved(compiled, 2000)
        assert abs(report.value - exact) <= report.nash_conv + 1e-9
        assert report.nash_conv < 0.02


def test_cobardes_hidden_villains_lp_agrees_with_cfr():
    game = pyspiel.load_game("python_cobardes_battle", HIDDEN_VILLAINS)
    tree = compile_game(game)
    exact = solve_lp(tree)
    report = solved(tree, 1500)
    assert abs(report.value - exact) <= report.nash_conv + 1e-9
    assert report.nash_conv < 0.02
    assert compile_game(game, graph=True).imperfect_recall


def test_coup_endgame_lp_agrees_with_cfr():
    game = pyspiel.load_game("python_coup", COUP_ENDGAME)
    tree = compile_game(game)
    exact = solve_lp(tree)
    report = solved(tree, 3000)
    assert abs(report.value - exact) <= report.nash_conv + 1e-9
    assert report.nash_conv < 1e-3


@pytest.mark.slow
def test_cobardes_full_warriors_battle_graph_matches_tree():
    """The rulebook's learning game (warriors 0-6, 7 combats): ~1.1e6 histories, a few
    thousand positions; both solves agree within their NashConv."""
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors"})
    graph = compile_game(game, graph=True)
    assert not graph.imperfect_recall
    g = solved(graph, 4000)
    t = solved(compile_game(game), 1000)
    assert abs(g.value - t.value) <= g.nash_conv + t.nash_conv + 1e-9


def test_graph_strategy_measured_by_openspiel_on_the_full_tree():
    """An exact graph's strategy, played in OpenSpiel's perfect-recall tree, is exactly as
    exploitable as the engine measures it on the graph."""
    game = pyspiel.load_game("python_cobardes_battle", WARRIORS_ONLY)
    result = solve(game, graph=True, iterations=50, use_cache=False)
    assert not result.abstraction
    theirs = openspiel_exploitability.exploitability(game, result.to_tabular_policy(game))
    assert abs(theirs - result.exploitability) < 1e-9
    assert result.exploitability > 1e-3
