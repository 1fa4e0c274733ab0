"""Helpers for ¡Cobardes! tests: spots reached by random play or by given moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pyspiel


def random_spots(game: pyspiel.Game, keep: Callable[[pyspiel.State], bool], games: int,
                 seed: int = 0) -> Iterator[pyspiel.State]:
    """The decisions of ``games`` random games of ``game`` (seeded) where ``keep`` holds,
    each a copy, in the order played."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
                continue
            if keep(state):
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))


def replayed(game: pyspiel.Game, moves) -> pyspiel.State:
    """The state of ``game`` after the actions ``moves`` from its start."""
    state = game.new_initial_state()
    for action in moves:
        state.apply_action(action)
    return state
