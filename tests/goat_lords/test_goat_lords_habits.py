"""How the strongest Goat Lords agent plays (analysis/goat_lords/studies/habits.py): its games kept
move by move (resumable, with seed, version, commit and CPU time), and every decision
read back from the moves alone."""

from __future__ import annotations

import json

import pyspiel
import pytest

from analysis.goat_lords.agents.greedy import greedy_choice
from analysis.goat_lords.studies import habits as H
from analysis.shared import store
from games.goat_lords import rules
from games.goat_lords.table import PLAY

TINY = H.HabitRun(2, 3, agent="lord:4", seed=5)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    with store.use(tmp_path_factory.mktemp("habits")):
        summary = H.play(TINY)
        yield summary, H.stored(TINY)


def test_a_run_keeps_every_game_and_says_what_made_it(played):
    summary, rows = played
    assert sorted(rows) == [0, 1, 2]
    assert summary["games"] == 3 and summary["seed"] == 5 and summary["agent"] == "lord:4"
    assert {"version", "commit", "cpu_seconds"} <= set(summary)
    assert summary["cpu_seconds"] == pytest.approx(sum(r["cpu_s"] for r in rows.values()), abs=1e-3)
    # The moves replay the game to its end.
    state = pyspiel.load_game("python_goat_lords", TINY.params()).new_initial_state()
    for action in rows[0]["history"]:
        state.apply_action(action)
    assert state.is_terminal()
    assert [s for s in state.returns() if s > 0] and rows[0]["shares"] in ([1.0, 0.0], [0.0, 1.0],
                                                                          [0.5, 0.5])


def test_a_run_resumes_without_playing_again(played, tmp_path):
    _, rows = played
    with store.use(tmp_path):
        H.games_path(TINY).parent.mkdir(parents=True)
        lines = [json.dumps(TINY.header())] + [json.dumps(rows[i]) for i in (0, 1)]
        H.games_path(TINY).write_text("\n".join(lines) + "\n")
        H.play(TINY)
        again = H.stored(TINY)
    assert again[2]["history"] == rows[2]["history"]  # the missing game, the same one
    assert again[0] == rows[0]


def test_every_decision_is_counted_from_the_moves(played):
    _, rows = played
    tally = H.game_tally(TINY, rows[0]["history"])
    duel = tally[("duel", H.ALL)]
    # Each duel it opened is counted once more, with its outcome; the contexts split "all".
    assert tally[("duel won", H.ALL)][1] == duel[0]
    assert tally[("duel", H.SPARE)][1] + tally[("duel", H.ONE)][1] == duel[1]
    for hits, chances in tally.values():
        assert 0 <= hits <= chances
    # Counted by hand: the turns a duel was open, and those the greedy heuristic dueled.
    state = pyspiel.load_game("python_goat_lords", TINY.params()).new_initial_state()
    open_, greedy = 0, 0
    for action in rows[0]["history"]:
        t = state.table
        if not state.is_chance_node() and t.phase == PLAY:  # a turn
            legal = t.legal_actions()
            if any(rules.DUEL0 <= a < rules.ANSWER0 for a in legal):
                open_ += 1
                greedy += rules.DUEL0 <= greedy_choice(t, t.to_move, legal) < rules.ANSWER0
        state.apply_action(action)
    assert duel[1] == open_ and tally[("greedy duel", H.ALL)][0] == greedy


def test_the_rates_carry_intervals_over_games(played, tmp_path):
    _, rows = played
    with store.use(tmp_path):
        H.games_path(TINY).parent.mkdir(parents=True)
        H.games_path(TINY).write_text("\n".join([json.dumps(TINY.header())] + [
            json.dumps(r) for r in rows.values()]) + "\n")
        rates = H.rates(TINY)
    r = rates[("duel", H.ALL)]
    assert r.games == 3 and r.ci95[0] <= r.rate <= r.ci95[1]
    assert r.hits == sum(H.game_tally(TINY, x["history"])[("duel", H.ALL)][0]
                         for x in rows.values())


def test_the_command_counts_the_games_and_refuses_a_table_size_not_run(tmp_path, capsys):
    from analysis.cli import main

    assert main(["--data", str(tmp_path), "goat-lords", "habits", "--status"]) == 0
    out = capsys.readouterr().out
    for run in H.RUNS:
        assert f"{run.name}: 0 of {run.games} games" in out
    assert main(["goat-lords", "habits", "--players", "3", "--status"]) == 2
    assert "the runs are at 2, 4 players" in capsys.readouterr().err
