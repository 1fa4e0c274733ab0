"""Spots given as the moves that lead to them (``--history``)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games  # noqa: F401  (registers the games)
from games.errors import InvalidPositionError
from games.history import history_names, history_text, replay

GAMES = (("python_coup", {}), ("python_coup", {"players": 3, "deck": "inquisitor"}),
         ("python_cobardes_battle", {}), ("python_goat_lords", {}))


def _random_history(game, seed, moves=40):
    rng = np.random.default_rng(seed)
    state, names = game.new_initial_state(), []
    for _ in range(moves):
        if state.is_terminal():
            break
        acts = ([a for a, p in state.chance_outcomes() if p > 0] if state.is_chance_node()
                else state.legal_actions())
        a = int(rng.choice(acts))
        names.append(state.action_to_string(state.current_player(), a))
        state.apply_action(a)
    return state, names


@pytest.mark.parametrize("name,params", GAMES)
def test_a_played_history_replays_to_the_same_state(name, params):
    game = pyspiel.load_game(name, params)
    for seed in range(5):
        state, names = _random_history(game, seed)
        again = replay(game, ";".join(names))
        assert str(again) == str(state)
        assert again.history() == state.history()
        # The moves named back from the state are the ones that were played.
        assert history_text(state) == ";".join(names)
        # Case and spacing are forgiven when one move still matches.
        loose = " ; ".join(n.upper().replace(" ", "  ") for n in names)
        assert replay(game, loose).history() == state.history()


def test_an_illegal_move_is_named_with_the_legal_ones():
    game = pyspiel.load_game("python_coup", {})
    with pytest.raises(InvalidPositionError,
                       match=r"move 1 'Income' is not legal here; legal: Draw "):
        replay(game, "Income")
    state, names = _random_history(game, 0, moves=400)
    assert state.is_terminal()
    with pytest.raises(InvalidPositionError, match=f"over after move {len(names)}"):
        replay(game, ";".join(names + ["Income"]))


def test_names_are_split_on_semicolons():
    assert history_names(" Draw Duke ;; Income ;") == ["Draw Duke", "Income"]
    assert history_names("") == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_text_replays_or_is_refused_in_one_line(text):
    game = pyspiel.load_game("python_cobardes_battle", {})
    try:
        replay(game, text)
    except InvalidPositionError as err:
        assert "\n" not in str(err)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["Draw Duke", "Draw Contessa", "Draw Captain", "Income",
                                 "Foreign Aid", "Challenge", "No challenge", "Lose Duke",
                                 "Coup P1", "Tax (claims Duke)", "draw  duke"]),
                max_size=12))
def test_near_miss_coup_histories_replay_or_are_refused_in_one_line(names):
    game = pyspiel.load_game("python_coup", {})
    try:
        replay(game, ";".join(names))
    except InvalidPositionError as err:
        assert "\n" not in str(err)
