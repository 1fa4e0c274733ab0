"""OpenSpiel's own tools on small 1v1 Coup endgames: CFR, exploitability, tree walks."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from analysis.play.gametree import count_tree
from analysis.solve import compile_game
from analysis.solve.lp import solve_lp
from games import catalog
from games.coup import endgame_game

# One card each, dealt by chance; one turn: P0 may assassinate (3 coins), claim
# anything, and P1 may challenge or block. A small bluffing game.
BLUFF = "?/duke/3;?/captain/0;move:0"


def test_cfr_python_and_cpp_reduce_exploitability_and_agree():
    game = endgame_game(BLUFF, deck="inquisitor", turn_cap=1)
    uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    assert uniform > 0.3

    solver = cfr.CFRSolver(game)
    for _ in range(25):
        solver.evaluate_and_update_policy()
    py_expl = exploitability.exploitability(game, solver.average_policy())
    assert py_expl < 0.05 < uniform

    cpp = pyspiel.CFRSolver(game)
    for _ in range(25):
        cpp.evaluate_and_update_policy()
    cpp_expl = pyspiel.exploitability(game, cpp.average_policy())
    assert cpp_expl == pytest.approx(py_expl, abs=1e-9), "the same algorithm gives the same policy"

    # P0 moves first and may bluff an Assassin: the game favours P0.
    value = expected_game_score.policy_value(
        game.new_initial_state(), [solver.average_policy()] * 2
    )
    assert 0.0 < value[0] < 0.5 and value[0] == pytest.approx(-value[1])


def test_cfr_finds_the_coup_that_wins():
    """With 7 coins and one card each, a Coup wins at once (it cannot be blocked or
    challenged): the game is worth exactly 1 to P0, by the sequence-form LP, and after
    15 iterations CFR's current strategy plays the Coup at every deal, winning every
    game (its average still carries the early iterations' other moves). Uniform play
    does not win for sure: the Coup has to be found."""
    game = endgame_game("?/duke/7;?/captain/0;move:0", deck="inquisitor", turn_cap=1)
    assert solve_lp(compile_game(game)) == pytest.approx(1.0, abs=1e-9)
    solver = cfr.CFRSolver(game)
    for _ in range(15):
        solver.evaluate_and_update_policy()
    current = expected_game_score.policy_value(game.new_initial_state(),
                                               [solver.current_policy()] * 2)
    assert list(current) == [1.0, -1.0]
    average = expected_game_score.policy_value(game.new_initial_state(),
                                               [solver.average_policy()] * 2)[0]
    uniform = expected_game_score.policy_value(game.new_initial_state(),
                                               [policy.UniformRandomPolicy(game)] * 2)[0]
    assert uniform < average < 1.0 and uniform < 0.9


def test_small_variants_walk_exhaustively():
    entry = catalog.entry("python_coup")
    assert entry.small_variants
    for _label, params in entry.small_variants:
        size = count_tree(pyspiel.load_game("python_coup", params), max_nodes=100_000)
        assert size.terminals > 0 and min(size.infosets) > 0


def test_child_walk_speed_on_a_one_v_one_endgame():
    """The engine is meant for exhaustive walks: measure nodes per second of a child() walk."""
    import time

    game = endgame_game("duke/assassin/7;captain/contessa/7;move:0", turn_cap=2)
    start = time.perf_counter()
    nodes = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_terminal():
            continue
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    rate = nodes / (time.perf_counter() - start)
    print(f"{nodes} nodes, {rate:,.0f} nodes/s")
    assert nodes == 3480
    assert rate > 5_000  # far below the ~55k/s measured alone: a shared CI machine


def _walk(game):
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        yield state
        if state.is_terminal():
            continue
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        stack.extend(state.child(a) for a in actions)


@pytest.mark.parametrize("deck", ["ambassador", "inquisitor"])
def test_keys_are_consistent_over_a_whole_endgame_tree(deck):
    """Equal state keys: same player, actions, chance outcomes and returns. Equal information
    states: equal infoset keys and observations (nothing private to the other player leaks
    into them). And at P0's first decision there is one information state per card P0 may
    hold."""
    game = endgame_game(BLUFF, deck=deck, turn_cap=1)
    by_state: dict = {}
    by_info: dict = {}
    first_decisions = set()
    for state in _walk(game):
        player = state.current_player()
        actions = (
            tuple(state.chance_outcomes()) if state.is_chance_node()
            else tuple(state.legal_actions()) if not state.is_terminal() else ()
        )
        summary = (player, actions, tuple(state.returns()))
        assert by_state.setdefault(state.state_key(), summary) == summary
        if player >= 0:
            info = state.information_state_string(player)
            seen = (state.infoset_key(player), state.observation_string(player))
            assert by_info.setdefault(info, seen) == seen
            if len(state.history()) == 2:
                first_decisions.add(info)
    assert len(first_decisions) == 5  # P0 knows their own card and nothing of P1's
