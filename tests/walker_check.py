"""A shared check for the games' solver walkers (``games.keys.Walker``)."""

from __future__ import annotations

import numpy as np

from analysis.solve import CompiledGame, compile_game
from analysis.solve.compiled import ARRAYS  # noqa: F401  (imported from here by the tests)
from games.keys import Walker


def assert_walker_compiles_like_states(game, graph: bool) -> CompiledGame:
    """Compile ``game`` through its walker and through OpenSpiel States, and assert the
    two are identical: arrays, information-set keys, action names, abstraction flag.
    Returns the walker's compilation."""
    assert isinstance(game.solver_walker(history=not graph), Walker)
    slow = compile_game(game, graph=graph, use_walker=False)
    fast = compile_game(game, graph=graph)
    for name in ARRAYS:
        assert np.array_equal(getattr(slow, name), getattr(fast, name)), name
    assert slow.infoset_keys == fast.infoset_keys
    assert slow.action_names == fast.action_names
    assert slow.imperfect_recall == fast.imperfect_recall
    return fast
