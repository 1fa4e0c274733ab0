"""A full ¡Cobardes! battle with hidden villains answers its opening at once from the
shipped advice (analysis/cobardes/solvers/openings.py), or refuses in one line naming the command
that stores it; the solved opponent refuses a long solve before play starts."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from cli_helpers import param_flags

from analysis.cli import main
from analysis.cobardes.agents import solved as bot
from analysis.cobardes.solvers import openings as cob_openings
from analysis.cobardes.studies import hidden_sweep
from analysis.shared import store


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


ARGS = ["advise", "cobardes", "--my-courtier", "Squire", "--their-courtier", "Archer",
        "--my-villain", "Thug"]


def test_a_full_battle_with_hidden_villains_is_refused_naming_the_command(tmp_path, capsys):
    with store.use(tmp_path):
        assert main(ARGS) == 2
    line = one_line(capsys)
    assert "farol cobardes openings --matchups 'Squire/Archer'" in line and "--solve" in line


def test_a_battle_opening_reads_its_stored_advice(tmp_path, capsys):
    small = ["--warriors", "2", "--combats", "3", "--json"]
    with store.use(tmp_path):
        table = cob_openings.build(("Squire", "Archer"), 2, 3)
        table.save()
        assert main([*ARGS, *small]) == 0
        stored = json.loads(capsys.readouterr().out)
        # The same spot by its history, read off the same solution.
        assert main(["advise", "cobardes", *param_flags("kinds=all,courtier0=Squire,"
                     "courtier1=Archer,warriors=2,combats=3"), "--history",
                     "draw Thug;draw Assassin", "--json"]) == 0
        spot = json.loads(capsys.readouterr().out)
    assert stored["source"].startswith("stored opening") and stored["seat"] == "first"
    assert stored["value"] == pytest.approx(table.entries("Thug", 0)[0][1]["value"])
    assert stored["value"] == pytest.approx(spot["value"])
    assert stored["strategy"].keys() == spot["strategy"].keys()


def test_the_second_player_asks_at_the_opening(tmp_path, capsys):
    """You hold the Archer against the Squire in the second seat: the answer is the
    stored one of the Squire/Archer battle's player 1, after what you saw the first
    player do (here, prepare a card face down), the same as by the battle's history."""
    small = ["--warriors", "2", "--combats", "3"]
    second = ["advise", "cobardes", "--my-courtier", "Archer", "--their-courtier", "Squire",
              "--my-villain", "Thug", "--seat", "2", *small]
    with store.use(tmp_path):
        assert main(second) == 2
        assert "farol cobardes openings --matchups 'Squire/Archer'" in one_line(capsys)
        cob_openings.build(("Squire", "Archer"), 2, 3).save()
        assert main([*second, "--json"]) == 0
        stored = json.loads(capsys.readouterr().out)
        assert main(["advise", "cobardes", *param_flags("kinds=all,courtier0=Squire,"
                     "courtier1=Archer,warriors=2,combats=3"), "--history",
                     "draw Assassin;draw Thug;play warrior 0 (prince)", "--json"]) == 0
        spot = json.loads(capsys.readouterr().out)
        assert main(second) == 0
        text = capsys.readouterr().out
    assert stored["seat"] == "second" and stored["after"] == ["the rival prepares a card"]
    assert stored["value"] == pytest.approx(spot["value"])
    assert stored["strategy"] == pytest.approx(spot["strategy"])
    assert "Seat: you are the second player (player 1)" in text
    assert "After: the rival prepares a card" in text
    # By position, the second seat is answered at the opening only.
    assert main([*second, "--mine", "1,2", "--theirs", "0,2"]) == 2
    assert "--history" in one_line(capsys)


def test_the_solved_opponent_refuses_a_long_solve_before_play(capsys, monkeypatch):
    # Courtiers dealt at random: only the matchup dealt is solved, at the deal.
    game = pyspiel.load_game("python_cobardes_battle")
    bot.check_solvable(game)
    monkeypatch.setattr(bot, "worth_the_wait", lambda size: False)
    with pytest.raises(Exception, match="sweep --kind hidden --keep-solutions"):
        bot.check_solvable(game)
    monkeypatch.undo()
    named = pyspiel.load_game("python_cobardes_battle",
                              {"courtier0": "Squire", "courtier1": "Archer"})
    # A named matchup solves in a couple of minutes: the opponent solves it before play;
    # were it longer, it would be refused, naming the command that stores it.
    bot.check_solvable(named)
    monkeypatch.setattr(bot, "worth_the_wait", lambda size: False)
    if bot.solution_for(named, solve_missing=False) is None:
        with pytest.raises(Exception, match="--matchups 'Squire/Archer' --keep-solutions"):
            bot.check_solvable(named)
    monkeypatch.undo()
    small = pyspiel.load_game("python_cobardes_battle", {"courtier0": "Squire",
                                                         "courtier1": "Archer", "warriors": 2})
    bot.check_solvable(small)  # small enough to solve at its first hidden decision


def test_courtiers_dealt_at_random_are_played_as_the_matchup_dealt():
    """A battle dealing the courtiers at random is, once dealt, the battle of those two
    courtiers named: the same moves lead to the same spot, and the solved opponent plays
    the named matchup's strategy there (a small army, solved at once)."""
    from analysis.cobardes.solvers.hidden_advice import as_matchup

    params = {"warriors": 2, "combats": 2}
    game = pyspiel.load_game("python_cobardes_battle", params)
    rng = np.random.default_rng(4)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=np.array(probs))))
                continue
            same = as_matchup(state)
            mover = state.current_player()
            named = same.get_game().get_parameters()
            assert named["courtier0"] != "random" and named["courtier1"] != "random"
            # What the mover saw: the same facts (the deal's told in another order).
            assert sorted(same.information_state_string(mover).split(" | ")) == \
                sorted(state.information_state_string(mover).split(" | "))
            assert same.legal_actions() == state.legal_actions()
            state.apply_action(int(rng.choice(state.legal_actions())))
    # The opponent with courtiers at random plays what it plays in the named battle, at
    # every decision of a game (seeded alike, the same mixes sample the same moves).
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    named = as_matchup(state).get_game()
    dealt = [bot.solved_bot(game, p, seed=7) for p in (0, 1)]
    same = [bot.solved_bot(named, p, seed=7) for p in (0, 1)]
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
            continue
        p = state.current_player()
        action = dealt[p](state)
        assert action == same[p](as_matchup(state))
        state.apply_action(action)
        moves += 1
    assert moves > 4


def test_the_shipped_battle_opening_answers(capsys):
    assert main([*ARGS, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["source"].startswith("stored opening") and out["value_given"] == "holding the Thug"
    assert abs(sum(out["strategy"].values()) - 1) < 1e-6 and out["exploitability"] > 0


def test_shipped_openings_agree_with_the_sweeps_records():
    """Each shipped opening table and the hidden-villain sweep's record of the same
    matchup come from the same solve: the value before the deal, the exploitability and
    each villain's value (its row of deals, the rival's eight equally likely) agree."""
    checked = 0
    for path in sorted(store.data("cobardes", "openings").glob("*.json")):
        table = cob_openings.OpeningAdvice.load(path)
        record = hidden_sweep.load_record(hidden_sweep.record_path(
            hidden_sweep.hidden_dir(), table.pairing, table.warriors, table.combats))
        if record is None:
            continue
        checked += 1
        assert table.value_before_deal == pytest.approx(record.value, abs=1e-9)
        assert table.exploitability == pytest.approx(record.exploitability_lower_bound)
        for seat in (0, 1):
            values = record.villain_values(seat)
            for villain in values:
                entries = table.entries(villain, seat)
                if len(entries) == 1:  # else each is worth what it saw, not the mean
                    assert entries[0][1]["value"] == pytest.approx(values[villain],
                                                                   abs=1e-9)
    assert checked >= 1
