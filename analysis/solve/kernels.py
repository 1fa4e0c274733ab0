"""The numba-compiled passes over a :class:`~analysis.solve.compile.CompiledGame`'s arrays.

Nodes are numbered children-first, so a forward (top-down) pass runs over node ids in
decreasing order and a backward (bottom-up) pass in increasing order; both are single
sweeps over contiguous arrays. Reaches are pushed to children with ``+=``, which makes
the same passes correct on a state graph, where a node may have several parents.

Node kinds: 0 terminal, 1 chance, 2 player 0, 3 player 1 (see ``compile.py``).
Strategy and regret rows are flat: information set ``i`` owns
``offset[i]:offset[i + 1]``, in the order of the node's edges.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def regret_matching(regret, offset, iplayer, player, sigma):
    """Current strategy from (positive) cumulative regrets; uniform when none is positive.

    ``player < 0`` updates every information set.
    """
    for i in range(iplayer.shape[0]):
        if player >= 0 and iplayer[i] != player:
            continue
        lo = offset[i]
        hi = offset[i + 1]
        total = 0.0
        for j in range(lo, hi):
            if regret[j] > 0.0:
                total += regret[j]
        if total > 0.0:
            for j in range(lo, hi):
                sigma[j] = regret[j] / total if regret[j] > 0.0 else 0.0
        else:
            uniform = 1.0 / (hi - lo)
            for j in range(lo, hi):
                sigma[j] = uniform


@njit(cache=True)
def normalize_rows(weights, offset, out):
    """Rows of ``weights`` divided by their sums (uniform for empty rows): the average strategy."""
    for i in range(offset.shape[0] - 1):
        lo = offset[i]
        hi = offset[i + 1]
        total = 0.0
        for j in range(lo, hi):
            total += weights[j]
        if total > 0.0:
            for j in range(lo, hi):
                out[j] = weights[j] / total
        else:
            for j in range(lo, hi):
                out[j] = 1.0 / (hi - lo)


@njit(cache=True)
def forward(kind, infoset, estart, echild, eprob, offset, sigma, p, reach_self, reach_other):
    """Reach probabilities: ``reach_self`` of player ``p``, ``reach_other`` of the opponent
    times chance."""
    n = kind.shape[0]
    reach_self[:] = 0.0
    reach_other[:] = 0.0
    reach_self[n - 1] = 1.0
    reach_other[n - 1] = 1.0
    for h in range(n - 1, -1, -1):
        k = kind[h]
        if k == 0:
            continue
        rs = reach_self[h]
        ro = reach_other[h]
        if rs == 0.0 and ro == 0.0:
            continue
        lo = estart[h]
        hi = estart[h + 1]
        if k == 1:
            for e in range(lo, hi):
                c = echild[e]
                reach_self[c] += rs
                reach_other[c] += ro * eprob[e]
        elif k - 2 == p:
            row = offset[infoset[h]] - lo
            for e in range(lo, hi):
                c = echild[e]
                reach_self[c] += rs * sigma[row + e]
                reach_other[c] += ro
        else:
            row = offset[infoset[h]] - lo
            for e in range(lo, hi):
                c = echild[e]
                reach_self[c] += rs
                reach_other[c] += ro * sigma[row + e]


@njit(cache=True)
def cfr_backward(kind, infoset, estart, echild, eprob, offset, sigma, p, sign, utility, value,
                 reach_other, regret):
    """Values for player ``p`` under ``sigma``; adds ``p``'s counterfactual regrets to ``regret``.

    Subtrees the opponent and chance never reach are skipped: their regrets are weighted
    by zero and their values by a zero edge above them.
    """
    n = kind.shape[0]
    for h in range(n):
        k = kind[h]
        if k == 0:
            value[h] = sign * utility[h]
            continue
        ro = reach_other[h]
        if ro == 0.0:
            value[h] = 0.0
            continue
        lo = estart[h]
        hi = estart[h + 1]
        v = 0.0
        if k == 1:
            for e in range(lo, hi):
                v += eprob[e] * value[echild[e]]
        else:
            row = offset[infoset[h]] - lo
            for e in range(lo, hi):
                v += sigma[row + e] * value[echild[e]]
            if k - 2 == p:
                for e in range(lo, hi):
                    regret[row + e] += ro * (value[echild[e]] - v)
        value[h] = v


@njit(cache=True)
def own_reach_per_infoset(kind, infoset, p, reach_self, out):
    """Sum of player ``p``'s own reach over the nodes of each of ``p``'s information sets."""
    out[:] = 0.0
    for h in range(kind.shape[0]):
        if kind[h] - 2 == p:
            out[infoset[h]] += reach_self[h]


@njit(cache=True)
def run_iterations(kind, infoset, estart, echild, eprob, utility, offset, iplayer,
                   regret, strat_sum, sigma, reach_self, reach_other, value, own,
                   t0, count, plus, alpha, beta, gamma):
    """Run ``count`` iterations (numbers ``t0 + 1 ...``) of alternating-update CFR.

    ``plus``: CFR+ (regrets floored at zero, average weighted by ``t``). Otherwise
    discounted CFR: after iteration ``t`` positive regrets are multiplied by
    ``t^alpha / (t^alpha + 1)``, negative ones by ``t^beta / (t^beta + 1)`` and the
    strategy sum by ``(t / (t + 1))^gamma`` (linear CFR is alpha = beta = gamma = 1).
    """
    for it in range(count):
        t = t0 + it + 1
        for p in range(2):
            regret_matching(regret, offset, iplayer, -1, sigma)
            forward(kind, infoset, estart, echild, eprob, offset, sigma, p, reach_self,
                    reach_other)
            own_reach_per_infoset(kind, infoset, p, reach_self, own)
            sign = 1.0 if p == 0 else -1.0
            cfr_backward(kind, infoset, estart, echild, eprob, offset, sigma, p, sign, utility,
                         value, reach_other, regret)
            if plus:
                weight = float(t)
                for i in range(iplayer.shape[0]):
                    if iplayer[i] != p:
                        continue
                    for j in range(offset[i], offset[i + 1]):
                        if regret[j] < 0.0:
                            regret[j] = 0.0
                        strat_sum[j] += weight * own[i] * sigma[j]
            else:
                ta = float(t) ** alpha
                tb = float(t) ** beta
                pos = ta / (ta + 1.0)
                neg = tb / (tb + 1.0)
                avg = (t / (t + 1.0)) ** gamma
                for i in range(iplayer.shape[0]):
                    if iplayer[i] != p:
                        continue
                    for j in range(offset[i], offset[i + 1]):
                        if regret[j] > 0.0:
                            regret[j] *= pos
                        else:
                            regret[j] *= neg
                        strat_sum[j] = (strat_sum[j] + own[i] * sigma[j]) * avg


@njit(cache=True)
def expected_value(kind, infoset, estart, echild, eprob, utility, offset, strategy, value):
    """Player 0's expected utility when both players follow ``strategy``."""
    for h in range(kind.shape[0]):
        k = kind[h]
        if k == 0:
            value[h] = utility[h]
            continue
        lo = estart[h]
        hi = estart[h + 1]
        v = 0.0
        if k == 1:
            for e in range(lo, hi):
                v += eprob[e] * value[echild[e]]
        else:
            row = offset[infoset[h]] - lo
            for e in range(lo, hi):
                v += strategy[row + e] * value[echild[e]]
        value[h] = v
    return value[kind.shape[0] - 1]


@njit(cache=True)
def best_response(kind, infoset, estart, echild, eprob, utility, offset, iplayer, strategy, p,
                  reach_self, reach_other, value, q, choice, max_passes):
    """Value of player ``p``'s best response to the opponent's part of ``strategy``.

    The opponent-and-chance reach is fixed by ``strategy``; the best response is found by
    repeated bottom-up passes: each pass values every node under the current choices and
    then picks, at every information set, the action with the largest counterfactual
    value summed over its nodes. A choice is right once the choices below it are, so with
    perfect recall (or an acyclic ordering of information sets) the choices settle after
    at most one pass per level of ``p``'s information sets, plus one pass that confirms.
    Returns ``(value, passes)``; ``passes == max_passes + 1`` means it did not settle.
    ``choice`` receives the chosen slot of each of ``p``'s information sets.
    """
    n = kind.shape[0]
    forward(kind, infoset, estart, echild, eprob, offset, strategy, p, reach_self, reach_other)
    sign = 1.0 if p == 0 else -1.0
    for i in range(iplayer.shape[0]):
        choice[i] = 0
    for passes in range(1, max_passes + 1):
        for i in range(iplayer.shape[0]):
            if iplayer[i] == p:
                for j in range(offset[i], offset[i + 1]):
                    q[j] = 0.0
        for h in range(n):
            k = kind[h]
            if k == 0:
                value[h] = sign * utility[h]
                continue
            ro = reach_other[h]
            if ro == 0.0 and h != n - 1:
                value[h] = 0.0
                continue
            lo = estart[h]
            hi = estart[h + 1]
            v = 0.0
            if k == 1:
                for e in range(lo, hi):
                    v += eprob[e] * value[echild[e]]
            elif k - 2 == p:
                i = infoset[h]
                row = offset[i] - lo
                for e in range(lo, hi):
                    q[row + e] += ro * value[echild[e]]
                v = value[echild[lo + choice[i]]]
            else:
                row = offset[infoset[h]] - lo
                for e in range(lo, hi):
                    v += strategy[row + e] * value[echild[e]]
            value[h] = v
        changed = False
        for i in range(iplayer.shape[0]):
            if iplayer[i] != p:
                continue
            lo = offset[i]
            best = 0
            best_q = q[lo]
            for j in range(lo + 1, offset[i + 1]):
                if q[j] > best_q:
                    best_q = q[j]
                    best = j - lo
            # Keep the old choice on an exact tie so the passes settle.
            if best != choice[i] and q[lo + choice[i]] < best_q:
                    choice[i] = best
                    changed = True
        if not changed:
            return value[n - 1], passes
    return value[n - 1], max_passes + 1
