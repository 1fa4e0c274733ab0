"""The compiled deal-lifted walk (``analysis.cobardes.solvers.packed_walk``) builds the Python
walk's graph, array for array.

The battles are those of ``test_solve_lifted`` (face-down and face-up villains, villains
meeting, the Inquisitor drawing a hidden villain, the Troubadour's flags, courtiers dealt
at random, a position given mid-battle, the Procuress's show and swap), compiled whole
and as the trunk with its public subgames cut off and valued, with and without how
each terminal ends. The full matchup is compared in the slow suite.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from test_solve_lifted import CASES, _id
from walker_check import ARRAYS

import games  # noqa: F401
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers.packed_walk import (
    NO_CUT,
    compile_packed,
    infoset_key,
    state_key,
    to_pos,
    to_row,
)
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.solve import UnsupportedGameError
from analysis.solve.lifted import compile_lifted
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import keys as K
from games.cobardes.hidden import masked_infoset_key, masked_state_key
from games.errors import InvalidParameterError


def assert_same_graph(a, b):
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.infoset_keys == b.infoset_keys
    assert a.action_names == b.action_names
    assert a.walked == b.walked


@pytest.mark.parametrize("params", CASES, ids=[_id(p) for p in CASES])
def test_the_compiled_walk_builds_the_python_walks_graph(params):
    game = pyspiel.load_game("python_cobardes_battle", params)
    compiled, walk, _ = compile_packed(game, cut=NO_CUT, progress=False)
    assert_same_graph(compile_lifted(game), compiled)
    assert walk.cuts == 0


@pytest.mark.parametrize("params", CASES[::2], ids=[_id(p) for p in CASES[::2]])
@pytest.mark.parametrize("outcomes", [False, True])
def test_the_compiled_walk_cuts_the_trunk_as_the_python_walk_does(params, outcomes):
    """The trunk: public subgames as terminals valued by the exact solver inside the
    walk, and (``outcomes``) how each terminal ends."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    python = compile_cut(game, outcomes=outcomes, engine="python")
    packed = compile_cut(game, outcomes=outcomes, progress=False)
    assert_same_graph(python.compiled, packed.compiled)
    assert packed.cuts == python.cuts > 0
    assert packed.exact_positions == python.exact_positions
    assert 0 <= packed.exact_seconds <= packed.seconds
    if outcomes:
        assert np.array_equal(python.outcomes.code, packed.outcomes.code)
        assert np.array_equal(python.outcomes.cuts, packed.outcomes.cuts)
    else:
        assert packed.outcomes is None


def test_the_keys_as_integers_tell_positions_apart_as_the_tuples_do():
    """Equal tuple keys, equal integer keys, and unequal ones unequal, over every
    position of a battle with hidden villains (each masked the way the walk masks it)."""
    game = pyspiel.load_game("python_cobardes_battle", CASES[4])
    walker = game.lifted_walker()
    states, infosets = {}, {}
    stack = [walker.root()]
    seen = set()
    while stack:
        pos = stack.pop()
        if pos.actor == E.TERMINAL:
            continue
        mine, theirs = (E.bits(pos.h[p] & C.VILLAIN_MASK) + [-1] for p in (0, 1))
        for hidden in ((a, b) for a in mine for b in theirs):
            row = to_row(pos)
            states.setdefault(state_key(row, *hidden), set()).add(masked_state_key(pos, hidden))
            for p in (0, 1):
                infosets.setdefault(infoset_key(row, p, hidden[p]), set()).add(
                    masked_infoset_key(pos, p, hidden))
        key = K.state_key(pos)
        if key in seen:
            continue
        seen.add(key)
        moves = (walker.chance_outcomes(pos) if pos.actor == E.CHANCE
                 else [(a, 1) for a in walker.legal_actions(pos)])
        stack.extend(walker.child(pos, a) for a, _ in moves)
    assert len(seen) > 1000 and len(states) > len(seen)  # masked ones too
    for table in (states, infosets):
        assert all(len(keys) == 1 for keys in table.values())  # no two tuples share one
        tuples = [next(iter(keys)) for keys in table.values()]
        assert len(set(tuples)) == len(tuples)  # no tuple has two


def test_a_row_unpacks_to_the_same_keys():
    game = pyspiel.load_game("python_cobardes_battle", CASES[1])
    pos = game.rules.initial
    walker = game.lifted_walker()
    for a in (7, 8, 1):
        back = to_pos(to_row(pos))
        assert K.state_key(back) == K.state_key(pos)
        pos = walker.child(pos, a if pos.actor == E.CHANCE else walker.legal_actions(pos)[0])


def test_a_battle_without_hidden_villains_is_refused_in_one_line():
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 2})
    with pytest.raises(UnsupportedGameError, match="no hidden villain"):
        compile_packed(game, cut=NO_CUT)
    with pytest.raises(InvalidParameterError, match="unknown walk engine"):
        compile_cut(pyspiel.load_game("python_cobardes_battle", CASES[0]), engine="rust")


@pytest.mark.slow
def test_the_compiled_walk_builds_a_full_matchups_trunk():
    """Squire vs Archer, warriors 0-6, 7 combats, both villains dealt from all nine: the
    sweep's compile, once by each walk."""
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(("Squire", "Archer")))
    packed = compile_cut(game, key_names=False, outcomes=True, progress=False)
    python = compile_cut(game, key_names=False, outcomes=True, engine="python")
    assert_same_graph(python.compiled, packed.compiled)
    assert np.array_equal(python.outcomes.code, packed.outcomes.code)
    assert np.array_equal(python.outcomes.cuts, packed.outcomes.cuts)
    assert packed.compiled.num_nodes > 20_000_000
