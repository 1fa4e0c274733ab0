"""The Beggar, the Assassin and the Troubadour, against the rulebook: facing any enemy
warrior but the prince, with their holder's prince never out of a combat unharmed, each
lets its holder play the warrior it wants, and nothing else, so the three are one card
there (why the guide's figures for them coincide)."""

from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401
from analysis.cobardes.solvers.fast_exact import FastExactSolver

# The rulebook (English text), villain by villain: against a warrior other than the
# prince, each lets its holder "play the warrior you want/prefer from your hand".
RULES = {
    "Beggar": "Once you have seen their card, if it is a warrior, then you may play the "
              "warrior you prefer from your hand.",
    "Assassin": "If the Assassin faces the enemy prince, she fulfils her mission. You win "
                "the war and the Crown token. If, however, she faces another enemy warrior, "
                "then you may play the warrior you want from your hand.",
    "Troubadour": "If you manage to get your prince out of a combat unharmed and, in a "
                  "later one, you play the Troubadour, he will exaggerate his bravery and "
                  "you will win a Victory token. If you play the Troubadour before your "
                  "prince, then you may afterwards play the warrior you want from your hand, "
                  "but it will no longer give you the Victory.",
}


def _after(villain: str, warrior: int):
    """Combat 2 of a small battle: the first player lays ``villain``, the second
    ``warrior``; the state after the reveal."""
    position = (f"hand0:0.1.2.3.5.{villain};hand1:0.1.2.4.5.Sheep;court0:none;court1:none;"
                "combat:2")
    game = pyspiel.load_game("python_cobardes_battle", {
        "kinds": "warriors+villains", "position": position, "warriors": 5, "combats": 4})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for name in (f"play villain {villain}", f"play warrior {warrior}"):
        moves = {state.action_to_string(a).replace(" (prince)", ""): a
                 for a in state.legal_actions()}
        state.apply_action(moves[name])
    return game, state


@pytest.mark.parametrize("warrior", [1, 2, 4, 5])
def test_facing_a_warrior_the_three_villains_leave_the_same_battle(warrior):
    values, moves = {}, {}
    for villain in RULES:
        game, state = _after(villain, warrior)
        assert not state.is_terminal()
        moves[villain] = [state.action_to_string(a) for a in state.legal_actions()]
        solver = FastExactSolver(game.rules.cfg, game.rules.pay)
        values[villain] = solver.value(state.position)
    # RULES: "you may play the warrior you want from your hand" (or "pass": none).
    assert moves["Beggar"] == moves["Assassin"] == moves["Troubadour"]
    assert moves["Beggar"][:5] == ["play warrior 0 (prince)", "play warrior 1",
                                   "play warrior 2", "play warrior 3", "play warrior 5"]
    assert values["Beggar"] == pytest.approx(values["Assassin"], abs=1e-12)
    assert values["Beggar"] == pytest.approx(values["Troubadour"], abs=1e-12)


def test_only_the_enemy_prince_tells_the_assassin_apart():
    _, state = _after("Assassin", 0)
    assert state.is_terminal() and state.returns() == [3.0, -3.0]  # "the Crown token"
    _, state = _after("Beggar", 0)
    assert not state.is_terminal()
