"""Exact best responses on a game tree given as a :class:`~analysis.solve.cyclic.CyclicGraph`.

A depth-limited re-solve is a small tree with perfect recall; its exploitability is
what a best response to each player's strategy gains. Perfect recall makes the best
response one pass: an information set's choice depends only on the sets below it, so
each set is decided once, on demand, from the values of its nodes' children weighted
by how likely the other player and chance make each node.
"""

from __future__ import annotations

import sys

import numpy as np

from analysis.solve.cyclic import CHANCE, PLAYER0, TERMINAL, CyclicGraph
from analysis.solve.errors import SolveError


def best_response_value(graph: CyclicGraph, root: int, strategies, player: int) -> float:
    """``player``'s expected payoff at ``root`` from a best response to the other's
    strategy in ``strategies`` (a probability per slot for each player).

    The graph must be a tree below ``root`` with perfect recall (every node of an
    information set reached by the same sequence of the player's own sets and actions).
    """
    g = graph
    sign = 1.0 if player == 0 else -1.0
    other = strategies[1 - player]
    start, child, slot = g.edge_start, g.edge_child, g.edge_slot
    weight = {root: 1.0}  # chance's and the other player's probability of reaching a node
    members: dict[int, list[int]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        kind = int(g.kind[node])
        if kind == TERMINAL:
            continue
        lo, hi = int(start[node]), int(start[node + 1])
        if kind == PLAYER0 + player:
            members.setdefault(int(g.slot_key[player][slot[lo]]), []).append(node)
        for e in range(lo, hi):
            c = int(child[e])
            if c in weight:
                raise SolveError("not a tree: a node is reached twice")
            p = (g.edge_prob[e] if kind == CHANCE else
                 1.0 if kind == PLAYER0 + player else other[slot[e]])
            weight[c] = weight[node] * float(p)
            stack.append(c)
    choice: dict[int, int] = {}
    value: dict[int, float] = {}

    def decide(infoset: int) -> int:
        if infoset not in choice:
            nodes = members[infoset]
            width = int(start[nodes[0] + 1] - start[nodes[0]])
            q = np.zeros(width)
            for n in nodes:
                lo = int(start[n])
                for j in range(width):
                    c = int(child[lo + j])
                    if weight[c] > 0:
                        q[j] += weight[n] * node_value(c)
            choice[infoset] = int(np.argmax(q))
        return choice[infoset]

    def node_value(node: int) -> float:
        if node in value:
            return value[node]
        kind = int(g.kind[node])
        lo, hi = int(start[node]), int(start[node + 1])
        if kind == TERMINAL:
            v = sign * float(g.payoff[node])
        elif kind == PLAYER0 + player:
            v = node_value(int(child[lo + decide(int(g.slot_key[player][slot[lo]]))]))
        else:
            v = 0.0
            for e in range(lo, hi):
                p = g.edge_prob[e] if kind == CHANCE else other[slot[e]]
                if p > 0:
                    v += float(p) * node_value(int(child[e]))
        value[node] = v
        return v

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * g.num_nodes + 1000))
    try:
        return node_value(root)
    finally:
        sys.setrecursionlimit(limit)


def exploitability(graph: CyclicGraph, root: int, strategies) -> float:
    """How much a best response gains on average over the two seats against
    ``strategies``, in payoff units: half the sum of the best responses' payoffs (0 at
    an equilibrium of a zero-sum game)."""
    return (best_response_value(graph, root, strategies, 0)
            + best_response_value(graph, root, strategies, 1)) / 2
