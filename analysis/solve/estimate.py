"""Knuth's estimate of a game tree's size, from random root-to-leaf probes.

Tree-mode compiles use it to refuse, before walking, a tree too large for the memory budget.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

_TERMINAL_ID = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)


def estimate_tree_nodes(
    game: pyspiel.Game, probes: int = 64, seed: int = 0, max_depth: int = 10_000
) -> float:
    """Knuth's unbiased estimate of the number of histories, from random root-to-leaf probes.

    Each probe walks to a terminal choosing uniformly among the children and adds up the
    products of branching factors along its path; the mean over probes is unbiased.
    Simultaneous nodes count their turn-based expansion (player 0's node plus one node
    of player 1 per action of player 0).
    """
    def step(state, rng):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            actions = [a for a, p in state.chance_outcomes() if p > 0]
            state.apply_action(rng.choice(actions))
            return state, len(actions), 0
        if state.is_simultaneous_node():
            legal0, legal1 = state.legal_actions(0), state.legal_actions(1)
            state.apply_actions([rng.choice(legal0), rng.choice(legal1)])
            return state, len(legal0) * len(legal1), len(legal0)  # player 1's pending nodes
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
        return state, len(actions), 0

    return _knuth_estimate(game.new_initial_state, step, probes, seed, max_depth)


def estimate_walker_nodes(walker: Any, probes: int = 64, seed: int = 0,
                          max_depth: int = 10_000) -> float:
    """:func:`estimate_tree_nodes` through a :class:`games.keys.Walker` (sequential moves):
    the size of the tree the walker describes, e.g. one that ends the game early."""
    def step(s, rng):
        player = walker.actor(s)
        if player == _TERMINAL_ID:
            return None
        if player == _CHANCE_ID:
            actions = [a for a, p in walker.chance_outcomes(s) if p > 0]
        else:
            actions = walker.legal_actions(s)
        return walker.child(s, rng.choice(actions)), len(actions), 0

    return _knuth_estimate(walker.root, step, probes, seed, max_depth)


def _knuth_estimate(new_root, step, probes: int, seed: int, max_depth: int) -> float:
    """The mean over ``probes`` random paths of the sum of branching products along each.

    ``step(s, rng)`` makes one random move: ``None`` at a terminal, else (the next
    position, the branching factor, and nodes to count at the current weight first).
    """
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        s = new_root()
        weight, estimate = 1.0, 1.0
        for _depth in range(max_depth):
            moved = step(s, rng)
            if moved is None:
                break
            s, branching, pending = moved
            estimate += weight * pending
            weight *= branching
            estimate += weight
        total += estimate
    return total / probes

