"""Endgame positions: building games from a described position, and clear errors for bad ones."""

from __future__ import annotations

import pyspiel
import pytest
from coup_helpers import names, play, position_state

from analysis.shared.params import load_game
from games.coup import cards as C
from games.coup import endgame_game, format_position, parse_position
from games.coup.positions import UNKNOWN
from games.errors import InvalidParameterError, InvalidPositionError, UnknownCardError


def test_parse_and_format_round_trip():
    pos = parse_position("Captain/duke/3; -/Asesino+condesa/0 ;?+duke/-/5; move:2")
    assert pos.hidden == ((C.CAPTAIN,), (), (UNKNOWN, C.DUKE))
    assert pos.revealed == ((C.DUKE,), (C.ASSASSIN, C.CONTESSA), ())
    assert pos.coins == (3, 0, 5) and pos.to_move == 2
    assert parse_position(format_position(pos)) == pos


def test_known_cards_court_is_the_rest_and_unknown_cards_are_dealt_consistently():
    """The court is every card not written; unknown cards come from it by chance."""
    s = position_state("?/duke/0;captain/duke/0;move:1")
    c = s.core
    # Known: two Dukes revealed, one Captain face down: the 12 other cards are the court.
    assert c.court == (1, 3, 2, 3, 3)
    assert s.is_chance_node()
    probs = dict((s.action_to_string(-1, a), p) for a, p in s.chance_outcomes())
    assert probs == pytest.approx({"Draw Duke": 1 / 12, "Draw Assassin": 3 / 12, "Draw Captain": 2 / 12,
                                   "Draw Ambassador": 3 / 12, "Draw Contessa": 3 / 12})
    play(s, "Draw Duke")
    assert s.current_player() == 1
    assert s.core.court == (0, 3, 2, 3, 3) and s.core.coins == (0, 0)
    # The dealt card is private; a fixed card is known to its holder only.
    assert "P0 is dealt Duke" in s.information_state_string(0)
    assert "Duke" not in s.information_state_string(1).replace("duke", "")
    assert "P1 holds Captain" in s.information_state_string(1)
    assert "Captain" not in s.information_state_string(0)


def test_eight_player_position_uses_four_copies():
    text = ";".join(["duke/duke/0"] * 2 + ["captain+captain/-/2"] * 2 + ["assassin/contessa/1"] * 4)
    s = endgame_game(text).new_initial_state()
    assert s.get_game().num_players() == 8
    assert s.core.court == (0, 0, 0, 4, 0)


@pytest.mark.parametrize(
    "text,message",
    [
        ("duke+duke/-/2;duke/duke/2", "4 Duke cards; the deck has 3"),
        ("duke/assassin/-1;captain/contessa/2", "negative coins"),
        ("duke/assassin/2;-/captain+contessa/0;move:1", "fewer than two players"),
        ("duke/assassin/2;-/captain+contessa/0;captain/duke/1;move:1", "player 1 is out and cannot move"),
        ("duke/assassin/2;-/captain+contessa/3;captain/duke/1", "out but holds 3 coins"),
        ("duke+captain/assassin/2;captain/contessa/2", "every player has exactly two"),
        ("duke/assassin/2", "position has 1 player;"),
        ("duke/assassin;captain/contessa/2", "write player 0 as hidden/revealed/coins"),
        ("duke/assassin/two;captain/contessa/2", "write a whole number"),
        ("duke/assassin/30;captain/contessa/30", "more than the 50"),
        ("duke/assassin/2;captain/contessa/2;move:5", "seat 5 to move does not exist"),
    ],
)
def test_impossible_positions_raise_a_clear_error(text, message):
    with pytest.raises(InvalidPositionError, match=message) as info:
        parse_position(text)
    assert "\n" not in str(info.value)
    # The same one-line error through OpenSpiel's loader and Farol's.
    with pytest.raises(InvalidPositionError, match=message):
        endgame_game(text)


def test_unknown_cards_raise_unknown_card_error():
    with pytest.raises(UnknownCardError, match="unknown card 'joker'"):
        parse_position("joker/assassin/2;captain/contessa/2")
    with pytest.raises(UnknownCardError, match="not in the ambassador deck"):
        parse_position("inquisitor/assassin/2;captain/contessa/2")
    assert parse_position("inquisidor/assassin/2;captain/contessa/2", "inquisitor").hidden[0] == (C.EXCHANGER,)


def test_position_errors_through_the_loaders():
    with pytest.raises(InvalidPositionError):
        pyspiel.load_game("python_coup", {"position": "duke+duke/-/2;duke/duke/2"})
    with pytest.raises(InvalidPositionError):
        load_game("python_coup", {"position": "duke/assassin/-1;captain/contessa/2"})
    with pytest.raises(InvalidParameterError, match="pass players=3"):
        load_game("python_coup", {"position": "duke/assassin/1;captain/contessa/2;duke/captain/0"})
    with pytest.raises(InvalidParameterError, match="deck"):
        load_game("python_coup", {"deck": "reformation"})
    with pytest.raises(InvalidParameterError, match="players"):
        load_game("python_coup", {"players": 9})


def test_position_parameter_survives_the_game_string():
    game = endgame_game("?/duke/3;captain/assassin/4;move:1", turn_cap=7, deck="inquisitor")
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == game.get_parameters()
    assert names(again.new_initial_state()) == names(game.new_initial_state())


def test_state_key_merges_transpositions_and_infoset_key_hides_the_opponent():
    """Two histories reaching the same position share a state key; a player's infoset key
    does not depend on the opponent's hidden card."""
    pos = "duke+captain/-/2;duke+captain/-/2;move:0"
    a = play(position_state(pos), "Foreign Aid", "Block with Duke", "No challenge")
    b = play(position_state(pos), "Steal from P1 (claims Captain)", "No challenge",
             "Block with Captain", "No challenge")
    assert a.history() != b.history()
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.state_key() == b.state_key()
    c = play(position_state(pos), "Income")
    assert c.state_key() != a.state_key()

    x = play(position_state("?/assassin/1;?/contessa/1"), "Draw Duke", "Draw Captain")
    y = play(position_state("?/assassin/1;?/contessa/1"), "Draw Duke", "Draw Ambassador")
    assert x.infoset_key(0) == y.infoset_key(0)
    assert x.infoset_key(1) != y.infoset_key(1)
    assert x.state_key() != y.state_key()
    hash(x.state_key()), hash(x.infoset_key(0))


def test_one_v_one_endgame_plays_to_the_end():
    s = position_state("?/assassin/7;?/contessa/7;move:0", turn_cap=4)
    play(s, "Draw Duke", "Draw Captain", "Coup P1")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
