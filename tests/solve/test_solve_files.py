"""The solver's files and edges: cache, checkpoints, results, CLI, bad input, graph mode."""

from __future__ import annotations

import os
import signal
import struct
import zipfile

import numpy as np
import pyspiel
import pytest
import solve_games  # noqa: F401  (registers python_test_pennies_race)
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
from solve_games import pennies_race_value

from analysis import cli
from analysis.shared.store import CACHE_ENV, CorruptFileError, read_rows, write_rows
from analysis.solve import (
    CFRSolver,
    GameTooLargeError,
    SolveResult,
    UnsupportedGameError,
    compile_cached,
    compile_game,
    solve,
    solve_lp,
)


def files_under(path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


# ---------------------------------------------------------------- bad input
def test_three_players_refused():
    with pytest.raises(UnsupportedGameError, match="3 players"):
        compile_game(pyspiel.load_game("kuhn_poker", {"players": 3}))


def test_general_sum_refused():
    with pytest.raises(UnsupportedGameError, match="general-sum"):
        compile_game(pyspiel.load_game("matrix_pd"))


def test_too_large_refused_with_estimate_before_walking(tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(GameTooLargeError, match=r"estimated .* histories") as info:
        compile_cached("leduc_poker", max_memory=100_000, directory=cache)
    assert "\n" not in str(info.value)
    assert files_under(cache) == []  # nothing half-written


def test_graph_mode_needs_state_keys():
    with pytest.raises(UnsupportedGameError, match="state_key"):
        compile_game(pyspiel.load_game("kuhn_poker"), graph=True)


def _same_compile(a, b) -> bool:
    arrays = ("kind", "infoset", "edge_start", "edge_child", "edge_prob", "edge_action",
              "utility", "infoset_player", "infoset_offset", "infoset_actions")
    return (a.infoset_keys == b.infoset_keys and a.action_names == b.action_names
            and all(np.array_equal(getattr(a, n), getattr(b, n)) for n in arrays))


def _damage(kind: str, cached, tmp_path) -> None:
    data = cached.read_bytes()
    if kind == "not a zip":
        cached.write_bytes(b"not a zip file at all")
    elif kind == "truncated":
        cached.write_bytes(data[: len(data) // 2])
    elif kind == "flipped byte":  # in the middle of the utilities' stored bytes
        with zipfile.ZipFile(cached) as archive:
            info = archive.getinfo("utility.npy")
        start = info.header_offset
        name_len, extra_len = struct.unpack("<HH", data[start + 26: start + 30])
        middle = bytearray(data)
        middle[start + 30 + name_len + extra_len + info.file_size // 2] ^= 0xFF
        cached.write_bytes(bytes(middle))
    elif kind == "json":
        cached.write_text('{"game": "kuhn_poker", "nodes": 58}\n')
    else:  # another game's compiled file under this game's name
        compile_cached("leduc_poker", directory=tmp_path / "other")
        (other,) = (tmp_path / "other" / "compiled").iterdir()
        cached.write_bytes(other.read_bytes())


@pytest.mark.parametrize("kind", ["not a zip", "truncated", "flipped byte", "json", "foreign"])
def test_damaged_cache_is_named_in_one_line_and_rebuilt(tmp_path, capsys, kind):
    fresh = compile_game(pyspiel.load_game("kuhn_poker"))
    compile_cached("kuhn_poker", directory=tmp_path)
    (cached,) = (tmp_path / "compiled").iterdir()
    _damage(kind, cached, tmp_path)
    capsys.readouterr()
    cg = compile_cached("kuhn_poker", directory=tmp_path)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.endswith("; rebuilding it")
    assert str(cached) in err and "is damaged" in err
    assert _same_compile(cg, fresh)
    again = compile_cached("kuhn_poker", directory=tmp_path)
    assert capsys.readouterr().err == "", "the rebuilt cache is valid"
    assert _same_compile(again, fresh)


def test_corrupted_checkpoint_is_one_clear_error(tmp_path):
    checkpoint = tmp_path / "ckpt.npz"
    checkpoint.write_bytes(b"\x00" * 100)
    out = tmp_path / "out"
    with pytest.raises(CorruptFileError, match="checkpoint"):
        solve("kuhn_poker", iterations=10, checkpoint=checkpoint, use_cache=False)
    assert checkpoint.read_bytes() == b"\x00" * 100
    assert not out.exists()


def test_checkpoint_of_another_game_refused(tmp_path):
    checkpoint = tmp_path / "ckpt.npz"
    solve("kuhn_poker", iterations=10, checkpoint=checkpoint, use_cache=False)
    with pytest.raises(CorruptFileError, match="another solve"):
        solve("leduc_poker", iterations=10, checkpoint=checkpoint, use_cache=False)


# ---------------------------------------------------------------- checkpoints
@pytest.mark.parametrize("engine", ["history", "public"])
def test_resume_loses_no_iteration(tmp_path, engine):
    cg = compile_game(pyspiel.load_game("leduc_poker"))
    straight = CFRSolver(cg, "dcfr", engine=engine)
    straight.iterate(40)
    first = CFRSolver(cg, "dcfr", engine=engine)
    first.run(iterations=15, checkpoint=tmp_path / "c.npz", progress=False)
    second = CFRSolver(cg, "dcfr", engine=engine)
    second.load_checkpoint(tmp_path / "c.npz")
    assert second.iteration == 15
    second.run(iterations=40, checkpoint=tmp_path / "c.npz", progress=False)
    assert second.iteration == 40
    np.testing.assert_array_equal(second.regret, straight.regret)
    np.testing.assert_array_equal(second.strategy_sum, straight.strategy_sum)


def test_interrupt_checkpoints_then_resumes(tmp_path):
    """Ctrl-C stops after the iteration in progress, with a checkpoint holding it."""
    cg = compile_game(pyspiel.load_game("kuhn_poker"))

    class Interrupted(CFRSolver):
        def iterate(self, count=1):
            super().iterate(count)
            if self.iteration >= 25:
                os.kill(os.getpid(), signal.SIGINT)

    solver = Interrupted(cg)
    with pytest.raises(KeyboardInterrupt):
        solver.run(iterations=10**8, checkpoint=tmp_path / "c.npz", progress=False)
    done = solver.iteration
    assert 25 <= done < 10**8
    resumed = CFRSolver(cg)
    resumed.load_checkpoint(tmp_path / "c.npz")
    assert resumed.iteration == done
    resumed.run(iterations=done + 50, progress=False)
    straight = CFRSolver(cg)
    straight.iterate(done + 50)
    np.testing.assert_array_equal(resumed.strategy_sum, straight.strategy_sum)


# ---------------------------------------------------------------- results
def test_result_round_trip_and_views(tmp_path):
    result = solve("kuhn_poker", target_exploitability=1e-3, use_cache=False)
    result.save(tmp_path / "kuhn")
    loaded = SolveResult.load(tmp_path / "kuhn")
    assert loaded.figures() == result.figures()
    np.testing.assert_array_equal(loaded.strategy, result.strategy)
    table = loaded.strategy_table()
    assert list(table.columns) == ["player", "infoset", "action", "action_name", "probability"]
    assert set(table.action_name) == {"Pass", "Bet"}
    sums = table.groupby("infoset").probability.sum()
    np.testing.assert_allclose(sums, 1.0)
    # With the jack facing a bet, player 1 folds.
    assert loaded.infoset_strategy("0b")[0] == pytest.approx(1.0, abs=1e-2)
    tabular = loaded.to_tabular_policy()

    game = pyspiel.load_game("kuhn_poker")
    assert openspiel_exploitability.exploitability(game, tabular) == pytest.approx(
        result.exploitability, abs=1e-9
    )


def test_corrupted_result_is_one_clear_error(tmp_path):
    result = solve("kuhn_poker", iterations=10, use_cache=False)
    result.save(tmp_path / "r")
    (tmp_path / "r" / "result.json").write_text("{not json")
    with pytest.raises(CorruptFileError, match="cannot read"):
        SolveResult.load(tmp_path / "r")


# ---------------------------------------------------------------- CLI
def test_cli_solves_and_saves(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "kuhn"
    status = cli.main(
        [
            "solve",
            "kuhn_poker",
            "--target-exploitability",
            "1e-3",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "exploitability" in printed and str(out) in printed
    loaded = SolveResult.load(out)
    assert loaded.exploitability <= 1e-3
    assert loaded.game == "kuhn_poker()"
    # Running again resumes from the checkpoint: no new iterations are needed.
    status = cli.main(
        [
            "solve",
            "kuhn_poker",
            "--target-exploitability",
            "1e-3",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    assert status == 0
    assert SolveResult.load(out).iterations == loaded.iterations


def test_cli_params_and_methods(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(CACHE_ENV, raising=False)  # the default cache folder
    status = cli.main(
        [
            "solve",
            "leduc_poker",
            "--param",
            "suit_isomorphism=true",
            "--method",
            "dcfr",
            "--iterations",
            "50",
            "--no-progress",
        ]
    )
    assert status == 0
    (saved,) = (tmp_path / ".farol_cache" / "results").iterdir()
    result = SolveResult.load(saved)
    assert result.parameters["suit_isomorphism"] is True and result.method == "dcfr"
    assert result.iterations == 50


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "no_such_game"], "unknown game"),
        (["solve", "kuhn_poker", "--param", "players=3"], "3 players"),
        (["solve", "matrix_pd"], "general-sum"),
        (["solve", "leduc_poker", "--max-memory", "100KB"], "estimated"),
        (["solve", "kuhn_poker", "--max-memory", "lots"], "memory budget"),
        (["solve", "kuhn_poker", "--graph"], "state_key"),
    ],
)
def test_cli_bad_input_is_one_line(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(CACHE_ENV, raising=False)  # the default cache folder
    assert cli.main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err
    assert not (tmp_path / ".farol_cache" / "results").exists()


# ---------------------------------------------------------------- graph mode
def test_graph_mode_is_exact_for_public_information():
    game = pyspiel.load_game("python_test_pennies_race", {"target": 4})
    tree = compile_game(game)
    graph = compile_game(game, graph=True)
    assert graph.num_nodes < tree.num_nodes / 10
    assert not graph.imperfect_recall
    exact = pennies_race_value(4)
    assert solve_lp(tree) == pytest.approx(exact, abs=1e-8)
    for compiled in (tree, graph):
        solver = CFRSolver(compiled)
        report = solver.run(iterations=3000, progress=False)
        assert abs(report.value - exact) <= report.nash_conv + 1e-12
        assert report.exploitability < 2e-3


def test_graph_mode_flags_hidden_information_as_abstraction():
    game = pyspiel.load_game("python_test_pennies_race", {"target": 3, "hidden": True})
    result = solve(game, graph=True, iterations=500, use_cache=False)
    assert result.abstraction and result.mode == "graph"
    tree = solve(game, iterations=500, use_cache=False)
    assert not tree.abstraction


def test_results_rows_round_trip_and_a_broken_file_is_refused(tmp_path):
    """``write_rows``/``read_rows``: what a resumable sweep keeps between runs; a missing
    file reads as no rows, a half-written one is refused naming it (a stored result is
    never read as empty and then overwritten)."""
    path = tmp_path / "deep" / "rows.json"
    assert read_rows(path) == {}
    rows = {"b|2": {"value": 0.5}, "a|1": {"value": -1.0, "status": "bracketed"}}
    write_rows(path, rows)
    assert read_rows(path) == rows
    assert path.read_text().index('"a|1"') < path.read_text().index('"b|2"')
    path.write_text(path.read_text()[:10])
    with pytest.raises(CorruptFileError, match="is damaged") as info:
        read_rows(path)
    assert str(path) in str(info.value)
