"""The expansion of a deal-lifted walk into the full state graph.

A deal-lifted walk (:mod:`analysis.solve.lifted` in Python, or a game's compiled walk)
visits each position once for all the deals of the hidden cards: a *lifted node* has one
*slot* per assignment of the cards still hidden, and its edges are *plain* (each slot
goes to the same slot of the child), *reveal* (a table of children, one per deal of the
revealed cards) or *conceal* (a hidden card dealt: one edge per card). Here numba expands
those arrays (:class:`LiftedWalkArrays`) into the graph :func:`analysis.solve.compile_game`
lays out, keeping only the slots reachable from the root.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from analysis.solve import layout
from analysis.solve.digest import key_text
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.memory import format_bytes

PLAIN, REVEAL, CONCEAL = 0, 1, 2
# A reveal table's entry for a deal that cannot be at the position.
NO_CHILD = -(2**62)
# Bytes an expanded node costs at the expansion's peak (slot marks and ranks, the
# children-first arrays and their relabelled copies). The full ¡Cobardes! battle: 17.2 M
# positions, 61.2 M nodes, 13.4 GB at the peak.
LIFTED_BYTES_PER_NODE = 110


@dataclass(eq=False)
class LiftedWalkArrays:
    """A deal-lifted walk's result, as the expansion reads it.

    Lifted nodes (numbered as opened, the root 0): ``kind``, ``hmask`` (bit ``q``: player
    ``q`` hides a card), ``liid`` (lifted information set, -1 at chance), edges
    ``elo[n]:ehi[n]``. Lifted edges: ``etype`` (PLAIN/REVEAL/CONCEAL), ``echild`` (a child,
    ``-1 - t`` for terminal ``t``, or a reveal's offset in ``table``), ``eprob``,
    ``eaction`` (``-2 - q``: player ``q``'s hidden card), ``earg`` (the revealed players'
    mask, or the player dealt to), ``epool`` (the cards a conceal can give). ``util``:
    player 0's payoff of each terminal. Lifted information sets: ``iplayer``, ``iown``
    (1: the player's own card is hidden in it: one set per card), legal action codes
    ``iactions[ioffset[i]:ioffset[i + 1]]``. ``aliases``: ``(hidden set, card, set)``
    where the hidden set's key with ``card`` put back is ``set``'s. ``names``: each
    player's action names met in the walk; ``name_of(player, action)`` names one first
    met in the expansion; ``key_of(set, card)``: the printable key of lifted set ``set``
    with the player's own card ``card`` (-1: none hidden), or ``None`` for no keys.
    ``held_bytes``: what the walk still holds while the expansion runs.
    """

    cards: tuple
    kind: np.ndarray
    hmask: np.ndarray
    liid: np.ndarray
    elo: np.ndarray
    ehi: np.ndarray
    etype: np.ndarray
    echild: np.ndarray
    eprob: np.ndarray
    eaction: np.ndarray
    earg: np.ndarray
    epool: np.ndarray
    table: np.ndarray
    util: np.ndarray
    iplayer: np.ndarray
    iown: np.ndarray
    ioffset: np.ndarray
    iactions: np.ndarray
    aliases: list
    names: list
    name_of: Callable[[int, int], str]
    key_of: Callable[[int, int], object] | None
    held_bytes: int = 0

    @property
    def walked(self) -> int:
        return int(self.kind.shape[0])


def expand(parts: LiftedWalkArrays, name: str, budget: int) -> dict:
    """The expanded graph of ``parts`` in :func:`analysis.solve.layout.lay_out`'s arrays
    (for :class:`~analysis.solve.compiled.CompiledGame`). The walk's node and edge arrays
    are released from ``parts`` once read.

    Raises
    ------
    GameTooLargeError
        The expanded graph would exceed ``budget`` bytes.
    UnsupportedGameError
        The lifted graph has a cycle, or a reachable deal has no child (the rules read a
        hidden card before showing it), or an information set's legal actions differ.
    """
    nv = len(parts.cards)
    cards = np.asarray(parts.cards, dtype=np.int64)
    hmask = parts.hmask
    per = np.array([1, nv, nv, nv * nv], dtype=np.int64)
    slots = per[hmask]
    base = np.zeros(slots.shape[0] + 1, dtype=np.int64)
    np.cumsum(slots, out=base[1:])
    if base[-1] * 9 > budget:
        raise GameTooLargeError(f"{name}: {base[-1]:,} deal slots, over the memory "
                                f"budget of {format_bytes(budget)}")
    lifted = (parts.kind, hmask, base, parts.elo, parts.ehi, parts.etype, parts.echild,
              parts.eprob, parts.eaction, parts.earg, parts.epool, parts.table, cards)
    order = _lifted_order(lifted[0], lifted[3], lifted[4], lifted[5], lifted[6], lifted[9],
                          lifted[11], nv)
    if order.shape[0] != hmask.shape[0]:
        raise UnsupportedGameError(f"{name}: the state graph has a cycle")
    reached, n_int, n_edges, n_term, bad = _reach(*lifted, order)
    del order
    if bad >= 0:
        raise UnsupportedGameError(
            f"{name}: a reachable deal has no child at lifted node {bad}: the rules "
            "read a hidden card before showing it")
    need = (n_int + n_term) * LIFTED_BYTES_PER_NODE + parts.held_bytes
    if need > budget:
        raise GameTooLargeError(
            f"{name} has {n_int + n_term:,} nodes in graph mode (~"
            f"{format_bytes(need)} to expand them after a walk of {parts.walked:,} "
            f"positions), over the memory budget of {format_bytes(budget)}")
    liid, iown, iplayer = parts.liid, parts.iown, parts.iplayer
    islots = np.where(iown == 1, nv, 1).astype(np.int64)
    ibase = np.zeros(islots.shape[0] + 1, dtype=np.int64)
    np.cumsum(islots, out=ibase[1:])
    rank = np.cumsum(reached, dtype=np.int32) - 1
    kind, ninfo, estart, echild, eprob, eaction, utility = _fill(
        *lifted, reached, rank, n_int, n_edges, n_term, parts.util, liid, iplayer, iown, ibase)
    del reached, rank, lifted, liid
    # The walk's arrays are done with: free them before the layout copies the graph.
    for field in ("kind", "hmask", "elo", "ehi", "etype", "echild", "eprob", "eaction",
                  "earg", "epool", "table", "util", "liid"):
        setattr(parts, field, None)
    # A hidden card's set and the set of the same key with the card public are one.
    canon = np.arange(ibase[-1], dtype=np.int64)
    index = {c: i for i, c in enumerate(parts.cards)}
    ioffset, icodes = parts.ioffset, parts.iactions
    for hid, card, iid in parts.aliases:
        lo, hi = ioffset[hid], ioffset[hid + 1]
        mine = [card if c < -1 else c for c in icodes[lo:hi].tolist()]
        if mine != icodes[ioffset[iid]:ioffset[iid + 1]].tolist():
            raise UnsupportedGameError(
                f"{name}: information set {iid} of player {int(iplayer[iid])} has "
                "different legal actions at different nodes")
        canon[ibase[hid] + index[card]] = ibase[iid]
    ninfo = np.where(ninfo >= 0, canon[np.maximum(ninfo, 0)], -1)
    iused = np.zeros(ibase[-1], dtype=np.uint8)
    iused[ninfo[ninfo >= 0]] = 1
    # Expanded information sets, compacted to the ones some node has.
    used = np.flatnonzero(iused)
    compact = np.full(ibase[-1], -1, dtype=np.int64)
    compact[used] = np.arange(used.shape[0])
    ninfo = np.where(ninfo >= 0, compact[np.maximum(ninfo, 0)], -1).astype(np.int32)
    owner = np.searchsorted(ibase, used, side="right") - 1  # lifted infoset of each
    card_index = used - ibase[owner]
    offset, gather = layout.gather_rows(ioffset, owner)
    counts = np.diff(offset)
    codes = icodes[gather].astype(np.int64)
    row_card = cards[np.repeat(card_index, counts)]
    actions = np.where(codes < -1, row_card, codes).astype(np.int32)
    players = iplayer[owner].copy()
    names = [dict(d) for d in parts.names]
    for p in (0, 1):
        for a in np.unique(actions[np.repeat(players, counts) == p]).tolist():
            if a not in names[p]:
                names[p][a] = parts.name_of(p, a)
    ikeys = []
    if parts.key_of is not None:
        ikeys = [key_text(parts.key_of(j, int(cards[c]) if iown[j] else -1))
                 for j, c in zip(owner.tolist(), card_index.tolist(), strict=True)]
    return layout.lay_out(True, True, kind, ninfo, estart, echild, eprob, eaction, utility,
                          players, offset, actions, ikeys, names, root=0)


@njit(cache=True, inline="always")
def _slot(hm, i0, i1, nv):
    if hm == 0:
        return 0
    if hm == 1:
        return i0
    if hm == 2:
        return i1
    return i0 * nv + i1


@njit(cache=True, inline="always")
def _deal_of(hm, s, nv):
    """The card indices ``(i0, i1)`` of slot ``s`` (``-1``: that player hides none);
    the inverse of :func:`_slot`."""
    if hm == 1:
        return s, -1
    if hm == 2:
        return -1, s
    if hm == 3:
        return s // nv, s % nv
    return -1, -1


@njit(cache=True)
def _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg, epool, table,
              cards, out_code, out_global, out_prob, out_action):
    """The expanded children of lifted node ``L``'s edge ``e`` at deal ``(i0, i1)``:
    child codes (``< 0`` terminal), global slots of internal children, probabilities,
    actions. Returns their number (0: a deal with no child, an error)."""
    nv = cards.shape[0]
    t = etype[e]
    code = eaction[e]
    if code == -2:
        action = cards[i0]
    elif code == -3:
        action = cards[i1]
    else:
        action = code
    if t == 2:  # conceal: one edge per card the deal can give
        q = earg[e]
        pool = epool[e]
        c = echild[e]
        n = 0
        for j in range(nv):
            if not (pool >> cards[j]) & 1 or j in (i0, i1):
                continue
            a0 = j if q == 0 else i0
            a1 = j if q == 1 else i1
            out_code[n] = c
            out_global[n] = base[c] + _slot(hmask[c], a0, a1, nv)
            out_action[n] = cards[j]
            n += 1
        for k in range(n):
            out_prob[k] = 1.0 / n
        return n
    if t == 0:
        c = echild[e]
    else:
        r = earg[e]
        if r == 1:
            beta = i0
        elif r == 2:
            beta = i1
        else:
            beta = i0 * nv + i1
        c = table[echild[e] + beta]
        if c == NO_CHILD:
            return 0
    out_code[0] = c
    out_prob[0] = eprob[e]
    out_action[0] = action
    if c >= 0:
        out_global[0] = base[c] + _slot(hmask[c], i0, i1, nv)
    else:
        out_global[0] = -1
    return 1


@njit(cache=True, inline="always")
def _lifted_children(e, etype, echild, earg, table, nv, out):
    """The internal lifted children of edge ``e`` into ``out``; returns their number."""
    n = 0
    if etype[e] == 1:
        width = nv * nv if earg[e] == 3 else nv
        for k in range(width):
            c = table[echild[e] + k]
            if c >= 0:
                out[n] = c
                n += 1
    elif echild[e] >= 0:
        out[0] = echild[e]
        n = 1
    return n


@njit(cache=True)
def _lifted_order(kind, elo, ehi, etype, echild, earg, table, nv):
    """Lifted internal nodes in a topological order (Kahn), parents before children."""
    n = kind.shape[0]
    buf = np.empty(nv * nv, dtype=np.int64)
    indegree = np.zeros(n, dtype=np.int32)
    for L in range(n):
        for e in range(elo[L], ehi[L]):
            for k in range(_lifted_children(e, etype, echild, earg, table, nv, buf)):
                indegree[buf[k]] += 1
    order = np.empty(n, dtype=np.int32)
    order[0] = 0
    head, tail = 0, 1
    while head < tail:
        L = order[head]
        head += 1
        for e in range(elo[L], ehi[L]):
            for k in range(_lifted_children(e, etype, echild, earg, table, nv, buf)):
                c = buf[k]
                indegree[c] -= 1
                if indegree[c] == 0:
                    order[tail] = c
                    tail += 1
    return order[:tail]


@njit(cache=True)
def _reach(kind, hmask, base, elo, ehi, etype, echild, eprob, eaction, earg, epool, table,
           cards, order):
    """Mark the deal slots reachable from the root (lifted nodes in topological order);
    count nodes, edges and terminals."""
    nv = cards.shape[0]
    reached = np.zeros(base[-1], dtype=np.uint8)
    out_code = np.empty(nv, dtype=np.int64)
    out_global = np.empty(nv, dtype=np.int64)
    out_prob = np.empty(nv, dtype=np.float64)
    out_action = np.empty(nv, dtype=np.int64)
    reached[0] = 1
    n_int = 0
    n_edges = 0
    n_term = 0
    for idx in range(order.shape[0]):
        L = order[idx]
        hm = hmask[L]
        for s in range(base[L + 1] - base[L]):
            if reached[base[L] + s] == 0:
                continue
            n_int += 1
            i0, i1 = _deal_of(hm, s, nv)
            for e in range(elo[L], ehi[L]):
                n = _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg,
                              epool, table, cards, out_code, out_global, out_prob, out_action)
                if n == 0:
                    return reached, 0, 0, 0, L
                n_edges += n
                for k in range(n):
                    if out_code[k] < 0:
                        n_term += 1
                    else:
                        reached[out_global[k]] = 1
    return reached, n_int, n_edges, n_term, -1


@njit(cache=True)
def _fill(kind, hmask, base, elo, ehi, etype, echild, eprob, eaction, earg, epool, table,
          cards, reached, rank, n_int, n_edges, n_term, util, liid, iplayer, iown, ibase):
    """The expanded graph in the compiler's children-first arrays (root 0, terminals last)."""
    nv = cards.shape[0]
    n = n_int + n_term
    out_kind = np.zeros(n, dtype=np.int8)
    out_info = np.full(n, -1, dtype=np.int32)
    out_start = np.zeros(n + 1, dtype=np.int64)
    out_child = np.empty(n_edges, dtype=np.int32)
    out_prob = np.empty(n_edges, dtype=np.float64)
    out_action = np.empty(n_edges, dtype=np.int32)
    out_util = np.zeros(n, dtype=np.float64)
    c_code = np.empty(nv, dtype=np.int64)
    c_global = np.empty(nv, dtype=np.int64)
    c_prob = np.empty(nv, dtype=np.float64)
    c_action = np.empty(nv, dtype=np.int64)
    term = n_int
    ed = 0
    for L in range(kind.shape[0]):
        hm = hmask[L]
        for s in range(base[L + 1] - base[L]):
            g = base[L] + s
            if reached[g] == 0:
                continue
            node = rank[g]
            i0, i1 = _deal_of(hm, s, nv)
            out_kind[node] = kind[L]
            j = liid[L]
            if j >= 0:
                p = iplayer[j]
                own = i0 if p == 0 else i1
                out_info[node] = ibase[j] + (own if iown[j] == 1 else 0)
            out_start[node] = ed
            for e in range(elo[L], ehi[L]):
                m = _children(L, e, i0, i1, hmask, base, etype, echild, eprob, eaction, earg,
                              epool, table, cards, c_code, c_global, c_prob, c_action)
                for k in range(m):
                    if c_code[k] < 0:
                        out_child[ed] = term
                        out_util[term] = util[-c_code[k] - 1]
                        term += 1
                    else:
                        out_child[ed] = rank[c_global[k]]
                    out_prob[ed] = c_prob[k]
                    out_action[ed] = c_action[k]
                    ed += 1
    # Internal nodes were numbered in slot order; their edge ranges must be contiguous
    # in node order, which slot order is (ranks increase with slots).
    for t in range(n_int, n + 1):
        out_start[t] = ed
    return out_kind, out_info, out_start, out_child, out_prob, out_action, out_util
