"""Counts in the games' texts: singular after one («1 coin»), plural otherwise."""

from __future__ import annotations

import pyspiel

import games  # noqa: F401
from games.coup.game import render
from games.words import count


def test_count_is_singular_after_one_only():
    assert count(1, "coin") == "1 coin"
    assert count(0, "coin") == "0 coins"
    assert count(2, "card") == "2 cards"
    assert count(1, "copy", "copies") == "1 copy" and count(3, "copy", "copies") == "3 copies"


def test_coup_shows_one_coin_in_the_singular():
    game = pyspiel.load_game("python_coup", {"position": "duke/contessa/1;?/contessa/0;move:0"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    text = render(state, 0)  # what farol play shows the player
    assert "P0 (you): Duke; revealed Contessa; 1 coin\n" in text
    assert "; 0 coins" in text
