"""Random play-outs: game lengths and returns under uniformly random play."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.play.bots import sample_chance


@dataclass(frozen=True)
class Playout:
    """One finished game: decision moves made, chance events and the returns."""

    moves: int
    chance_events: int
    returns: tuple[float, ...]


def random_playout(game: pyspiel.Game, rng: np.random.Generator, max_moves: int = 100_000) -> Playout:
    """Play one game with every player choosing uniformly at random."""
    state = game.new_initial_state()
    moves = chance = 0
    while not state.is_terminal():
        if moves > max_moves:
            raise RuntimeError(f"{game} did not end within {max_moves} moves")
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            chance += 1
        elif state.is_simultaneous_node():
            joint = []
            for player in range(game.num_players()):
                legal = state.legal_actions(player)
                joint.append(int(legal[rng.integers(len(legal))]))
            state.apply_actions(joint)
            moves += 1
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
            moves += 1
    return Playout(moves, chance, tuple(state.returns()))


def random_playouts(game: pyspiel.Game, n: int, seed: int = 0) -> list[Playout]:
    """``n`` seeded random games."""
    rng = np.random.default_rng(seed)
    return [random_playout(game, rng) for _ in range(n)]
