"""Coaching in ``farol play`` and each action's value in the advice (¡Cobardes! battles
solved exactly)."""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest

from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.cobardes.model import hidden_params
from analysis.play.coaching import (
    GRADES,
    SpotAdvice,
    coach_for,
    grade,
    hint_lines,
    judge,
    review_lines,
)
from analysis.play.session import play_game
from analysis.shared.numbers import decimals_for, signed, signed_g

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


# ---- the solution's accuracy in the hint and the review -----------------------------
def test_a_move_in_the_mix_or_within_the_error_is_never_a_mistake():
    # The hint once listed the Executioner (40.51%, value +0.7059) above warrior 3
    # (33.69%, +0.7628) and the review called the Executioner a mistake, although both
    # are in the equilibrium mix and a best response gains 0.032 within the model.
    game = pyspiel.load_game("python_cobardes_battle", PARAMS)
    state = game.new_initial_state()
    a, b, c, d = state.legal_actions()[:4]
    spot = SpotAdvice(((a, 0.4051, 0.7059), (b, 0.3369, 0.7628), (c, 0.0, 0.74),
                       (d, 0.0, 0.45)), error=0.032)
    in_mix, top, tie, bad = (judge(state, 0, x, spot) for x in (a, b, c, d))
    assert in_mix.in_mix and in_mix.loss == pytest.approx(0.0569) and in_mix.grade == "best"
    assert top.grade == "best" and top.loss == 0
    assert not tie.in_mix and tie.tied and tie.grade == "best"  # 0.0228 <= 0.032
    # Out of the mix and 0.3128 below the best: graded by the 0.2808 beyond the error.
    assert not bad.tied and bad.grade == grade(0.3128 - 0.032) == "blunder"
    assert judge(state, 0, d, SpotAdvice(spot.moves[:3] + ((d, 0.0, 0.70),), 0.032)).grade \
        == "fine"  # 0.0628 lost, 0.0308 beyond the error
    lines = hint_lines(state, 0, spot)
    # Two decimals for an error of 0.032; the ties within it marked, the others not.
    assert "value +0.76  tie for best" in lines[2] and "value +0.71" in lines[1]
    assert "tie for best" not in lines[1] and "value +0.74  tie for best" in lines[3]
    assert lines[4].endswith("value +0.45")
    assert "values within 0.032 of the best are ties, the solution's error" in lines[5]
    review = "\n".join(review_lines([in_mix, tie, bad]))
    assert "lost 0.06 (in the equilibrium mix), best" in review
    assert "lost 0.02 (within the solution's error, 0.032), best" in review
    assert "lost 0.31 (at least 0.28 beyond the error 0.032), blunder" in review
    assert "mistake" not in review.replace("mistake: under", "")


def test_exact_advice_keeps_four_decimals_and_no_negative_zero():
    assert [decimals_for(e) for e in (0.0, 0.032, 0.0008, 0.3, 2.5)] == [4, 2, 4, 1, 0]
    assert signed(-0.00001, 2) == "+0.00" and signed(-0.004, 2) == "+0.00"
    assert signed(-0.006, 2) == "-0.01" and signed(0.7628, 4) == "+0.7628"
    assert signed_g(-0.0) == "+0" and signed_g(0.0) == "+0" and signed_g(-1.0) == "-1"
    game = pyspiel.load_game("python_cobardes_battle", PARAMS)
    lines = hint_lines(game.new_initial_state(), 0, coach_for(game)(game.new_initial_state()))
    assert all("-0.0000" not in line for line in lines)
    assert any(line.endswith("best") and "value " in line for line in lines)


def _follow_the_hint(game, seat, opponent, seed):
    """A game where the person always asks the hint and plays its top move; the text."""
    lines: list[str] = []
    asked = [False]

    def read(_prompt):
        if not asked[0]:
            asked[0] = True
            return "hint"
        asked[0] = False
        start = max(i for i, line in enumerate(lines) if line.startswith("Hint:"))
        if start == len(lines) - 1 or not lines[start + 1].startswith("  "):
            return "a"  # no hint here (a choice by rule): the first move
        top = re.match(r"^  (.+?)\s+[\d.]+%  value", lines[start + 1])
        return top.group(1)

    def write(line):
        lines.append(line)
        if line.startswith("No hint"):  # a spot without a hint: mark it as one
            lines.append("Hint: none")

    assert play_game(game, seat, opponent, seed=seed, read=read, write=write) is not None
    return "\n".join(lines)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_following_the_hint_is_never_a_mistake_in_cobardes(seed):
    game = pyspiel.load_game("python_cobardes_battle", PARAMS)
    text = _follow_the_hint(game, seed % 2, "random", seed)
    review = text[text.index("Review of your decisions"):].split("\n", 1)[1]
    assert "mistake" not in review and "blunder" not in review
    assert "Returns: " in text and ": -0" not in text


@pytest.mark.slow  # about 5 minutes: the small battle's hidden-villain solve
def test_following_the_hint_is_never_a_mistake_with_hidden_villains():
    game = pyspiel.load_game("python_cobardes_battle",
                             hidden_params(("Squire", "Archer"), 2, 2))
    text = _follow_the_hint(game, 1, "random", 3)
    assert "tie for best" in text and "the solution's error here" in text
    review = text[text.index("Review of your decisions"):].split("\n", 1)[1]
    assert review.count("move ") >= 2
    assert "mistake" not in review and "blunder" not in review


@pytest.mark.slow  # 25 s: a re-solve of the turn at every hint
def test_following_the_hint_is_never_a_mistake_in_coup():
    game = pyspiel.load_game("python_coup", {})
    text = _follow_the_hint(game, 0, "random", 5)
    review = text[text.index("Review of your decisions"):].split("\n", 1)[1]
    assert review.count("move ") >= 2
    assert "mistake" not in review and "blunder" not in review
