"""A villain-free battle compiled once into its graph of public positions, then solved
for any terminal payoffs in one bottom-up pass.

The war composition solves the same battle for many terminal payoffs (the values of
the scores it leads to); :class:`BattleGraph` walks the rules engine once and
:meth:`BattleGraph.solve` redoes only the backward induction, also returning how the
battle ends under the solved strategies.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

from analysis.cobardes.model import OUTCOME_NAMES, canonical_key, outcome_kind
from analysis.solve import induction
from games.cobardes import engine as E

_MAX, _MIN, _CHANCE, _MATRIX = induction.MAX, induction.MIN, induction.CHANCE, induction.MATRIX
_NAN = float("nan")


@dataclass(frozen=True)
class GraphSolution:
    """Values and outcome probabilities of every node for one payoff vector."""

    value: float
    outcome_probs: np.ndarray          # at the root, per terminal class (WIN..DRAW here)
    root_row: np.ndarray               # player 0's opening mix (first confrontation)
    root_col: np.ndarray               # player 1's (both empty if it is no matrix game)
    values: np.ndarray                 # every node's value


class BattleGraph:
    """The public positions of one villain-free battle, compiled.

    Parameters
    ----------
    cfg, root
        The engine configuration and the starting position (dealt, no villains).

    Finished battles merge into ``TERMINALS`` shared terminal nodes, ids ``0 ..
    TERMINALS - 1``, one per :meth:`terminal` class (here the outcome kind, WIN..DRAW);
    a subclass can classify them more finely.
    """

    TERMINALS = len(OUTCOME_NAMES)

    def terminal(self, pos: E.Pos) -> int:
        """The terminal class of a finished battle: its outcome kind."""
        return outcome_kind(pos)

    def __init__(self, cfg: E.Config, root: E.Pos):
        start = time.perf_counter()
        self.cfg = cfg
        self.kind: list[int] = []
        self.children: list = []   # list of ints, or an (m, n) int array for matrices
        self.probs: list = []      # chance probabilities
        self.actions: list = []    # (actions0, actions1) for matrices
        for k in range(self.TERMINALS):
            self.kind.append(-1 - k)
            self.children.append(())
            self.probs.append(())
            self.actions.append(())
        self._memo: dict[tuple, int] = {}
        limit = sys.getrecursionlimit()
        if limit < 5000:
            sys.setrecursionlimit(5000)
        self.root = self._build(root)
        # The first combat's confrontation when every vanguard courtier is held back:
        # where the "opening mix" is read.
        pos = root
        while pos.outcome is None and pos.phase == E.VANGUARD:
            pos = E.apply(cfg, pos, E.PASS)
        self.opening = self._id(pos)
        self.compile_seconds = time.perf_counter() - start

    @property
    def num_positions(self) -> int:
        return len(self.kind) - self.TERMINALS

    @property
    def num_matrix_games(self) -> int:
        return sum(1 for k in self.kind if k == _MATRIX)

    def _id(self, pos: E.Pos) -> int:
        if pos.outcome is not None:
            return self.terminal(pos)
        key = canonical_key(pos)
        node = self._memo.get(key)
        return node if node is not None else self._build(pos, key)

    def _add(self, kind, children, probs=(), actions=()):
        self.kind.append(kind)
        self.children.append(children)
        self.probs.append(probs)
        self.actions.append(actions)
        return len(self.kind) - 1

    def _build(self, pos: E.Pos, key: tuple | None = None) -> int:
        if pos.outcome is not None:
            return self.terminal(pos)
        key = canonical_key(pos) if key is None else key
        cfg = self.cfg
        actor = pos.actor
        if actor == E.CHANCE:
            outcomes = E.chance_outcomes(cfg, pos)
            kids = [self._id(E.apply(cfg, pos, a)) for a, _ in outcomes]
            node = self._add(_CHANCE, kids, tuple(p for _, p in outcomes))
        else:
            legal = E.legal_actions(cfg, pos)
            if pos.phase == E.COMMIT and not pos.open and actor == pos.first \
                    and pos.cards[actor] < 0:
                middles = [E.apply(cfg, pos, a) for a in legal]
                answers = E.legal_actions(cfg, middles[0])
                grid = np.array([[self._id(E.apply(cfg, mid, b)) for b in answers]
                                 for mid in middles], dtype=np.int64)
                if actor == 1:
                    grid = grid.T
                    legal, answers = answers, legal
                node = self._add(_MATRIX, grid, (), (tuple(legal), tuple(answers)))
            else:
                kids = [self._id(E.apply(cfg, pos, a)) for a in legal]
                node = self._add(_MAX if actor == 0 else _MIN, kids, (), tuple(legal))
        self._memo[key] = node
        return node

    def solve(self, payoffs) -> GraphSolution:
        """Backward induction for terminal payoffs, one per terminal class (player 0's;
        here ``(win, loss, crown, crown_loss, draw)``), by the shared routine
        (:func:`analysis.solve.induction.solve`) over the nodes."""
        t = self.TERMINALS
        pay = np.asarray(payoffs, dtype=float)
        if pay.shape != (t,):
            raise ValueError(f"this battle graph takes {t} terminal payoffs, not {pay.shape}")
        nodes = _Nodes(self, [float(p) for p in pay])
        limit = sys.getrecursionlimit()
        if limit < 5000:
            sys.setrecursionlimit(5000)
        memo: dict[int, float] = {}
        value = induction.solve(self.root, nodes, None, None, memo, [0, 0, 0])
        values = np.zeros(len(self.kind))
        values[:t] = nodes.pay
        for node, v in memo.items():
            values[node] = v
        return GraphSolution(float(value), nodes.outcome[self.root], nodes.root_row,
                             nodes.root_col, values)


class _Nodes(induction.Graph):
    """A compiled battle's nodes as a graph for the shared backward induction, carrying
    the probability of each terminal class up under the solved strategies (ties spread
    evenly over the optimal children: any mix of them is optimal)."""

    def __init__(self, graph: BattleGraph, pay: list[float]):
        self.graph = graph
        self.pay = pay
        t = graph.TERMINALS
        self.outcome = np.zeros((len(graph.kind), t))
        self.outcome[:t] = np.eye(t)
        self.root_row = self.root_col = np.zeros(0)

    def terminal(self, node: int) -> float:
        return self.pay[node] if node < self.graph.TERMINALS else _NAN

    def keep(self, node: int) -> bool:
        return True

    def key(self, node: int) -> int:
        return node

    def blank(self) -> None:
        return None

    def expand(self, node: int):
        g = self.graph
        kind, kids = g.kind[node], g.children[node]
        if kind == _MATRIX:
            m, n = kids.shape
            return kind, m * n, (), m, n, g.actions[node], kids.ravel().tolist()
        return kind, len(kids), g.probs[node], 0, 0, g.actions[node], kids

    def solved(self, node, key, kind, actions, kids, probs, vals, v, row, col) -> None:
        outcome = self.outcome
        if kind == _MATRIX:
            grid = self.graph.children[node]
            outcome[node] = np.einsum("i,ijk,j->k", row, outcome[grid], col)
            if node == self.graph.opening:
                self.root_row, self.root_col = row, col
        elif kind == _CHANCE:
            outcome[node] = np.asarray(probs) @ outcome[kids]
        else:
            best = [c for c, x in zip(kids, vals, strict=True) if abs(x - v) <= 1e-9]
            outcome[node] = outcome[best[0]] if len(best) == 1 else outcome[best].mean(axis=0)


def opening_actions(graph: BattleGraph) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards of each player at the opening confrontation (empty if none)."""
    node = graph.opening
    if node < graph.TERMINALS or graph.kind[node] != _MATRIX:
        return (), ()
    return graph.actions[node]
