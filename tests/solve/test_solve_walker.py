"""The compiler's fast walk through a game's pure positions (``games.keys.Walker``).

A walker must compile to exactly what the OpenSpiel State walk gives: same nodes in the
same order, same information sets and keys, same action names, same abstraction flag.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from walker_check import assert_walker_compiles_like_states

import games  # noqa: F401
from analysis.solve import CFRSolver, UnsupportedGameError, compile_game, exploitability
from analysis.solve.abstraction import graph_strategy_on_tree
from analysis.solve.digest import key_digest
from analysis.solve.errors import SolveError

CASES = [
    ("python_cobardes_battle", {"kinds": "warriors", "warriors": 3, "combats": 4}, False),
    ("python_cobardes_battle", {"kinds": "warriors", "warriors": 4}, True),
    (
        "python_cobardes_battle",
        {"warriors": 2, "combats": 3, "kinds": "warriors+villains",
         "villain_deck": "Thug/Sheep/Executioner"},
        False,
    ),
    (
        "python_cobardes_battle",
        {"warriors": 2, "combats": 3, "kinds": "warriors+villains",
         "villain_deck": "Thug/Sheep/Executioner"},
        True,
    ),
    (
        "python_cobardes_battle",
        {"kinds": "all", "warriors": 2, "combats": 2, "courtier0": "Procuress",
         "courtier1": "Inquisitor", "villain_deck": "Thug/Sheep/Executioner"},
        False,
    ),
    (
        "python_cobardes_battle",
        {"kinds": "all", "warriors": 2, "combats": 3, "courtier0": "random",
         "courtier1": "Archer", "court_deck": "Squire/Wolf/Archer", "quicker": "random"},
        True,
    ),
]


def _ids(case):
    name, params, graph = case
    return f"{name}-{'graph' if graph else 'tree'}-" + ",".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_walker_compiles_to_the_state_walk(case):
    name, params, graph = case
    assert_walker_compiles_like_states(pyspiel.load_game(name, params), graph)


def test_walker_positions_are_not_mutated():
    """The walker's ``child`` returns a new position and leaves its parent as it was."""
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 2})
    walker = game.solver_walker(history=True)
    root = walker.root()
    before = dict(root.__dict__)
    for action in walker.chance_outcomes(root) or walker.legal_actions(root):
        action = action[0] if isinstance(action, tuple) else action
        walker.child(root, action)
    assert root.__dict__ == before


def test_graph_walk_drops_the_log():
    """Without history the positions carry no event log (the cheap graph walk)."""
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 2})
    walker = game.solver_walker(history=False)
    pos = walker.root()
    while walker.actor(pos) != pyspiel.PlayerId.TERMINAL:
        pos = walker.child(pos, walker.legal_actions(pos)[0])
    assert pos.ev is None and pos.seen is None
    # ...and the State of the same game still has its log (the walker copied the root).
    assert game.new_initial_state().position.ev is not None


def test_solution_through_the_walker_is_exact():
    """A tree compiled through the walker is solved to the same exploitability scale."""
    game = pyspiel.load_game(
        "python_cobardes_battle",
        {"warriors": 2, "combats": 3, "kinds": "warriors+villains",
         "villain_deck": "Thug/Sheep/Executioner"},
    )

    compiled = compile_game(game)
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(iterations=300, progress=False)
    assert report.exploitability < 1e-2
    assert exploitability(compiled, solver.average_strategy()).exploitability == pytest.approx(
        report.exploitability, abs=1e-12
    )


class _LoopWalker:
    """A toy walker whose positions loop: 0 (player 0: back to 1 or stop) and 1
    (player 1: back to 0). Its state keys repeat along one path: a cycle."""

    def root(self):
        return 0

    def actor(self, s):
        return -4 if s == 2 else s

    def legal_actions(self, s):
        return [0, 1] if s == 0 else [0]

    def chance_outcomes(self, s):
        return []

    def child(self, s, action):
        return 2 if (s == 0 and action == 1) else 1 - s

    def returns(self, s):
        return 1.0, -1.0

    def state_key(self, s):
        return ("position", s)

    def infoset_key(self, s, player):
        return ("position", s)

    def action_to_string(self, s, player, action):
        return f"a{action}"


def test_a_cycle_in_the_walkers_state_graph_is_one_clear_error():
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 1})
    game.solver_walker = lambda history: _LoopWalker()
    with pytest.raises(UnsupportedGameError, match="cycle at .*position"):
        compile_game(game, graph=True)


def test_graph_nodes_are_the_distinct_state_keys():
    """Graph mode keys its tables by digests of the keys: it must still make exactly one
    node per distinct non-terminal ``state_key`` and one information set per distinct
    ``(player, infoset_key)``, counted here with the key tuples themselves."""
    game = pyspiel.load_game("python_cobardes_battle", {
        "kinds": "all", "warriors": 2, "combats": 2, "courtier0": "Procuress",
        "courtier1": "Fortune-Teller", "villain_deck": "King's Ghost/Sheep/Seductress"})
    walker = game.solver_walker(history=False)
    states, infosets = set(), set()
    stack = [walker.root()]
    while stack:
        pos = stack.pop()
        player = walker.actor(pos)
        if player == pyspiel.PlayerId.TERMINAL:
            continue
        key = walker.state_key(pos)
        if key in states:
            continue
        states.add(key)
        if player == pyspiel.PlayerId.CHANCE:
            moves = [a for a, p in walker.chance_outcomes(pos) if p > 0]
        else:
            infosets.add((player, walker.infoset_key(pos, player)))
            moves = walker.legal_actions(pos)
        stack.extend(walker.child(pos, a) for a in moves)
    compiled = compile_game(game, graph=True)
    assert compiled.num_internal == len(states)
    assert compiled.num_infosets == len(infosets)


def test_key_digest_depends_on_the_value_only():
    """Equal keys digest alike whether or not they share objects; different keys differ."""
    inner = (300, "x", (1, 2))
    shared = (inner, inner, None)
    copied = ((300, "x", (1, 2)), (300, "x", (1, 2)), None)
    assert key_digest(shared) == key_digest(copied)
    assert key_digest(shared) != key_digest((inner, (300, "x", (1, 3)), None))
    assert len(key_digest(shared)) == 16


def test_compiling_without_key_names_keeps_the_arrays():
    """``key_names=False`` saves the printable keys' memory and nothing else."""
    game = pyspiel.load_game("python_cobardes_battle", {
        "warriors": 2, "combats": 3, "kinds": "warriors+villains",
        "villain_deck": "Thug/Sheep/Executioner"})
    named = compile_game(game, graph=True)
    bare = compile_game(game, graph=True, key_names=False)
    assert bare.infoset_keys == [] and len(named.infoset_keys) == named.num_infosets
    for field in ("kind", "infoset", "edge_start", "edge_child", "edge_prob", "edge_action",
                  "utility", "infoset_player", "infoset_offset", "infoset_actions"):
        assert np.array_equal(getattr(bare, field), getattr(named, field)), field


def test_abstract_keys_map_every_tree_information_set_into_the_graph():
    """``abstract_keys=True`` records each perfect-recall information set's state-keyed
    key, the same through the walker and through OpenSpiel States; every one is an
    information set of the graph compile, and a graph strategy mapped onto the tree
    gives the same expected value there as in the graph when the abstraction is exact
    (public information: warriors-only battles)."""
    villains = pyspiel.load_game("python_cobardes_battle", {
        "warriors": 2, "combats": 3, "kinds": "warriors+villains",
        "villain_deck": "Thug/Sheep/Executioner"})
    fast = compile_game(villains, abstract_keys=True)
    slow = compile_game(villains, abstract_keys=True, use_walker=False)
    assert fast.infoset_abstract_keys == slow.infoset_abstract_keys
    assert len(fast.infoset_abstract_keys) == fast.num_infosets
    graph = compile_game(villains, graph=True)
    assert set(fast.infoset_abstract_keys) <= set(graph.infoset_keys)
    assert len(set(fast.infoset_abstract_keys)) < fast.num_infosets  # it does merge

    public = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 3})
    tree = compile_game(public, abstract_keys=True)
    pgraph = compile_game(public, graph=True)
    solver = CFRSolver(pgraph, "cfr+")
    solver.run(iterations=50, progress=False)
    mapped = graph_strategy_on_tree(pgraph, solver.average_strategy(), tree)
    assert exploitability(tree, mapped).value == pytest.approx(
        exploitability(pgraph, solver.average_strategy()).value, abs=1e-12)
    assert np.all(mapped >= 0)

    with pytest.raises(SolveError, match="abstract_keys=True"):
        graph_strategy_on_tree(pgraph, solver.average_strategy(), compile_game(public))
    with pytest.raises(UnsupportedGameError, match="tree mode"):
        compile_game(public, graph=True, abstract_keys=True)
