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

import numpy as np

from analysis.coup.guarantees import markov_key
from analysis.coup.solvers.blueprint import (
    Blueprint,
    deck_games,
    deck_graph,
    history_roots,
    part_of,
)
from analysis.shared import store
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve.cyclic import CHANCE, PLAYER0, TERMINAL, CyclicCFR, CyclicGraph
from analysis.solve.mapped import atomic_savez, load_npz_mapped
from analysis.solve.tree_response import exploitability
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker
from games.errors import InvalidPositionError

DEPTH = 4  # most decisions of either player unrolled past the spot
MAX_NODES = 40_000  # the deepest unrolling within this many positions is solved
ITERATIONS = 400
PUBLIC = -1  # the viewer who sees only what both players see
VALUES_FORMAT = 2  # the values file holds the graph's edges too


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
        z = load_npz_mapped(values_path(bp.deck, setup))
        return int(z["format"]) == VALUES_FORMAT and int(z["iterations"]) == _trained(bp, setup)
    except (*READ_ERRORS, KeyError):
        return False


def compute_values(bp: Blueprint, setup: str, dg=None, progress: bool = False,
                   value: np.ndarray | None = None) -> np.ndarray:
    """Player 0's value at every node of ``setup``'s graph when both play the blueprint
    (minutes on the whole game's graph; ``value``: already computed from this strategy,
    as training does), saved in the cache for re-solving with the graph's edges
    (32-bit: a re-solve reads them in seconds, not the whole graph)."""
    dg = deck_graph(bp.deck, part_of(setup), progress) if dg is None else dg
    if value is None:
        strategies = tuple(np.asarray(s, float) for s in bp.strategy[setup])
        value = CyclicCFR(dg.graph, dg.root_vector(setup)).evaluate(
            strategies, progress, desc=f"blueprint {bp.deck} {setup}: values")
    if value.shape != (dg.graph.num_nodes,):
        raise ValueError(f"values of {value.shape[0]} positions for a graph of "
                         f"{dg.graph.num_nodes}")
    atomic_savez(values_path(bp.deck, setup), format=np.int64(VALUES_FORMAT),
                 value=value.astype(np.float32), iterations=np.int64(_trained(bp, setup)),
                 edge_start=dg.graph.edge_start.astype(np.int32),
                 edge_child=dg.graph.edge_child.astype(np.int32),
                 root=np.int64(dg.roots[setup]))
    stored_value_graph.cache_clear()
    return value


def blueprint_values(bp: Blueprint, setup: str, dg=None, progress: bool = False) -> np.ndarray:
    """Player 0's blueprint value at every node of ``setup``'s graph: the stored values
    when computed from this strategy, else computed now and stored."""
    if values_current(bp, setup):
        with np.load(values_path(bp.deck, setup)) as z:
            return z["value"].astype(float)
    return compute_values(bp, setup, dg, progress)


def value_graph_for(bp: Blueprint, setup: str) -> ValueGraph | None:
    """The re-solve's view of ``bp``'s graph for ``setup``, or ``None`` when its values are
    not computed from this strategy yet (``farol coup blueprint build`` computes them)."""
    if not values_current(bp, setup):
        return None
    return stored_value_graph(bp.deck, setup)


@functools.lru_cache(maxsize=2)
def stored_value_graph(deck: str, setup: str) -> ValueGraph | None:
    """The cached values and graph edges of ``deck``'s ``setup``, read once per process."""
    path = values_path(deck, setup)
    if not path.exists():
        return None
    try:  # mapped: a re-solve reads a few thousand of the graph's millions of nodes
        z = load_npz_mapped(path)
        value, start, child, root = z["value"], z["edge_start"], z["edge_child"], int(z["root"])
    except (*READ_ERRORS, KeyError) as exc:
        raise CorruptFileError(f"{store.shown(path)}: not readable values ({exc})") from None
    if value.shape[0] + 1 != start.shape[0] or start[-1] != child.shape[0]:
        raise CorruptFileError(f"{store.shown(path)}: values of another graph")
    _, cores = history_roots({setup: deck_games(deck, part_of(setup))[setup]})
    return ValueGraph(start, child, value, root, cores[setup])


class _Stepper:
    """Moves on the graph: each move of a world with its child node and probability
    (chance's odds, the blueprint's mix; every move equally likely with ``uniform``
    or where the blueprint has no strategy)."""

    def __init__(self, vg: ValueGraph, bp: Blueprint, setup: str, uniform: bool = False):
        self.vg, self.bp, self.setup, self.uniform = vg, bp, setup, uniform
        self.walker = DecisiveCoupWalker(vg.root_core.cfg, history=True)

    def legal(self, core: E.Core) -> list[int]:
        return self.walker.legal_actions(core)

    def moves(self, core: E.Core, node: int, mix=None) -> list[tuple[int, int, float]]:
        """``(action, child node, probability)`` of each move (``mix``: the mover's
        probabilities when already known)."""
        lo = int(self.vg.edge_start[node])
        if core.cur == E.CHANCE:
            outcomes = core.chance_outcomes()
        else:
            legal = self.legal(core)
            if mix is None and len(legal) == 1:
                mix = [1.0]
            elif mix is None and not self.uniform:
                mix = self.bp.mix(core, core.cur, self.setup)
            if mix is None:
                mix = np.full(len(legal), 1.0 / len(legal))
            outcomes = list(zip(legal, np.asarray(mix, float).tolist(), strict=True))
        return [(a, int(self.vg.edge_child[lo + j]), p) for j, (a, p) in enumerate(outcomes)]


def advance_worlds(worlds: dict, moves, walker: DecisiveCoupWalker, viewer: int, seen: tuple,
                   actor: int | None = None, action: int | None = None) -> dict:
    """The worlds (node -> position, weight) after a move ``viewer`` saw as ``seen``:
    each world's moves (``moves(core, node)`` gives action, child node, probability)
    where the viewer would have seen the same, and only ``action`` when given (the
    viewer's own move); only worlds where ``actor`` moves when given. Reweighted to sum
    to 1; empty when no world is left."""
    out: dict[int, tuple[E.Core, float]] = {}
    for node, (core, weight) in worlds.items():
        if core.over or (actor is not None and core.cur != actor):
            continue
        for a, c, p in moves(core, node):
            if p <= 0.0 or (action is not None and a != action):
                continue
            child = walker.child(core, a)
            if walker.new_observations(core, child, viewer) != seen:
                continue
            old = out.get(c)
            out[c] = (child, weight * p + (old[1] if old else 0.0))
    total = sum(w for _, w in out.values())
    return {n: (c, w / total) for n, (c, w) in out.items()} if total > 0.0 else {}


def public_worlds(vg: ValueGraph, bp: Blueprint, setup: str, actions: list[int],
                  uniform: bool = False) -> tuple[E.Core, int, dict[int, tuple[E.Core, float]]]:
    """The true position after ``actions`` from the deal, its node, and every world the
    public history allows (node -> position, probability)."""
    step = _Stepper(vg, bp, setup, uniform)
    truth, node = vg.root_core, vg.root
    worlds = {node: (truth, 1.0)}
    for action in actions:
        found = [c for a, c, _ in step.moves(truth, node) if a == action]
        if not found:
            raise InvalidPositionError(
                "the blueprint's graph never reaches this spot (a winning Coup declined)")
        child = step.walker.child(truth, action)
        seen = step.walker.new_observations(truth, child, PUBLIC)
        worlds = advance_worlds(worlds, step.moves, step.walker, PUBLIC, seen)
        truth, node = child, found[0]
        if not worlds:
            return truth, node, {}
    return truth, node, worlds


class TooLarge(Exception):
    """Not even the spot's own decision fits the node budget."""


@dataclasses.dataclass
class Subgame:
    """The next ``depth`` decisions from the public worlds, as a tree for the solver.
    ``infosets[(player, key)]`` is ``(set number, first slot, moves)``."""

    graph: CyclicGraph
    depth: int
    world_nodes: dict[int, int]  # blueprint node -> the tree's node of that world
    infosets: dict
    blueprint: tuple[np.ndarray, np.ndarray]  # the blueprint's mix at each slot


class _Tree:
    """The unrolled game, grown one decision deeper at a time (a level that passes the
    node budget is taken back). A position waiting in ``frontier`` is a decision with
    more than one move; chance and forced moves are unrolled as soon as they appear."""

    def __init__(self, step: _Stepper, max_nodes: int):
        self.step, self.max_nodes = step, max_nodes
        self.kind, self.payoff = [CHANCE], [0.0]
        self.out: dict[int, list] = {}  # node -> [(child, chance probability, slot)]
        self.keys: tuple[list, list] = ([], [])  # each slot's information set number
        self.mixes: tuple[list, list] = ([], [])  # the blueprint's mix at each slot
        self.infosets: dict = {}
        self.frontier: list = []  # (tree node, position, graph node, what each has seen)

    def new_node(self) -> int:
        self.kind.append(-1)
        self.payoff.append(0.0)
        if len(self.kind) > self.max_nodes:
            raise TooLarge(len(self.kind))
        return len(self.kind) - 1

    def start(self, worlds: dict) -> dict[int, int]:
        total = sum(w for _, w in worlds.values())
        nodes, edges = {}, []
        for n, (core, w) in worlds.items():
            nodes[n] = self.new_node()
            edges.append((nodes[n], w / total, -1))
            self.settle(nodes[n], core, n, tuple((markov_key(core, p),) for p in (0, 1)))
        self.out[0] = edges
        return nodes

    def settle(self, node: int, core: E.Core, n: int, seen: tuple) -> None:
        """Place a new position: a terminal, a decision to wait in the frontier, or a
        chance or forced move unrolled at once."""
        if core.over:
            self.kind[node] = TERMINAL
            self.payoff[node] = 1.0 if core.winner == 0 else -1.0 if core.winner == 1 else 0.0
        elif core.cur != E.CHANCE and len(self.step.legal(core)) > 1:
            self.frontier.append((node, core, n, seen))
        else:
            self.expand(node, core, n, seen)

    def expand(self, node: int, core: E.Core, n: int, seen: tuple) -> None:
        step = self.step
        if core.cur == E.CHANCE:
            moves = step.moves(core, n)
            self.kind[node], slots = CHANCE, [-1] * len(moves)
        else:
            p = core.cur
            self.kind[node] = PLAYER0 + p
            key = (p, seen[p])
            known = self.infosets.get(key)
            # What a player has seen fixes their cards and the public position, so the
            # blueprint's mix is one per information set: read it once.
            moves = step.moves(core, n, None if known is None else
                               self.mixes[p][known[1]:known[1] + known[2]])
            if key not in self.infosets:
                self.infosets[key] = (len(self.infosets), len(self.keys[p]), len(moves))
                self.keys[p].extend([self.infosets[key][0]] * len(moves))
                self.mixes[p].extend(pr for _, _, pr in moves)
            _, first, width = self.infosets[key]
            if width != len(moves):
                raise InvalidPositionError("the unrolled game lost perfect recall")
            slots = [first + j for j in range(width)]
        edges = []
        for (a, c, pr), s in zip(moves, slots, strict=True):
            nxt = step.walker.child(core, a)
            new = step.walker.observations_of(core, nxt, (0, 1))
            kid = self.new_node()
            edges.append((kid, pr if s < 0 else 0.0, s))
            self.settle(kid, nxt, c, (seen[0] + (new[0],), seen[1] + (new[1],)))
        self.out[node] = edges

    def deepen(self) -> bool:
        """Unroll every waiting decision one step (``False``, with nothing changed, when
        that passes the node budget)."""
        waiting, self.frontier = self.frontier, []
        mark = (len(self.kind), len(self.keys[0]), len(self.keys[1]), len(self.infosets))
        try:
            for item in waiting:
                self.expand(*item)
        except TooLarge:
            nodes, k0, k1, sets = mark
            del self.kind[nodes:], self.payoff[nodes:]
            for keys, mixes, k in ((self.keys[0], self.mixes[0], k0),
                                   (self.keys[1], self.mixes[1], k1)):
                del keys[k:], mixes[k:]
            for key in list(self.infosets)[sets:]:
                del self.infosets[key]
            for node in [x for x in self.out if x >= nodes] + [w[0] for w in waiting]:
                self.out.pop(node, None)
            for node, *_ in waiting:
                self.kind[node] = -1
            self.frontier = waiting
            return False
        return True

    def graph(self, values: np.ndarray) -> CyclicGraph:
        """The tree as the solver's graph, each waiting decision a leaf worth ``values``
        at its graph node."""
        kind, payoff = list(self.kind), list(self.payoff)
        for node, _, n, _ in self.frontier:
            kind[node], payoff[node] = TERMINAL, float(values[n])
        counts = [len(self.out.get(i, ())) for i in range(len(kind))]
        edges = [e for i in range(len(kind)) for e in self.out.get(i, ())]
        child, prob, slot = (zip(*edges, strict=True) if edges else ((), (), ()))
        return CyclicGraph(np.array(kind, np.int8), np.array(payoff),
                           np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                           np.array(child, np.int64), np.array(prob, float),
                           np.array(slot, np.int64),
                           tuple(np.array(k, np.int64) for k in self.keys))


def unroll(vg: ValueGraph, bp: Blueprint, setup: str, worlds: dict, depth: int,
           max_nodes: int = MAX_NODES) -> Subgame:
    """The tree of the next decisions with more than one move (forced moves and chance
    are free) from ``worlds``: as many as fit ``max_nodes``, at most ``depth``; each
    position past them a leaf worth its blueprint value (:class:`TooLarge` when not
    even the first decision fits)."""
    tree = _Tree(_Stepper(vg, bp, setup), max_nodes)
    world_nodes = tree.start(worlds)
    reached = 0
    while reached < depth and tree.frontier and tree.deepen():
        reached += 1
    if reached == 0 and tree.frontier:
        raise TooLarge(max_nodes)
    return Subgame(tree.graph(vg.value), reached, world_nodes, tree.infosets,
                   tuple(np.array(m, float) for m in tree.mixes))


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
    if truth.over or truth.cur == E.CHANCE:
        raise InvalidPositionError("no player to move here")
    player = truth.cur
    mine = markov_key(truth, player)
    if not any(markov_key(core, player) == mine for core, _ in worlds.values()):
        # A move the blueprint never plays (often the player's own): weigh every move alike.
        truth, _, worlds = public_worlds(vg, bp, setup, actions, uniform=True)
    try:
        sub = unroll(vg, bp, setup, worlds, depth, max_nodes)
    except TooLarge:
        raise InvalidPositionError(
            f"this spot's next decision alone unrolls past {max_nodes} positions") from None
    root = np.zeros(sub.graph.num_nodes)
    root[0] = 1.0
    solver = CyclicCFR(sub.graph, root)
    solver.run(iterations)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    value = solver.evaluate(strategies)
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
