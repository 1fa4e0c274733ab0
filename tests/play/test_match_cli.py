"""``farol coup match`` and ``farol goat-lords match``: the table, the JSON, and one-line
errors (exit 2) for every bad input."""

from __future__ import annotations

import json

import pytest

from analysis import cli


def _json(argv, capsys):
    assert cli.main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_coup_match_json(capsys):
    data = _json(["coup", "match", "--agents", "honest,bluffer,random", "--players", "3",
                  "--deck", "inquisitor", "--games", "6", "--seed", "5"], capsys)
    assert set(data) == {"schema", "seats", "game", "params", "games", "seed", "version",
                         "commit"}
    assert data["params"] == {"players": 3, "deck": "inquisitor"}
    assert data["games"] == 6 and data["seed"] == 5 and data["game"] == "python_coup"
    assert len(data["seats"]) == 9  # each agent in each seat
    for row in data["seats"]:
        assert set(row) == {"agent", "seat", "wins", "games", "win_rate", "ci95"}
        assert row["games"] == 2 and len(row["ci95"]) == 2
    assert sum(row["wins"] for row in data["seats"]) == pytest.approx(6)


def test_coup_match_one_agent_fills_every_seat_and_setup_is_recorded(capsys):
    data = _json(["coup", "match", "--agents", "bluffer", "--setup", "draft", "--games", "4",
                  "--seed", "1"], capsys)
    assert data["params"] == {"players": 2, "deck": "ambassador", "two_player_setup": "draft"}
    assert [(r["seat"], r["agent"], r["games"]) for r in data["seats"]] == [
        (0, "bluffer", 4), (1, "bluffer", 4)]


def test_coup_match_table(capsys):
    argv = ["coup", "match", "--agents", "honest,random", "--games", "10", "--seed", "3"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "10 games of python_coup" in out and "95% interval" in out
    assert "all seats:" in out and out.count("honest") == 3  # two seats and the total


def test_coup_match_workers_give_the_same_answer(capsys):
    argv = ["coup", "match", "--agents", "honest,bluffer-bold", "--games", "12", "--seed", "9"]
    assert _json(argv + ["--workers", "2"], capsys) == _json(argv, capsys)


def test_goat_lords_match_json(capsys):
    data = _json(["goat-lords", "match", "--agents", "greedy,random", "--games", "4",
                  "--seed", "2"], capsys)
    assert set(data) == {"schema", "seats", "game", "params", "games", "seed", "version",
                         "commit"}
    assert data["game"] == "python_goat_lords" and data["params"] == {"players": 2}
    assert sum(row["wins"] for row in data["seats"]) == pytest.approx(4)


@pytest.mark.parametrize("argv,needle", [
    (["coup", "match", "--agents", "honest,nobody"], "no bot 'nobody'"),
    (["coup", "match", "--agents", "solved,honest"], "endgame positions only"),
    (["coup", "match", "--agents", "honest", "--players", "9"], "--players"),
    (["coup", "match", "--agents", "honest", "--players", "1"], "--players"),
    (["coup", "match", "--agents", "honest", "--deck", "reformation"], "--deck"),
    (["coup", "match", "--agents", "honest", "--players", "3", "--setup", "draft"], "--setup"),
    (["coup", "match", "--agents", "honest", "--players", "4", "--setup", "basic"], "--setup"),
    (["coup", "match", "--agents", "honest", "--setup", "auction"], "--setup"),
    (["coup", "match", "--agents", "honest", "--games", "0"], "--games"),
    (["coup", "match", "--agents", "honest", "--games", "many"], "--games"),
    (["coup", "match", "--agents", "honest", "--seed", "-1"], "--seed"),
    (["coup", "match", "--agents", "honest", "--workers", "0"], "--workers"),
    (["coup", "match", "--agents", "honest,random", "--players", "3"], "2 agents for 3 players"),
    (["coup", "match", "--agents", "honest,,random", "--players", "3"], "--agents"),
    (["goat-lords", "match", "--agents", "greedy,nobody"], "no bot 'nobody'"),
    (["goat-lords", "match", "--agents", "greedy"], "2 to 6"),
    (["goat-lords", "match", "--agents", ",".join(["greedy"] * 7)], "2 to 6"),
    (["goat-lords", "match", "--agents", "greedy,mcts:0"], "at least 1 simulation"),
    (["goat-lords", "match", "--agents", "greedy,random", "--games", "0"], "--games"),
    (["goat-lords", "match", "--agents", "greedy,random", "--seed", "-3"], "--seed"),
    (["goat-lords", "match", "--agents", "greedy,random", "--param", "players=3"], "players"),
])
def test_bad_match_input_is_one_line(argv, needle, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_goat_lords_tournament_still_runs_without_a_subcommand(tmp_path, capsys):
    argv = ["goat-lords", "--bots", "random", "--games", "3", "--workers", "1", "--out", str(tmp_path)]
    assert cli.main(argv) == 0
    assert "seat 0: win rate" in capsys.readouterr().out
