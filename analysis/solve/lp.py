"""Exact game value by the sequence-form linear program (small games, tree mode).

Player 0 picks a realisation plan ``x`` (``E x = e, x >= 0``), player 1 a plan ``y``
(``F y = f, y >= 0``); the value ``max_x min_y x' A y`` is, by LP duality of the inner
minimisation, ``max f' v`` subject to ``F' v - A' x <= 0``, ``E x = e`` (Koller, Megiddo &
von Stengel 1994). ``A[s0, s1]`` sums chance reach times player 0's utility over the
terminals reached by the sequence pair. Solved with scipy's HiGHS.
"""

from __future__ import annotations

import numpy as np

from analysis.solve.compiled import CHANCE, PLAYER0, CompiledGame
from analysis.solve.errors import GameTooLargeError, SolveError

MAX_LP_NODES = 2_000_000


def solve_lp(cg: CompiledGame) -> float:
    """Player 0's game value from the sequence-form LP.

    Raises
    ------
    SolveError
        Graph mode, imperfect recall, or the LP solver failing.
    GameTooLargeError
        More than ``MAX_LP_NODES`` nodes.
    """
    # scipy here, not at the top: the engine's other users (advice, play) need no LP
    from scipy import sparse
    from scipy.optimize import linprog

    if cg.mode != "tree":
        raise SolveError("the sequence-form LP needs a tree-mode compiled game")
    if cg.num_nodes > MAX_LP_NODES:
        raise GameTooLargeError(
            f"{cg.game} has {cg.num_nodes:,} nodes; the LP takes at most {MAX_LP_NODES:,}"
        )
    n, m = cg.num_internal, cg.num_infosets
    row_player = np.repeat(cg.infoset_player, np.diff(cg.infoset_offset))
    seq_id = np.zeros(cg.num_actions, dtype=np.int64)
    num_seq = [1, 1]
    for p in (0, 1):
        rows = np.flatnonzero(row_player == p)
        seq_id[rows] = np.arange(1, len(rows) + 1)
        num_seq[p] += len(rows)
    total = cg.num_nodes
    seq = np.zeros((2, total), dtype=np.int64)
    reach = np.zeros(total)
    reach[0] = 1.0
    parent_seq = np.full(m, -1, dtype=np.int64)
    for h in range(n):  # parents before children
        k = cg.kind[h]
        lo, hi = cg.edge_start[h], cg.edge_start[h + 1]
        children = cg.edge_child[lo:hi]
        seq[:, children] = seq[:, h : h + 1]
        if k == CHANCE:
            reach[children] = reach[h] * cg.edge_prob[lo:hi]
            continue
        p = k - PLAYER0
        i = cg.infoset[h]
        if parent_seq[i] == -1:
            parent_seq[i] = seq[p, h]
        elif parent_seq[i] != seq[p, h]:
            raise SolveError(
                f"{cg.game} is not of perfect recall at information set "
                f"{cg.infoset_keys[i]!r}; the sequence-form LP needs it"
            )
        reach[children] = reach[h]
        seq[p, children] = seq_id[cg.infoset_offset[i] : cg.infoset_offset[i + 1]]
    terminals = np.arange(n, total)
    s0, s1 = seq[0, terminals], seq[1, terminals]
    payoff = reach[terminals] * cg.utility
    payoff_matrix = sparse.coo_matrix((payoff, (s0, s1)), shape=tuple(num_seq)).tocsr()

    def constraints(p: int) -> sparse.csr_matrix:
        rows, cols, vals = [0], [0], [1.0]
        r = 0
        for i in np.flatnonzero(cg.infoset_player == p):
            if parent_seq[i] == -1:  # never reached: no constraint needed
                continue
            r += 1
            ids = seq_id[cg.infoset_offset[i] : cg.infoset_offset[i + 1]]
            rows += [r] * (len(ids) + 1)
            cols += [*ids.tolist(), int(parent_seq[i])]
            vals += [1.0] * len(ids) + [-1.0]
        return sparse.coo_matrix((vals, (rows, cols)), shape=(r + 1, num_seq[p])).tocsr()

    e_mat, f_mat = constraints(0), constraints(1)
    nx, nv = num_seq[0], f_mat.shape[0]
    # Variables: x (player 0's plan, >= 0), then v (free). Maximise v[0] (f = unit vector).
    cost = np.zeros(nx + nv)
    cost[nx] = -1.0
    a_ub = sparse.hstack([-payoff_matrix.T, f_mat.T]).tocsr()
    a_eq = sparse.hstack([e_mat, sparse.csr_matrix((e_mat.shape[0], nv))]).tocsr()
    b_eq = np.zeros(e_mat.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nv
    res = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:
        raise SolveError(f"the sequence-form LP of {cg.game} failed: {res.message}")
    return float(-res.fun)
