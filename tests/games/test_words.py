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


def test_goat_lords_shows_one_card_in_the_singular():
    """At the start the discard pile holds one card: «Discard pile: 1 card» (it said
    "1 cards", which tests/cli/test_examples.py found in farol play's output)."""
    from games.goat_lords.game import render as goat_render

    state = pyspiel.load_game("python_goat_lords", {"players": 3}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    text = goat_render(state, 0)
    assert "Discard pile: 1 card, top:" in text and "1 cards" not in text
