"""``farol play python_coup --param players=3`` plays a whole game in the terminal."""

from __future__ import annotations

import itertools
import subprocess
import sys

from analysis import cli


def test_farol_play_three_players_to_the_end(monkeypatch, capsys):
    answers = itertools.cycle(["a", "b", "c"])  # a person who mixes their first moves
    monkeypatch.setattr("builtins.input", lambda _prompt="": next(answers))
    assert cli.main(["play", "python_coup", "--param", "players=3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Game over. Returns:" in out
    assert "you are P0" in out and "Your legal actions:" in out
    assert "Income" in out


def test_farol_play_in_a_real_terminal_process():
    """The installed command, fed by a pipe, ends the game and exits cleanly."""
    code = "import sys; from analysis.cli import main; sys.exit(main())"
    proc = subprocess.run(
        [sys.executable, "-c", code, "play", "python_coup", "--param", "players=3", "--seed", "2"],
        input="a\n" * 5000, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over. Returns:" in proc.stdout


def test_farol_play_bad_position_is_one_line(capsys):
    argv = ["play", "python_coup", "--param", "position=duke+duke/-/2;duke/duke/2"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "4 Duke cards" in err and len(err.splitlines()) == 1


def test_farol_coup_brackets_writes_resumable_records(tmp_path, capsys):
    """``farol coup brackets`` bounds each endgame once and skips what is on disk."""
    import json

    argv = ["coup", "brackets", "--caps", "1,2", "--coins", "1,7", "--decks", "inquisitor",
            "--workers", "1", "--directory", str(tmp_path)]
    assert cli.main(argv) == 0
    names = sorted(p.name for p in tmp_path.glob("*.json"))
    # cap 1: all four coin pairs; cap 2: only the mover with 1 coin (7+ is closed at cap 1)
    assert len(names) == 6 and sum("cap2" in n for n in names) == 2
    seven = json.loads((tmp_path / "inquisitor_contessa-contessa_m7_o1_cap1.json").read_text())
    assert seven["converged"] and seven["lower_win"] > 0.999
    stamp = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.json")}
    assert cli.main(argv) == 0
    assert stamp == {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.json")}
    assert "brackets in" in capsys.readouterr().out


def test_farol_coup_brackets_bad_coins_is_one_line(capsys):
    assert cli.main(["coup", "brackets", "--coins", "a-b"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--coins" in err and len(err.splitlines()) == 1
