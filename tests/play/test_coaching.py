"""Coaching in ``farol play`` and each action's value in the advice (¡Cobardes! battles
solved exactly)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.play.coaching import GRADES, coach_for, grade, judge
from analysis.play.session import play_game

PARAMS = {"kinds": "warriors+courtiers", "warriors": 3, "combats": 4,
          "courtier0": "Squire", "courtier1": "Archer"}


def _spots(game, seeds=20):
    """States reached by random play (decisions only)."""
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                continue
            yield state.clone()
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_each_spots_advice_covers_the_legal_moves_and_values_the_mix_best():
    game = pyspiel.load_game("python_cobardes_battle", PARAMS)
    coach = coach_for(game)
    seen = 0
    for state in _spots(game):
        advice = coach(state)
        assert sorted(a for a, _, _ in advice) == sorted(state.legal_actions())
        assert sum(p for _, p, _ in advice) == pytest.approx(1.0)
        best = max(v for _, _, v in advice)
        for _, p, v in advice:
            if p > 1e-9:  # every move of the equilibrium mix is worth the most
                assert v == pytest.approx(best, abs=1e-9)
        seen += 1
    assert seen > 50


def test_a_decision_loses_nothing_at_best_and_its_gap_otherwise():
    game = pyspiel.load_game("python_cobardes_battle", dict(PARAMS, warriors=6, combats=7))
    state = game.new_initial_state()
    advice = coach_for(game)(state)
    values = {a: v for a, _, v in advice}
    for action in state.legal_actions():
        d = judge(state, 0, action, advice)
        assert d.loss >= 0
        assert d.loss == pytest.approx(max(values.values()) - values[action], abs=1e-12)
    # The prince first, against six stronger warriors: the Crown is at stake.
    prince = judge(state, 0, 0, advice)
    assert prince.grade == "blunder" and prince.loss > 1
    assert [grade(x) for x in (0.0, 0.01, 0.1, 0.3)] == ["best", "fine", "mistake", "blunder"]
    assert [b for b, _ in GRADES][:3] == [1e-6, 0.05, 0.25]


def test_play_gives_hints_and_a_review():
    game = pyspiel.load_game("python_cobardes_battle", PARAMS)
    answers = iter(["hint"] + ["a"] * 40)
    lines: list[str] = []
    returns = play_game(game, 0, "random", seed=3, read=lambda _: next(answers),
                        write=lines.append)
    assert returns is not None
    text = "\n".join(lines)
    assert "Hint: the equilibrium mix here, and each move's value for you:" in text
    review = text[text.index("Review of your decisions"):]
    assert "move 1: play warrior 0 (prince): lost" in review and "blunder" in review
    assert "in all:" in review


def test_games_without_a_coach_say_so():
    game = pyspiel.load_game("kuhn_poker")
    assert coach_for(game) is None
    answers = iter(["hint", "a", "a", "a"])
    lines: list[str] = []
    play_game(game, 0, "random", seed=1, read=lambda _: next(answers), write=lines.append)
    assert any("'hint' is not one of your legal actions" in line for line in lines)
