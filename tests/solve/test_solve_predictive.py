"""The predictive methods, PCFR+ and PDCFR+: convergence on Kuhn and Leduc poker and in
graph mode, the update rules against a plain re-implementation of the papers', both
engines, the speed-up over CFR+ where prediction helps, checkpoints and bad names."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
import solve_games  # noqa: F401  (registers python_test_pennies_race)
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from solve_games import pennies_race_value

from analysis import cli
from analysis.shared.store import CorruptFileError
from analysis.solve import CFRSolver, SolveError, SolveResult, compile_game, make_result, solve

PREDICTIVE = ["pcfr+", "pdcfr+"]


def openspiel_figure(game, compiled, solver) -> float:
    """OpenSpiel's exploitability of the solver's average strategy."""
    result = make_result(game, compiled, solver, solver.exploitability())
    return openspiel_exploitability.exploitability(game, result.to_tabular_policy(game))


# ---------------------------------------------------------------- convergence
@pytest.mark.parametrize("method", PREDICTIVE)
def test_kuhn_converges_to_minus_one_eighteenth(method):
    game = pyspiel.load_game("kuhn_poker")
    cg = compile_game(game)
    solver = CFRSolver(cg, method)
    report = solver.run(iterations=300, progress=False)
    # After 300 iterations: PCFR+ 8.7e-7, PDCFR+ 3.4e-10 (CFR+ 4.3e-4).
    assert report.exploitability < 1e-5
    assert abs(report.value - (-1 / 18)) < 1e-5
    assert abs(openspiel_figure(game, cg, solver) - report.exploitability) < 1e-9


@pytest.mark.parametrize("method", PREDICTIVE)
def test_leduc_converges(method):
    game = pyspiel.load_game("leduc_poker")
    result = solve(game, method=method, iterations=1000, use_cache=False)
    # After 1000 iterations: PCFR+ 7.1e-4, PDCFR+ 9.0e-4 (CFR+ 2.5e-4, DCFR 1.6e-4).
    assert result.exploitability < 2e-3
    assert abs(result.value - (-0.0856)) < 1e-3
    assert result.method == method and result.engine == "public"
    theirs = openspiel_exploitability.exploitability(game, result.to_tabular_policy(game))
    assert abs(theirs - result.exploitability) < 1e-9


@pytest.mark.parametrize("method", PREDICTIVE)
def test_graph_mode_converges_to_the_exact_value(method):
    """The history engine on a state graph (reaches summed over parents)."""
    game = pyspiel.load_game("python_test_pennies_race", {"target": 4})
    solver = CFRSolver(compile_game(game, graph=True), method)
    assert solver.engine == "history"
    report = solver.run(iterations=1000, progress=False)
    assert report.exploitability < 1e-6
    assert abs(report.value - pennies_race_value(4)) <= report.nash_conv + 1e-12


# ---------------------------------------------------------------- the update rules
class PaperSolver:
    """PCFR+ and PDCFR+ as their papers write them, over OpenSpiel states, one
    information state at a time, in plain Python: a check on the engine's arrays.

    PCFR+: ``R^t = max(R^{t-1} + r^t, 0)``, next strategy from ``max(R^t + r^t, 0)``,
    average weighted by ``t^2``. PDCFR+: ``R^t = max(R^{t-1} d(t-1) + r^t, 0)``, next
    strategy from ``max(R^t d(t) + r^t, 0)`` with ``d(t) = t^a / (t^a + 1)``, average
    strategy sum ``S^t = S^{t-1} ((t-1)/t)^g + reach x^t``. Alternating updates.
    """

    def __init__(self, game, method, alpha=2.3, gamma=5.0):
        self.game, self.method, self.alpha, self.gamma = game, method, alpha, gamma
        self.regret, self.play, self.total = {}, {}, {}
        self.t = 0

    def _strategy(self, key, n):
        if key not in self.play:
            self.play[key] = np.full(n, 1.0 / n)
            self.regret[key] = np.zeros(n)
            self.total[key] = np.zeros(n)
        return self.play[key]

    def _walk(self, state, p, own, other, instant, reach):
        if state.is_terminal():
            return state.returns()[p]
        if state.is_chance_node():
            return sum(q * self._walk(state.child(a), p, own, other * q, instant, reach)
                       for a, q in state.chance_outcomes())
        mover = state.current_player()
        key = state.information_state_string(mover)
        actions = state.legal_actions()
        x = self._strategy(key, len(actions))
        if mover != p:
            return sum(x[k] * self._walk(state.child(a), p, own, other * x[k], instant, reach)
                       for k, a in enumerate(actions))
        values = np.array([self._walk(state.child(a), p, own * x[k], other, instant, reach)
                           for k, a in enumerate(actions)])
        v = float(x @ values)
        instant[key] = instant.get(key, 0.0) + other * (values - v)
        reach[key] = reach.get(key, 0.0) + own
        return v

    def _d(self, t):
        return t**self.alpha / (t**self.alpha + 1.0)

    def iterate(self, count):
        for _ in range(count):
            self.t += 1
            t = self.t
            for p in (0, 1):
                instant, reach = {}, {}
                self._walk(self.game.new_initial_state(), p, 1.0, 1.0, instant, reach)
                for key, r in instant.items():
                    if self.method == "pcfr+":
                        self.regret[key] = np.maximum(self.regret[key] + r, 0.0)
                        predicted = np.maximum(self.regret[key] + r, 0.0)
                        self.total[key] += t * t * reach[key] * self.play[key]
                    else:
                        self.regret[key] = np.maximum(self.regret[key] * self._d(t - 1) + r, 0.0)
                        predicted = np.maximum(self.regret[key] * self._d(t) + r, 0.0)
                        self.total[key] = (self.total[key] * ((t - 1) / t) ** self.gamma
                                           + reach[key] * self.play[key])
                    s = predicted.sum()
                    self.play[key] = predicted / s if s > 0 else np.full(len(r), 1 / len(r))

    def average_policy(self):
        policy = policy_lib.TabularPolicy(self.game)
        for key, total in self.total.items():
            row = policy.state_lookup[key]
            legal = np.flatnonzero(policy.legal_actions_mask[row])
            policy.action_probability_array[row] = 0.0
            policy.action_probability_array[row, legal] = (
                total / total.sum() if total.sum() > 0 else 1.0 / len(legal))
        return policy


@pytest.mark.parametrize("method", PREDICTIVE)
@pytest.mark.parametrize("name, iterations", [("kuhn_poker", 12), ("leduc_poker", 5)])
def test_update_rules_match_the_papers(name, iterations, method):
    """The engine's update (the next iteration's discount applied at the end of this one,
    the prediction kept in one row each) gives the papers' iterates. On the history
    engine, whose sums run in this walk's order: regret matching jumps where a row's
    regrets are all about zero, so sums in another order may part ways there (the public
    engine does so on Kuhn under PDCFR+ from iteration 2, converging all the same)."""
    game = pyspiel.load_game(name)
    paper = PaperSolver(game, method)
    paper.iterate(iterations)
    cg = compile_game(game)
    solver = CFRSolver(cg, method, engine="history")
    solver.iterate(iterations)
    ours = make_result(game, cg, solver, solver.exploitability()).to_tabular_policy(game)
    np.testing.assert_allclose(ours.action_probability_array,
                               paper.average_policy().action_probability_array, atol=1e-9)
    theirs = openspiel_exploitability.exploitability(game, paper.average_policy())
    assert abs(solver.exploitability().exploitability - theirs) < 1e-9
    assert theirs > 1e-3  # unconverged: every digit of the comparison matters


@pytest.mark.parametrize("method", PREDICTIVE)
def test_public_tree_engine_agrees_with_history_engine(method):
    cg = compile_game(pyspiel.load_game("leduc_poker"))
    history = CFRSolver(cg, method, engine="history")
    public = CFRSolver(cg, method, engine="public")
    history.iterate(1)
    public.iterate(1)
    for name in ("regret", "prediction", "strategy_sum"):
        np.testing.assert_allclose(getattr(public, name), getattr(history, name), atol=1e-12)
    history.iterate(299)
    public.iterate(299)
    assert history.exploitability().exploitability < 5e-3
    assert public.exploitability().exploitability < 5e-3


def test_one_extra_row_array_for_predictive_methods_only():
    cg = compile_game(pyspiel.load_game("kuhn_poker"))
    for method in ("cfr+", "dcfr", "lcfr"):
        assert CFRSolver(cg, method, engine="history")._prediction_rows.size == 0
    for method in PREDICTIVE:
        solver = CFRSolver(cg, method, engine="history")
        assert solver._prediction_rows.size == cg.num_actions == solver.regret.size


# ---------------------------------------------------------------- against CFR+
def iterations_to(compiled, method: str, target: float, cap: int) -> int:
    """The first iteration whose average strategy is at most ``target`` exploitable."""
    solver = CFRSolver(compiled, method)
    while solver.iteration < cap:
        solver.iterate(1)
        if solver.exploitability().exploitability <= target:
            return solver.iteration
    return cap + 1


@pytest.mark.parametrize(
    "name, params, graph, target",
    [("kuhn_poker", {}, False, 1e-4), ("python_test_pennies_race", {"target": 4}, True, 1e-3)],
)
def test_pcfr_plus_needs_fewer_iterations_than_cfr_plus(name, params, graph, target):
    """Measured: Kuhn poker to 1e-4, CFR+ 277 iterations, PCFR+ 62; the pennies race's
    state graph to 1e-3, CFR+ 1469, PCFR+ 49. (Not so in every game: on Leduc poker to
    1e-3, CFR+ takes 451 and PCFR+ 702; see docs/solve.md.)"""
    compiled = compile_game(pyspiel.load_game(name, params), graph=graph)
    plus = iterations_to(compiled, "cfr+", target, cap=3000)
    predictive = iterations_to(compiled, "pcfr+", target, cap=3000)
    assert predictive <= 3000
    assert 2 * predictive < plus, (predictive, plus)


# ---------------------------------------------------------------- checkpoints
@pytest.mark.parametrize("method", PREDICTIVE)
@pytest.mark.parametrize("engine", ["history", "public", "graph"])
def test_resume_repeats_the_straight_run_bit_for_bit(tmp_path, method, engine):
    if engine == "graph":
        game = pyspiel.load_game("python_test_pennies_race", {"target": 3, "hidden": True})
        cg, engine = compile_game(game, graph=True), "history"
    else:
        cg = compile_game(pyspiel.load_game("leduc_poker"))
    straight = CFRSolver(cg, method, engine=engine)
    straight.iterate(40)
    first = CFRSolver(cg, method, engine=engine)
    first.run(iterations=15, checkpoint=tmp_path / "c.npz", progress=False)
    second = CFRSolver(cg, method, engine=engine)
    second.load_checkpoint(tmp_path / "c.npz")
    assert second.iteration == 15
    np.testing.assert_array_equal(second.prediction, first.prediction)
    assert np.abs(second.prediction).max() > 0
    second.run(iterations=40, checkpoint=tmp_path / "c.npz", progress=False)
    assert second.iteration == 40
    for name in ("regret", "prediction", "strategy_sum"):
        np.testing.assert_array_equal(getattr(second, name), getattr(straight, name))
    np.testing.assert_array_equal(second.average_strategy(), straight.average_strategy())
    np.testing.assert_array_equal(second.current_strategy(), straight.current_strategy())


def test_resume_through_solve_with_parameters(tmp_path):
    """``solve`` with a checkpoint: the result of 30 + 30 iterations is the straight 60's,
    with PDCFR+'s parameters (given ones too) recorded."""
    checkpoint = tmp_path / "c.npz"
    solve("kuhn_poker", method="pdcfr+", alpha=2.0, iterations=30, checkpoint=checkpoint,
          use_cache=False)
    resumed = solve("kuhn_poker", method="pdcfr+", alpha=2.0, iterations=60,
                    checkpoint=checkpoint, use_cache=False)
    straight = solve("kuhn_poker", method="pdcfr+", alpha=2.0, iterations=60, use_cache=False)
    assert resumed.iterations == 60
    np.testing.assert_array_equal(resumed.strategy, straight.strategy)
    assert resumed.method_parameters == {"alpha": 2.0, "gamma": 5.0}
    assert solve("kuhn_poker", method="pcfr+", iterations=5,
                 use_cache=False).method_parameters == {}


def test_checkpoint_without_prediction_refused(tmp_path):
    cg = compile_game(pyspiel.load_game("kuhn_poker"))
    solver = CFRSolver(cg, "pcfr+")
    solver.iterate(5)
    solver.save_checkpoint(tmp_path / "c.npz")
    with np.load(tmp_path / "c.npz") as data:
        kept = {k: data[k] for k in data.files if k != "prediction"}
    np.savez(tmp_path / "c.npz", **kept)
    with pytest.raises(CorruptFileError, match="unreadable"):
        CFRSolver(cg, "pcfr+").load_checkpoint(tmp_path / "c.npz")


def test_checkpoint_of_another_method_refused(tmp_path):
    cg = compile_game(pyspiel.load_game("kuhn_poker"))
    solver = CFRSolver(cg, "cfr+")
    solver.iterate(5)
    solver.save_checkpoint(tmp_path / "c.npz")
    with pytest.raises(CorruptFileError, match="another solve"):
        CFRSolver(cg, "pcfr+").load_checkpoint(tmp_path / "c.npz")


# ---------------------------------------------------------------- names
@pytest.mark.parametrize("bad", ["pcfr", "PCFR+", "pdcfr"])
def test_unknown_method_is_one_line(bad):
    with pytest.raises(SolveError) as info:
        solve("kuhn_poker", method=bad, use_cache=False)
    message = str(info.value)
    assert "\n" not in message and "unknown method" in message
    assert "pcfr+" in message and "pdcfr+" in message
    with pytest.raises(SolveError, match="unknown method"):
        CFRSolver(compile_game(pyspiel.load_game("kuhn_poker")), bad)


def test_cli_lists_and_runs_the_predictive_methods(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    try:
        status = cli.main(["solve", "kuhn_poker", "--method", "pcfr", "--no-progress"])
    except SystemExit as exc:
        status = exc.code
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "--method" in err and "'pcfr+'" in err and "'pdcfr+'" in err
    out = tmp_path / "kuhn"
    status = cli.main(["solve", "kuhn_poker", "--method", "pdcfr+", "--iterations", "200",
                       "--out", str(out), "--no-progress"])
    assert status == 0
    assert "method: pdcfr+" in capsys.readouterr().out
    result = SolveResult.load(out)
    assert result.method == "pdcfr+" and result.iterations == 200
    assert result.exploitability < 1e-5
