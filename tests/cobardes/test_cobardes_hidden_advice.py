"""Advice at battle spots where a villain is hidden (analysis.cobardes.solvers.hidden_advice), on
small battles, checked against the perfect-recall tree: the same strategy mapped onto the
tree, the beliefs as reach probabilities over the tree's information set."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest
from cli_helpers import param_flags
from cobardes_helpers import random_spots, replayed

from analysis.cli import (
    bots,  # noqa: F401  (registers the bots and coaches)
    main,
)
from analysis.cobardes.advice.advise import _hidden_from_a_player, advise_spot
from analysis.cobardes.agents import solved as bot_module
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers.hidden_advice import advise_hidden, solution_for, strategy_at, worlds
from analysis.cobardes.solvers.hidden_solution import (
    HiddenSolution,
    checkpoint_path,
    solution_path,
    solve,
)
from analysis.cobardes.solvers.trunk import GAME, compile_cut
from analysis.cobardes.solvers.villains import node_values
from analysis.play.bots import make_bot
from analysis.play.coaching import coach_for
from analysis.solve import CFRSolver
from analysis.solve.abstraction import graph_strategy_on_tree
from analysis.solve.compiled import CHANCE, PLAYER0
from analysis.solve.floor import FloorRule
from games.cobardes import cards as C
from games.history import history_text


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Solutions go to a fresh cache folder."""
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path / "cache"))


def _params(pairing=("Squire", "Archer"), warriors=2, combats=2) -> str:
    return ",".join(f"{k}={v}" for k, v in hidden_params(pairing, warriors, combats).items()
                    if v != "")


def _game(pairing=("Squire", "Archer"), warriors=2, combats=2):
    return pyspiel.load_game(GAME, hidden_params(pairing, warriors, combats))


def _hidden_spots(game, games=6, seed=0, hidden=True):
    """Decisions where a villain is hidden (or not: ``hidden=False``), reached by random
    play."""
    return random_spots(game, lambda s: _hidden_from_a_player(s.position) == hidden, games,
                        seed)


@pytest.mark.parametrize("params", [
    {"kinds": "warriors+courtiers", "warriors": 3, "combats": 3, "courtier0": "Squire",
     "courtier1": "Archer"},
    hidden_params(("Wolf", "Inquisitor"), 3, 3),  # once both villains are known
])
def test_advice_at_random_public_spots_is_exact_and_names_the_legal_moves(params):
    game = pyspiel.load_game(GAME, params)
    count = 0
    for state in _hidden_spots(game, games=10, hidden=False):
        data = advise_spot(state).to_json()
        assert [r["action"] for r in data["actions"]] == [
            state.action_to_string(a) for a in state.legal_actions()]
        assert sum(r["probability"] for r in data["actions"]) == pytest.approx(1.0)
        assert data["source"] == "exact solve" and data["exploitability"] == 0
        # The mix's moves are worth the most (an equilibrium of the spot).
        best = max(r["value"] for r in data["actions"])
        assert all(r["value"] == pytest.approx(best, abs=1e-9) for r in data["actions"]
                   if r["probability"] > 1e-9)
        count += 1
    assert count >= 5


@pytest.mark.parametrize("pairing", [("Squire", "Archer"), ("Wolf", "Inquisitor")])
def test_advice_at_random_hidden_spots_lists_the_legal_moves(pairing):
    game = _game(pairing)
    count = 0
    for state in _hidden_spots(game):
        data = advise_spot(state).to_json()
        # Every legal move, by the name --history takes.
        assert [r["action"] for r in data["actions"]] == [
            state.action_to_string(a) for a in state.legal_actions()]
        assert sum(r["probability"] for r in data["actions"]) == pytest.approx(1.0)
        assert sum(data["opponent_hand"].values()) == pytest.approx(1.0)
        assert data["source"].startswith("stored hidden-villain solve")
        assert data["exploitability"] >= 0
        count += 1
    assert count >= 10


def _tree_advice(tree, strategy, values, state):
    """Each legal move's value and the mover's value at ``state``, from the tree: the
    nodes of the mover's information set weighed by chance and the rival's reach."""
    mover = state.current_player()
    start, child, kind = tree.edge_start, tree.edge_child, tree.kind
    reach = np.zeros(tree.num_nodes)
    reach[0] = 1.0
    for n in range(tree.num_internal):
        if reach[n] == 0:
            continue
        lo = tree.infoset_offset[tree.infoset[n]] if kind[n] != CHANCE else 0
        for k, e in enumerate(range(start[n], start[n + 1])):
            if kind[n] == CHANCE:
                p = tree.edge_prob[e]
            elif kind[n] - PLAYER0 == mover:
                p = 1.0
            else:
                p = strategy[lo + k]
            reach[child[e]] += reach[n] * p
    i = tree.infoset_keys.index(state.information_state_string(mover))
    nodes = np.flatnonzero(tree.infoset[:tree.num_internal] == i)
    weights = reach[nodes]
    sign = 1.0 if mover == 0 else -1.0
    out = {}
    for k, a in enumerate(tree.infoset_actions[tree.infoset_offset[i]:
                                                tree.infoset_offset[i + 1]]):
        kids = [child[start[n] + k] for n in nodes]
        out[int(a)] = sign * float(weights @ values[kids] / weights.sum())
    return out, sign * float(weights @ values[nodes] / weights.sum()), weights.sum()


def test_values_and_beliefs_agree_with_the_perfect_recall_tree():
    game = _game(warriors=2, combats=3)
    graph = compile_cut(game, graph=True, key_names=True).compiled
    solution, _ = solve(game, FloorRule(every=50, max_iterations=50), compiled=graph)
    tree = compile_cut(game, graph=False, key_names=True, abstract_keys=True).compiled
    mapped = graph_strategy_on_tree(graph, np.asarray(solution.strategy), tree)
    values = node_values(tree, mapped)
    checked = 0
    for state in _hidden_spots(game, games=8, seed=3):
        spot = advise_hidden(state, solution)
        expected, value, mass = _tree_advice(tree, mapped, values, state)
        if mass <= 0:
            assert spot.off_strategy
            continue
        assert not spot.off_strategy
        assert spot.value == pytest.approx(value, abs=1e-9)
        assert spot.action_values == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked >= 10


def test_the_worlds_are_the_histories_the_mover_cannot_rule_out():
    game = _game()
    for state in list(_hidden_spots(game, games=3, seed=5))[:8]:
        mover = state.current_player()
        found = [w.history() for w in worlds(state)]
        assert list(state.history()) in found
        for history in found:
            assert replayed(game, history).information_state_string(mover) == \
                state.information_state_string(mover)
        if mover == 0:  # player 0's own deal is known to them
            assert {h[0] for h in found} == {state.history()[0]}
    # Player 1's first decision: player 0's villain may be any of the 8 not theirs, and
    # player 0's card prepared face down any card of their hand, the villain included.
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() == 0:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    found = [w.history() for w in worlds(state)]
    assert {h[0] for h in found} == set(range(C.NUM_CARDS)) & {
        a for a, _ in game.new_initial_state().chance_outcomes()} - {state.history()[1]}
    v1 = state.history()[1]
    assert {h[2] for h in found} == {a for v0 in {h[0] for h in found} for a in
                                     replayed(game, [v0, v1]).legal_actions()}


def test_a_rival_off_the_solution_leaves_the_deals_chances():
    game = _game()
    solution = solution_for(game)
    kind, start, stop = solution.kind, solution.infoset_offset[:-1], solution.infoset_offset[1:]
    checked = 0
    for state in _hidden_spots(game, games=4, seed=1):
        mover = state.current_player()
        moved = [s for s in range(len(state.history()))
                 if replayed(game, state.history()[:s]).current_player() == 1 - mover]
        if not moved:
            continue
        # The rival never plays anything: whatever they did is off the solution.
        strategy = np.array(solution.strategy, copy=True)
        for i in np.unique(solution.infoset[kind == PLAYER0 + 1 - mover]):
            strategy[start[i]:stop[i]] = 0.0
        broken = HiddenSolution(solution.game, dict(solution.arrays, strategy=strategy),
                                solution.iterations, 0.0, 0.0, {})
        spot = advise_hidden(state, broken)
        assert spot.off_strategy and spot.worlds == len(worlds(state))
        assert sum(spot.opponent_hand.values()) == pytest.approx(1.0)
        assert sum(spot.mix.values()) == pytest.approx(1.0)
        checked += 1
    assert checked >= 3


def test_the_command_advises_a_hidden_history_and_stores_the_solve(capsys):
    game = _game()
    state = next(_hidden_spots(game, games=1, seed=2))
    history = history_text(state)
    args = ["advise", "cobardes", *param_flags(_params()), "--history", history, "--json"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "solving this battle with hidden villains once" in out.err
    data = json.loads(out.out)
    assert {"player", "actions", "opponent_hand", "source", "exploitability"} <= set(data)
    assert solution_path(game).exists()
    assert main(args) == 0  # the second time reads the stored solution
    again = capsys.readouterr()
    assert "solving" not in again.err
    assert json.loads(again.out) == data


def test_a_large_battle_not_stored_is_refused_in_one_line_saying_what_solving_takes(capsys):
    """A full battle under other payoffs: no opening is shipped for it, so its first
    decision needs the battle solved."""
    params = _params(warriors=6, combats=7) + ",crown_value=2"
    code = main(["advise", "cobardes", *param_flags(params), "--history", "draw Thug;draw Sheep"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "minutes" in err and "add --solve" in err


def test_play_coaches_hidden_spots_from_the_stored_solution():
    game = _game()
    solution_for(game)
    coach = coach_for(game)
    for state in list(_hidden_spots(game, games=2, seed=4))[:6]:
        advice = coach(state)
        assert advice is not None
        assert sorted(a for a, _, _ in advice.moves) == sorted(state.legal_actions())
        assert sum(p for _, p, _ in advice.moves) == pytest.approx(1.0)
        # The error the hint and review respect is the solution's own exploitability.
        assert advice.error == pytest.approx(solution_for(game).exploitability)


def test_the_solved_bot_plays_the_stored_solution_without_solving(monkeypatch):
    game = _game()
    solution = solution_for(game)

    def no_solve(*args, **kwargs):
        raise AssertionError("the bot solved the battle although it is stored")

    monkeypatch.setattr(bot_module, "solve_trunk", no_solve)
    players = {seat: make_bot("solved", game, seat, seed=seat) for seat in (0, 1)}
    rng = random.Random(7)
    hidden = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
                continue
            seat = state.current_player()
            if _hidden_from_a_player(state.position):
                hidden += 1
                mix = strategy_at(solution, state.history())
                assert sorted(mix) == sorted(state.legal_actions())
                assert sum(mix.values()) == pytest.approx(1.0)
            action = players[seat](state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert hidden > 0


def test_an_interrupted_solve_resumes_from_its_checkpoint_to_the_same_solution():
    game = _game()
    compiled = compile_cut(game, graph=True, key_names=False).compiled
    rule = FloorRule(every=12, max_iterations=12)
    straight, _ = solve(game, rule, compiled=compiled)
    expected = np.array(straight.strategy, copy=True)
    solution_path(game).unlink()
    # Six iterations done and checkpointed, then the solve stopped.
    partial = CFRSolver(compiled, "cfr+")
    partial.run(iterations=6, progress=False, checkpoint=checkpoint_path(game))
    resumed, run = solve(game, rule, compiled=compiled)
    assert run.total_iterations == 12 and resumed.iterations == 12
    assert np.array_equal(np.asarray(resumed.strategy), expected)
    assert not checkpoint_path(game).exists()  # removed once the solution is stored
    # A damaged checkpoint is set aside: the solve starts afresh.
    checkpoint_path(game).write_bytes(b"damaged")
    again, _ = solve(game, rule, compiled=compiled)
    assert np.array_equal(np.asarray(again.strategy), expected)


def test_the_best_opponent_is_the_solved_strategy():
    """``--opponent best`` in ¡Cobardes! is the solved strategy: with the same seed, the
    same moves at every decision of a battle with hidden villains."""
    game = _game()
    solution_for(game)
    rng = random.Random(11)
    best = {seat: make_bot("best", game, seat, seed=seat) for seat in (0, 1)}
    solved = {seat: make_bot("solved", game, seat, seed=seat) for seat in (0, 1)}
    moves = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
            continue
        seat = state.current_player()
        action = best[seat](state)
        assert action == solved[seat](state) and action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 2
