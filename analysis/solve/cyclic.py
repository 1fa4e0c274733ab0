"""CFR+ on a state graph with cycles, information sets keyed by what a player sees now.

Games like Coup loop (coins stolen back and forth), so their state graph has cycles and
no turn cap makes them a tree without changing the game. This solver iterates regret
matching+ on such a graph directly. Each player's update refreshes, by Gauss-Seidel
sweeps warm started from the last update (one sweep by default: the strategies change
little between iterations, so the values track them instead of being solved afresh):

- the value of every node under the current strategies (player 0's payoff; a play
  that never ends pays 0);
- two reach vectors: ``Q_p``, the probability of reaching each node when player ``p``
  plays uniformly at random and the other plays the current strategy.

Player ``p``'s regrets are weighted by ``Q_p`` and its average strategy by ``Q_{1-p}``.
In a perfect-recall tree ``p``'s own uniform reach is a constant of each information
set, so this is exactly CFR+ there (regret matching ignores a constant factor); on a
graph it keeps every weight finite, which counting all of ``p``'s own paths would not.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import numpy as np
from numba import njit

from analysis.shared.progress import bar as progress_bar
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve.errors import SolveError
from analysis.solve.mapped import atomic_savez

TERMINAL, CHANCE, PLAYER0 = 0, 1, 2
VALUE_TOLERANCE = 1e-10
REACH_TOLERANCE = 1e-10
MAX_SWEEPS = 20_000
SWEEP_CHUNK = 5  # sweeps between returns to Python (Ctrl-C, the progress bar)


@dataclasses.dataclass(frozen=True)
class CyclicGraph:
    """A two-player zero-sum game as a graph (CSR arrays), cycles allowed.

    ``kind[i]``: 0 terminal, 1 chance, 2 + p player ``p``; ``payoff[i]``: player 0's
    payoff at terminals (player 1 gets the opposite); edges
    ``edge_start[i]:edge_start[i + 1]`` go to ``edge_child`` with chance probability
    ``edge_prob``; ``edge_slot[e]`` numbers a player's edge among the actions of its
    node's information set (-1 at chance); the slots of player ``p`` are
    ``0..num_slots[p]-1``, grouped by information set (``slot_key[p]``: each slot's
    set, non-decreasing). ``order`` lists the nodes roughly from the roots down
    (breadth first), which makes the sweeps converge in few passes.
    """

    kind: np.ndarray
    payoff: np.ndarray
    edge_start: np.ndarray
    edge_child: np.ndarray
    edge_prob: np.ndarray
    edge_slot: np.ndarray
    slot_key: tuple[np.ndarray, np.ndarray]

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.edge_child.shape[0])

    @property
    def num_slots(self) -> tuple[int, int]:
        return tuple(int(k.shape[0]) for k in self.slot_key)

    def check(self) -> None:
        """Raise :class:`SolveError` when the arrays do not describe a game graph."""
        n, m = self.num_nodes, self.num_edges
        start = self.edge_start
        if start.shape != (n + 1,) or start[0] != 0 or start[-1] != m or np.any(np.diff(start) < 0):
            raise SolveError("edge_start is not a CSR index of the edges")
        inner = self.kind != TERMINAL
        if np.any(np.diff(start)[inner] == 0):
            raise SolveError("a node other than a terminal has no moves")
        if m and (self.edge_child.min() < 0 or self.edge_child.max() >= n):
            raise SolveError("an edge leads outside the graph")
        for p in (0, 1):
            mine = np.repeat(self.kind == PLAYER0 + p, np.diff(start))
            slots = self.edge_slot[mine]
            if slots.size and (slots.min() < 0 or slots.max() >= self.num_slots[p]):
                raise SolveError(f"player {p}'s edges carry slots outside 0..{self.num_slots[p] - 1}")
            if np.any(np.diff(self.slot_key[p]) < 0):
                raise SolveError(f"player {p}'s slots are not grouped by information set")


@njit(cache=True)
def _incoming(num_nodes, edge_start, edge_child):
    # Reverse CSR: for node i, the edges into it, and each edge's source node.
    m = edge_child.shape[0]
    source = np.empty(m, np.int64)
    for i in range(num_nodes):
        for e in range(edge_start[i], edge_start[i + 1]):
            source[e] = i
    count = np.zeros(num_nodes + 1, np.int64)
    for e in range(m):
        count[edge_child[e] + 1] += 1
    in_start = np.cumsum(count)
    fill = in_start[:-1].copy()
    in_edge = np.empty(m, np.int64)
    for e in range(m):
        c = edge_child[e]
        in_edge[fill[c]] = e
        fill[c] += 1
    return source, in_start, in_edge


@njit(cache=True)
def _regret_matching(regret, key_first, key_count, sigma):
    for k in range(key_first.shape[0]):
        a, n = key_first[k], key_count[k]
        total = 0.0
        for s in range(a, a + n):
            total += regret[s]
        for s in range(a, a + n):
            sigma[s] = regret[s] / total if total > 0 else 1.0 / n


@njit(cache=True)
def _edge_weights(kind, edge_start, edge_prob, edge_slot, sigma0, sigma1, uniform0, uniform1,
                  w_play, w_q0, w_q1):
    # w_play: both play sigma; w_q0: player 0 uniform, 1 sigma; w_q1: 0 sigma, 1 uniform.
    for i in range(kind.shape[0]):
        k = kind[i]
        for e in range(edge_start[i], edge_start[i + 1]):
            if k == CHANCE:
                w_play[e] = w_q0[e] = w_q1[e] = edge_prob[e]
            elif k == PLAYER0:
                s = edge_slot[e]
                w_play[e] = w_q1[e] = sigma0[s]
                w_q0[e] = uniform0[s]
            elif k == PLAYER0 + 1:
                s = edge_slot[e]
                w_play[e] = w_q0[e] = sigma1[s]
                w_q1[e] = uniform1[s]


@njit(cache=True)
def _values(value, kind, payoff, order, edge_start, edge_child, weight, tolerance, max_sweeps):
    # Gauss-Seidel from the deepest nodes up; returns the sweeps run and the last change.
    change = np.inf
    for sweep in range(max_sweeps):
        change = 0.0
        for j in range(order.shape[0] - 1, -1, -1):
            i = order[j]
            if kind[i] == TERMINAL:
                continue
            v = 0.0
            for e in range(edge_start[i], edge_start[i + 1]):
                v += weight[e] * value[edge_child[e]]
            change = max(change, abs(v - value[i]))
            value[i] = v
        if change < tolerance:
            return sweep + 1, change
    return max_sweeps, change


def _sweep_values(value, g, order, payoff, weight, max_sweeps: int, progress: bool,
                  desc: str) -> int:
    """``_values`` to convergence in chunks of sweeps, so that Ctrl-C stops a pass within
    a few sweeps (a compiled loop only sees it when it returns), with an optional bar of
    the digits of precision gained so far (Gauss-Seidel converges geometrically, so its
    time left is fair); the same sweeps and values as one call. Returns the sweeps run."""
    done, first = 0, None
    with progress_bar(total=100, desc=desc, unit="% of the precision", progress=progress,
              bar_format="{l_bar}{bar}| {n:z.0f}% of the precision [{elapsed}<{remaining}]") as bar:
        while done < max_sweeps:
            ran, change = _values(value, g.kind, payoff, order, g.edge_start, g.edge_child,
                                  weight, VALUE_TOLERANCE, min(SWEEP_CHUNK, max_sweeps - done))
            done += ran
            if change < VALUE_TOLERANCE:
                bar.update(100 - bar.n)
                break
            first = change if first is None else first
            if first > change:
                gained = np.log(first / change) / np.log(first / VALUE_TOLERANCE)
                bar.update(max(0.0, 100 * gained - bar.n))
    return done


@njit(cache=True)
def _reach(reach, root, order, in_start, in_edge, in_source, weight, tolerance, max_sweeps):
    # Gauss-Seidel from the roots down: reach = root + sum over incoming edges.
    for sweep in range(max_sweeps):
        change = 0.0
        for j in range(order.shape[0]):
            i = order[j]
            r = root[i]
            for t in range(in_start[i], in_start[i + 1]):
                r += reach[in_source[t]] * weight[in_edge[t]]
            change = max(change, abs(r - reach[i]) / (1.0 + r))
            reach[i] = r
        if change < tolerance:
            return sweep + 1
    return max_sweeps


@njit(cache=True)
def _update(player, kind, edge_start, edge_child, edge_slot, value, q_regret, q_average,
            sigma, inst, regret, average, key_first, key_count, weight_t):
    inst[:] = 0.0
    sign = 1.0 if player == 0 else -1.0
    for i in range(kind.shape[0]):
        if kind[i] != PLAYER0 + player:
            continue
        w = q_regret[i]
        a = q_average[i]
        vi = sign * value[i]
        for e in range(edge_start[i], edge_start[i + 1]):
            s = edge_slot[e]
            if w > 0.0:
                inst[s] += w * (sign * value[edge_child[e]] - vi)
            if a > 0.0:
                average[s] += weight_t * a * sigma[s]
    for k in range(key_first.shape[0]):
        for s in range(key_first[k], key_first[k] + key_count[k]):
            r = regret[s] + inst[s]
            regret[s] = r if r > 0.0 else 0.0


def _groups(slot_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # Each information set's first slot and number of actions.
    if slot_key.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    first = np.flatnonzero(np.r_[True, slot_key[1:] != slot_key[:-1]]).astype(np.int64)
    count = np.diff(np.r_[first, slot_key.size]).astype(np.int64)
    return first, count


def normalise(total: np.ndarray, slot_key: np.ndarray) -> np.ndarray:
    """``total`` (a weight per slot) as a strategy: each set's weights summing to 1
    (uniform where a set has no weight)."""
    first, count = _groups(slot_key)
    sums = np.add.reduceat(total, first) if first.size else np.zeros(0)
    per_slot = np.repeat(sums, count)
    width = np.repeat(count, count)
    return np.where(per_slot > 0, total / np.where(per_slot > 0, per_slot, 1.0), 1.0 / width)


class CyclicCFR:
    """CFR+ (regret matching+, linear averaging, alternating updates) on a
    :class:`CyclicGraph` from the root distribution ``root`` (a weight per node)."""

    def __init__(self, graph: CyclicGraph, root: np.ndarray, sweeps: int = 1,
                 max_sweeps: int = MAX_SWEEPS, fixed: dict[int, np.ndarray] | None = None):
        graph.check()
        if root.shape != (graph.num_nodes,) or root.min() < 0 or not np.isclose(root.sum(), 1.0):
            raise SolveError("root must be a probability over the graph's nodes")
        self.graph = graph
        self.root = np.asarray(root, float)
        self.per_update = sweeps
        self.max_sweeps = max_sweeps
        g = graph
        self.order = _bfs_order(g, self.root)
        source, self.in_start, self.in_edge = _incoming(g.num_nodes, g.edge_start,
                                                        g.edge_child)
        self.in_source = source[self.in_edge]
        self.groups = [_groups(k) for k in g.slot_key]
        self.uniform = [1.0 / np.repeat(c, c).astype(float) for _, c in self.groups]
        self.regret = [np.zeros(n) for n in g.num_slots]
        self.average = [np.zeros(n) for n in g.num_slots]
        self.sigma = [u.copy() for u in self.uniform]
        # A fixed player keeps the given strategy: the other's average strategy then
        # approaches a best response to it within the information sets' keys.
        self.fixed = dict(fixed or {})
        for p, strategy in self.fixed.items():
            if strategy.shape != self.sigma[p].shape:
                raise SolveError(f"player {p}'s fixed strategy has the wrong number of slots")
            self.sigma[p] = np.asarray(strategy, float).copy()
            self.average[p] = self.sigma[p].copy()
        self.value = np.where(g.kind == TERMINAL, g.payoff, 0.0).astype(float)
        self.q = [np.zeros(g.num_nodes), np.zeros(g.num_nodes)]
        self.iterations = 0
        self.seconds = 0.0  # spent iterating, over every run resumed from a checkpoint
        self.sweeps = {"values": 0, "reach": 0}
        m = g.num_edges
        self._w = [np.empty(m), np.empty(m), np.empty(m)]
        self._inst = [np.empty(n) for n in g.num_slots]

    def _weights(self, sigma0, sigma1):
        g = self.graph
        w_play, w_q0, w_q1 = self._w
        _edge_weights(g.kind, g.edge_start, g.edge_prob, g.edge_slot, sigma0, sigma1,
                      self.uniform[0], self.uniform[1], w_play, w_q0, w_q1)
        return w_play, w_q0, w_q1

    def iterate(self) -> None:
        """One iteration: player 0's update, then player 1's (alternating), each from
        the strategies of the current regrets, their values and reaches."""
        g = self.graph
        self.iterations += 1
        for p in (0, 1):
            if p in self.fixed:
                continue
            for q in (0, 1):
                if q not in self.fixed:
                    first, count = self.groups[q]
                    _regret_matching(self.regret[q], first, count, self.sigma[q])
            w_play, w_q0, w_q1 = self._weights(*self.sigma)
            self.sweeps["values"] += _values(self.value, g.kind, g.payoff, self.order,
                                             g.edge_start, g.edge_child, w_play,
                                             VALUE_TOLERANCE, self.per_update)[0]
            for q, w in ((0, w_q0), (1, w_q1)):
                self.sweeps["reach"] += _reach(self.q[q], self.root, self.order, self.in_start,
                                               self.in_edge, self.in_source, w, REACH_TOLERANCE,
                                               self.per_update)
            first, count = self.groups[p]
            _update(p, g.kind, g.edge_start, g.edge_child, g.edge_slot, self.value,
                    self.q[p], self.q[1 - p], self.sigma[p], self._inst[p], self.regret[p],
                    self.average[p], first, count, float(self.iterations))

    def run(self, iterations: int, progress: bool = False, checkpoint: Path | None = None,
            every: int = 50, desc: str = "CFR+ on the state graph",
            resume: bool = True) -> None:
        """Iterate up to ``iterations`` in all (resuming from ``checkpoint`` when it
        exists, unless ``resume`` is off; saved every ``every`` iterations and at the
        end)."""
        if resume and checkpoint is not None and Path(checkpoint).exists():
            self.load(checkpoint)
        left = max(0, iterations - self.iterations)
        with progress_bar(total=iterations, initial=self.iterations, desc=desc, unit=" it",
                  progress=progress) as bar:
            for _ in range(left):
                tick = time.perf_counter()
                self.iterate()
                self.seconds += time.perf_counter() - tick
                bar.update(1)
                if checkpoint is not None and self.iterations % every == 0:
                    self.save(checkpoint)
        if checkpoint is not None:
            self.save(checkpoint)

    def average_strategy(self, player: int) -> np.ndarray:
        """Player ``player``'s average strategy, a probability per slot."""
        return normalise(self.average[player], self.graph.slot_key[player])

    def evaluate(self, strategies: tuple[np.ndarray, np.ndarray] | None = None,
                 progress: bool = False, desc: str = "values") -> np.ndarray:
        """Player 0's value at every node when both play ``strategies`` (default: the
        average strategies); a play that never ends pays 0. ``progress``: a bar with the
        time left (minutes on a whole game's graph)."""
        if strategies is None:
            strategies = (self.average_strategy(0), self.average_strategy(1))
        g = self.graph
        w_play, _, _ = self._weights(*strategies)
        value = np.where(g.kind == TERMINAL, g.payoff, 0.0).astype(float)
        _sweep_values(value, g, self.order, g.payoff, w_play, self.max_sweeps, progress, desc)
        return value

    def visits(self, strategies: tuple[np.ndarray, np.ndarray], sweeps: int = MAX_SWEEPS,
               progress: bool = False, desc: str = "visits") -> np.ndarray:
        """How often play from the root reaches each node when both play ``strategies``:
        the expected number of visits (more than 1 on a loop), which weighs positions
        by how much they matter to that play. At most ``sweeps`` Gauss-Seidel sweeps, in
        chunks (Ctrl-C stops within a few; ``progress``: a bar of sweeps, whose time
        left is for all of them, an upper bound)."""
        w_play, _, _ = self._weights(*strategies)
        reach = np.zeros(self.graph.num_nodes)
        done = 0
        with progress_bar(total=sweeps, desc=desc, unit=" sweeps", progress=progress) as bar:
            while done < sweeps:
                step = min(SWEEP_CHUNK, sweeps - done)
                ran = _reach(reach, self.root, self.order, self.in_start, self.in_edge,
                             self.in_source, w_play, REACH_TOLERANCE, step)
                done += ran
                bar.update(ran)
                if ran < step:  # converged within the chunk
                    break
            bar.update(sweeps - bar.n)
        return reach

    def guaranteed_value(self, player: int, strategies: tuple[np.ndarray, np.ndarray],
                         sweeps: int = MAX_SWEEPS) -> np.ndarray:
        """A lower bound on ``player``'s expected payoff at every node when both play
        ``strategies``: value iteration started from the worst payoff, -1 (after any
        number of sweeps each value is at most the true one; play that never ends
        counts as -1 for ``player``, no better than the 0 it pays)."""
        g = self.graph
        w_play, _, _ = self._weights(*strategies)
        payoff = g.payoff if player == 0 else -g.payoff
        value = np.where(g.kind == TERMINAL, payoff, -1.0)
        _sweep_values(value, g, self.order, payoff, w_play, sweeps, False, "bound")
        return value

    def save(self, path: Path) -> None:
        atomic_savez(Path(path), iterations=np.int64(self.iterations),
                     seconds=np.float64(self.seconds), value=self.value,
                     q0=self.q[0], q1=self.q[1], regret0=self.regret[0],
                     regret1=self.regret[1], average0=self.average[0],
                     average1=self.average[1])

    def load(self, path: Path) -> None:
        """Resume from a checkpoint of this graph (a damaged or foreign file is refused)."""
        try:
            with np.load(path) as z:
                arrays = {k: z[k] for k in z.files}
        except READ_ERRORS as exc:
            raise CorruptFileError(f"{path}: not a readable checkpoint ({exc})") from None
        shapes = {"value": self.value.shape, "q0": self.value.shape, "q1": self.value.shape,
                  "regret0": self.regret[0].shape, "regret1": self.regret[1].shape,
                  "average0": self.average[0].shape, "average1": self.average[1].shape}
        for name, shape in shapes.items():
            if name not in arrays or arrays[name].shape != shape:
                raise CorruptFileError(f"{path}: a checkpoint of another graph ({name})")
        self.iterations = int(arrays["iterations"])
        self.seconds = float(arrays["seconds"]) if "seconds" in arrays else 0.0
        self.value[:] = arrays["value"]
        self.q[0][:], self.q[1][:] = arrays["q0"], arrays["q1"]
        for p in (0, 1):
            self.regret[p][:] = arrays[f"regret{p}"]
            self.average[p][:] = arrays[f"average{p}"]


def _bfs_order(graph: CyclicGraph, root: np.ndarray) -> np.ndarray:
    # Breadth first from the roots; nodes no root reaches go last, in index order.
    return _bfs(graph.num_nodes, graph.edge_start, graph.edge_child,
                np.flatnonzero(root > 0).astype(np.int64))


@njit(cache=True)
def _bfs(n, edge_start, edge_child, roots):
    seen = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    head = tail = 0
    for r in roots:
        if not seen[r]:
            seen[r] = True
            order[tail] = r
            tail += 1
    while head < tail:
        i = order[head]
        head += 1
        for e in range(edge_start[i], edge_start[i + 1]):
            c = edge_child[e]
            if not seen[c]:
                seen[c] = True
                order[tail] = c
                tail += 1
    for i in range(n):
        if not seen[i]:
            order[tail] = i
            tail += 1
    return order
