"""At the table (analysis.cobardes.agents.best): ``farol play``'s ``best`` bot and hint in a
full battle with hidden villains answer the first decisions from the matchup's stored
opening, without solving the whole battle, and carry the solution's error."""

from __future__ import annotations

import random

import pyspiel
import pytest

from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.cobardes.agents import best as table_module
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers import hidden_advice, openings
from analysis.play.bots import make_bot
from analysis.play.coaching import SpotAdvice, coach_for
from games.cobardes.hidden import any_villain_unknown

PAIRING = ("Squire", "Archer")


@pytest.fixture(autouse=True)
def _no_whole_battle_solve(monkeypatch):
    """Any whole-battle solve fails the test (the opening answers these spots)."""
    def refuse(*args, **kwargs):
        raise AssertionError("the whole battle was solved")
    monkeypatch.setattr(hidden_advice, "solve", refuse)


def _first_decisions(game):
    """The battle after each villain deal to the first seat, at its first decision."""
    for villain in range(7, 16):
        state = openings.dealt(game, villain, 0)
        if state is not None:
            while state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            yield state


def test_the_best_bot_and_the_hint_read_the_stored_opening_at_the_first_decision():
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(PAIRING))
    table = openings.stored(PAIRING)
    assert table is not None
    coach = coach_for(game)
    bot = make_bot("best", game, 0, seed=3)
    checked = 0
    for state in _first_decisions(game):
        found = openings.answer_at(state)
        assert found is not None
        mix = {int(a): p for a, p in found[2]["mix"]}
        hint = coach(state)
        assert isinstance(hint, SpotAdvice)
        assert hint.error == table.exploitability > 0
        assert {a: p for a, p, _ in hint.moves} == pytest.approx(mix)
        values = {n: v for n, _, v in found[2]["actions"]}
        assert {state.action_to_string(a): v for a, _, v in hint.moves} == pytest.approx(values)
        assert mix[bot(state)] > 0  # the bot plays a move of the stored mix
        checked += 1
    assert checked >= 8


def test_a_first_combat_spot_the_opening_does_not_keep_gets_no_hint_and_no_solve():
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(PAIRING))
    coach = coach_for(game)
    rng = random.Random(2)
    state = None
    while state is None:  # a first-combat decision with a villain hidden, not kept
        walk = game.new_initial_state()
        while not walk.is_terminal() and walk.position.combat == 1:
            if walk.is_chance_node():
                walk.apply_action(rng.choice([a for a, p in walk.chance_outcomes() if p]))
                continue
            if any_villain_unknown(walk.position) and openings.answer_at(walk) is None:
                state = walk
                break
            walk.apply_action(rng.choice(walk.legal_actions()))
    assert coach(state) is None
    assert "needs the whole battle" in coach.silent
    assert table_module.HiddenAnswers().answer(state) is None


def test_a_later_first_combat_decision_is_read_where_the_opening_keeps_it():
    """Wolf against Maiden keeps each seat's decisions up to committing its card: the
    second player's first card after holding the Maiden back is answered at once."""
    pairing = ("Wolf", "Maiden")
    table = openings.stored(pairing)
    if table is None or not table.to_commit:
        pytest.skip("this matchup's opening keeps only the first decisions")
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(pairing))
    state = game.new_initial_state()
    for move in ("draw Thug", "draw Troubadour", "pass", "play warrior 5"):
        legal = {state.action_to_string(state.current_player(), a): a
                 for a in state.legal_actions()}
        state.apply_action(legal[move])
    assert state.current_player() == 1 and state.position.combat == 1
    found = openings.answer_at(state)
    assert found is not None and found[1] and table.entries("Troubadour", 1, later=True)
    hint = coach_for(game)(state)
    assert hint.error == table.exploitability
    assert {a: p for a, p, _ in hint.moves} == pytest.approx(
        {int(a): p for a, p in found[2]["mix"]})
    # The seat's later entries are kept apart from its first ones.
    firsts = {tuple(e["seen"]) for e in table.seats[1]}
    assert found[1] not in firsts
