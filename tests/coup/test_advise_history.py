"""``farol advise ... --history``: advice at the spot the named moves reach."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pyspiel
import pytest
from cli_helpers import param_flags
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from analysis.coup.advice.endgame import position_at
from games.coup.positions import parse_position
from games.history import replay

SMALL = "kinds=warriors+courtiers,warriors=2,combats=2,courtier0=Squire,courtier1=Archer"


def _run(capsys, *args):
    code = main(["advise", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cobardes_history_advises_the_player_to_move(capsys):
    code, out, _ = _run(capsys, "cobardes", *param_flags(SMALL), "--history",
                        "play warrior 2", "--json")
    assert code == 0
    data = json.loads(out)
    # Player 1 answers a card prepared face down: its mix over its own hand.
    assert data["player"] == "you" and data["decision"] == "confrontation"
    assert sum(data["strategy"].values()) == pytest.approx(1.0)
    assert set(data["strategy"]) == {"Prince", "1", "2"}
    # Every legal move by its name, with its probability and value; the mix's moves are
    # worth the most.
    assert [r["action"] for r in data["actions"]] == [
        "play warrior 0 (prince)", "play warrior 1", "play warrior 2"]
    best = max(r["value"] for r in data["actions"])
    assert all(r["value"] == pytest.approx(best) for r in data["actions"]
               if r["probability"] > 1e-9)
    # The spot is player 1's: the value is player 1's, the negative of player 0's.
    code, before, _ = _run(capsys, "cobardes", *param_flags(SMALL), "--history", "", "--json")
    assert code == 0
    assert json.loads(before)["value"] == pytest.approx(-data["value"], abs=1e-9)


@pytest.mark.parametrize("history,message", [
    ("play warrior 7", "move 1 'play warrior 7' is not legal here; legal: play "),
    ("deal Archer", "the next move is chance's"),
])
def test_cobardes_history_refusals_are_one_line(capsys, history, message):
    params = SMALL if "warrior" in history else "kinds=all"
    code, _, err = _run(capsys, "cobardes", *param_flags(params), "--history", history)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cobardes_history_with_a_hidden_villain_in_a_large_battle_not_solved(capsys):
    # A full army's battle is solved once on request (tests/cobardes/test_cobardes_hidden_advice.py
    # advises small ones): until then, one line saying what solving it takes.
    code, _, err = _run(capsys, "cobardes", *param_flags("kinds=warriors+villains"),
                        "--history", "draw Thug;draw Sheep")
    assert code == 2 and "not solved yet" in err and "add --solve" in err
    assert len(err.strip().splitlines()) == 1


def test_history_and_position_options_do_not_mix(capsys):
    code, _, err = _run(capsys, "cobardes", "--history", "play warrior 5", "--mine", "0,1")
    assert code == 2 and "either by --history or by position options" in err
    code, _, err = _run(capsys, "cobardes", "--param", "kinds=warriors")
    assert code == 2 and "--param goes with --history" in err


def _coup_history_to_1v1(seed_limit=400):
    """A random 2-player game's moves up to a turn where each player has one card."""
    game = pyspiel.load_game("python_coup", {})
    for seed in range(seed_limit):
        rng = np.random.default_rng(seed)
        state, names = game.new_initial_state(), []
        while not state.is_terminal():
            core = state.core
            if (not state.is_chance_node() and core.queue[0][0] == 4
                    and all(len(h) == 1 for h in core.hands) and max(core.coins) < 7):
                return state, names
            acts = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                    else state.legal_actions())
            a = int(rng.choice(acts))
            names.append(state.action_to_string(state.current_player(), a))
            state.apply_action(a)
    raise AssertionError("no 1v1 turn reached")


def test_coup_history_gives_the_position_the_mover_sees():
    state, names = _coup_history_to_1v1()
    game = pyspiel.load_game("python_coup", {})
    text = position_at(replay(game, ";".join(names)))
    pos = parse_position(text)
    core = state.core
    me = core.actor
    assert pos.to_move == me
    assert pos.coins == core.coins and pos.revealed == core.revealed
    assert pos.hidden[me] == core.hands[me]  # your own card by name
    assert all(c < 0 for c in pos.hidden[1 - me])  # the rival's as '?'


def test_coup_history_advice_equals_the_positions(capsys):
    state, names = _coup_history_to_1v1()
    common = ["coup", "--exact", "--turn-cap", "1", "--cap-pricing", "draw", "--no-cache",
              "--json"]
    code, by_history, _ = _run(capsys, *common, "--history", ";".join(names))
    assert code == 0
    text = position_at(state)
    code, by_position, _ = _run(capsys, *common, text)
    assert code == 0
    a, b = json.loads(by_history), json.loads(by_position)
    assert a["position"] == b["position"] == text
    assert a["value"] == pytest.approx(b["value"], abs=0.02)


@pytest.mark.parametrize("params,history,message,exact", [
    ("", "Income", "move 1 'Income' is not legal here", False),
    # At 3-6 players the advice plays each move out (a deal still being drawn has no
    # decision yet); the exact solve stays a 2-player one.
    ("players=3", "Draw Duke", "no player decides here", False),
    ("players=3", "Draw Duke", "--exact is for 2 players", True),
    ("two_player_setup=draft", "Draw Duke", "no player decides here", False),
    ("two_player_setup=draft", "Draw Duke", "a draft game cannot be advised", True),
    ("deck=nope", "Draw Duke", "'deck' must be one of ambassador, inquisitor", False),
])
def test_coup_history_refusals_are_one_line(capsys, params, history, message, exact):
    code, _, err = _run(capsys, "coup", *param_flags(params), "--history", history,
                        *(["--exact"] if exact else []))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("params,history,hint", [
    ("deck=inquisitor,two_player_setup=draft", "Draw Duke",
     "farol coup blueprint build --deck inquisitor --setups draft"),
    ("players=3", "Draw Duke", None),
    ("", "Draw Duke", None),  # the next move is chance's: no blueprint advises it either
])
def test_coup_history_refusals_name_the_blueprint_that_would_advise(capsys, params, history,
                                                                   hint):
    code, _, err = _run(capsys, "coup", *param_flags(params), "--history", history, "--exact")
    assert code == 2 and len(err.strip().splitlines()) == 1
    if hint is None:
        assert "blueprint" not in err
    else:
        assert f"the blueprint advises any decision once built: {hint}" in err


@pytest.mark.parametrize("params", ["", "deck=inquisitor,two_player_setup=draft"])
def test_coup_history_inside_a_turn_is_answered_by_the_resolve(capsys, params):
    """A block decision (which the exact solve and the opening table cannot answer) is
    re-solved at once, the first line saying what the model leaves out."""
    history = ("Draw Duke;Draw Contessa;Draw Captain;Draw Assassin;Foreign Aid"
               if not params else
               "Draw Duke;Draw Contessa;Pick Captain;Pick Assassin;Foreign Aid")
    code, out, err = _run(capsys, "coup", *param_flags(params), "--history", history)
    if code != 0:
        pytest.fail(err)
    lines = out.splitlines()
    assert lines[0].startswith("Truncated model")
    assert "a block: you are P1" in lines[1]
    assert "No block" in out


def test_coup_needs_a_position_or_a_history(capsys):
    code, _, err = _run(capsys, "coup")
    assert code == 2 and "give a position or --history" in err


NAMES = st.sampled_from(["play warrior 0", "play warrior 1", "play warrior 2", "pass",
                         "advance", "send", "Play Warrior 1", "deal Archer", "x", ""])


@settings(max_examples=40, deadline=None)
@given(st.lists(NAMES, max_size=6))
def test_any_cobardes_history_is_advised_or_refused_in_one_line(names):
    args = ["advise", "cobardes", *param_flags(SMALL), "--history", ";".join(names), "--json"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    if code == 0:
        assert json.loads(out.getvalue())["player"] == "you"
    else:
        assert code == 2 and len(err.getvalue().strip().splitlines()) == 1


def test_coup_advice_values_every_legal_move_and_the_rivals_card(capsys):
    state, names = _coup_history_to_1v1()
    code, out, _ = _run(capsys, "coup", "--exact", "--turn-cap", "1", "--cap-pricing", "draw",
                        "--no-cache", "--json", "--history", ";".join(names))
    assert code == 0
    data = json.loads(out)
    legal = {state.action_to_string(state.current_player(), a) for a in state.legal_actions()}
    assert {r["action"] for r in data["actions"]} == legal
    assert sum(r["probability"] for r in data["actions"]) == pytest.approx(1.0)
    assert sum(r["probability"] * r["value"] for r in data["actions"]) == pytest.approx(
        data["value"], abs=1e-9)
    # The rival holds one face-down card: its distribution sums to one.
    assert sum(data["opponent_hand"].values()) == pytest.approx(1.0)
    assert data["source"].startswith("exact solve")
