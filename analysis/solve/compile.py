"""Compile a two-player zero-sum OpenSpiel game once into flat numpy arrays.

The engine walks a game once (:mod:`analysis.solve.walk`, or the deal-lifted
:mod:`analysis.solve.lifted`) into a :class:`~analysis.solve.compiled.CompiledGame`:
``tree`` mode keeps one node per history (exact, perfect recall); ``graph`` mode merges
histories reaching the same position (equal ``state_key()``, :mod:`games.keys`), which is
exact when each information set holds one position and otherwise an imperfect-recall
abstraction (``CompiledGame.imperfect_recall``). Simultaneous moves are made turn-based.
"""

from __future__ import annotations

import time
from typing import Any

import pyspiel

from analysis.solve.compiled import (
    CHANCE,
    COMPILE_VERSION,
    PLAYER0,
    PLAYER1,
    TERMINAL,
    CompiledGame,
    check_supported,
    names_from_json,
    names_to_json,
)
from analysis.solve.digest import key_digest
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.estimate import estimate_tree_nodes, estimate_walker_nodes
from analysis.solve.lifted import compile_lifted
from analysis.solve.memory import (
    GRAPH_BYTES_PER_NODE,
    TREE_BYTES_PER_NODE,
    default_memory_budget,
    format_bytes,
    parse_memory,
)
from analysis.solve.walk import walk_positions, walk_states

# What studies and tests import from here (the definitions live in the modules above).
__all__ = [
    "CHANCE",
    "COMPILE_VERSION",
    "GRAPH_BYTES_PER_NODE",
    "PLAYER0",
    "PLAYER1",
    "TERMINAL",
    "TREE_BYTES_PER_NODE",
    "CompiledGame",
    "check_supported",
    "compile_game",
    "estimate_tree_nodes",
    "estimate_walker_nodes",
    "key_digest",
    "names_from_json",
    "names_to_json",
    "parse_memory",
]


def compile_game(
    game: pyspiel.Game,
    graph: bool = False,
    max_memory: int | None = None,
    progress: bool | None = None,
    use_walker: bool = True,
    key_names: bool = True,
    abstract_keys: bool = False,
    lifted: bool = True,
    walker: Any = None,
) -> CompiledGame:
    """Walk ``game`` once into a :class:`CompiledGame`.

    Parameters
    ----------
    game
        A two-player zero-sum OpenSpiel game with explicit chance (simultaneous moves allowed).
    graph
        Merge positions with equal ``state_key()`` (the game's states must implement
        :class:`games.keys.KeyedState`).
    max_memory
        Memory budget in bytes (default: half the available memory). In tree mode the
        size is estimated before walking and the game refused with the estimate when
        it does not fit; in both modes the walk stops at the budget's node count.
    progress
        Show the nodes walked on standard error (:mod:`analysis.shared.progress`; default:
        unless ``FAROL_PROGRESS=0``).
    use_walker
        Walk the game's pure positions when it offers them
        (``game.solver_walker``, :class:`games.keys.Walker`): faster than
        OpenSpiel States and compiled to the same arrays. ``False`` forces the
        State walk (the tests compare the two).
    key_names
        Keep each information set's printable key (``infoset_keys``, what strategy
        tables and saved results are read by). ``False`` leaves ``infoset_keys`` empty
        and saves memory: for measurements that need only the arrays (values,
        exploitability).
    abstract_keys
        Tree mode: also record, for each perfect-recall information set, the printable
        ``infoset_key`` its positions have (``infoset_abstract_keys``), i.e. the
        information set of the state-keyed abstraction (graph mode) that holds it. It
        lets :func:`analysis.solve.abstraction.graph_strategy_on_tree` play an
        abstraction's strategy in the exact game and measure its loss.
    lifted
        Graph mode, with the walker: when the game offers a deal-lifted walker that
        applies (``game.lifted_walker().lifts()``: hidden cards dealt), walk each
        position once for all deals of the hidden cards and expand the graph in numpy
        (:mod:`analysis.solve.lifted`; the same arrays, tested). ``False`` walks every deal.
    walker
        A :class:`games.keys.Walker` to compile instead of the game's own, e.g. one that
        ends the game early at positions valued otherwise
        (:class:`analysis.cobardes.solvers.subgames.PublicCut`). It must walk ``game``'s
        positions (with information-state strings in tree mode); when it offers
        ``lifts()`` and that says yes, graph mode takes the deal-lifted compile with it.
        Tree mode estimates the size of the tree it walks (:func:`estimate_walker_nodes`).

    Raises
    ------
    UnsupportedGameError
        Not two-player, not zero-sum, sampled chance, no state keys in graph mode, a
        cycle in the state graph, or information sets with different legal actions.
    GameTooLargeError
        The compiled game would exceed ``max_memory``.
    """
    check_supported(game)
    if abstract_keys and graph:
        raise UnsupportedGameError("abstract_keys maps a perfect-recall tree's information "
                                   "sets to the graph's: compile in tree mode")
    if abstract_keys and not hasattr(game.new_initial_state(), "infoset_key"):
        raise UnsupportedGameError(f"{game} offers no infoset_key(): no abstraction to map to")
    budget = max_memory if max_memory is not None else default_memory_budget()
    dynamics = game.get_type().dynamics
    simultaneous = dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if graph:
        root = game.new_initial_state()
        if not (hasattr(root, "state_key") and hasattr(root, "infoset_key")):
            raise UnsupportedGameError(
                f"{game} offers no state_key()/infoset_key(); solve it in tree mode (no --graph)"
            )
        walked = game
        per_node = GRAPH_BYTES_PER_NODE
    else:
        walked = pyspiel.convert_to_turn_based(game) if simultaneous else game
        simultaneous = False
        if not walked.get_type().provides_information_state_string:
            raise UnsupportedGameError(
                f"{game} provides no information-state strings; tree mode needs them"
            )
        per_node = TREE_BYTES_PER_NODE
        # A walker of one's own may end the game early: probe the tree it describes.
        def probe(probes=64, seed=0):
            if walker is None:
                return estimate_tree_nodes(walked, probes, seed)
            return estimate_walker_nodes(walker, probes, seed)

        estimate = probe()
        if estimate * per_node > budget / 100:
            # Knuth's estimate is unbiased but heavy-tailed (rare probes into the big
            # subtrees carry it): 64 probes put a Coup endgame at 4.5 of its 11.5 million
            # histories, 4096 probes within ~20%. Near the budget, take the larger of
            # the two; the walk itself still stops at the budget's node count.
            estimate = max(estimate, probe(probes=4096, seed=1))
        if estimate * per_node > budget:
            raise GameTooLargeError(
                f"{game} has an estimated {estimate:z,.3g} histories (~"
                f"{format_bytes(estimate * per_node)} compiled), over the memory budget of "
                f"{format_bytes(budget)}; use graph mode or a smaller variant"
            )
    if walker is not None:
        lifts = graph and lifted and hasattr(walker, "lifts") and walker.lifts()
    else:
        lifts = (graph and use_walker and lifted and hasattr(game, "lifted_walker")
                 and game.lifted_walker().lifts())
    if lifts:
        return compile_lifted(game, max_memory=budget, progress=progress, key_names=key_names,
                              walker=walker)
    max_nodes = max(1, budget // per_node)
    start = time.perf_counter()
    if walker is None and use_walker and not simultaneous and hasattr(walked, "solver_walker"):
        walker = walked.solver_walker(history=not graph)
    if walker is not None:
        arrays = walk_positions(
            walker, graph, max_nodes, progress, str(game), budget, per_node, key_names,
            abstract_keys,
        )
    else:
        arrays = walk_states(
            walked, graph, simultaneous, max_nodes, progress, str(game), budget, per_node,
            key_names, abstract_keys,
        )
    return CompiledGame(
        game=str(walked) if not graph else str(game),
        mode="graph" if graph else "tree",
        compile_seconds=time.perf_counter() - start,
        walked=int(arrays["kind"].shape[0]),
        **arrays,
    )

