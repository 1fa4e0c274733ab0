"""CFR+ on state graphs with cycles: against known values, OpenSpiel's exploitability and
value iteration on cyclic games of perfect information."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import best_response, exploitability

from analysis.shared import progress
from analysis.shared.store import CorruptFileError
from analysis.solve.cyclic import (
    REACH_TOLERANCE,
    SWEEP_CHUNK,
    TERMINAL,
    VALUE_TOLERANCE,
    CyclicCFR,
    CyclicGraph,
    _reach,
    _values,
    normalise,
)
from analysis.solve.errors import SolveError


def tree_graph(game):
    """``game``'s tree as a graph keyed by information-state strings (perfect recall)."""
    nodes, kind, payoff, edges = [game.new_initial_state()], [], [], []
    keys: list[dict] = [{}, {}]
    owner: list[list[int]] = [[], []]
    j = 0
    while j < len(nodes):
        s = nodes[j]
        out = []
        if s.is_terminal():
            kind.append(0)
            payoff.append(s.returns()[0])
        elif s.is_chance_node():
            kind.append(1)
            payoff.append(0.0)
            for a, p in s.chance_outcomes():
                out.append((len(nodes), p, -1))
                nodes.append(s.child(a))
        else:
            p = s.current_player()
            kind.append(2 + p)
            payoff.append(0.0)
            key, actions = s.information_state_string(p), s.legal_actions()
            if key not in keys[p]:
                keys[p][key] = (len(owner[p]), actions)
                owner[p].extend([len(keys[p]) - 1] * len(actions))
            first = keys[p][key][0]
            for t, a in enumerate(actions):
                out.append((len(nodes), 0.0, first + t))
                nodes.append(s.child(a))
        edges.append(out)
        j += 1
    flat = [e for out in edges for e in out]
    start = np.cumsum([0] + [len(out) for out in edges])
    graph = CyclicGraph(np.array(kind, np.int8), np.array(payoff), start.astype(np.int64),
                        np.array([e[0] for e in flat], np.int64),
                        np.array([e[1] for e in flat]), np.array([e[2] for e in flat], np.int64),
                        tuple(np.array(o, np.int64) for o in owner))
    return graph, keys


def tabular(game, keys, solver):
    pol = policy_lib.TabularPolicy(game)
    for p in (0, 1):
        avg = solver.average_strategy(p)
        for key, (first, actions) in keys[p].items():
            row = pol.policy_for_key(key)
            row[:] = 0.0
            row[actions] = avg[first:first + len(actions)]
    return pol


def root_of(graph):
    root = np.zeros(graph.num_nodes)
    root[0] = 1.0
    return root


@pytest.mark.parametrize("name, iterations, value, bound", [
    ("kuhn_poker", 300, -1 / 18, 2e-3),
    ("leduc_poker", 300, -0.0856, 1e-2),  # Leduc's value for player 0: about -0.0856
])
def test_poker_values_and_openspiel_exploitability(name, iterations, value, bound):
    game = pyspiel.load_game(name)
    graph, keys = tree_graph(game)
    solver = CyclicCFR(graph, root_of(graph))
    solver.run(iterations)
    assert solver.evaluate()[0] == pytest.approx(value, abs=bound)
    assert exploitability.nash_conv(game, tabular(game, keys, solver)) < bound


def random_cyclic_game(rng, n=40):
    """A perfect-information stochastic game whose moves can lead back to earlier
    positions; each move ends the game with probability 0.2 (paying a random payoff)."""
    kinds = rng.integers(2, 4, n)
    kind = np.r_[kinds, np.zeros(n, np.int8)].astype(np.int8)
    payoff = np.r_[np.zeros(n), rng.uniform(-1, 1, n)]
    start, child, prob, slot = [0], [], [], []
    chance_nodes = []
    owner = [[], []]
    for i in range(n):
        p = kinds[i] - 2
        for _ in range(rng.integers(1, 4)):
            slot.append(len(owner[p]))
            owner[p].append(i)
            chance_nodes.append(i)
            child.append(-len(chance_nodes))  # patched below: a chance node per move
            prob.append(0.0)
        start.append(len(child))
    # Chance nodes after each move: to a terminal with 0.2, else to a random position.
    base = 2 * n
    kind = np.r_[kind, np.ones(len(chance_nodes), np.int8)]
    payoff = np.r_[payoff, np.zeros(len(chance_nodes))]
    child = [base + (-c - 1) for c in child]
    for _ in chance_nodes:
        child += [int(rng.integers(n, 2 * n)), int(rng.integers(0, n))]
        prob += [0.2, 0.8]
        slot += [-1, -1]
        start.append(len(child))
    # Terminals have no edges: insert their empty ranges (nodes n..2n-1 come before
    # the chance nodes in the numbering).
    start = start[:n + 1] + [start[n]] * n + start[n + 1:]
    graph = CyclicGraph(kind, payoff, np.array(start, np.int64), np.array(child, np.int64),
                        np.array(prob), np.array(slot, np.int64),
                        tuple(np.array(o, np.int64) for o in owner))
    return graph


def minimax_values(graph, sweeps=500):
    v = np.where(graph.kind == 0, graph.payoff, 0.0)
    for _ in range(sweeps):
        for i in range(graph.num_nodes):
            k = graph.kind[i]
            if k == 0:
                continue
            lo, hi = graph.edge_start[i], graph.edge_start[i + 1]
            vals = v[graph.edge_child[lo:hi]]
            v[i] = (vals.max() if k == 2 else vals.min() if k == 3
                    else float(graph.edge_prob[lo:hi] @ vals))
    return v


@pytest.mark.parametrize("seed", range(5))
def test_cyclic_games_of_perfect_information_match_value_iteration(seed):
    graph = random_cyclic_game(np.random.default_rng(seed))
    root = np.zeros(graph.num_nodes)
    root[:40] = 1 / 40
    solver = CyclicCFR(graph, root)
    solver.run(2000)
    expected = minimax_values(graph)
    got = solver.evaluate()
    assert np.max(np.abs(got[:40] - expected[:40])) < 0.02


def test_visits_solve_the_chain_of_play():
    """Expected visits under fixed strategies equal the solution of the linear system
    v = root + P^T v of the Markov chain of play, solved here by numpy."""
    seed = 3
    graph = random_cyclic_game(np.random.default_rng(seed))
    root = np.zeros(graph.num_nodes)
    root[:40] = 1 / 40
    solver = CyclicCFR(graph, root)
    rng = np.random.default_rng(seed + 1)
    strategies = tuple(normalise(rng.uniform(0.1, 1.0, n), k)
                       for n, k in zip(graph.num_slots, graph.slot_key, strict=True))
    n = graph.num_nodes
    chain = np.zeros((n, n))
    for i in range(n):
        for e in range(graph.edge_start[i], graph.edge_start[i + 1]):
            k = graph.kind[i]
            p = graph.edge_prob[e] if k == 1 else strategies[k - 2][graph.edge_slot[e]]
            chain[i, graph.edge_child[e]] += p
    expected = np.linalg.solve(np.eye(n) - chain.T, root)
    got = solver.visits(strategies)
    assert np.allclose(got, expected, atol=1e-8)
    # In chunks (Ctrl-C between them) or in one compiled call: the same sweeps, the same visits.
    one = np.zeros(n)
    _reach(one, solver.root, solver.order, solver.in_start, solver.in_edge, solver.in_source,
           solver._weights(*strategies)[0], REACH_TOLERANCE, 2 * SWEEP_CHUNK + 2)
    assert np.array_equal(solver.visits(strategies, sweeps=2 * SWEEP_CHUNK + 2), one)
    assert not np.allclose(one, got, atol=1e-8)  # not converged yet: a real cap
    assert got[:40].max() > 1 / 40  # the loops bring play back


def test_values_pass_in_chunks_is_one_pass(capsys, monkeypatch):
    """A values pass runs in chunks of sweeps (so Ctrl-C stops it, and a bar can show
    progress): the same sweeps as one compiled call, so the same values to the last bit,
    with or without the bar, and the bar reaches 100% of the precision."""
    graph = random_cyclic_game(np.random.default_rng(3))
    root = np.zeros(graph.num_nodes)
    root[:40] = 1 / 40
    solver = CyclicCFR(graph, root)
    solver.run(50)
    w_play, _, _ = solver._weights(solver.average_strategy(0), solver.average_strategy(1))
    one = np.where(graph.kind == TERMINAL, graph.payoff, 0.0).astype(float)
    sweeps, _ = _values(one, graph.kind, graph.payoff, solver.order, graph.edge_start,
                        graph.edge_child, w_play, VALUE_TOLERANCE, solver.max_sweeps)
    assert sweeps > SWEEP_CHUNK  # more than one chunk, or the test shows nothing
    assert np.array_equal(solver.evaluate(), one)
    monkeypatch.setattr(progress, "DELAY", 0.0)  # the pass is quick: show its bar anyway
    assert np.array_equal(solver.evaluate(progress=True, desc="values"), one)
    assert "farol: values: 100% of the precision" in capsys.readouterr().err


def test_checkpoint_resumes_to_the_same_strategy(tmp_path):
    graph, _ = tree_graph(pyspiel.load_game("kuhn_poker"))
    whole = CyclicCFR(graph, root_of(graph))
    whole.run(60)
    part = CyclicCFR(graph, root_of(graph))
    part.run(25, checkpoint=tmp_path / "c.npz", every=10)
    resumed = CyclicCFR(graph, root_of(graph))
    resumed.run(60, checkpoint=tmp_path / "c.npz", every=10)
    for p in (0, 1):
        np.testing.assert_allclose(resumed.average_strategy(p), whole.average_strategy(p))
    # The time spent iterating adds up over the runs (the first run's is kept).
    assert resumed.seconds > part.seconds > 0


def test_foreign_checkpoint_and_bad_graphs_are_refused(tmp_path):
    kuhn, _ = tree_graph(pyspiel.load_game("kuhn_poker"))
    leduc, _ = tree_graph(pyspiel.load_game("leduc_poker"))
    CyclicCFR(kuhn, root_of(kuhn)).save(tmp_path / "k.npz")
    with pytest.raises(CorruptFileError, match="another graph"):
        CyclicCFR(leduc, root_of(leduc)).load(tmp_path / "k.npz")
    (tmp_path / "bad.npz").write_bytes(b"nonsense")
    with pytest.raises(CorruptFileError, match="not a readable checkpoint"):
        CyclicCFR(kuhn, root_of(kuhn)).load(tmp_path / "bad.npz")
    with pytest.raises(SolveError, match="root"):
        CyclicCFR(kuhn, np.zeros(kuhn.num_nodes))


def test_normalise_gives_uniform_where_a_set_has_no_weight():
    out = normalise(np.array([0.0, 0.0, 3.0, 1.0]), np.array([0, 0, 1, 1]))
    np.testing.assert_allclose(out, [0.5, 0.5, 0.75, 0.25])


def test_held_strategy_gives_openspiels_best_response_value():
    # Kuhn has perfect recall: the keyed response to a held strategy is a true best
    # response, so its value must reach OpenSpiel's best-response value.
    game = pyspiel.load_game("kuhn_poker")
    graph, keys = tree_graph(game)
    held = CyclicCFR(graph, root_of(graph))
    held.run(30)  # a strategy some way from equilibrium
    pol = tabular(game, keys, held)
    strategies = (held.average_strategy(0), held.average_strategy(1))
    for seat in (0, 1):
        responder = CyclicCFR(graph, root_of(graph), fixed={1 - seat: strategies[1 - seat]})
        responder.run(2000)
        mine = responder.average_strategy(seat)
        pair = (mine, strategies[1]) if seat == 0 else (strategies[0], mine)
        got = responder.guaranteed_value(seat, pair, 10)[0]
        expected = best_response.BestResponsePolicy(game, seat, pol).value(
            game.new_initial_state())
        assert got <= expected + 1e-9
        assert got == pytest.approx(expected, abs=2e-3)
    with pytest.raises(SolveError, match="wrong number of slots"):
        CyclicCFR(graph, root_of(graph), fixed={0: np.ones(3)})
