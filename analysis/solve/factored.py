"""Public-tree CFR: the same iterations, vectorised over the players' private states.

Many card games deal private cards first and then play public actions (Kuhn, Leduc,
Liar's Dice): every deal plays out the same *public tree*, and a player's information
set is (public node, own private state). CFR then needs, per public node, one reach
vector over the opponent's private states and one counterfactual-value vector over the
updating player's private states, instead of one number per history; terminals become
small dense payoff matrices over private-state pairs (chance probabilities folded in).
That is far less work than the history tree, and it streams.

:func:`factor` finds this structure in any tree-mode :class:`CompiledGame` from its arrays
alone, and returns ``None`` when the game does not have it (a hidden action, private
chance after the deal, legal actions that depend on private cards, ...): the solver then
runs on the history tree. Regret, strategy and own-reach rows are those of the compiled
game, so the iterates are the history-tree iterates, summed in another order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from analysis.solve.compile import CHANCE, CompiledGame
from analysis.solve.kernels import own_reach_rows, regret_matching, update_player


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


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@njit(cache=True)
def _chance_reach(kind, estart, echild, eprob, n_total):
    reach = np.zeros(n_total)
    reach[0] = 1.0
    n = kind.shape[0]
    for h in range(n):
        for e in range(estart[h], estart[h + 1]):
            reach[echild[e]] = reach[h] * (eprob[e] if kind[h] == CHANCE else 1.0)
    return reach


def factor(cg: CompiledGame, max_growth: float = 4.0) -> PublicTree | None:
    """The public tree of ``cg``, or ``None`` when the game does not factor.

    ``max_growth`` bounds the dense payoff matrices against the number of terminal
    histories (card removal leaves some private-state pairs empty).
    """
    if cg.mode != "tree" or not cg.perfect_recall_rows:
        return None
    n = cg.num_internal
    kind, estart, echild = cg.kind, cg.edge_start, cg.edge_child
    reach = _chance_reach(kind, estart, echild, cg.edge_prob, cg.num_nodes)
    # The deal: chance nodes from the root down to the first decisions.
    deals: list[int] = []
    frontier = [0]
    while frontier:
        h = frontier.pop()
        if h >= n:
            return None  # the game can end during the deal
        if kind[h] == CHANCE and _all_chance_above(cg, h):
            frontier.extend(echild[estart[h] : estart[h + 1]].tolist())
        else:
            deals.append(h)
    deals.sort()
    if any(kind[h] == CHANCE for h in deals):
        return None
    num_deals = len(deals)
    # Align the deals' subtrees on their action sequences: one public node per sequence.
    public_members: list[list[tuple[int, int]]] = [[(d, h) for d, h in enumerate(deals)]]
    p_kind: list[int] = []
    p_start: list[int] = [0]
    p_child: list[int] = []
    terminal_members: list[list[tuple[int, int]]] = []
    pending_terminal: list[int] = []  # child slots pointing at terminals, fixed up below
    s = 0
    while s < len(public_members):
        members = public_members[s]
        h0 = members[0][1]
        k = int(kind[h0])
        if any(int(kind[h]) != k for _, h in members):
            return None
        groups: dict[int, list[tuple[int, int]]] = {}
        order: list[int] = []
        terminal_groups: dict[int, bool] = {}
        if k == CHANCE:
            for d, h in members:
                for e in range(estart[h], estart[h + 1]):
                    a = int(cg.edge_action[e])
                    if a not in groups:
                        groups[a] = []
                        order.append(a)
                    groups[a].append((d, int(echild[e])))
        else:
            acts = cg.edge_action[estart[h0] : estart[h0 + 1]]
            for d, h in members:
                if not np.array_equal(cg.edge_action[estart[h] : estart[h + 1]], acts):
                    return None  # legal actions depend on private information
                for a, e in zip(acts.tolist(), range(estart[h], estart[h + 1]), strict=True):
                    if a not in groups:
                        groups[a] = []
                        order.append(a)
                    groups[a].append((d, int(echild[e])))
        for a in order:
            group = groups[a]
            is_terminal = [c >= n for _, c in group]
            if any(is_terminal) != all(is_terminal):
                return None
            terminal_groups[a] = is_terminal[0]
            if terminal_groups[a]:
                pending_terminal.append(len(p_child))
                p_child.append(len(terminal_members))
                terminal_members.append(group)
            else:
                p_child.append(len(public_members))
                public_members.append(group)
        p_kind.append(k)
        p_start.append(len(p_child))
        s += 1
    num_internal = len(public_members)
    child = np.asarray(p_child, dtype=np.int64)
    child[pending_terminal] += num_internal
    # Private states: deals a player cannot tell apart at some public node are one state.
    states: list[np.ndarray] = []
    for p in (0, 1):
        uf = _UnionFind(num_deals)
        for s, members in enumerate(public_members):
            if p_kind[s] != 2 + p:
                continue
            first: dict[int, int] = {}
            for d, h in members:
                i = int(cg.infoset[h])
                if i in first:
                    uf.union(first[i], d)
                else:
                    first[i] = d
        roots = np.array([uf.find(d) for d in range(num_deals)])
        _, state = np.unique(roots, return_inverse=True)
        states.append(state.astype(np.int64))
    k0, k1 = int(states[0].max()) + 1, int(states[1].max()) + 1
    num_terminals = len(terminal_members)
    if num_terminals * k0 * k1 > max_growth * max(cg.num_terminals, 1):
        return None
    # Each information set must be one (public node, private state): check, and map rows.
    infoset_node = np.full(cg.num_infosets, -1, dtype=np.int64)
    base = np.zeros(num_internal, dtype=np.int64)
    rowmap: list[int] = []
    scratch = cg.num_actions
    for s, members in enumerate(public_members):
        if p_kind[s] == CHANCE:
            continue
        p = p_kind[s] - 2
        width = p_start[s + 1] - p_start[s]
        slots = [-1] * (k0 if p == 0 else k1)
        for d, h in members:
            i = int(cg.infoset[h])
            x = int(states[p][d])
            row = int(cg.infoset_offset[i])
            if infoset_node[i] == -1:
                infoset_node[i] = s
            elif infoset_node[i] != s:
                return None  # an information set spans public nodes: a hidden action
            if slots[x] == -1:
                slots[x] = row
            elif slots[x] != row:
                return None  # the private state does not decide the information set
        for x, row in enumerate(slots):
            if row == -1:
                slots[x] = scratch
                scratch += width
        base[s] = len(rowmap)
        rowmap.extend(slots)
    payoff = np.zeros((num_terminals, k0, k1))
    for t, group in enumerate(terminal_members):
        for d, c in group:
            payoff[t, states[0][d], states[1][d]] += reach[c] * cg.utility[c - n]
    return PublicTree(
        kind=np.asarray(p_kind, dtype=np.int8),
        start=np.asarray(p_start, dtype=np.int64),
        child=child,
        base=base,
        rowmap=np.asarray(rowmap, dtype=np.int64),
        payoff=payoff,
        num_states=(k0, k1),
        num_rows=scratch,
    )


def _all_chance_above(cg: CompiledGame, h: int) -> bool:
    # Nodes are breadth-first, so the deal is the chance nodes met before any decision;
    # a chance node below a decision is public chance inside the public tree.
    return not np.any(cg.kind[:h] != CHANCE)


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
    t0,
    count,
    plus,
    alpha,
    beta,
    gamma,
):
    """``count`` iterations of alternating-update CFR on the public tree (see
    :func:`analysis.solve.kernels.run_iterations` for the methods)."""
    regret_matching(regret, offset, iplayer, -1, sigma)
    for it in range(count):
        t = t0 + it + 1
        for p in range(2):
            own_reach_rows(iplayer, parent_row, row_owner, sigma, p, own)
            public_pass(
                kind, start, child, base, rowmap, payoff, payoff_t, sigma, p, reach, cfv, regret
            )
            update_player(
                t,
                infos0 if p == 0 else infos1,
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
