"""Public-tree CFR: the same iterations, vectorised over the players' private states.

In games that deal private cards and then play public actions (Kuhn, Leduc, Liar's Dice)
every deal plays out the same *public tree*; CFR then needs, per public node, one vector
over private states instead of one number per history. :func:`factor` finds that
structure in a tree-mode :class:`CompiledGame` from its arrays (``None`` when absent); the
regret and strategy rows are the compiled game's, so the iterates are the history tree's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from analysis.solve.compiled import CHANCE, CompiledGame
from analysis.solve.kernels import (
    clear_rows,
    own_reach_rows,
    predictive_matching,
    regret_matching,
    update_player,
    update_player_predictive,
)


@dataclass(frozen=True, eq=False)
class PublicTree:
    """The public tree of a factorable game (internal public nodes breadth-first, root 0).

    ``kind``/``start``/``child`` as in :class:`CompiledGame` (children ``>= num_internal``
    are public terminals). ``base[s]`` indexes ``rowmap``: ``rowmap[base[s] + x]`` is the
    flat row of the acting player's information set at public node ``s`` with private
    state ``x`` (rows ``>= num_actions`` are scratch rows of states that cannot occur
    there). ``payoff[t, x0, x1]``: player 0's utility times chance reach, summed over the
    histories of public terminal ``t`` with private states ``(x0, x1)``.
    """

    kind: np.ndarray
    start: np.ndarray
    child: np.ndarray
    base: np.ndarray
    rowmap: np.ndarray
    payoff: np.ndarray
    num_states: tuple[int, int]
    num_rows: int

    @property
    def num_internal(self) -> int:
        return int(self.kind.shape[0])

    def work(self) -> int:
        """Multiply-adds of one player's pass, roughly."""
        k = max(self.num_states)
        return int(self.child.shape[0] * k + self.payoff.size)


@njit(cache=True)
def _chance_reach(kind, estart, echild, eprob, n_total):
    reach = np.zeros(n_total)
    reach[0] = 1.0
    n = kind.shape[0]
    for h in range(n):
        for e in range(estart[h], estart[h + 1]):
            reach[echild[e]] = reach[h] * (eprob[e] if kind[h] == CHANCE else 1.0)
    return reach


@njit(cache=True)
def _align(kind, estart, echild, eaction, infoset, num_nodes):
    """Map every history below the deal onto the public tree (see :func:`factor`).

    Returns ``(ok, deals, deal_of, pub_int, pub_term, pkind, tri_parent, tri_child)``:
    histories' deal index and public node (internal, or terminal number), the public
    nodes' kinds, and (parent, child code) pairs in order of first appearance (child
    codes ``< 0`` are public terminals ``-code - 1``).
    """
    n = kind.shape[0]
    empty = np.zeros(0, dtype=np.int64)
    empty8 = np.zeros(0, dtype=np.int8)
    first_decision = 0
    while first_decision < n and kind[first_decision] == 1:
        first_decision += 1
    deal_list = [0 for _ in range(0)]
    if first_decision == 0:
        deal_list.append(0)
    for h in range(first_decision):
        for e in range(estart[h], estart[h + 1]):
            c = echild[e]
            if c >= n:
                return False, empty, empty, empty, empty, empty8, empty, empty
            if c >= first_decision:
                deal_list.append(c)
    deals = np.array(deal_list, dtype=np.int64)
    deals.sort()
    deal_of = np.full(num_nodes, -1, dtype=np.int64)
    pub_int = np.full(n, -1, dtype=np.int64)
    pub_term = np.full(num_nodes - n, -1, dtype=np.int64)
    pkind = np.zeros(n + 1, dtype=np.int8)
    pcount = np.full(n + 1, -1, dtype=np.int64)
    pkind[0] = kind[deals[0]]
    for d in range(deals.shape[0]):
        h = deals[d]
        if kind[h] != pkind[0] or kind[h] == 1:
            return False, empty, empty, empty, empty, empty8, empty, empty
        pub_int[h] = 0
        deal_of[h] = d
    amax = 1
    for e in range(eaction.shape[0]):
        if eaction[e] + 1 > amax:
            amax = eaction[e] + 1
    child_map = dict()
    child_map[-1] = 0
    tri_parent = [0 for _ in range(0)]
    tri_child = [0 for _ in range(0)]
    n_pub = 1
    n_term = 0
    for h in range(n):
        s = pub_int[h]
        if s < 0:
            continue
        d = deal_of[h]
        lo = estart[h]
        hi = estart[h + 1]
        if kind[h] != 1:  # decisions: every member has the same legal actions
            if pcount[s] == -1:
                pcount[s] = hi - lo
            elif pcount[s] != hi - lo:
                return False, empty, empty, empty, empty, empty8, empty, empty
        for e in range(lo, hi):
            c = echild[e]
            key = s * amax + eaction[e]
            if key in child_map:
                code = child_map[key]
            else:
                if c >= n:
                    code = -(n_term + 1)
                    n_term += 1
                else:
                    code = n_pub
                    pkind[n_pub] = kind[c]
                    n_pub += 1
                child_map[key] = code
                tri_parent.append(s)
                tri_child.append(code)
            if c >= n:
                if code >= 0:
                    return False, empty, empty, empty, empty, empty8, empty, empty
                pub_term[c - n] = -code - 1
            else:
                if code < 0 or kind[c] != pkind[code]:
                    return False, empty, empty, empty, empty, empty8, empty, empty
                pub_int[c] = code
            deal_of[c] = d
    return (
        True,
        deals,
        deal_of,
        pub_int,
        pub_term,
        pkind[:n_pub].copy(),
        np.array(tri_parent, dtype=np.int64),
        np.array(tri_child, dtype=np.int64),
    )


@njit(cache=True)
def _find(parent, a):
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(cache=True)
def _private_states(kind, infoset, pub_int, deal_of, num_deals, num_infosets, p):
    """Union the deals ``p`` cannot tell apart; returns (roots, ok): ``ok`` is False when an
    information set spans two public nodes (a hidden action)."""
    parent = np.arange(num_deals)
    first = np.full(num_infosets, -1, dtype=np.int64)
    where = np.full(num_infosets, -1, dtype=np.int64)
    for h in range(kind.shape[0]):
        if kind[h] != 2 + p or pub_int[h] < 0:
            continue
        i = infoset[h]
        d = deal_of[h]
        if first[i] < 0:
            first[i] = d
            where[i] = pub_int[h]
        else:
            if where[i] != pub_int[h]:
                return parent, False
            a = _find(parent, first[i])
            b = _find(parent, d)
            if a != b:
                parent[max(a, b)] = min(a, b)
    for d in range(num_deals):
        parent[d] = _find(parent, d)
    return parent, True


@njit(cache=True)
def _row_slots(
    kind, infoset, offset, pub_int, deal_of, pkind, pstart, state0, state1, k0, k1, num_actions
):
    """``(base, rowmap, num_rows, ok)``: the row of each (public node, private state);
    ``ok`` is False when a private state does not decide the information set."""
    npub = pkind.shape[0]
    base = np.zeros(npub, dtype=np.int64)
    total = 0
    for s in range(npub):
        if pkind[s] >= 2:
            base[s] = total
            total += k0 if pkind[s] == 2 else k1
    rowmap = np.full(total, -1, dtype=np.int64)
    for h in range(kind.shape[0]):
        s = pub_int[h]
        if s < 0 or kind[h] < 2:
            continue
        x = state0[deal_of[h]] if kind[h] == 2 else state1[deal_of[h]]
        row = offset[infoset[h]]
        j = base[s] + x
        if rowmap[j] == -1:
            rowmap[j] = row
        elif rowmap[j] != row:
            return base, rowmap, 0, False
    scratch = num_actions
    for s in range(npub):
        if pkind[s] < 2:
            continue
        k = k0 if pkind[s] == 2 else k1
        for x in range(k):
            if rowmap[base[s] + x] == -1:
                rowmap[base[s] + x] = scratch
                scratch += pstart[s + 1] - pstart[s]
    return base, rowmap, scratch, True


def factor(cg: CompiledGame, max_growth: float = 4.0) -> PublicTree | None:
    """The public tree of ``cg``, or ``None`` when the game does not factor.

    The deal is the chance nodes met before any decision (breadth first); each deal's
    subtree is aligned with the others on its action sequence (one public node per
    sequence, mid-game chance outcomes included); a player's private state is the class
    of deals they cannot tell apart at any of their public nodes. The game factors when
    all deals' subtrees have the same kinds of nodes and legal actions, each information
    set lies in one public node and is decided by the private state.
    ``max_growth`` bounds the dense payoff matrices against the number of terminal
    histories (card removal leaves some private-state pairs empty).
    """
    if cg.mode != "tree" or not cg.perfect_recall_rows:
        return None
    n = cg.num_internal
    ok, deals, deal_of, pub_int, pub_term, pkind, tri_parent, tri_child = _align(
        cg.kind, cg.edge_start, cg.edge_child, cg.edge_action, cg.infoset, cg.num_nodes
    )
    if not ok:
        return None
    states = []
    for p in (0, 1):
        roots, ok = _private_states(
            cg.kind, cg.infoset, pub_int, deal_of, len(deals), cg.num_infosets, p
        )
        if not ok:
            return None
        states.append(np.unique(roots, return_inverse=True)[1].astype(np.int64))
    k0, k1 = int(states[0].max()) + 1, int(states[1].max()) + 1
    num_terminals = int(pub_term.max()) + 1 if pub_term.size else 0
    if num_terminals * k0 * k1 > max_growth * max(cg.num_terminals, 1):
        return None
    npub = len(pkind)
    order = np.argsort(tri_parent, kind="stable")
    start = np.zeros(npub + 1, dtype=np.int64)
    np.cumsum(np.bincount(tri_parent, minlength=npub), out=start[1:])
    child = tri_child[order]
    child = np.where(child < 0, npub + (-child - 1), child)
    base, rowmap, num_rows, ok = _row_slots(
        cg.kind,
        cg.infoset,
        cg.infoset_offset,
        pub_int,
        deal_of,
        pkind,
        start,
        states[0],
        states[1],
        k0,
        k1,
        cg.num_actions,
    )
    if not ok:
        return None
    reach = _chance_reach(cg.kind, cg.edge_start, cg.edge_child, cg.edge_prob, cg.num_nodes)
    terminals = np.flatnonzero(pub_term >= 0)
    d = deal_of[n + terminals]
    payoff = np.zeros((num_terminals, k0, k1))
    np.add.at(
        payoff,
        (pub_term[terminals], states[0][d], states[1][d]),
        reach[n + terminals] * cg.utility[terminals],
    )
    return PublicTree(
        kind=pkind,
        start=start,
        child=child,
        base=base,
        rowmap=rowmap,
        payoff=payoff,
        num_states=(k0, k1),
        num_rows=int(num_rows),
    )


@njit(cache=True)
def public_pass(kind, start, child, base, rowmap, payoff, payoff_t, sigma, p, reach, cfv, regret):
    """One player's CFR pass on the public tree: reaches of the opponent's private states
    down, counterfactual values of ``p``'s private states up, regrets added to rows."""
    n = kind.shape[0]
    o = 1 - p
    ko = payoff.shape[2] if p == 0 else payoff.shape[1]
    kp = payoff.shape[1] if p == 0 else payoff.shape[2]
    for x in range(ko):
        reach[0, x] = 1.0
    for s in range(n):
        lo = start[s]
        hi = start[s + 1]
        if kind[s] - 2 == o:
            b = base[s]
            for e in range(lo, hi):
                c = child[e]
                a = e - lo
                for x in range(ko):
                    reach[c, x] = reach[s, x] * sigma[rowmap[b + x] + a]
        else:
            for e in range(lo, hi):
                c = child[e]
                for x in range(ko):
                    reach[c, x] = reach[s, x]
    # Terminals: cfv = payoff (for p) times the opponent's reach.
    mat = payoff if p == 0 else payoff_t
    for t in range(mat.shape[0]):
        c = n + t
        for x in range(kp):
            v = 0.0
            for y in range(ko):
                v += mat[t, x, y] * reach[c, y]
            cfv[c, x] = v
    for s in range(n - 1, -1, -1):
        lo = start[s]
        hi = start[s + 1]
        if kind[s] - 2 == p:
            b = base[s]
            for x in range(kp):
                row = rowmap[b + x]
                v = 0.0
                for e in range(lo, hi):
                    v += sigma[row + e - lo] * cfv[child[e], x]
                for e in range(lo, hi):
                    regret[row + e - lo] += cfv[child[e], x] - v
                cfv[s, x] = v
        else:
            for x in range(kp):
                cfv[s, x] = 0.0
            for e in range(lo, hi):
                c = child[e]
                for x in range(kp):
                    cfv[s, x] += cfv[c, x]


@njit(cache=True)
def run_iterations_public(
    kind,
    start,
    child,
    base,
    rowmap,
    payoff,
    payoff_t,
    offset,
    iplayer,
    infos0,
    infos1,
    parent_row,
    row_owner,
    regret,
    strat_sum,
    sigma,
    reach,
    cfv,
    own,
    pred,
    t0,
    count,
    plus,
    alpha,
    beta,
    gamma,
    predictive,
):
    """``count`` iterations of alternating-update CFR on the public tree (see
    :func:`analysis.solve.kernels.run_iterations` for the methods and ``pred``)."""
    if predictive:
        predictive_matching(regret, pred, offset, iplayer, -1, sigma)
    else:
        regret_matching(regret, offset, iplayer, -1, sigma)
    for it in range(count):
        t = t0 + it + 1
        for p in range(2):
            own_reach_rows(iplayer, parent_row, row_owner, sigma, p, own)
            infos = infos0 if p == 0 else infos1
            if predictive:
                clear_rows(infos, offset, pred)
                public_pass(
                    kind, start, child, base, rowmap, payoff, payoff_t, sigma, p, reach, cfv, pred
                )
                update_player_predictive(
                    t, infos, offset, regret, pred, strat_sum, sigma, own, plus, alpha, gamma
                )
                continue
            public_pass(
                kind, start, child, base, rowmap, payoff, payoff_t, sigma, p, reach, cfv, regret
            )
            update_player(
                t,
                infos,
                offset,
                regret,
                strat_sum,
                sigma,
                own,
                plus,
                alpha,
                beta,
                gamma,
            )
