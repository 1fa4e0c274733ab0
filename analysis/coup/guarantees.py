"""Markov guarantees: what a player can secure from a bare position, used at the turn cap.

``W_p(s)`` is the probability that player ``p``'s Markov policy (a mix that depends only
on what ``p`` sees now) still wins from position ``s`` against an opponent who sees both
cards and the policy: a one-player minimisation on the position graph, by value
iteration from 0, so every iterate is a guarantee. The policies come from damped policy
improvement. Why the brackets priced with them stay rigorous: ``docs/coup_analysis.md``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import time
from array import array
from collections import deque
from functools import lru_cache

import numpy as np
from numba import njit

from analysis.coup.model import Endgame
from analysis.shared.progress import bar as progress_bar
from games.coup import engine as E
from games.coup import rules as R
from games.coup import view as V
from games.coup.walker import DecisiveCoupWalker

ROUNDS = 12
STEP = 0.5
TOLERANCE = 1e-12
MAX_SWEEPS = 100_000
# Cap terminals carry the index of their bound as utility CODE_BASE + i (real payoffs
# lie in [-1, 1]) so that one compile serves the lower and the upper solve.
CODE_BASE = 2.0
_CHANCE, _PLAYER0 = 1, 2  # node kinds (0: terminal)


def position_key(s: E.Core) -> tuple:
    """``s`` without its turn count or history: the key of the position graph."""
    return V.state_key(s)[1:]


def markov_key(s: E.Core, player: int) -> tuple:
    """What ``player`` sees at ``s`` without the turn count (a Markov policy's input)."""
    key = V.infoset_key(s, player)
    return key[:2] + key[3:]


def continuation(s: E.Core) -> E.Core:
    """The position a cap terminal ``s`` stops: the start of the next player's turn.

    Raises
    ------
    ValueError
        If ``s`` is not a game stopped by the turn cap.
    """
    if not (s.over and s.winner == -1):
        raise ValueError("not a position stopped by the turn cap")
    c = s.copy()
    c.over, c.winner, c.turn = False, -1, 0
    c.actor = R.next_living(c.actor, c.living)
    c.kind, c.target, c.drawn = -1, -1, ()
    c.queue = ((E.S_ACTION,),)
    c.cur = c.actor
    return c


@dataclasses.dataclass(frozen=True)
class PositionGraph:
    """Every position reachable from some roots, with its moves (CSR arrays).

    ``index`` numbers the positions by :func:`encode_key` of their :func:`position_key`.

    ``kind[i]``: 0 terminal, 1 chance, 2 + p player ``p``; ``winner[i]`` at terminals;
    edges ``edge_start[i]:edge_start[i + 1]`` go to ``edge_child`` with chance
    probability ``edge_prob``; ``slot[p][e]`` numbers edge ``e`` among the actions of
    its node's Markov key for player ``p`` (-1 at other nodes), ``num_slots[p]`` of them
    and ``slot_key[p]`` the key of each slot; ``key_slots[p]`` maps each Markov key of
    ``p`` (:func:`encode_key` of :func:`markov_key`) to its first slot and its number of
    actions (the walker's order).
    """

    index: dict
    kind: np.ndarray
    winner: np.ndarray
    edge_start: np.ndarray
    edge_child: np.ndarray
    edge_prob: np.ndarray
    slot: tuple[np.ndarray, np.ndarray]
    slot_key: tuple[np.ndarray, np.ndarray]
    num_slots: tuple[int, int]
    key_slots: tuple[dict, dict]

    @property
    def num_positions(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.edge_child.shape[0])


def encode_key(key: tuple) -> bytes:
    """A key as compact bytes for the graph's tables (exact: no hashing, no collisions).

    Marshal's version 2 writes no back-references, so equal keys give equal bytes; the
    bytes take a fraction of the nested tuples' memory (the full game has millions).
    """
    return marshal.dumps(key, 2)


def position_id(key: tuple) -> bytes:
    """A 16-byte digest of a position key: one in 10^24 chance that two of 10^8
    positions share one, and a tenth of the key's memory."""
    return hashlib.blake2b(encode_key(key), digest_size=16).digest()


def position_graph(walker: DecisiveCoupWalker, roots: list[E.Core],
                   progress: bool = False, key=markov_key,
                   depth_first: bool = False) -> PositionGraph:
    """The position graph reachable from ``roots`` (turn cap ignored).

    A breadth-first walk that numbers positions as it finds them and keeps only the
    positions not yet expanded, so that memory goes to the tables, not to the
    positions (``progress``: a bar of positions expanded). ``key(s, player)``: what a
    player's policy may depend on (default :func:`markov_key`). ``depth_first``: expand
    the newest position first, which keeps far fewer positions waiting (the whole
    game's breadth-first frontier holds millions), and number positions by a 16-byte
    digest of their key (:func:`position_id`) rather than the key itself.
    """
    index: dict[bytes, int] = {}
    queue: deque[E.Core] = deque()
    ident = position_id if depth_first else encode_key

    def add(s):
        s.turn = 0
        code = ident(position_key(s))
        i = index.get(code)
        if i is None:
            i = index[code] = len(index)
            queue.append((s, i))
        return i

    for root in roots:
        add(root)
    kind, winner, start = array("b"), array("b"), array("q", [0])
    child, prob = array("q"), array("d")
    slots = (array("q"), array("q"))
    key_ids: tuple[dict, dict] = ({}, {})
    bar = None
    if progress:
        bar = progress_bar(desc="position graph", unit=" positions")
    expanded = array("q")
    while queue:  # FIFO: positions leave in the order they were numbered
        s, i = queue.pop() if depth_first else queue.popleft()
        expanded.append(i)
        if bar is not None:
            bar.update(1)
        if s.over:
            kind.append(0)
            winner.append(s.winner)
        elif s.cur == E.CHANCE:
            kind.append(_CHANCE)
            winner.append(-1)
            for a, p in s.chance_outcomes():
                child.append(add(walker.child(s, a)))
                prob.append(p)
                slots[0].append(-1)
                slots[1].append(-1)
        else:
            player = s.cur
            kind.append(_PLAYER0 + player)
            winner.append(-1)
            actions = walker.legal_actions(s)
            ids = key_ids[player]
            code = encode_key(key(s, player))
            if code not in ids:
                ids[code] = (_next_slot(ids), len(actions))
            first, count = ids[code]
            if count != len(actions):
                raise AssertionError("positions with one Markov key differ in legal actions")
            for j, a in enumerate(actions):
                child.append(add(walker.child(s, a)))
                prob.append(0.0)
                slots[player].append(first + j)
                slots[1 - player].append(-1)
        start.append(len(child))
    if bar is not None:
        bar.close()
    num_slots = tuple(_next_slot(ids) for ids in key_ids)
    slot_key = []
    for ids, n in zip(key_ids, num_slots, strict=True):
        owner = np.empty(n, dtype=np.int64)
        for k, (first, count) in enumerate(ids.values()):
            owner[first:first + count] = k
        slot_key.append(owner)
    arrays = [np.array(kind, np.int8), np.array(winner, np.int64), np.array(start, np.int64),
              np.array(child, np.int64), np.array(prob),
              tuple(np.array(s, np.int64) for s in slots)]
    if depth_first:
        arrays = _by_number(np.array(expanded, np.int64), *arrays)
    return PositionGraph(index, *arrays, tuple(slot_key), num_slots, key_ids)


def _by_number(expanded, kind, winner, start, child, prob, slots):
    # The arrays, written in the order positions were expanded, in the order they
    # were numbered (position i's row at i, its moves in the i-th block).
    inverse = np.empty_like(expanded)
    inverse[expanded] = np.arange(expanded.size)
    counts = np.diff(start)[inverse]
    new_start = np.concatenate(([0], np.cumsum(counts)))
    take = np.repeat(start[:-1][inverse] - new_start[:-1], counts) + np.arange(new_start[-1])
    return (kind[inverse], winner[inverse], new_start, child[take], prob[take],
            tuple(s[take] for s in slots))


def _next_slot(ids: dict) -> int:
    # Slots are handed out key by key: the next one follows the last key's actions.
    if not ids:
        return 0
    first, count = next(reversed(ids.values()))
    return first + count


def guarantee(graph: PositionGraph, player: int, policy: np.ndarray,
              max_sweeps: int = MAX_SWEEPS) -> np.ndarray:
    """``W_player`` at every position: ``player`` plays ``policy`` (a probability per
    Markov slot), the other sees everything and minimises ``player``'s chance to win.

    Value iteration from 0 (wins 1 at terminals), in place and deepest positions first
    (Gauss-Seidel): the values only rise and never pass the least fixed point, which is
    the guarantee, so they stay guarantees at every step; it stops when a sweep moves
    no value by :data:`TOLERANCE`, or after ``max_sweeps`` (where an opponent can stall
    in long loops the last digits converge slowly; stopping early only lowers ``W``).
    """
    kind, start = graph.kind, graph.edge_start
    value = (graph.winner == player).astype(float)
    inner = np.flatnonzero(kind != 0)
    if np.any(start[inner + 1] == start[inner]):
        raise AssertionError("a position other than a terminal without moves")
    weight = edge_weights(graph, player, policy)
    minimise = kind == _PLAYER0 + (1 - player)
    # Breadth-first numbering puts the positions nearer the end later: sweep from the back.
    _gauss_seidel(value, inner[::-1].copy(), start, graph.edge_child, weight, minimise,
                  TOLERANCE, max_sweeps)
    return value


def edge_weights(graph: PositionGraph, player: int, policy: np.ndarray) -> np.ndarray:
    """Each edge's probability when ``player`` plays ``policy``: the policy's at the
    player's positions, chance's at chance positions; the other player's edges carry 0
    (:func:`guarantee` minimises over them)."""
    slot = graph.slot[player]
    return np.where(slot >= 0, policy[np.maximum(slot, 0)], graph.edge_prob)


@njit(cache=True)
def _gauss_seidel(value, order, start, child, weight, minimise, tolerance, max_sweeps):
    # One sweep updates every position of ``order`` in place; returns the sweeps run.
    for sweep in range(max_sweeps):
        change = 0.0
        for i in order:
            if minimise[i]:
                v = 1.0
                for e in range(start[i], start[i + 1]):
                    v = min(v, value[child[e]])
            else:
                v = 0.0
                for e in range(start[i], start[i + 1]):
                    v += weight[e] * value[child[e]]
                v = min(v, 1.0)  # no rounding above certainty
            change = max(change, abs(v - value[i]))
            value[i] = v
        if change < tolerance:
            return sweep + 1
    return max_sweeps


def uniform_policy(graph: PositionGraph, player: int) -> np.ndarray:
    """Every action of every key of ``player`` equally likely (improvement starts here)."""
    owner = graph.slot_key[player]
    count = np.bincount(owner)
    return 1.0 / count[owner]


def improve(graph: PositionGraph, player: int, policy: np.ndarray, value: np.ndarray,
            step: float = STEP) -> np.ndarray:
    """``policy`` moved ``step`` of the way to the greedy policy of ``value`` (each key's
    action with the best mean value over the positions sharing it)."""
    slot = graph.slot[player]
    mine = slot >= 0
    n = graph.num_slots[player]
    q = np.bincount(slot[mine], weights=value[graph.edge_child[mine]], minlength=n)
    owner = graph.slot_key[player]
    firsts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    best = np.maximum.reduceat(q, firsts)
    is_best = q >= best[owner] - 1e-15
    # One action per key: the first of the best.
    first_best = np.minimum.reduceat(np.where(is_best, np.arange(n), n), firsts)
    greedy = np.zeros(n)
    greedy[first_best] = 1.0
    return (1 - step) * policy + step * greedy


def markov_policy(graph: PositionGraph, player: int, rounds: int = ROUNDS,
                  step: float = STEP, max_sweeps: int = MAX_SWEEPS
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A Markov policy for ``player`` by damped policy improvement and its guarantee."""
    policy = uniform_policy(graph, player)
    value = guarantee(graph, player, policy, max_sweeps)
    for _ in range(rounds):
        policy = improve(graph, player, policy, value, step)
        value = guarantee(graph, player, policy, max_sweeps)
    return policy, value


@dataclasses.dataclass(frozen=True)
class Guarantees:
    """Both players' Markov guarantees on one deck's position graph."""

    deck: str
    revealed: tuple[str, str]
    rounds: int
    graph: PositionGraph
    win: tuple[np.ndarray, np.ndarray]
    seconds: float
    policy: tuple[np.ndarray, np.ndarray]

    def mix(self, s: E.Core, player: int) -> np.ndarray | None:
        """``player``'s Markov policy at ``s``: a probability for each of the decisive-Coup
        walker's legal actions there, in its order (``None`` off the graph). Playing it
        from any position ``s`` wins with probability at least ``W_player(s)``."""
        found = self.graph.key_slots[player].get(encode_key(markov_key(s, player)))
        if found is None:
            return None
        first, count = found
        return self.policy[player][first:first + count]

    def of(self, s: E.Core) -> tuple[float, float] | None:
        """``(W_0, W_1)`` at position ``s`` (``None`` if it is not in the graph)."""
        return self._at(position_key(s))

    def _at(self, key: tuple) -> tuple[float, float] | None:
        i = self.graph.index.get(encode_key(key))
        return None if i is None else (float(self.win[0][i]), float(self.win[1][i]))

    def cap_bounds(self, s: E.Core) -> tuple[float, float]:
        """Player 0's payoff bounds at cap terminal ``s``: ``2 W_0 - 1`` and ``1 - 2 W_1``
        at the position it stops (the plain -1 and +1 off the graph)."""
        return self.bounds_at(position_key(continuation(s)))

    def bounds_at(self, key: tuple) -> tuple[float, float]:
        """:meth:`cap_bounds` for the cap position with :func:`position_key` ``key``."""
        w = self._at(key)
        return (-1.0, 1.0) if w is None else (2 * w[0] - 1, 1 - 2 * w[1])


def guarantees_from(config, roots: list[E.Core], deck: str, revealed: tuple = (),
                    rounds: int = ROUNDS, progress: bool = False,
                    max_sweeps: int = MAX_SWEEPS) -> Guarantees:
    """Both players' Markov guarantees on the position graph of ``roots`` stepped under
    ``config`` (its turn cap ignored); ``progress``: a bar while the graph is walked;
    ``max_sweeps``: each value iteration's limit (:func:`guarantee`)."""
    tick = time.perf_counter()
    graph = position_graph(DecisiveCoupWalker(config, history=False), roots, progress)
    policy, win = zip(*(markov_policy(graph, p, rounds, max_sweeps=max_sweeps) for p in (0, 1)),
                      strict=True)
    return Guarantees(deck, tuple(revealed), rounds, graph, tuple(win),
                      time.perf_counter() - tick, tuple(policy))


def uncapped_roots(games: list) -> tuple[E.Config, list[E.Core]]:
    """One uncapped config for ``games`` (Coup games differing only in their start) and
    each game's own root (its deal) stepped under it."""
    config = dataclasses.replace(games[0].config, turn_cap=10**9, position=None)
    roots = []
    for game in games:
        root = DecisiveCoupWalker(game.config, history=False).root()
        root.cfg = config
        roots.append(root)
    return config, roots


@lru_cache(maxsize=4)
def guarantees_for(deck: str, revealed: tuple[str, str], rounds: int = ROUNDS) -> Guarantees:
    """The Markov guarantees of every 1v1 endgame of ``deck`` with ``revealed`` lost
    (one graph from all the coin pairs 0-9; cached per process)."""
    games = [Endgame(a, b, deck, revealed).game() for a in range(10) for b in range(10)]
    config, roots = uncapped_roots(games)
    return guarantees_from(config, roots, deck, revealed, rounds)


class CapBoundWalker(DecisiveCoupWalker):
    """The decisive-Coup walker whose cap terminals pay a code naming their bounds.

    A cap terminal ``s`` pays player 0 ``CODE_BASE + i`` (player 1 the opposite) where
    ``bounds[i]`` is ``guarantees.cap_bounds(s)``; :func:`analysis.coup.solvers.brackets.bracket_of`
    swaps the codes for the bounds.
    """

    def __init__(self, config, guarantees: Guarantees, history: bool = True):
        super().__init__(config, history)
        self.guarantees = guarantees
        self.bounds: list[tuple[float, float]] = []
        self._codes: dict[tuple, int] = {}

    def returns(self, s: E.Core) -> tuple[float, ...]:
        if s.over and s.winner == -1:
            key = position_key(continuation(s))
            code = self._codes.get(key)
            if code is None:
                code = self._codes[key] = len(self.bounds)
                self.bounds.append(self.guarantees.bounds_at(key))
            return (CODE_BASE + code, -(CODE_BASE + code))
        return super().returns(s)
