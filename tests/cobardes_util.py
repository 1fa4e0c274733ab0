"""Helpers shared by the ¡Cobardes! tests: build a battle from names, play moves."""

from __future__ import annotations

import pyspiel

import games  # noqa: F401  (registers the games)
from games.cobardes import cards as C
from games.cobardes import engine as E

PASS, ADVANCE, SEND = E.PASS, E.ADVANCE, E.SEND


def battle(v0="none", v1="none", c0="none", c1="none", **extra):
    """A battle with the named villains and courtiers, already past the deals."""
    params = {"villain0": v0, "villain1": v1, "courtier0": c0, "courtier1": c1}
    params.update(extra)
    game = pyspiel.load_game("python_cobardes_battle", params)
    return game.new_initial_state()


def card(name) -> int:
    return C.card_id(str(name))


def face_off(state, a0, a1):
    """Both players prepare a card (ids or names) in a plain confrontation."""
    pos = state.position
    assert pos.phase == E.COMMIT, E.PHASE_NAMES[pos.phase]
    first = pos.first
    cards = {0: card(a0) if isinstance(a0, str) else a0, 1: card(a1) if isinstance(a1, str) else a1}
    state.apply_action(cards[first])
    state.apply_action(cards[1 - first])


def outcome(state):
    return state.position.outcome
