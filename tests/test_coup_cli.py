"""``farol play python_coup --param players=3`` plays a whole game in the terminal."""

from __future__ import annotations

import itertools
import subprocess
import sys

from analysis import cli


def test_farol_play_three_players_to_the_end(monkeypatch, capsys):
    answers = itertools.cycle(["0", "1", "2"])  # a person who mixes their first moves
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
        input="0\n" * 5000, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over. Returns:" in proc.stdout


def test_farol_play_bad_position_is_one_line(capsys):
    argv = ["play", "python_coup", "--param", "position=duke+duke/-/2;duke/duke/2"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "4 Duke cards" in err and len(err.splitlines()) == 1
