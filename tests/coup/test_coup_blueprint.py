"""The Coup blueprint's machinery on the 1v1 endgames' whole graph (every coin pair, one
card each; small enough to walk in seconds): its reader, resumable training and the
lower bounds on its exploitability, checked against an upper bound from a responder
who sees every card."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import multiprocessing
import random
from itertools import pairwise

import numpy as np
import pyspiel
import pytest
from numba import njit

from analysis import cli
from analysis.cli.bots import make_bot
from analysis.coup.guarantees import position_graph, uncapped_roots
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers import leaf_table
from analysis.coup.studies.blueprint_bounds import (
    LocalBestResponse,
    exploitability_lower_bound,
    keyed_response,
    local_bounds,
    response_bound,
)
from analysis.shared import store
from analysis.shared.store import CorruptFileError
from analysis.solve.cyclic import CyclicCFR, _values, normalise
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker, decisive_coup
from games.errors import InvalidParameterError
from tests.conftest import ENDGAME_START as START


def uniform(dg):
    g = dg.graph
    return tuple(normalise(np.zeros(n), k) for n, k in zip(g.num_slots, g.slot_key, strict=True))


@njit(cache=True)
def _all_seeing(value, kind, order, start, child, weight, seat, sweeps):
    for _ in range(sweeps):
        change = 0.0
        for j in range(order.shape[0] - 1, -1, -1):
            i = order[j]
            if kind[i] == 0:
                continue
            v = -2.0 if kind[i] == 2 + seat else 0.0
            for e in range(start[i], start[i + 1]):
                if kind[i] == 2 + seat:
                    v = max(v, value[child[e]])
                else:
                    v += weight[e] * value[child[e]]
            change = max(change, abs(v - value[i]))
            value[i] = v
        if change < 1e-12:
            break


def omniscient_upper_bound(solver, strategies, seat):
    """An upper bound on what any strategy of ``seat`` gets against the other's: the
    responder sees every card (value iteration from +1, the best payoff, stays above)."""
    g = solver.graph
    sign = 1.0 if seat == 0 else -1.0
    value = np.where(g.kind == 0, sign * g.payoff, 1.0)
    w, _, _ = solver._weights(*strategies)
    _all_seeing(value, g.kind, solver.order, g.edge_start, g.edge_child, w, seat, 5000)
    return value


def test_reader_mix_sums_to_one_over_legal_actions_at_sampled_states(endgames):
    dg, _, strategies, _, _ = endgames
    bp = B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {})
    game = pyspiel.load_game("python_coup", {"position": Endgame(2, 2).position(),
                                             "turn_cap": 60})
    rng = random.Random(3)
    checked = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            mix = bp.action_probabilities(state)
            assert set(mix) == set(state.legal_actions())
            assert sum(mix.values()) == pytest.approx(1.0)
            checked += 1
            # Random play that never declines a winning Coup (the blueprint's positions).
            coup = decisive_coup(state.core)
            state.apply_action(coup if coup is not None else rng.choice(state.legal_actions()))
    assert checked > 100


def test_reader_refuses_other_games_and_missing_setups(endgames):
    dg, _, strategies, _, _ = endgames
    bp = B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {})
    state = pyspiel.load_game("python_coup", {"deck": "inquisitor"}).new_initial_state()
    with pytest.raises(InvalidParameterError, match="ambassador deck"):
        bp.action_probabilities(state)
    state = pyspiel.load_game("python_coup", {"two_player_setup": "draft"}).new_initial_state()
    with pytest.raises(InvalidParameterError, match="no 'draft' setup"):
        bp.action_probabilities(state)


@pytest.mark.slow
def test_keyed_response_bounds_lie_under_the_all_seeing_upper_bound(endgames):
    dg, solver, strategies, _, _ = endgames
    root = dg.roots[START]
    for strat in (strategies, uniform(dg)):
        responses = [keyed_response(dg, START, strat, seat, 60, sweeps=500) for seat in (0, 1)]
        for r in responses:
            upper = omniscient_upper_bound(solver, strat, r.seat)[root]
            assert -1.0 <= r.value_lower <= upper + 1e-9
        assert 0.0 <= exploitability_lower_bound(responses) <= 0.5
    # A uniformly random player is badly exploitable; the blueprint much less so.
    worst = exploitability_lower_bound(
        [keyed_response(dg, START, uniform(dg), seat, 60) for seat in (0, 1)])
    best = exploitability_lower_bound(
        [keyed_response(dg, START, strategies, seat, 60) for seat in (0, 1)])
    assert worst > 0.3
    assert best < worst / 2


def test_guaranteed_value_is_below_the_converged_value(endgames):
    dg, solver, strategies, _, _ = endgames
    exact = solver.evaluate(strategies)
    for sweeps in (1, 5, 50):
        low = solver.guaranteed_value(0, strategies, sweeps)
        assert np.all(low <= exact + 1e-9)
    assert solver.guaranteed_value(0, strategies, 5000)[dg.roots[START]] == pytest.approx(
        exact[dg.roots[START]], abs=1e-6)


def test_local_best_response_keeps_the_true_world_and_is_bounded(endgames):
    dg, solver, strategies, config, root_core = endgames
    value = solver.evaluate(strategies)
    for seat in (0, 1):
        lbr = LocalBestResponse(dg, config, strategies, value, seat)
        rng = random.Random(seat)
        for _ in range(15):
            assert lbr.play(root_core, dg.roots[START], rng) in (-1.0, 0.0, 1.0)
        assert lbr.lost == 0
        bound = response_bound(dg, config, root_core, START, strategies, value, seat, 30, 7)
        upper = omniscient_upper_bound(solver, strategies, seat)[dg.roots[START]]
        assert bound.ci95[0] <= upper - bound.blueprint_value + 1e-9
        again = response_bound(dg, config, root_core, START, strategies, value, seat, 30, 7)
        assert again.mean_payoff == bound.mean_payoff  # seeded


def test_planning_deeper_never_lowers_the_responders_value(endgames):
    """Planning 0 decisions is the blueprint's own value; each further decision planned
    can only add (the blueprint's choice there is among the plans); an all-seeing
    responder bounds them all from above."""
    dg, solver, strategies, config, root_core = endgames
    value = solver.evaluate(strategies)
    root = dg.roots[START]
    for seat in (0, 1):
        lbr = LocalBestResponse(dg, config, strategies, value, seat, depth=3)
        worlds = {root: (root_core, 1.0)}
        values = [lbr.plan(worlds, d)[0] for d in range(4)]
        sign = 1.0 if seat == 0 else -1.0
        assert values[0] == pytest.approx(sign * value[root], abs=1e-12)
        assert all(b >= a - 1e-9 for a, b in pairwise(values))
        assert values[3] > values[0] + 1e-6  # the blueprint is beatable here
        assert values[3] <= omniscient_upper_bound(solver, strategies, seat)[root] + 1e-9


def test_planning_one_decision_is_the_local_best_response(endgames):
    """At every decision of simulated games, the classic local choice is one of the
    best one-decision plans."""
    dg, solver, strategies, config, root_core = endgames
    value = solver.evaluate(strategies)
    checked = []

    class Checked(LocalBestResponse):
        def choose(self, worlds):
            local = self.choose_local(worlds)
            core = next(iter(worlds.values()))[0]
            q = {a: sum(self.plan(group, 0)[0] for group in self._branches(worlds, a).values())
                 for a in self.walker.legal_actions(core)}
            assert q[local] >= max(q.values()) - 1e-9
            checked.append(local)
            return local

    for seat in (0, 1):
        lbr = Checked(dg, config, strategies, value, seat)
        rng = random.Random(seat)
        for _ in range(5):
            lbr.play(root_core, dg.roots[START], rng)
    assert len(checked) > 10


def test_a_deeper_response_takes_a_forced_move(endgames):
    """Where the responder has one legal move (a last card to lose), it plays it."""
    dg, solver, strategies, config, root_core = endgames
    value = solver.evaluate(strategies)
    rng = random.Random(5)
    for seat in (0, 1):
        lbr = LocalBestResponse(dg, config, strategies, value, seat, depth=2)
        found = 0
        for _ in range(40):
            core, node = root_core, dg.roots[START]
            while not core.over and found < 3:
                moves = lbr._moves(core, node)
                if core.cur == seat and len(moves) == 1:
                    assert lbr.choose({node: (core, 1.0)}) == moves[0][0]
                    found += 1
                action, node, _ = rng.choice(moves)
                core = lbr.walker.child(core, action)
        assert found, "no forced move of the responder met"


def test_a_deeper_response_plays_legal_seeded_games(endgames, tmp_path, capsys):
    dg, solver, strategies, config, root_core = endgames
    value = solver.evaluate(strategies)
    bound = response_bound(dg, config, root_core, START, strategies, value, 1, 8, 3, depth=2)
    again = response_bound(dg, config, root_core, START, strategies, value, 1, 8, 3, depth=2)
    assert bound.depth == 2 and again.mean_payoff == bound.mean_payoff
    upper = omniscient_upper_bound(solver, strategies, 1)[dg.roots[START]]
    assert bound.ci95[0] <= upper - bound.blueprint_value + 1e-9
    with pytest.raises(ValueError):
        LocalBestResponse(dg, config, strategies, value, 0, depth=0)
    with store.use(tmp_path):
        B.update_summary("ambassador", setups={"basic": {
            "iterations": 7, "first_player_value": 0.0}}, bounds={"basic": {
                "local_best_response": [bound.to_json()]}})
        assert cli.main(["coup", "blueprint", "info", "--setups", "basic"]) == 0
    assert "a best response planning its next 2 decisions in seat 2 gains" in \
        capsys.readouterr().out


def test_local_bounds_play_each_seat_and_info_prints_them(endgames, tmp_path, capsys):
    dg, _, strategies, _, _ = endgames
    local = local_bounds(dg, {START: Endgame(2, 2).game()}, START, strategies, 12, 4)
    assert [r.seat for r in local] == [0, 1] and all(r.games == 12 for r in local)
    for r in local:
        assert r.ci95[0] <= r.gain <= r.ci95[1]
    with store.use(tmp_path):
        B.update_summary("ambassador", setups={"basic": {
            "iterations": 7, "first_player_value": 0.0}}, bounds={"basic": {
                "local_best_response": [r.to_json() for r in local]}})
        assert cli.main(["coup", "blueprint", "info", "--setups", "basic"]) == 0
    out = capsys.readouterr().out
    assert "not measured yet" not in out
    lo, hi = local[1].ci95
    assert (f"a best response planning its next decision in seat 2 gains {local[1].gain / 2:+.3f} "
            f"[{lo / 2:+.3f}, {hi / 2:+.3f}] in win probability over 12 games") in out


def test_deck_graph_saves_and_loads_and_a_damaged_file_is_refused(endgames, tmp_path):
    dg = endgames[0]
    path = tmp_path / "g.npz"
    B.save_deck_graph(dg, path)
    back = B.load_deck_graph("ambassador", path)
    assert back.roots == dg.roots and back.keys == dg.keys
    np.testing.assert_array_equal(back.graph.edge_child, dg.graph.edge_child)
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(CorruptFileError, match="not a readable Coup graph"):
        B.load_deck_graph("ambassador", path)


def test_blueprint_saves_loads_and_missing_one_is_one_line(endgames, tmp_path, monkeypatch):
    dg, _, strategies, _, _ = endgames
    rec = B.TrainingRecord("ambassador", "basic", 100, 1.0, 0.1, dg.graph.num_nodes,
                           dg.graph.num_edges, (1, 2), {"version": "x", "commit": "y",
                                                        "seed": None})
    bp = B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {"basic": rec})
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path):
        with pytest.raises(InvalidParameterError, match="farol coup blueprint build"):
            B.load_blueprint("ambassador")
        B.save_blueprint(bp, "dealt", B.strategy_path("ambassador", "dealt"))
        back = B.load_blueprint("ambassador")
    assert back.records == bp.records
    np.testing.assert_allclose(back.strategy["basic"][0], strategies[0], atol=1e-7)


def test_values_sweep_is_exact_on_trees():
    # One reverse-order sweep solves an acyclic chain exactly.
    kind = np.array([2, 1, 0, 0], np.int8)
    payoff = np.array([0.0, 0.0, 1.0, -1.0])
    start = np.array([0, 1, 3, 3, 3])
    child = np.array([1, 2, 3])
    weight = np.array([1.0, 0.25, 0.75])
    value = payoff.copy()
    _values(value, kind, payoff, np.arange(4), start, child, weight, 0.0, 1)
    assert value[0] == pytest.approx(-0.5)


def test_info_command_says_what_is_built_and_refuses_bad_setups(tmp_path, capsys):
    with store.use(tmp_path):
        assert cli.main(["coup", "blueprint", "info", "--deck", "inquisitor"]) == 0
        out = capsys.readouterr().out
        assert "basic: not built yet (farol coup blueprint build --deck inquisitor" in out
        assert "draft: not built yet (farol coup blueprint build --deck inquisitor" in out
        B.update_summary("inquisitor", setups={"basic": {
            "iterations": 7, "first_player_value": 0.2}}, bounds={"basic": {
                "exploitability_lower_bound": 0.0312}})
        assert cli.main(["coup", "blueprint", "info", "--deck", "inquisitor",
                         "--setups", "basic"]) == 0
        out = capsys.readouterr().out
        assert "7 iterations; the first player wins 60.0%" in out
        assert "exploitability at least 0.031" in out
        # With a local best response whose interval starts higher, that is the headline.
        B.update_summary("inquisitor", bounds={"basic": {
            "exploitability_lower_bound": 0.0312, "local_best_response": [
                {"seat": s, "games": 100, "gain": 0.5, "ci95": [0.3, 0.7], "depth": 1,
                 "mean_payoff": 0.0, "blueprint_value": 0.0} for s in (0, 1)]}})
        assert cli.main(["coup", "blueprint", "info", "--deck", "inquisitor",
                         "--setups", "basic"]) == 0
        out = capsys.readouterr().out
        assert "exploitability at least 0.179 in win probability" in out  # 0.25 - 0.1 / sqrt 2
        assert cli.main(["coup", "blueprint", "info", "--setups", "basic,classic"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "setup 'classic'" in err[0]


def test_blueprint_agent_plays_legal_moves_and_refuses_when_not_built(endgames, tmp_path,
                                                                     monkeypatch):
    dg, _, strategies, _, _ = endgames
    game = pyspiel.load_game("python_coup", {"position": Endgame(2, 2).position(),
                                             "turn_cap": 60})
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path):
        with pytest.raises(InvalidParameterError, match="no ambassador blueprint yet"):
            make_bot("blueprint", game, 0)
        B.save_blueprint(B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {}),
                         "dealt", B.strategy_path("ambassador", "dealt"))
        agent = make_bot("blueprint", game, 0, seed=5)
        rng = random.Random(0)
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                elif state.current_player() == 0:
                    action = agent(state)
                    assert action in state.legal_actions()
                    state.apply_action(action)
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(InvalidParameterError, match="2-player"):
        make_bot("blueprint", pyspiel.load_game("python_coup", {"players": 3}), 0)


def test_depth_first_walk_finds_the_same_graph_as_breadth_first():
    games = [Endgame(3, 1).game()]
    config, roots = uncapped_roots(games)
    walker = DecisiveCoupWalker(config, history=False)
    wide = position_graph(walker, roots)
    config, roots = uncapped_roots(games)
    deep = position_graph(walker, roots, depth_first=True)
    assert wide.num_positions == deep.num_positions and wide.num_edges == deep.num_edges
    to_deep = np.empty(wide.num_positions, np.int64)
    for code, i in wide.index.items():
        to_deep[i] = deep.index[hashlib.blake2b(code, digest_size=16).digest()]
    np.testing.assert_array_equal(deep.kind[to_deep], wide.kind)
    np.testing.assert_array_equal(deep.winner[to_deep], wide.winner)
    for i in range(wide.num_positions):
        a, b = wide.edge_start[i], wide.edge_start[i + 1]
        c, d = deep.edge_start[to_deep[i]], deep.edge_start[to_deep[i] + 1]
        np.testing.assert_array_equal(deep.edge_child[c:d], to_deep[wide.edge_child[a:b]])
        np.testing.assert_array_equal(deep.edge_prob[c:d], wide.edge_prob[a:b])


def test_best_is_the_resolving_agent_even_where_the_blueprint_is_built(endgames, tmp_path,
                                                                        monkeypatch):
    """The re-solving agent beats belief, which beats search, which beats the blueprint:
    ``best`` at 2 players is the re-solving agent whether or not a blueprint is built."""
    from analysis.coup.agents.fast import FastSearchAgent
    from analysis.coup.agents.resolve import ResolveAgent

    dg, _, strategies, _, _ = endgames
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path):
        B.save_blueprint(B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {}),
                         "dealt", B.strategy_path("ambassador", "dealt"))
        for params, kind in (({}, ResolveAgent),
                             ({"two_player_setup": "standard"}, ResolveAgent),
                             ({"deck": "inquisitor"}, ResolveAgent),
                             ({"players": 3}, FastSearchAgent)):
            game = pyspiel.load_game("python_coup", params)
            bot = make_bot("best", game, 0, 1)
            assert type(bot) is kind, params


def test_training_resumes_from_its_checkpoint_and_starts_afresh_from_a_damaged_one(
        endgames, tmp_path, capsys):
    dg = dataclasses.replace(endgames[0], roots={"basic": endgames[0].roots[START]})
    with store.use(tmp_path):
        values = {}
        whole, whole_strategies = B.train("ambassador", "basic", 6, dg=dg, values=values)
        # Training values every position: the values pass advice needs, not run twice.
        again = CyclicCFR(dg.graph, dg.root_vector("basic")).evaluate(whole_strategies)
        assert np.array_equal(values["basic"], again)
        assert whole.first_player_value == again[dg.roots["basic"]]
        B.checkpoint_path("ambassador", "basic").unlink()
        B.train("ambassador", "basic", 4, dg=dg)
        resumed, resumed_strategies = B.train("ambassador", "basic", 6, dg=dg)
        assert resumed.iterations == 6
        for a, b in zip(whole_strategies, resumed_strategies, strict=True):
            assert np.allclose(a, b)  # 4 then 2 more: the same as 6 at once
        B.checkpoint_path("ambassador", "basic").write_bytes(b"not a checkpoint")
        fresh, fresh_strategies = B.train("ambassador", "basic", 6, dg=dg)
        assert "damaged" in capsys.readouterr().err.lower()
        assert fresh.iterations == 6
        for a, b in zip(whole_strategies, fresh_strategies, strict=True):
            assert np.allclose(a, b)


def test_accuracy_takes_the_larger_lower_bound_and_says_which():
    """The local best response's gains are averaged over the seats in win probability
    (half the payoff), their 95% intervals combined; the larger of its low end and the
    exact keyed bound is the one quoted."""
    runs = [{"seat": s, "games": 100, "gain": g, "ci95": [g - 0.1, g + 0.1], "depth": 1}
            for s, g in ((0, 0.4), (1, 0.2))]
    summary = {"bounds": {"basic": {"exploitability_lower_bound": 0.05,
                                    "local_best_response": runs}}}
    acc = B.accuracy(summary, "basic")
    gain, lo, hi = acc.local
    assert gain == pytest.approx(0.15)  # (0.4 + 0.2) / 2 seats / 2 (win probability)
    assert hi - gain == pytest.approx(math.sqrt(2 * 0.05 ** 2) / 2)  # ±0.05 a seat
    assert acc.at_least == pytest.approx(lo) and lo > 0.05
    assert "at least 0.050 (exact lower bound)" in acc.text() and "100 games a seat" in acc.text()
    summary["bounds"]["basic"]["exploitability_lower_bound"] = 0.3
    assert B.accuracy(summary, "basic").at_least == 0.3
    assert B.accuracy({}, "basic").at_least is None
    assert B.accuracy({}, "basic").text() == "not measured yet"
    one_seat = {"bounds": {"basic": {"local_best_response": runs[:1]}}}
    assert B.accuracy(one_seat, "basic").local is None  # a bound needs both seats


def test_accuracy_quotes_the_local_response_measured_over_the_most_games():
    runs = [{"seat": s, "games": g, "gain": 0.4, "ci95": [0.4 - w, 0.4 + w], "depth": d}
            for d, g, w in ((1, 2000, 0.04), (2, 200, 0.13)) for s in (0, 1)]
    acc = B.accuracy({"bounds": {"basic": {"local_best_response": runs}}}, "basic")
    assert acc.local_depth == 1 and acc.local_games == 2000


def test_the_key_table_finds_every_key_and_only_those():
    """The packed table answers as the dict it replaces, collisions of the hash ruled
    out by comparing bytes (a tiny table, every key and some strangers)."""
    from analysis.solve.key_table import KeyTable

    rng = random.Random(4)
    keys = {bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9))): (i * 3, 1 + i % 4)
            for i in range(500)}
    table = KeyTable(**B._pack_keys(keys))
    assert len(table) == len(keys)
    for k, v in keys.items():
        assert table.get(k) == v and table[k] == v and k in table
    for _ in range(200):
        k = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 10)))
        assert table.get(k) == keys.get(k)
    with pytest.raises(KeyError):
        table[b"\xff" * 40]
    again = KeyTable(**B._pack_keys(table))  # saved from the table itself
    assert all(again.get(k) == v for k, v in keys.items())


def _record_bounds(setup: str, times: int) -> None:
    for i in range(times):
        B.update_summary("ambassador", functools.partial(_set_bound, setup, i))


def _set_bound(setup: str, i: int, summary: dict) -> None:
    summary.setdefault("bounds", {}).setdefault(setup, {"n": []})["n"].append(i)


def test_two_processes_writing_one_summary_keep_each_others_setups(tmp_path, monkeypatch):
    """Building a deck's two parts at once, each process writes its own setups into the
    deck's one summary; the lock keeps either from writing over the other's."""
    monkeypatch.setenv(store.DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    workers = [multiprocessing.get_context("fork").Process(target=_record_bounds,
                                                           args=(setup, 60))
               for setup in ("basic", "draft")]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert [w.exitcode for w in workers] == [0, 0]
    # every write kept: a write made from a stale read would lose the other's last ones
    assert B.read_summary("ambassador")["bounds"] == {s: {"n": list(range(60))}
                                                      for s in ("basic", "draft")}


class _FakeProcess:
    """Stands for a child ``farol coup blueprint build``: records how it was started."""

    started: list = []
    exit_codes: dict = {}

    def __init__(self, argv, env):
        self.argv, self.env = argv, env
        _FakeProcess.started.append(self)

    def wait(self) -> int:
        return _FakeProcess.exit_codes.get(self.argv[-1], 0)


def test_a_deck_builds_its_two_games_in_two_processes(monkeypatch, capsys):
    """With both parts asked for, each part's setups go to a child of its own with the same
    options and its progress bars on a line of their own; a stopped child is named in one
    line and fails the build; with one worker, no child is started."""
    from analysis.cli import coup_blueprint

    monkeypatch.setattr(coup_blueprint.subprocess, "Popen", _FakeProcess)
    _FakeProcess.started, _FakeProcess.exit_codes = [], {}
    argv = ["coup", "blueprint", "build", "--deck", "inquisitor", "--setups",
            "draft,basic,standard", "--iterations", "7", "--bluff-games", "0",
            "--response-iterations", "3", "--bound-sweeps", "4", "--local-games", "5",
            "--local-depth", "2", "--seed", "9"]
    assert cli.main(argv) == 0
    first, second = _FakeProcess.started
    assert (first.argv[-2:], second.argv[-2:]) == (["--setups", "basic,standard"],
                                                   ["--setups", "draft"])
    for child, line in ((first, "0"), (second, "1")):
        assert child.env["TQDM_POSITION"] == line
        text = " ".join(child.argv)
        assert "--deck inquisitor --workers 1" in text and "--iterations 7" in text
        assert "--bluff-games 0" in text and "--seed 9" in text
        # Every other option (none left at its default) reaches the child as read.
        mine = vars(cli.build_parser().parse_args(argv))
        theirs = vars(cli.build_parser().parse_args(child.argv[3:]))
        assert {k: v for k, v in theirs.items() if k not in ("workers", "setups", "data")} == \
            {k: v for k, v in mine.items() if k not in ("workers", "setups", "data")}
    _FakeProcess.started, _FakeProcess.exit_codes = [], {"draft": -9}
    capsys.readouterr()
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err] and "the draft setups' process was stopped (signal 9)" in err
    _FakeProcess.started = []
    with pytest.raises(InvalidParameterError):  # in this process: no blueprint files here
        monkeypatch.setattr(B, "deck_graph", _no_graph)
        coup_blueprint.run_build(cli.build_parser().parse_args([*argv, "--workers", "1"]))
    assert _FakeProcess.started == []


def test_the_build_stores_the_values_its_training_computed(endgames, tmp_path, monkeypatch,
                                                           capsys):
    """``farol coup blueprint build`` in one process: the values advice re-solves from are
    the training's own (one values pass, not two) and equal a fresh pass."""
    from analysis.cli import coup_blueprint
    from analysis.coup.solvers.blueprint_resolve import values_current, values_path

    dg = dataclasses.replace(endgames[0], roots={"basic": endgames[0].roots[START]})
    monkeypatch.setattr(coup_blueprint.blueprint, "deck_graph", lambda *a, **k: dg)
    monkeypatch.setattr(coup_blueprint.blueprint, "deck_games",
                        lambda deck, part: {"basic": Endgame(2, 2).game()})
    # A cache of its own: a blueprint left in the shared one would become other tests' `best`.
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    passes = []
    evaluate = CyclicCFR.evaluate
    monkeypatch.setattr(CyclicCFR, "evaluate",
                        lambda self, *a, **k: passes.append(1) or evaluate(self, *a, **k))
    with store.use(tmp_path):
        assert cli.main(["--data", str(tmp_path / "data"), "coup", "blueprint", "build",
                         "--setups", "basic", "--iterations", "3", "--response-iterations",
                         "0", "--local-games", "0", "--bluff-games", "0", "--workers", "1"]) == 0
        bp = B.load_blueprint("ambassador")
        assert values_current(bp, "basic") and len(passes) == 1
        with np.load(values_path("ambassador", "basic")) as z:
            stored = z["value"]
        fresh = evaluate(CyclicCFR(dg.graph, dg.root_vector("basic")), bp.strategy["basic"])
        assert np.allclose(stored, fresh, atol=1e-6)
        # The re-solve's leaf table: each entry the visit-weighted mean of those values
        # over the turn starts it names; here at the root, the endgame's first turn.
        table = leaf_table.LeafTable.load(tmp_path / "data" / "coup" / "leaves" / "ambassador.npz")
        assert table.setups == ("basic",) and table.trained == {"basic": 3}
        _, roots = B.history_roots({"basic": Endgame(2, 2).game()})
        root = roots["basic"]
        while root.cur == E.CHANCE:
            root.apply(root.chance_outcomes()[0][0])
        assert -1.0 <= table.value(root, "basic") <= 1.0
        known = ~np.isnan(table.mean["basic"])
        assert known.sum() > 10 and np.all(np.abs(table.mean["basic"][known]) <= 1.0 + 1e-6)
    assert "basic" in capsys.readouterr().out


def _no_graph(*args, **kwargs):
    raise InvalidParameterError("no graph in this test")


def test_training_again_keeps_the_bounds_only_of_the_same_strategy():
    """A build from an empty cache trains the same strategy again: its measured bounds
    stay. A strategy trained differently (more iterations, another value) drops them."""
    record = {"iterations": 50, "nodes": 10, "edges": 30, "first_player_value": 0.03,
              "seconds": 100.0, "provenance": {"commit": "a"}}
    bound = {"exploitability_lower_bound": 0.115}

    def summary():
        return {"setups": {"basic": dict(record)}, "bounds": {"basic": dict(bound)}}

    again = summary()
    B._trained("basic", record | {"seconds": 400.0, "provenance": {"commit": "b"}}, again)
    assert again["bounds"] == {"basic": bound} and again["setups"]["basic"]["seconds"] == 400.0
    for change in ({"iterations": 60}, {"first_player_value": 0.04}):
        other = summary()
        B._trained("basic", record | change, other)
        assert other["bounds"] == {}
    fresh = {}
    B._trained("basic", record, fresh)
    assert fresh == {"setups": {"basic": record}}
