"""The farol command under bad conditions: unwritable outputs, closed pipes, bad flag values,
non-finite numbers and files that are not checkpoints all end in one clear line."""

from __future__ import annotations

import argparse
import errno
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analysis import cli
from analysis.cli import cobardes as cli_cobardes
from analysis.cli import goat_lords as cli_goat_lords
from analysis.cli import report as cli_report
from analysis.cli import solve as cli_solve
from analysis.cli.numbers import finite_float, int_in
from analysis.cli.outputs import check_output_dir, check_output_file
from analysis.cli.spots import protect_position
from analysis.shared import store
from analysis.shared.params import parse_params
from analysis.shared.store import CorruptFileError
from analysis.solve import solve
from analysis.solve.cache import check_checkpoint_file
from analysis.solve.result import SolveResult
from games.errors import InvalidParameterError, OutputError

REPOSITORY = Path(__file__).resolve().parents[2]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``farol ARGV`` in process: (exit status, stdout, stderr), argparse's exits included."""
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err.strip()


def assert_one_line(err: str, *needles: str) -> None:
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err and "usage:" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def _refuse(*_args, **_kwargs):
    raise AssertionError("the long work started despite a bad output location")


@pytest.fixture
def blocked(tmp_path) -> Path:
    """A location that cannot be a folder: its parent is a regular file."""
    (tmp_path / "a_file").write_text("x")
    return tmp_path / "a_file" / "sub"


# ---------------------------------------------------------------- outputs checked first
@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")
def test_solve_out_in_proc_refused_before_solving(monkeypatch, capsys):
    monkeypatch.setattr(cli_solve, "solve", _refuse)
    status, _, err = run(["solve", "leduc_poker", "--out", "/proc/nope"], capsys)
    assert status == 2
    assert_one_line(err, "farol solve: error:", "--out", "/proc/nope")


def test_solve_out_under_a_file_refused_before_solving(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_solve, "solve", _refuse)
    status, _, err = run(["solve", "kuhn_poker", "--out", str(blocked)], capsys)
    assert status == 2
    assert_one_line(err, "--out", "is not a folder")


def test_solve_checkpoint_that_is_a_folder_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli_solve, "solve", _refuse)
    argv = ["solve", "kuhn_poker", "--out", str(tmp_path / "o"), "--checkpoint", str(tmp_path)]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, "--checkpoint", "is a folder")


def test_solve_checkpoint_in_unwritable_place_refused(blocked, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli_solve, "solve", _refuse)
    argv = ["solve", "kuhn_poker", "--out", str(tmp_path / "o"), "--checkpoint", str(blocked / "c.npz")]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, "--checkpoint")


def test_report_out_refused_before_writing(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_report, "write_all", _refuse)
    status, _, err = run(["report", "coup", "--out", str(blocked)], capsys)
    assert status == 2
    assert_one_line(err, "farol report: error:", "--out")


def test_goat_lords_out_refused_before_playing(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_goat_lords, "run_experiment", _refuse)
    status, _, err = run(["goat-lords", "--games", "2", "--out", str(blocked)], capsys)
    assert status == 2
    assert_one_line(err, "--out")


def test_cobardes_sweep_dir_refused_before_solving(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_cobardes.sweep, "run_sweep", _refuse)
    status, _, err = run(["cobardes", "sweep", "--dir", str(blocked)], capsys)
    assert status == 2
    assert_one_line(err, "--dir")


def test_cobardes_renewal_dir_refused_before_solving(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_cobardes.renewal, "run_renewal", _refuse)
    status, _, err = run(["cobardes", "renewal", "--dir", str(blocked)], capsys)
    assert status == 2
    assert_one_line(err, "--dir")


def test_output_checks_accept_new_folders_and_leave_nothing(tmp_path):
    assert check_output_dir(tmp_path / "new" / "deeper", "--out") == tmp_path / "new" / "deeper"
    assert check_output_file(tmp_path / "new" / "c.npz", "--checkpoint") == tmp_path / "new" / "c.npz"
    assert list(tmp_path.iterdir()) == []  # checking creates nothing
    with pytest.raises(OutputError, match="--out"):
        check_output_file(tmp_path, "--out")


# ---------------------------------------------------------------- saving after the work
def test_failed_save_is_rescued_under_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    out = tmp_path / "out"
    original = SolveResult.save

    def failing_save(self, directory):
        if Path(directory) == out:
            raise OSError(errno.ENOSPC, "No space left on device")
        return original(self, directory)

    monkeypatch.setattr(SolveResult, "save", failing_save)
    status, printed, err = run(
        ["solve", "kuhn_poker", "--iterations", "5", "--out", str(out), "--no-progress"], capsys
    )
    assert status == 1
    (rescued,) = (tmp_path / "cache" / "rescued").iterdir()
    assert SolveResult.load(rescued).iterations == 5
    assert_one_line(err, "--out", "No space left on device", str(rescued.absolute()))
    assert f"saved: {rescued}" in printed


def test_save_failing_twice_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))

    def failing_save(self, directory):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(SolveResult, "save", failing_save)
    argv = ["solve", "kuhn_poker", "--iterations", "5", "--out", str(tmp_path / "o"), "--no-progress"]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, "farol solve: error:", "--out", "rescued")


def test_save_replaces_atomically_and_keeps_the_previous_on_failure(tmp_path, monkeypatch):
    first = solve("kuhn_poker", iterations=3, use_cache=False)
    second = solve("kuhn_poker", iterations=7, use_cache=False)
    target = tmp_path / "r"
    first.save(target)
    real_replace = os.replace

    def replace(src, dst):
        if ".r.tmp" in str(src):
            raise OSError(errno.EIO, "I/O error")
        return real_replace(src, dst)

    monkeypatch.setattr("analysis.solve.result.os.replace", replace)
    with pytest.raises(OSError):
        second.save(target)
    assert SolveResult.load(target).iterations == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]  # no temporary leftovers
    monkeypatch.setattr("analysis.solve.result.os.replace", real_replace)
    second.save(target)
    assert SolveResult.load(target).iterations == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


# ---------------------------------------------------------------- closed pipes
@pytest.mark.parametrize(
    "argv",
    [["games"], ["advise", "cobardes", "--warriors", "2", "--combats", "3"]],
    ids=["games", "advise"],
)
def test_closed_pipe_ends_quietly(argv):
    """``farol ... | head -1``: the reader closes the pipe (here before anything is
    written, so the write surely fails); no BrokenPipeError traceback."""
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPOSITORY,
        env=env,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception" not in err


def test_head_reads_the_first_line():
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())", "games"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPOSITORY,
        env=env,
    )
    first = proc.stdout.readline().decode()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) in (0, 1)
    assert first.strip() and "Traceback" not in err


# ---------------------------------------------------------------- messages
def test_bad_choice_is_one_line_naming_flag_and_choices(capsys):
    status, _, err = run(["solve", "kuhn_poker", "--method", "magic"], capsys)
    assert status == 2
    assert_one_line(err, "farol solve: error:", "--method", "cfr+", "dcfr", "lcfr")


def test_nested_command_errors_are_one_line(capsys):
    status, _, err = run(["advise", "coup", "duke/duke/2;?/-/1", "--deck", "nope"], capsys)
    assert status == 2
    assert_one_line(err, "farol advise coup: error:", "--deck", "ambassador")


def test_missing_command_is_one_line(capsys):
    status, _, err = run([], capsys)
    assert status == 2
    assert_one_line(err, "farol: error:")


def test_help_still_prints_usage(capsys):
    status, out, _ = run(["solve", "--help"], capsys)
    assert status == 0
    assert "usage: farol solve" in out and "--checkpoint" in out


def test_play_bad_seat_is_one_line_with_the_range(capsys):
    status, _, err = run(["play", "kuhn_poker", "--seat", "3"], capsys)
    assert status == 2
    assert_one_line(err, "seat 3 does not exist", "seats 0 to 1")
    assert "kuhn_poker(" not in err  # not the game with all its parameters


def test_coup_position_starting_with_a_dash_is_the_position(capsys):
    """Player 0 out (``-`` face down) is a position, not an unknown option: the error is
    about the position itself."""
    status, _, err = run(["advise", "coup", "-/duke+captain/0;?/contessa/2;move:1"], capsys)
    assert status == 2
    assert_one_line(err, "position")
    assert "required" not in err and "unrecognized" not in err


def test_protect_position_keeps_options_after_the_position():
    argv = ["advise", "coup", "-/duke+captain/0;?/contessa/2;move:1", "--deck", "inquisitor"]
    assert protect_position(argv) == [
        "advise", "coup", "--deck", "inquisitor", "--", "-/duke+captain/0;?/contessa/2;move:1",
    ]
    args = cli.build_parser().parse_args(protect_position(argv))
    assert args.position.startswith("-/duke") and args.deck == "inquisitor"
    plain = ["advise", "coup", "duke/duke/2;?/-/1", "--turn-cap", "-3"]
    assert protect_position(plain) == plain
    other = ["solve", "-/x", "coup"]
    assert protect_position(other) == other


def test_goat_lords_zero_games_refused_before_playing(monkeypatch, capsys):
    monkeypatch.setattr(cli_goat_lords, "run_experiment", _refuse)
    status, out, err = run(["goat-lords", "--games", "0"], capsys)
    assert status == 2 and out == ""
    assert_one_line(err, "--games", "at least 1")


# ---------------------------------------------------------------- numbers
@pytest.mark.parametrize(
    "argv, flag, allowed",
    [
        (["advise", "cobardes", "--win-value", "nan"], "--win-value", "finite"),
        (["advise", "cobardes", "--crown-value", "inf"], "--crown-value", "finite"),
        (["advise", "cobardes", "--draw-value", "-inf"], "--draw-value", "finite"),
        (["advise", "cobardes", "--warriors", "9"], "--warriors", "from 0 to 6"),
        (["advise", "cobardes", "--warriors", "-1"], "--warriors", "from 0 to 6"),
        (["advise", "cobardes", "--combats", "0"], "--combats", "from 1 to 7"),
        (["advise", "cobardes", "--combat", "8"], "--combat", "from 1 to 7"),
        (["advise", "cobardes", "--iterations", "0"], "--iterations", "at least 1"),
        (["advise", "coup", "x/y/1", "--turn-cap", "0"], "--turn-cap", "at least 1"),
        (["solve", "kuhn_poker", "--seconds", "nan"], "--seconds", "above 0"),
        (["solve", "kuhn_poker", "--seconds", "inf"], "--seconds", "above 0"),
        (["solve", "kuhn_poker", "--target-exploitability", "-1"], "--target-exploitability", "above 0"),
        (["solve", "kuhn_poker", "--iterations", "0"], "--iterations", "at least 1"),
        (["solve", "kuhn_poker", "--iterations", "many"], "--iterations", "whole number"),
        (["play", "kuhn_poker", "--seat", "-1"], "--seat", "at least 0"),
        (["play", "kuhn_poker", "--seed", "-1"], "--seed", "from 0"),
        (["goat-lords", "--players", "1"], "--players", "from 2 to 6"),
        (["goat-lords", "--players", "7"], "--players", "from 2 to 6"),
        (["goat-lords", "--workers", "0"], "--workers", "at least 1"),
        (["cobardes", "sweep", "--workers", "0"], "--workers", "at least 1"),
        (["cobardes", "sweep", "--warriors", "7"], "--warriors", "from 0 to 6"),
        (["cobardes", "renewal", "--combats", "9"], "--combats", "from 1 to 7"),
        (["cobardes", "renewal", "--tol", "nan"], "--tol", "above 0"),
        (["cobardes", "abstraction", "--iterations", "0"], "--iterations", "at least 1"),
        (["coup", "full-game", "--budget", "nan"], "--budget", "at least 1"),
        (["coup", "larger", "--budget", "inf"], "--budget", "at least 1"),
        (["coup", "sweep", "--workers", "0"], "--workers", "at least 1"),
        (["coup", "brackets", "--limit", "-1"], "--limit", "at least 0"),
    ],
)
def test_bad_numbers_are_one_line_naming_flag_and_range(argv, flag, allowed, capsys):
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, f"farol {argv[0]}", f"argument {flag}:", allowed)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_param_floats_must_be_finite(value, capsys):
    status, _, err = run(["play", "python_cobardes_battle", "--param", f"win_value={value}"], capsys)
    assert status == 2
    assert_one_line(err, "farol play: error:", "'win_value'", "finite")


def test_a_parameter_the_game_does_not_declare_is_refused_before_loading():
    # OpenSpiel refuses undeclared parameters too; saying so first names the game's own.
    with pytest.raises(InvalidParameterError, match="matrix_rps has no parameter 'x'; "
                       "its parameters: none"):
        parse_params("matrix_rps", ["x=nan"])


def test_number_converters():
    assert finite_float()("2.5") == 2.5
    assert finite_float(0, 1)("1") == 1.0
    assert int_in(1)("3") == 3
    for convert, text in [
        (finite_float(), "nan"),
        (finite_float(), "-inf"),
        (finite_float(0, 1), "1.5"),
        (finite_float(0, above=True), "0"),
        (int_in(1, 3), "4"),
        (int_in(1, 3), "2.5"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError):
            convert(text)


# ---------------------------------------------------------------- checkpoints
def test_text_checkpoint_is_one_line_naming_the_file(tmp_path, capsys):
    text = tmp_path / "some.txt"
    text.write_text("not a checkpoint\n")
    argv = ["solve", "kuhn_poker", "--checkpoint", str(text), "--out", str(tmp_path / "o"), "--no-progress"]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, f"{text} is not a Farol checkpoint")
    assert "pickled" not in err
    assert text.read_text() == "not a checkpoint\n"


def test_other_archive_is_not_a_checkpoint(tmp_path):
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(CorruptFileError, match="not a Farol checkpoint"):
        check_checkpoint_file(other)


def test_a_real_checkpoint_passes_the_check(tmp_path):
    checkpoint = tmp_path / "c.npz"
    solve("kuhn_poker", iterations=3, checkpoint=checkpoint, use_cache=False)
    check_checkpoint_file(checkpoint)


@pytest.mark.parametrize("size", ["nan", "inf", "-5GB", "0"])
def test_max_memory_must_be_a_positive_size(size, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli_solve, "solve", _refuse)
    argv = ["solve", "kuhn_poker", "--max-memory", size, "--out", str(tmp_path / "o")]
    status, _, err = run(argv, capsys)
    assert status == 2
    assert_one_line(err, "--max-memory", "positive size")


def test_negative_values_reach_the_number_check(capsys):
    """``-1e-3`` and ``-inf`` are values, not unknown options: the message names the range."""
    status, _, err = run(["solve", "kuhn_poker", "--target-exploitability", "-1e-3"], capsys)
    assert status == 2
    assert_one_line(err, "--target-exploitability", "above 0")


def test_goat_lords_search_bots_need_simulations(monkeypatch, capsys):
    monkeypatch.setattr(cli_goat_lords, "run_experiment", _refuse)
    status, _, err = run(["goat-lords", "--bots", "mcts:0", "--games", "1"], capsys)
    assert status == 2
    assert_one_line(err, "--bots", "mcts:0", "at least 1")


@pytest.mark.parametrize("value", ["99999999999999999999", "-2147483649"])
def test_param_whole_numbers_must_fit_the_game(value, capsys):
    status, _, err = run(["play", "leduc_poker", "--param", f"players={value}"], capsys)
    assert status == 2
    assert_one_line(err, "'players'", "whole number from")


def test_cobardes_abstraction_checks_the_data_folder_first(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_cobardes.villains, "abstraction_loss", _refuse)
    status, _, err = run(["--data", str(blocked), "cobardes", "abstraction"], capsys)
    assert status == 2
    assert_one_line(err, "farol cobardes: error:", "--data")


def test_default_output_folders_are_checked_too(blocked, monkeypatch, capsys):
    monkeypatch.setattr(cli_cobardes.sweep, "run_sweep", _refuse)
    monkeypatch.setattr(cli_goat_lords, "run_experiment", _refuse)
    monkeypatch.setenv("FAROL_DATA_DIR", str(blocked))
    status, _, err = run(["cobardes", "sweep"], capsys)
    assert status == 2
    assert_one_line(err, "--dir")
    status, _, err = run(["goat-lords", "--games", "1"], capsys)
    assert status == 2
    assert_one_line(err, "--out")


def test_bad_values_return_2_in_process(capsys):
    """In-process callers get the status back for a bad flag value, as for other bad input."""
    assert cli.main(["advise", "cobardes", "--combat", "9"]) == 2
    assert_one_line(capsys.readouterr().err, "--combat", "from 1 to 7")


def test_openspiels_own_errors_print_one_line_only(capfd):
    """OpenSpiel's C++ writes an exception's text on stderr before raising it; the user
    sees Farol's one line only."""
    from analysis.cli import main

    for args, message in ((["play", "leduc_poker", "--param", "players=1"],
                           "cannot load leduc_poker"),
                          (["solve", "tic_tac_toe", "--param", "a=1"],
                           "tic_tac_toe has no parameter 'a'; its parameters: none")):
        assert main(args) == 2
        err = capfd.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
