"""Depth-limited re-solving of a 2-player Coup spot over the public beliefs.

At a spot, the public posterior (:class:`~analysis.coup.solvers.beliefs.PublicBelief`)
gives every deal the public history allows, with its chance: both players' ranges at
once. From those deals the game is unrolled to the end of the current turn (or a given
number of decisions); each position past that is worth its cards and coins
(:func:`~analysis.coup.solvers.strength.score`, as a difference of the two players' shares).
Each player knows, in that small game, the hand they hold at the spot and everything
they see from there on. CFR+ solves it, and the player to move reads its mixed strategy
at its own hand. This is depth-limited re-solving in its unsafe form (the ranges come
from models of both players, not from a blueprint's gadget), with leaf values from a
heuristic rather than a trained value model. Its accuracy inside the small game is
exact: what a best response gains there.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence

import numpy as np

from analysis.coup.solvers.beliefs import new_visible
from analysis.coup.solvers.strength import strength
from analysis.solve.cyclic import CHANCE, PLAYER0, TERMINAL, CyclicCFR, CyclicGraph
from analysis.solve.tree_response import exploitability
from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key, returns
from games.errors import InvalidPositionError

TURNS = 1  # turns unrolled: the current one, to the next turn's first decision
HORIZON = 8  # at most this many decisions with a choice, of either player
ITERATIONS = 200

# Steps that only move cards between a hand and the court: the rest of a turn made of
# them leaves every player's count of cards and coins as it is, so the heuristic's value.
QUIET = frozenset((E.S_REDRAW, E.S_XDRAW, E.S_XDRAW2, E.S_KEEP, E.S_IRETURN, E.S_SHOW,
                   E.S_IDECIDE, E.S_IREDRAW))
# An exchange's draw and the cards kept (what :func:`exchange_played` plays out at a leaf).
EXCHANGE = frozenset((E.S_XDRAW, E.S_XDRAW2, E.S_KEEP))

Leaf = Callable[[E.Core], float]


def heuristic(core: E.Core) -> float:
    """Player 0's value of an unfinished position: its share of the table's strength
    minus player 1's (cards and coins)."""
    return _strength_gap(tuple(len(h) for h in core.hands), core.coins, core.cfg.numbers)


@functools.lru_cache(maxsize=4096)
def _strength_gap(cards: tuple[int, ...], coins: tuple[int, ...], numbers: C.Numbers) -> float:
    # The heuristic reads only the cards' count and the coins of each player.
    total = sum(strength(n, k, numbers) for n, k in zip(cards, coins, strict=True) if n)
    share = [strength(n, k, numbers) / total if n else 0.0
             for n, k in zip(cards, coins, strict=True)]
    return share[0] - share[1]


def exchange_played(leaf: Leaf, size: int = 200_000) -> Leaf:
    """``leaf`` for values that read the hands (the blueprint's table): a position cut
    while an exchange is still to draw or keep is worth the draw's chances with the
    exchanger keeping the cards ``leaf`` values most for it (else an exchange would be
    worth the cards it started with). Positions are kept by their cards, coins and
    steps left, ``size`` at most."""
    memo: dict = {}

    def value(core: E.Core) -> float:
        if core.over or not core.queue or core.queue[0][0] not in EXCHANGE:
            return leaf(core)
        key = (core.hands, core.court, core.drawn, core.coins, core.actor, core.queue,
               core.revealed)
        known = memo.get(key)
        if known is not None:
            return known
        if core.cur == E.CHANCE:
            v = 0.0
            for action, prob in core.chance_outcomes():
                child = core.copy()
                child.apply(action)
                v += prob * value(child)
        else:
            sign = 1.0 if core.cur == 0 else -1.0
            best = -math.inf
            for action in core.legal_actions():
                child = core.copy()
                child.apply(action)
                best = max(best, sign * value(child))
            v = sign * best
        if len(memo) >= size:
            memo.clear()
        memo[key] = v
        return v
    return value


@dataclasses.dataclass(frozen=True)
class Subgame:
    """The unrolled spot as the solver's graph; ``infosets[(player, seen)]`` is
    ``(set number, first slot, width)``, ``seen`` starting with what the player knows
    at the spot (:func:`~games.coup.view.infoset_key`: its cards and the public
    position), then the events it sees."""

    graph: CyclicGraph
    infosets: dict
    moves: dict  # the legal moves of each information set, in slot order
    worlds: int
    roots: tuple[int, ...]  # each world's node


# What a player's information at a leaf ends with when it chooses how play goes on.
AT_LEAF = ("leaf",)
# The opponent's choice at the root of a safe re-solve: its alternative, or entering.
AT_GADGET = ("gadget",)
TAKE, ENTER = 0, 1


def unroll(worlds: Sequence[tuple[float, E.Core]], turns: int | None = TURNS,
           horizon: int | None = HORIZON, leaf: Leaf = heuristic,
           quiet: frozenset = QUIET, continuations: Sequence[Leaf] | None = None,
           gadget: dict | None = None) -> Subgame:
    """The game from ``worlds`` (whole positions at one public point, with their chances)
    to ``turns`` turns on and at most ``horizon`` decisions with a choice (``None``: no
    limit), each position past them a leaf worth ``leaf``. The last turn ends early
    where only ``quiet`` steps are left (steps the leaf values do not tell apart), except
    at the spot itself: its decision is always played.

    With ``continuations`` (multi-valued leaves: Brown, Sandholm & Amos 2018), each leaf
    is instead a choice of the player not moving at the spot, among the continuations'
    values (each player 0's value of the position when play goes on that way), made on
    what that player sees there: its information set at the leaf. So the re-solved
    strategy must do well whichever way the opponent plays on, not only against one.

    With ``gadget`` (the Resolve gadget of safe re-solving: Burch, Johanson & Bowling
    2014; Brown & Sandholm 2017), the player not moving at the spot first chooses, on its
    hand there (its :func:`~games.coup.view.infoset_key`), between its alternative value
    ``gadget[key]`` (player 0's payoff, what that hand is worth to it under the strategy
    being refined) and entering the spot. The re-solved strategy is then pushed to
    hold every hand of the opponent to its alternative, not only the hands a model of
    the opponent makes likely: the re-solve is no worse against a best response than
    the strategy whose values it was given."""
    chooser = 1 - worlds[0][1].cur
    kind, payoff = [CHANCE], [0.0]
    out: dict[int, list] = {}
    infosets: dict = {}
    moves_at: dict = {}
    keys: tuple[list, list] = ([], [])
    first_turn = worlds[0][1].turn
    total = sum(w for w, _ in worlds)
    stack, edges = [], []
    entered = []
    for w, core in worlds:
        kind.append(-1)
        payoff.append(0.0)
        edges.append((len(kind) - 1, w / total, -1))
        node = len(kind) - 1
        if gadget is not None:
            own = infoset_key(core, chooser)
            key = (chooser, (own, AT_GADGET))
            if key not in infosets:
                infosets[key] = (len(infosets), len(keys[chooser]), 2)
                moves_at[key] = (TAKE, ENTER)
                keys[chooser].extend([infosets[key][0]] * 2)
            first = infosets[key][1]
            kind[node] = PLAYER0 + chooser
            kind.extend((TERMINAL, -1))
            payoff.extend((float(gadget[own]), 0.0))
            out[node] = [(node + 1, 0.0, first + TAKE), (node + 2, 0.0, first + ENTER)]
            node += 2
        entered.append(node)
        stack.append((node, core, tuple((infoset_key(core, p),) for p in (0, 1)), 0))
    out[0] = edges
    roots = len(kind)  # nodes below this are the spot's own worlds

    def stop(node: int, core: E.Core, seen: tuple) -> None:
        # A leaf: one value, or the chooser's pick among the continuations' values.
        if continuations is None:
            kind[node], payoff[node] = TERMINAL, leaf(core)
            return
        key = (chooser, seen[chooser] + (AT_LEAF,))
        width = len(continuations)
        if key not in infosets:
            infosets[key] = (len(infosets), len(keys[chooser]), width)
            moves_at[key] = tuple(range(width))
            keys[chooser].extend([infosets[key][0]] * width)
        _, first, _ = infosets[key]
        kind[node] = PLAYER0 + chooser
        edges = []
        for j, value in enumerate(continuations):
            kind.append(TERMINAL)
            payoff.append(value(core))
            edges.append((len(kind) - 1, 0.0, first + j))
        out[node] = edges

    while stack:
        node, core, seen, made = stack.pop()
        if core.over:
            kind[node], payoff[node] = TERMINAL, returns(core)[0]
            continue
        if (turns is not None and node >= roots and core.turn - first_turn == turns - 1
                and core.turn + 1 < core.cfg.turn_cap
                and all(step[0] in quiet for step in core.queue)):
            stop(node, core, seen)  # the turn ends as it stands
            continue
        if core.cur == E.CHANCE:
            moves, slots = core.chance_outcomes(), None
            kind[node] = CHANCE
        else:
            legal = core.legal_actions()
            if len(legal) == 1:
                moves, slots = [(legal[0], 1.0)], None
                kind[node] = CHANCE
            elif ((turns is not None and core.turn - first_turn >= turns)
                  or (horizon is not None and made >= horizon)):
                stop(node, core, seen)
                continue
            else:
                p = core.cur
                key = (p, seen[p])
                if key not in infosets:
                    infosets[key] = (len(infosets), len(keys[p]), len(legal))
                    moves_at[key] = tuple(legal)
                    keys[p].extend([infosets[key][0]] * len(legal))
                _, first, width = infosets[key]
                if width != len(legal):
                    raise InvalidPositionError("the unrolled spot lost perfect recall")
                moves, slots = [(a, 0.0) for a in legal], range(first, first + width)
                kind[node] = PLAYER0 + p
                made += 1
        edges = []
        for j, (action, prob) in enumerate(moves):
            child = core.copy()
            child.apply(action)
            now = tuple(seen[p] + tuple(new_visible(core.log, child.log, 1 << p))
                        for p in (0, 1))
            kind.append(-1)
            payoff.append(0.0)
            edges.append((len(kind) - 1, prob, -1 if slots is None else slots[j]))
            stack.append((len(kind) - 1, child, now, made))
        out[node] = edges
    counts = [len(out.get(i, ())) for i in range(len(kind))]
    flat = [e for i in range(len(kind)) for e in out.get(i, ())]
    child, prob, slot = zip(*flat, strict=True)
    graph = CyclicGraph(np.array(kind, np.int8), np.array(payoff, float),
                        np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                        np.array(child, np.int64), np.array(prob, float),
                        np.array(slot, np.int64), tuple(np.array(k, np.int64) for k in keys))
    return Subgame(graph, infosets, moves_at, len(worlds), tuple(entered))


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A re-solved spot: the mover's mixed strategy for every hand of its range
    (``mixes[key]``: move -> probability, ``key`` its
    :func:`~games.coup.view.infoset_key` there; ``actions``: the legal moves of the
    first world) and each move's value to it there (the opponent playing the re-solved
    strategy), the game value for player 0 inside
    the small game, and ``exploitability``: what a best response gains there against
    the re-solved strategies, averaged over the two seats (exact, in the small game's
    payoff: +1 a win, leaves valued by the heuristic)."""

    player: int
    actions: tuple[int, ...]
    mixes: dict
    move_values: dict  # key -> move -> the mover's value of the move (same payoff)
    value: float
    nodes: int
    worlds: int
    iterations: int
    exploitability: float


def resolve(worlds: Sequence[tuple[float, E.Core]], turns: int | None = TURNS,
            horizon: int | None = HORIZON, iterations: int = ITERATIONS,
            leaf: Leaf = heuristic, measure: bool = False,
            quiet: frozenset = QUIET, continuations: Sequence[Leaf] | None = None,
            gadget: dict | None = None) -> Resolved:
    """Re-solve the spot every world of ``worlds`` is at (the same public position, a
    player to move with a choice) by ``iterations`` of CFR+ on :func:`unroll`'s game
    (``continuations``: multi-valued leaves; ``gadget``: the opponent's alternatives of
    a safe re-solve; both as :func:`unroll` says).
    ``measure``: also compute the small game's exploitability (else NaN)."""
    core = worlds[0][1]
    if core.over or core.cur == E.CHANCE:
        raise InvalidPositionError("no player to move here")
    player, actions = core.cur, tuple(core.legal_actions())
    sub = unroll(worlds, turns, horizon, leaf, quiet, continuations, gadget)
    root = np.zeros(sub.graph.num_nodes)
    root[0] = 1.0
    solver = CyclicCFR(sub.graph, root)
    solver.run(iterations)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    mixes = {}
    for (p, seen), (_, first, width) in sub.infosets.items():
        if p == player and len(seen) == 1:
            mixes[seen[0]] = dict(zip(sub.moves[(p, seen)],
                                      strategies[p][first:first + width].tolist(), strict=True))
    values = solver.evaluate(strategies)
    gap = exploitability(sub.graph, 0, strategies) if measure else float("nan")
    return Resolved(player, actions, mixes, move_values(sub, worlds, player, values),
                    float(values[0]), sub.graph.num_nodes, sub.worlds,
                    iterations, gap)


def move_values(sub: Subgame, worlds, player: int, values: np.ndarray) -> dict:
    """The mover's value of each move at each of its keys: over the worlds of that key,
    weighted by their chances, the value of the position the move leads to."""
    sign = 1.0 if player == 0 else -1.0
    start, child = sub.graph.edge_start, sub.graph.edge_child
    sums: dict = {}
    for (w, core), node in zip(worlds, sub.roots, strict=True):
        key = infoset_key(core, player)
        if (player, (key,)) not in sub.infosets:
            continue  # a forced move there
        lo = int(start[node])
        row = sums.setdefault(key, [0.0, {}])
        row[0] += w
        for j, action in enumerate(sub.moves[(player, (key,))]):
            row[1][action] = row[1].get(action, 0.0) + w * sign * float(values[child[lo + j]])
    return {key: {a: v / total for a, v in row.items()} for key, (total, row) in sums.items()
            if total > 0.0}
