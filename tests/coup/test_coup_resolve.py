"""Depth-limited re-solving of 2-player Coup spots
(analysis.coup.solvers.blueprint_resolve) on the 1v1 endgames' blueprint
(tests/conftest.py), and the exact tree best response it measures itself with
(analysis.solve.tree_response), checked against OpenSpiel's."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import exploitability as os_exploitability

from analysis.coup.advice.blueprint import advise_spot, beliefs
from analysis.coup.guarantees import encode_key, markov_key
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers.blueprint_resolve import (
    ValueGraph,
    compute_values,
    public_worlds,
    resolve_spot,
    stored_value_graph,
    unroll,
    value_graph_for,
    values_current,
)
from analysis.shared import store
from analysis.solve.cyclic import CyclicCFR, CyclicGraph
from analysis.solve.tree_response import best_response_value, exploitability
from games.coup import cards as C
from tests.conftest import ENDGAME_START as START

PARAMS = {"position": Endgame(2, 2).position(), "turn_cap": 60}


def openspiel_tree(game) -> tuple[CyclicGraph, list[dict]]:
    """An OpenSpiel 2-player zero-sum game's tree as a graph, and each player's slots as
    (information state string, action) for reading a policy onto them."""
    kind, payoff, start, child, prob, slot = [], [], [0], [], [], []
    infosets = ({}, {})
    slots = ([], [])
    states = [game.new_initial_state()]
    head = 0
    while head < len(states):
        s = states[head]
        head += 1
        kind.append(0 if s.is_terminal() else 1 if s.is_chance_node() else 2 + s.current_player())
        payoff.append(s.returns()[0] if s.is_terminal() else 0.0)
        if s.is_terminal():
            start.append(len(child))
            continue
        if s.is_chance_node():
            moves = s.chance_outcomes()
        else:
            p = s.current_player()
            key = s.information_state_string()
            if key not in infosets[p]:
                infosets[p][key] = len(slots[p])
                slots[p].extend((key, a) for a in s.legal_actions())
            moves = [(a, infosets[p][key] + j) for j, a in enumerate(s.legal_actions())]
        for a, x in moves:
            child.append(len(states))
            prob.append(x if s.is_chance_node() else 0.0)
            slot.append(-1 if s.is_chance_node() else x)
            states.append(s.child(a))
        start.append(len(child))
    keys = tuple(np.array([list(infosets[p]).index(k) for k, _ in slots[p]], np.int64)
                 for p in (0, 1))
    graph = CyclicGraph(np.array(kind, np.int8), np.array(payoff), np.array(start, np.int64),
                        np.array(child, np.int64), np.array(prob), np.array(slot, np.int64),
                        keys)
    return graph, slots


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_tree_best_response_matches_openspiel_on_kuhn_poker(seed):
    game = pyspiel.load_game("kuhn_poker")
    graph, slots = openspiel_tree(game)
    pol = os_policy.TabularPolicy(game)
    if seed is not None:  # a random strategy at every information set
        rng = np.random.default_rng(seed)
        pol.action_probability_array[:] = rng.dirichlet([1, 1], pol.action_probability_array.shape[0])
    strategies = tuple(np.array([pol.policy_for_key(k)[a] for k, a in slots[p]])
                       for p in (0, 1))
    expected = os_exploitability.exploitability(game, pol)
    assert exploitability(graph, 0, strategies) == pytest.approx(expected, abs=1e-12)
    if seed is None:
        assert expected == pytest.approx(0.458333, abs=1e-6)  # known: uniform Kuhn poker


def test_tree_best_response_refuses_a_graph_that_is_not_a_tree():
    g = CyclicGraph(np.array([1, 1, 0], np.int8), np.zeros(3), np.array([0, 2, 3, 3]),
                    np.array([1, 2, 2]), np.array([0.5, 0.5, 1.0]), np.full(3, -1),
                    (np.zeros(0, np.int64), np.zeros(0, np.int64)))
    with pytest.raises(Exception, match="not a tree"):
        best_response_value(g, 0, (np.zeros(0), np.zeros(0)), 0)


@pytest.fixture(scope="module")
def model(endgames):
    dg, solver, strategies, _, root = endgames
    value = solver.evaluate(strategies)
    vg = ValueGraph(dg.graph.edge_start, dg.graph.edge_child, value, dg.roots[START], root)
    bp = B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {})
    return vg, bp


def spots(count: int, seed: int):
    """Decisions with a choice reached by the blueprint-free random play of the endgame."""
    rng = random.Random(seed)
    game = pyspiel.load_game("python_coup", PARAMS)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.5:
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_the_unrolled_game_keeps_the_blueprints_values(model):
    """With both playing the blueprint inside it, the unrolled game is worth exactly the
    blueprint's value at each world it starts from: the leaves and moves are read right."""
    vg, bp = model
    for state in spots(5, seed=3):
        truth, node, worlds = public_worlds(vg, bp, "basic", state.history(), uniform=True)
        assert node in worlds and sum(w for _, w in worlds.values()) == pytest.approx(1.0)
        for depth in (1, 3):
            sub = unroll(vg, bp, "basic", worlds, depth)
            root = np.zeros(sub.graph.num_nodes)
            root[0] = 1.0
            value = CyclicCFR(sub.graph, root).evaluate(sub.blueprint)
            for n, tree_node in sub.world_nodes.items():
                assert value[tree_node] == pytest.approx(vg.value[n], abs=1e-9)


def test_public_worlds_for_the_player_are_the_players_beliefs(model):
    """The worlds the public history allows, narrowed to what the player to move holds,
    weigh the opponent's card as the player's own beliefs do (one card each: nothing
    private happened before)."""
    vg, bp = model
    for state in spots(4, seed=5):
        player = state.current_player()
        truth, _, worlds = public_worlds(vg, bp, "basic", state.history())
        mine = markov_key(truth, player)
        theirs: dict = {}
        for core, w in worlds.values():
            if markov_key(core, player) == mine:
                theirs[core.hands[1 - player]] = theirs.get(core.hands[1 - player], 0) + w
        expected: dict = {}
        for core, w in beliefs(pyspiel.load_game("python_coup", PARAMS).new_initial_state().core,
                               state.history(), player, bp, "basic"):
            expected[core.hands[1 - player]] = expected.get(core.hands[1 - player], 0) + w
        total = sum(theirs.values())
        assert set(theirs) == set(expected)
        for hand, w in expected.items():
            assert theirs[hand] / total == pytest.approx(w, abs=1e-9)


def test_a_resolve_is_nearly_an_equilibrium_of_its_game_and_lists_the_legal_moves(model):
    vg, bp = model
    for state in spots(4, seed=7):
        r = resolve_spot(vg, bp, "basic", state.history(), iterations=400)
        assert list(r.actions) == state.legal_actions()
        assert sum(r.mix) == pytest.approx(1.0) and min(r.mix) >= 0
        assert 0 <= r.exploitability < 0.01
        best = max(r.values)
        for p, v in zip(r.mix, r.values, strict=True):
            if p > 0.1:  # a move played often is nearly as good as the best one
                assert v >= best - 0.05
        assert 1 <= r.depth <= 4 and r.nodes <= 40_000


def test_a_resolve_goes_no_deeper_than_its_node_budget(model):
    vg, bp = model
    (state,) = spots(1, seed=9)
    small = resolve_spot(vg, bp, "basic", state.history(), max_nodes=3000, iterations=50)
    large = resolve_spot(vg, bp, "basic", state.history(), max_nodes=40_000, iterations=50)
    assert small.nodes <= 3000 and small.depth <= large.depth


def test_advice_re_solves_when_values_are_given(model, tmp_path):
    vg, bp = model
    state = pyspiel.load_game("python_coup", PARAMS).new_initial_state()
    for card in (C.ASSASSIN, C.DUKE):
        (action,) = [a for a, _ in state.chance_outcomes()
                     if state.action_to_string(a).endswith(C.card_name(card))]
        state.apply_action(action)
    state.apply_action(C.A_TAX)  # P1 may challenge P0's Duke
    with store.use(tmp_path):
        advice = advise_spot(state, bp, vg=vg)
        plain = advise_spot(state, bp, rollouts=20)  # no values stored there: rollouts
    out = advice.to_json()
    assert out["source"].startswith("re-solve") and plain.to_json()["source"].startswith("blueprint")
    assert [a["action"] for a in out["actions"]] == [
        state.action_to_string(1, a) for a in state.legal_actions()]
    assert sum(a["probability"] for a in out["actions"]) == pytest.approx(1.0)
    assert out["resolve"]["exploitability"] < 0.01
    assert out["opponent_hand"] == plain.to_json()["opponent_hand"]
    assert "exact in a re-solve" in advice.text()


def test_values_are_stored_for_the_strategy_they_were_computed_from(endgames, model, tmp_path):
    dg, *_ = endgames
    vg, bp = model
    with store.use(tmp_path):
        assert not values_current(bp, "basic") and value_graph_for(bp, "basic") is None
        value = compute_values(bp, "basic", dataclasses.replace(dg, roots={"basic": 0}))
        assert values_current(bp, "basic")
        assert np.allclose(value, vg.value)
        stored = stored_value_graph("ambassador", "basic")  # values and edges, one file
        assert np.allclose(stored.value, vg.value, atol=1e-6) and stored.root == 0
        assert (stored.edge_start == dg.graph.edge_start).all()
        assert (stored.edge_child == dg.graph.edge_child).all()
        record = B.TrainingRecord("ambassador", "basic", 7, 1.0, 0.0, 1, 1, (1, 1), {})
        retrained = B.Blueprint(bp.deck, bp.keys, bp.strategy, {"basic": record})
        assert not values_current(retrained, "basic")  # another strategy: computed again


def test_a_player_who_left_the_blueprint_is_still_advised(model):
    """After the player's own move that the blueprint never plays, no world of the
    blueprint's ranges holds their cards: the re-solve weighs every move alike instead."""
    vg, bp = model
    state = pyspiel.load_game("python_coup", PARAMS).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    player = state.current_player()
    legal = state.legal_actions()
    # A blueprint that never plays the first move here, with the player's cards.
    first, count = bp.keys["dealt"][player][encode_key(B.blueprint_key(state.core, player))]
    mine = bp.strategy["basic"][player].copy()
    mine[first:first + count] = 0.0
    mine[first + 1] = 1.0
    pair = (mine, bp.strategy["basic"][1]) if player == 0 else (bp.strategy["basic"][0], mine)
    never = B.Blueprint(bp.deck, bp.keys, {"basic": pair}, {})
    state.apply_action(legal[0])
    while not state.is_terminal() and (state.is_chance_node() or state.current_player() != player
                                       or len(state.legal_actions()) < 2):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
        else:
            actions, probs = zip(*never.action_probabilities(state).items(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    assert not state.is_terminal()
    truth, _, worlds = public_worlds(vg, never, "basic", state.history())
    assert not any(markov_key(c, player) == markov_key(truth, player) for c, _ in worlds.values())
    r = resolve_spot(vg, never, "basic", state.history(), iterations=50)
    assert list(r.actions) == state.legal_actions() and sum(r.mix) == pytest.approx(1.0)
