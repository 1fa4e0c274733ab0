"""Put a walked game into the layout the passes stream over.

The walk numbers nodes children-first. The solver wants the opposite and more: internal
nodes in breadth-first (topological) order from the root, so that a node's children sit
next to each other and the children of consecutive nodes follow one another (a pass
then reads and writes memory almost sequentially), and terminals after all internal
nodes, so that "is this child terminal?" is a comparison, not a memory read.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analysis.solve.compiled import PLAYER0


@njit(cache=True)
def topological_order(kind, estart, echild, root):
    """Internal nodes in breadth-first topological order (Kahn), then terminals."""
    n = kind.shape[0]
    # Node ids fit int32 (edge children are int32): half the memory of int64 on the
    # largest graphs, where this runs at the compile's peak.
    indegree = np.zeros(n, dtype=np.int32)
    for h in range(n):
        if kind[h] != 0:
            for e in range(estart[h], estart[h + 1]):
                indegree[echild[e]] += 1
    internal = np.empty(n, dtype=np.int32)
    terminal = np.empty(n, dtype=np.int32)
    n_int = 0
    n_term = 0
    if kind[root] == 0:
        terminal[0] = root
        return internal[:0], terminal[:1]
    internal[0] = root
    n_int = 1
    head = 0
    while head < n_int:
        u = internal[head]
        head += 1
        for e in range(estart[u], estart[u + 1]):
            c = echild[e]
            indegree[c] -= 1
            if indegree[c] == 0:
                if kind[c] == 0:
                    terminal[n_term] = c
                    n_term += 1
                else:
                    internal[n_int] = c
                    n_int += 1
    return internal[:n_int], terminal[:n_term]


@njit(cache=True)
def relabel(kind, infoset, estart, echild, eprob, eaction, utility, internal, terminal):
    """Arrays in the new order: (kind, infoset, estart, echild, eprob, eaction, utility)."""
    n = kind.shape[0]
    n_int = internal.shape[0]
    new_id = np.empty(n, dtype=np.int32)
    for i in range(n_int):
        new_id[internal[i]] = i
    for i in range(terminal.shape[0]):
        new_id[terminal[i]] = n_int + i
    out_kind = np.empty(n_int, dtype=np.int8)
    out_infoset = np.empty(n_int, dtype=np.int32)
    out_start = np.empty(n_int + 1, dtype=estart.dtype)
    out_child = np.empty(echild.shape[0], dtype=np.int32)
    out_prob = np.empty(echild.shape[0], dtype=np.float64)
    out_action = np.empty(echild.shape[0], dtype=np.int32)
    e_out = 0
    for i in range(n_int):
        h = internal[i]
        out_kind[i] = kind[h]
        out_infoset[i] = infoset[h]
        out_start[i] = e_out
        for e in range(estart[h], estart[h + 1]):
            out_child[e_out] = new_id[echild[e]]
            out_prob[e_out] = eprob[e]
            out_action[e_out] = eaction[e]
            e_out += 1
    out_start[n_int] = e_out
    out_utility = np.empty(terminal.shape[0], dtype=np.float64)
    for i in range(terminal.shape[0]):
        out_utility[i] = utility[terminal[i]]
    return (
        out_kind,
        out_infoset,
        out_start,
        out_child[:e_out],
        out_prob[:e_out],
        out_action[:e_out],
        out_utility,
    )


@njit(cache=True)
def infoset_first_seen(infoset, num_infosets):
    """New infoset numbers in order of first appearance (so a player's earlier information
    sets come before later ones)."""
    new = np.full(num_infosets, -1, dtype=np.int64)
    count = 0
    for h in range(infoset.shape[0]):
        i = infoset[h]
        if i >= 0 and new[i] < 0:
            new[i] = count
            count += 1
    for i in range(num_infosets):  # never reached (cannot happen after a walk): keep at end
        if new[i] < 0:
            new[i] = count
            count += 1
    return new


@njit(cache=True)
def parent_rows(kind, infoset, estart, echild, offset, num_infosets):
    """Each information set's previous own action (flat row, -1 for none), tracked down
    the tree; returns (rows, perfect_recall). Needs the topological layout."""
    n_int = kind.shape[0]
    last = np.full((2, n_int), -1, dtype=np.int64)
    rows = np.full(num_infosets, -2, dtype=np.int64)
    perfect = True
    for h in range(n_int):
        k = kind[h]
        lo = estart[h]
        hi = estart[h + 1]
        if k >= 2:
            p = k - 2
            i = infoset[h]
            if rows[i] == -2:
                rows[i] = last[p, h]
            elif rows[i] != last[p, h]:
                perfect = False
            for e in range(lo, hi):
                c = echild[e]
                if c < n_int:
                    last[p, c] = offset[i] + e - lo
                    last[1 - p, c] = last[1 - p, h]
        else:
            for e in range(lo, hi):
                c = echild[e]
                if c < n_int:
                    last[0, c] = last[0, h]
                    last[1, c] = last[1, h]
    return rows, perfect


def gather_rows(offset, order):
    """Flat rows ``offset[i]:offset[i + 1]`` of the sets ``order`` (with repeats), laid
    end to end: returns the new offsets and the index of every old row in the new order.

    Without a Python list of slices, which would not fit for the largest graphs.
    """
    counts = np.diff(offset)[order]
    new = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=new[1:])
    return new, np.repeat(offset[:-1][order] - new[:-1], counts) + np.arange(new[-1])


def lay_out(
    graph,
    imperfect,
    kind,
    infoset,
    estart,
    echild,
    eprob,
    eaction,
    utility,
    iplayer,
    ioffset,
    iactions,
    ikeys,
    names,
    akeys=None,
    root=None,
):
    """From the walk's children-first arrays to the streaming layout (see ``py``).

    ``root`` is the root's index in the walk's numbering (default: the last node, as a
    children-first walk closes it).
    """
    root = kind.shape[0] - 1 if root is None else root
    internal, terminal = topological_order(kind, estart, echild, root)
    kind, infoset, estart, echild, eprob, eaction, utility = relabel(
        kind, infoset, estart, echild, eprob, eaction, utility, internal, terminal
    )
    m = iplayer.shape[0]
    new = infoset_first_seen(infoset, m)
    order = np.argsort(new)
    offset, gather = gather_rows(ioffset, order)
    actions = iactions[gather]
    # Only decision nodes have an information set (-1 elsewhere, whatever the walk held).
    infoset = np.where(kind >= PLAYER0, new[infoset], -1).astype(np.int32)
    if graph:
        rows = np.full(m, -2, dtype=np.int64)
    else:
        rows, perfect = parent_rows(kind, infoset, estart, echild, offset, m)
        if not perfect:
            rows[:] = -2
    index_type = np.int32 if echild.shape[0] < 2**31 - 1 else np.int64
    return dict(
        imperfect_recall=imperfect,
        kind=kind,
        infoset=infoset,
        edge_start=estart.astype(index_type),
        edge_child=echild,
        edge_prob=eprob,
        edge_action=eaction,
        utility=utility,
        infoset_player=iplayer[order].copy(),
        infoset_offset=offset,
        infoset_actions=actions.astype(np.int32),
        infoset_keys=[ikeys[i] for i in order] if ikeys else [],
        infoset_parent_row=rows,
        action_names=names,
        infoset_abstract_keys=[akeys[i] for i in order] if akeys else [],
    )

