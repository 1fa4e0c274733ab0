"""Depth-limited re-solving of a 2-player Coup spot, on top of the blueprint.

At a spot, every world the public history allows (both hands, the court) is weighted
by the cards' odds and both players' blueprint mixes along the way. From those worlds
the game is unrolled for the next few decisions of either player; past them each
position is worth the blueprint's own value there (both playing the blueprint on to
the end, exact on the blueprint's graph). CFR+ solves that small game, each player
knowing at its root their own cards and the public position (as the blueprint does)
and then everything they see from there on. This is the field's depth-limited
re-solving, in its unsafe form: the opponent's range at the root is the blueprint's.
Its own accuracy is exact: what a best response gains inside the small game.
"""

from __future__ import annotations

import dataclasses
import functools
import json

import numpy as np

from analysis import store
from analysis.coup.blueprint import (
    Blueprint,
    deck_games,
    deck_graph,
    graph_path,
    history_roots,
    part_of,
)
from analysis.coup.guarantees import markov_key
from analysis.solve.cache import READ_ERRORS, atomic_savez
from analysis.solve.cyclic import CHANCE, PLAYER0, TERMINAL, CyclicCFR, CyclicGraph
from analysis.solve.errors import CorruptFileError
from analysis.solve.tree_response import exploitability
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker
from games.errors import InvalidPositionError

DEPTH = 4  # most decisions of either player unrolled past the spot
MAX_NODES = 40_000  # the deepest unrolling within this many positions is solved
ITERATIONS = 400
PUBLIC = -1  # the viewer who sees only what both players see


@dataclasses.dataclass(frozen=True)
class ValueGraph:
    """What a re-solve reads of a blueprint's graph: its edges (in the walker's order of
    moves), the node of the deal, the deal itself (with its event log, stepped under the
    graph's config) and player 0's blueprint value at every node."""

    edge_start: np.ndarray
    edge_child: np.ndarray
    value: np.ndarray
    root: int
    root_core: E.Core


def values_path(deck: str, setup: str):
    return store.cache("coup", "blueprint", f"{deck}-{setup}-values.npz")


def _trained(bp: Blueprint, setup: str) -> int:
    return bp.records[setup].iterations if setup in bp.records else -1


def values_current(bp: Blueprint, setup: str) -> bool:
    """Whether the cached values were computed from ``bp``'s strategy for ``setup``."""
    try:
        with np.load(values_path(bp.deck, setup)) as z:
            return int(z["iterations"]) == _trained(bp, setup)
    except (*READ_ERRORS, KeyError):
        return False


def compute_values(bp: Blueprint, setup: str, dg=None, progress: bool = False) -> np.ndarray:
    """Player 0's value at every node of ``setup``'s graph when both play the blueprint
    (minutes on the whole game's graph), saved in the cache for re-solving."""
    dg = deck_graph(bp.deck, part_of(setup), progress) if dg is None else dg
    strategies = tuple(np.asarray(s, float) for s in bp.strategy[setup])
    value = CyclicCFR(dg.graph, dg.root_vector(setup)).evaluate(strategies)
    atomic_savez(values_path(bp.deck, setup), value=value.astype(np.float32),
                 iterations=np.int64(_trained(bp, setup)))
    stored_value_graph.cache_clear()
    return value


def value_graph_for(bp: Blueprint, setup: str) -> ValueGraph | None:
    """The re-solve's view of ``bp``'s graph for ``setup``, or ``None`` when its values are
    not computed from this strategy yet (``farol coup blueprint build`` computes them)."""
    if not values_current(bp, setup):
        return None
    return stored_value_graph(bp.deck, setup)


@functools.lru_cache(maxsize=2)
def stored_value_graph(deck: str, setup: str) -> ValueGraph | None:
    """The cached values and graph edges of ``deck``'s ``setup``, read once per process."""
    path, gpath = values_path(deck, setup), graph_path(deck, part_of(setup))
    if not (path.exists() and gpath.exists()):
        return None
    try:
        with np.load(path) as z:
            value = z["value"].astype(float)
        with np.load(gpath) as z:
            start, child = z["edge_start"], z["edge_child"]
            roots = dict(zip(json.loads(z["root_names"].tobytes()), z["roots"].tolist(),
                             strict=True))
    except (*READ_ERRORS, KeyError) as exc:
        raise CorruptFileError(f"{store.shown(path)}: not readable values ({exc})") from None
    if value.shape[0] + 1 != start.shape[0]:
        raise CorruptFileError(f"{store.shown(path)}: values of another graph")
    _, cores = history_roots({setup: deck_games(deck, part_of(setup))[setup]})
    return ValueGraph(start, child, value, roots[setup], cores[setup])

class _Stepper:
    """Moves on the graph: each move of a world with its child node and probability
    (chance's odds, the blueprint's mix; every move equally likely with ``uniform``
    or where the blueprint has no strategy)."""

    def __init__(self, vg: ValueGraph, bp: Blueprint, setup: str, uniform: bool = False):
        self.vg, self.bp, self.setup, self.uniform = vg, bp, setup, uniform
        self.walker = DecisiveCoupWalker(vg.root_core.cfg, history=True)

    def legal(self, core: E.Core) -> list[int]:
        return self.walker.legal_actions(core)

    def moves(self, core: E.Core, node: int) -> list[tuple[int, int, float]]:
        lo = int(self.vg.edge_start[node])
        if core.cur == E.CHANCE:
            outcomes = core.chance_outcomes()
        else:
            legal = self.legal(core)
            mix = None
            if len(legal) == 1:
                mix = [1.0]
            elif not self.uniform:
                mix = self.bp.mix(core, core.cur, self.setup)
            if mix is None:
                mix = np.full(len(legal), 1.0 / len(legal))
            outcomes = list(zip(legal, np.asarray(mix, float).tolist(), strict=True))
        return [(a, int(self.vg.edge_child[lo + j]), p) for j, (a, p) in enumerate(outcomes)]


def public_worlds(vg: ValueGraph, bp: Blueprint, setup: str, actions: list[int],
                  uniform: bool = False) -> tuple[E.Core, int, dict[int, tuple[E.Core, float]]]:
    """The true position after ``actions`` from the deal, its node, and every world the
    public history allows (node -> position, probability)."""
    step = _Stepper(vg, bp, setup, uniform)
    truth, node = vg.root_core, vg.root
    worlds = {node: (truth, 1.0)}
    for action in actions:
        moves = step.moves(truth, node)
        found = [c for a, c, _ in moves if a == action]
        if not found:
            raise InvalidPositionError(
                "the blueprint's graph never reaches this spot (a winning Coup declined)")
        child = step.walker.child(truth, action)
        seen = step.walker.new_observations(truth, child, PUBLIC)
        grown: dict[int, list] = {}
        for n, (core, weight) in worlds.items():
            for a, c, p in step.moves(core, n):
                if p <= 0.0:
                    continue
                nxt = step.walker.child(core, a)
                if step.walker.new_observations(core, nxt, PUBLIC) != seen:
                    continue
                if c in grown:
                    grown[c][1] += weight * p
                else:
                    grown[c] = [nxt, weight * p]
        truth, node = child, found[0]
        total = sum(w for _, w in grown.values())
        if total <= 0.0:
            return truth, node, {}
        worlds = {n: (c, w / total) for n, (c, w) in grown.items()}
    return truth, node, worlds


class TooLarge(Exception):
    """The unrolled game passed its node budget."""


@dataclasses.dataclass
class Subgame:
    """The next ``depth`` decisions from the public worlds, as a tree for the solver.
    ``infosets[(player, key)]`` is ``(set number, first slot, moves)``."""

    graph: CyclicGraph
    depth: int
    world_nodes: dict[int, int]  # blueprint node -> the tree's node of that world
    infosets: dict
    leaves: int
    blueprint: tuple[np.ndarray, np.ndarray]  # the blueprint's mix at each slot


def unroll(vg: ValueGraph, bp: Blueprint, setup: str, worlds: dict, depth: int,
           max_nodes: int = MAX_NODES) -> Subgame:
    """The tree of the next ``depth`` decisions with more than one move (forced moves
    and chance are free) from ``worlds``, each position past them a leaf worth its
    blueprint value (:class:`TooLarge` past ``max_nodes``)."""
    step = _Stepper(vg, bp, setup)
    kind, payoff, start, child, prob, slot = [CHANCE], [0.0], [], [], [], []
    keys = ([], [])  # each player's slots' information set numbers
    mixes = ([], [])  # the blueprint's probability of each slot
    infosets: dict = {}
    total = sum(w for _, w in worlds.values())
    pending = []  # (tree node, position, graph node, what each player has seen, left)
    world_nodes = {}
    for n, (core, w) in worlds.items():
        world_nodes[n] = len(kind)
        pending.append((len(kind), core, n, tuple((markov_key(core, p),) for p in (0, 1)),
                        depth))
        kind.append(-1)
        payoff.append(0.0)
        child.append(world_nodes[n])
        prob.append(w / total)
        slot.append(-1)
    start.append(0)
    edges_of = {0: (0, len(worlds))}
    leaves = 0
    head = 0
    while head < len(pending):
        node, core, n, seen, left = pending[head]
        head += 1
        if core.over:
            kind[node] = TERMINAL
            payoff[node] = 1.0 if core.winner == 0 else -1.0 if core.winner == 1 else 0.0
            continue
        moves = step.moves(core, n)
        if core.cur != E.CHANCE and len(moves) > 1:
            if left == 0:
                kind[node] = TERMINAL
                payoff[node] = float(vg.value[n])
                leaves += 1
                continue
            left -= 1
        first = len(child)
        if core.cur == E.CHANCE:
            kind[node] = CHANCE
        else:
            p = core.cur
            kind[node] = PLAYER0 + p
            key = (p, seen[p])
            if key not in infosets:
                infosets[key] = (len(infosets), len(keys[p]), len(moves))
                keys[p].extend([infosets[key][0]] * len(moves))
                mixes[p].extend(pr for _, _, pr in moves)
            _, first_slot, width = infosets[key]
            if width != len(moves):
                raise InvalidPositionError("the unrolled game lost perfect recall")
        for j, (a, c, pr) in enumerate(moves):
            nxt = step.walker.child(core, a)
            more = tuple(seen[q] + (step.walker.new_observations(core, nxt, q),)
                         for q in (0, 1))
            child.append(len(kind))
            prob.append(pr if core.cur == E.CHANCE else 0.0)
            slot.append(-1 if core.cur == E.CHANCE else first_slot + j)
            pending.append((len(kind), nxt, c, more, left))
            kind.append(-1)
            payoff.append(0.0)
        edges_of[node] = (first, len(child) - first)
        if len(kind) > max_nodes:
            raise TooLarge(len(kind))
    num = len(kind)
    counts = np.zeros(num, np.int64)
    for node, (_, count) in edges_of.items():
        counts[node] = count
    # Edges were appended in the order nodes were expanded, which is the nodes' order.
    edge_start = np.concatenate([[0], np.cumsum(counts)])
    graph = CyclicGraph(np.array(kind, np.int8), np.array(payoff), edge_start,
                        np.array(child, np.int64), np.array(prob), np.array(slot, np.int64),
                        tuple(np.array(k, np.int64) for k in keys))
    return Subgame(graph, depth, world_nodes, infosets, leaves,
                   tuple(np.array(m, float) for m in mixes))


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A re-solved spot: the player's mix over ``actions`` (the legal moves) and each
    move's value (P(win) - P(lose) for the player, the opponent playing the re-solved
    strategy, the blueprint past the unrolled decisions); ``exploitability``: what a
    best response gains against the re-solved strategies inside the small game, in
    win probability (exact)."""

    player: int
    actions: tuple[int, ...]
    mix: tuple[float, ...]
    values: tuple[float, ...]
    depth: int
    nodes: int
    worlds: int
    iterations: int
    exploitability: float


def resolve_spot(vg: ValueGraph, bp: Blueprint, setup: str, actions: list[int],
                 depth: int = DEPTH, max_nodes: int = MAX_NODES,
                 iterations: int = ITERATIONS) -> Resolved:
    """Re-solve the spot after ``actions`` from the deal: the deepest unrolling up to
    ``depth`` decisions that fits ``max_nodes``, solved by ``iterations`` of CFR+."""
    truth, _, worlds = public_worlds(vg, bp, setup, actions)
    if not worlds:  # a move the blueprint never plays: weigh every move alike
        truth, _, worlds = public_worlds(vg, bp, setup, actions, uniform=True)
    if truth.over or truth.cur == E.CHANCE:
        raise InvalidPositionError("no player to move here")
    player = truth.cur
    sub = None
    for d in range(1, depth + 1):
        try:
            sub = unroll(vg, bp, setup, worlds, d, max_nodes)
        except TooLarge:
            break
    if sub is None:
        raise InvalidPositionError(
            f"this spot's next decision alone unrolls past {max_nodes} positions")
    root = np.zeros(sub.graph.num_nodes)
    root[0] = 1.0
    solver = CyclicCFR(sub.graph, root)
    solver.run(iterations)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    value = solver.evaluate(strategies)
    mine = markov_key(truth, player)
    _, first, width = sub.infosets[(player, (mine,))]
    sign = 1.0 if player == 0 else -1.0
    q, total = np.zeros(width), 0.0
    start, child = sub.graph.edge_start, sub.graph.edge_child
    for n, tree_node in sub.world_nodes.items():
        core, weight = worlds[n]
        if markov_key(core, player) != mine:
            continue
        lo = int(start[tree_node])
        q += weight * sign * value[child[lo:lo + width]]
        total += weight
    legal = DecisiveCoupWalker(truth.cfg).legal_actions(truth)
    return Resolved(player, tuple(legal),
                    tuple(float(x) for x in strategies[player][first:first + width]),
                    tuple(float(x) for x in q / total), sub.depth, sub.graph.num_nodes,
                    len(worlds), iterations,
                    exploitability(sub.graph, 0, strategies) / 2)
