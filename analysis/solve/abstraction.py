"""An abstraction's strategy played in the exact game: what the abstraction loses.

A graph-mode solve (:func:`analysis.solve.compile_game` with ``graph=True``) keys
information sets on ``infoset_key``: when that forgets what players saw, the solution
is an imperfect-recall abstraction. Its true quality is measured in the perfect-recall
tree of the same game: every tree information set plays what its state-keyed set
plays, and an exact best response in the tree gives the strategy's true
exploitability. The tree must be compiled with ``abstract_keys=True``, which records
each tree information set's state-keyed key during the same walk.
"""

from __future__ import annotations

import numpy as np

from analysis.solve.compiled import CompiledGame
from analysis.solve.errors import SolveError


def graph_strategy_on_tree(graph: CompiledGame, graph_strategy: np.ndarray,
                           tree: CompiledGame) -> np.ndarray:
    """``graph_strategy`` (rows of ``graph``) as a strategy of the perfect-recall ``tree``.

    Raises
    ------
    SolveError
        If ``tree`` was not compiled with ``abstract_keys=True``, ``graph`` without its
        key names, or a tree information set has no state-keyed counterpart with the
        same legal actions (not the same game).
    """
    if tree.mode != "tree" or len(tree.infoset_abstract_keys) != tree.num_infosets:
        raise SolveError("compile the tree with abstract_keys=True to map a graph strategy "
                         "onto it")
    if graph.mode != "graph" or len(graph.infoset_keys) != graph.num_infosets:
        raise SolveError("the graph needs its information-set keys (compile it with "
                         "key_names=True)")
    index = {key: i for i, key in enumerate(graph.infoset_keys)}
    strategy = np.empty(tree.num_actions)
    for i, key in enumerate(tree.infoset_abstract_keys):
        j = index.get(key)
        lo, hi = tree.infoset_offset[i], tree.infoset_offset[i + 1]
        if j is None:
            raise SolveError(f"{tree.game}: information set {i} (abstract key {key!r}) is "
                             "not in the graph: not the same game")
        glo, ghi = graph.infoset_offset[j], graph.infoset_offset[j + 1]
        if not np.array_equal(graph.infoset_actions[glo:ghi], tree.infoset_actions[lo:hi]):
            row = dict(zip(graph.infoset_actions[glo:ghi].tolist(),
                           graph_strategy[glo:ghi].tolist(), strict=True))
            try:
                strategy[lo:hi] = [row[a] for a in tree.infoset_actions[lo:hi].tolist()]
            except KeyError as err:
                raise SolveError(f"{tree.game}: information set {i} has action {err} that "
                                 f"its abstract set {key!r} lacks") from None
            continue
        strategy[lo:hi] = graph_strategy[glo:ghi]
    return strategy
