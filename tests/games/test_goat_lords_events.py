"""What a seat sees happen in Goat Lords (games/goat_lords/events.py), as ``farol play``
prints it: every duel with its end, captures, wilds, your own draws, none of the
others'."""

from __future__ import annotations

import random

import pyspiel

import games  # noqa: F401
from analysis.play.session import play_game
from games.goat_lords.events import event_lines, event_text


def test_each_log_entry_reads_as_words_for_the_seat():
    assert event_text(-1, "p1:duel:p0:ninja", 0) == (
        "Seat 1 challenges your top pile, playing a Goat Ninja.")
    assert event_text(0, "+goat_lord", 0) == "You draw a Goat Lord (a wild)."
    assert event_text(1, "+goat_lord", 0) is None  # another seat's draw is not seen
    assert event_text(-1, "p0:takes:5", 0).startswith("You win the duel and take the pile: 5")
    assert event_text(-1, "p2:defends:4", 0).startswith("Seat 2 defends")
    assert event_text(-1, "position", 0) is None


def _played_games(seed: int, games_: int = 6):
    game = pyspiel.load_game("python_goat_lords", {"players": 3, "scoring": "single"})
    rng = random.Random(seed)
    for _ in range(games_):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, p in state.chance_outcomes() if p > 0]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state


def test_every_duel_is_told_with_how_it_ends():
    duels = 0
    for state in _played_games(4):
        lines, end = event_lines(state, 0)
        assert end == len(state.table.log)
        started = [i for i, line in enumerate(lines) if "top pile, playing" in line]
        ended = [i for i, line in enumerate(lines) if "the duel and" in line or "defend" in line]
        assert len(started) == len(ended)
        assert all(s < e for s, e in zip(started, ended, strict=True))
        duels += len(started)
        # Only seat 0's own draws: as many as cards it was dealt or drew.
        assert all("draw" not in line or line.startswith("You draw") for line in lines)
    assert duels > 0


def test_play_prints_the_events_as_they_happen():
    game = pyspiel.load_game("python_goat_lords")
    out: list[str] = []
    answers = iter(["a"] * 500)
    play_game(game, 0, "random", seed=3, read=lambda prompt: next(answers), write=out.append)
    text = "\n".join(out)
    assert "Round 1 begins." in text and "You draw" in text
    assert "Seat 1 breeds" in text or "Seat 1 challenges" in text
