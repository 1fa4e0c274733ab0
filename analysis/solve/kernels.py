"""The numba-compiled passes over a :class:`~analysis.solve.compiled.CompiledGame`'s arrays.

A top-down pass (reaches) runs over node ids in increasing order, a bottom-up pass
(values, regrets) in decreasing order; child ids ``>= n`` are terminals. On a state graph
reaches are summed over the parents (``tree=False``). Node kinds: 1 chance, 2 player 0,
3 player 1; information set ``i`` owns rows ``offset[i]:offset[i + 1]``.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def regret_matching(regret, offset, iplayer, player, sigma):
    """Current strategy from positive cumulative regrets; uniform when none is positive.

    ``player < 0`` updates every information set.
    """
    for i in range(iplayer.shape[0]):
        if player >= 0 and iplayer[i] != player:
            continue
        _match_row(regret, sigma, offset[i], offset[i + 1])


@njit(cache=True, inline="always")
def _match_row(regret, sigma, lo, hi):
    total = 0.0
    for j in range(lo, hi):
        if regret[j] > 0.0:
            total += regret[j]
    _set_row(regret, sigma, lo, hi, total)


@njit(cache=True, inline="always")
def _set_row(regret, sigma, lo, hi, total):
    # One formula everywhere, so that a resumed run repeats a straight run bit for bit.
    if total > 0.0:
        scale = 1.0 / total
        for j in range(lo, hi):
            sigma[j] = regret[j] * scale if regret[j] > 0.0 else 0.0
    else:
        uniform = 1.0 / (hi - lo)
        for j in range(lo, hi):
            sigma[j] = uniform


@njit(cache=True)
def predictive_matching(regret, pred, offset, iplayer, player, sigma):
    """Current strategy of the predictive methods: regret matching on
    ``regret + pred`` (the cumulative regrets plus the prediction); uniform when no sum
    is positive. ``player < 0`` updates every information set."""
    for i in range(iplayer.shape[0]):
        if player >= 0 and iplayer[i] != player:
            continue
        _predict_row(regret, pred, sigma, offset[i], offset[i + 1])


@njit(cache=True, inline="always")
def _predict_row(regret, pred, sigma, lo, hi):
    # One formula everywhere, so that a resumed run repeats a straight run bit for bit.
    total = 0.0
    for j in range(lo, hi):
        q = regret[j] + pred[j]
        if q > 0.0:
            total += q
    if total > 0.0:
        scale = 1.0 / total
        for j in range(lo, hi):
            q = regret[j] + pred[j]
            sigma[j] = q * scale if q > 0.0 else 0.0
    else:
        uniform = 1.0 / (hi - lo)
        for j in range(lo, hi):
            sigma[j] = uniform


@njit(cache=True, inline="always")
def _child_value(value, utility, c, n, sign):
    # Child ids >= n are terminals; ``sign`` turns player 0's utility into the mover's.
    return value[c] if c < n else sign * utility[c - n]


@njit(cache=True, inline="always")
def _mixed_value(weights, row, lo, hi, echild, value, utility, n, sign):
    """Sum over edges ``lo:hi`` of ``weights[row + e]`` times the child's value."""
    v = 0.0
    for e in range(lo, hi):
        v += weights[row + e] * _child_value(value, utility, echild[e], n, sign)
    return v


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
def forward_other(kind, infoset, estart, echild, eprob, offset, sigma, p, tree, reach):
    """Reach of player ``p``'s opponent times chance (``p``'s own moves count as 1)."""
    # The tree (assign) and graph (sum) loops are written out on purpose: one shared loop
    # with the choice inside measured 1.7x slower per CFR iteration on a Coup endgame.
    n = kind.shape[0]
    if not tree:
        reach[:] = 0.0
    reach[0] = 1.0
    for h in range(n):
        r = reach[h]
        lo = estart[h]
        hi = estart[h + 1]
        k = kind[h]
        if tree:
            if k == 1:
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] = r * eprob[e]
            elif k - 2 == p:
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] = r
            else:
                row = offset[infoset[h]] - lo
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] = r * sigma[row + e]
        elif r != 0.0:
            if k == 1:
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] += r * eprob[e]
            elif k - 2 == p:
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] += r
            else:
                row = offset[infoset[h]] - lo
                for e in range(lo, hi):
                    c = echild[e]
                    if c < n:
                        reach[c] += r * sigma[row + e]


@njit(cache=True)
def own_reach_nodes(kind, infoset, estart, echild, offset, sigma, p, reach, own):
    """Player ``p``'s own reach summed over the nodes of each of ``p``'s information sets
    (state graphs, where an information set's nodes may be reached differently)."""
    n = kind.shape[0]
    reach[:] = 0.0
    reach[0] = 1.0
    own[:] = 0.0
    for h in range(n):
        r = reach[h]
        if r == 0.0:
            continue
        lo = estart[h]
        hi = estart[h + 1]
        if kind[h] - 2 == p:
            i = infoset[h]
            own[i] += r
            row = offset[i] - lo
            for e in range(lo, hi):
                c = echild[e]
                if c < n:
                    reach[c] += r * sigma[row + e]
        else:
            for e in range(lo, hi):
                c = echild[e]
                if c < n:
                    reach[c] += r


@njit(cache=True)
def own_reach_rows(iplayer, parent_row, row_owner, sigma, p, own):
    """Player ``p``'s own reach of each information set from the previous own action
    (perfect recall); parents are numbered before children."""
    for i in range(iplayer.shape[0]):
        if iplayer[i] == p:
            r = parent_row[i]
            own[i] = 1.0 if r < 0 else own[row_owner[r]] * sigma[r]


@njit(cache=True)
def cfr_backward(
    kind, infoset, estart, echild, eprob, utility, offset, sigma, p, sign, value, reach, regret
):
    """Values for player ``p`` under ``sigma``; adds ``p``'s counterfactual regrets.

    Nodes the opponent and chance never reach are skipped: their regrets are weighted by
    zero and their values by a zero edge above them.
    """
    n = kind.shape[0]
    for h in range(n - 1, -1, -1):
        ro = reach[h]
        if ro == 0.0:
            value[h] = 0.0
            continue
        lo = estart[h]
        hi = estart[h + 1]
        k = kind[h]
        if k == 1:
            v = _mixed_value(eprob, 0, lo, hi, echild, value, utility, n, sign)
        else:
            row = offset[infoset[h]] - lo
            v = _mixed_value(sigma, row, lo, hi, echild, value, utility, n, sign)
            if k - 2 == p:
                for e in range(lo, hi):
                    c = echild[e]
                    regret[row + e] += ro * (_child_value(value, utility, c, n, sign) - v)
        value[h] = v


@njit(cache=True, inline="always")
def discount(t, plus, alpha, beta, gamma, quadratic):
    """Iteration ``t``'s weights ``(pos, neg, avg, weight)``: after the iteration the
    positive regrets are multiplied by ``pos`` and the negative ones by ``neg``, and the
    strategy played, weighted by ``weight`` times own reach, is added to the strategy sum,
    then multiplied by ``avg``. CFR+ (``plus``): regrets floored, the average weighted by
    ``t`` (by ``t^2`` when ``quadratic``); otherwise DCFR's ``t^alpha / (t^alpha + 1)``,
    ``t^beta / (t^beta + 1)`` and ``(t / (t + 1))^gamma``."""
    if plus:
        return 1.0, 0.0, 1.0, float(t) * float(t) if quadratic else float(t)
    ta = float(t) ** alpha
    tb = float(t) ** beta
    return ta / (ta + 1.0), tb / (tb + 1.0), (t / (t + 1.0)) ** gamma, 1.0


@njit(cache=True)
def update_player(t, infos, offset, regret, strat_sum, sigma, own, plus, alpha, beta, gamma):
    """After a player's pass of iteration ``t``: floor (CFR+) or discount their regrets, add
    ``sigma`` weighted by own reach to the strategy sum, and regret-match ``sigma`` anew
    (the weights: :func:`discount`).

    ``infos`` lists the player's information sets.
    """
    pos, neg, avg, weight = discount(t, plus, alpha, beta, gamma, False)
    for k in range(infos.shape[0]):
        i = infos[k]
        lo = offset[i]
        hi = offset[i + 1]
        w = weight * own[i]
        total = 0.0
        for j in range(lo, hi):
            r = regret[j]
            r = r * pos if r > 0.0 else r * neg
            regret[j] = r
            strat_sum[j] = (strat_sum[j] + w * sigma[j]) * avg
            if r > 0.0:
                total += r
        _set_row(regret, sigma, lo, hi, total)


@njit(cache=True)
def clear_rows(infos, offset, rows):
    """Zero the rows of the information sets ``infos``."""
    for k in range(infos.shape[0]):
        i = infos[k]
        for j in range(offset[i], offset[i + 1]):
            rows[j] = 0.0


@njit(cache=True)
def update_player_predictive(
    t, infos, offset, regret, pred, strat_sum, sigma, own, plus, alpha, gamma
):
    """The predictive methods' :func:`update_player`: ``pred`` holds the player's
    instantaneous regrets ``r`` of iteration ``t``. Cumulative regrets become
    ``max(R + r, 0)`` (``plus``: PCFR+), or that times ``t^alpha / (t^alpha + 1)``
    (PDCFR+); ``sigma`` (the strategy played this iteration) is added to the strategy sum,
    weighted by own reach times ``t^2`` (PCFR+) or, for PDCFR+, the sum is then multiplied
    by ``(t / (t + 1))^gamma`` (weights proportional to ``t^gamma``); the next strategy is
    regret matching on ``R + r`` (``r`` kept as the prediction of the next ``r``).
    """
    pos, _, avg, weight = discount(t, plus, alpha, 0.0, gamma, True)
    for k in range(infos.shape[0]):
        i = infos[k]
        lo = offset[i]
        hi = offset[i + 1]
        w = weight * own[i]
        for j in range(lo, hi):
            r = regret[j] + pred[j]
            regret[j] = r * pos if r > 0.0 else 0.0
            strat_sum[j] = (strat_sum[j] + w * sigma[j]) * avg
        _predict_row(regret, pred, sigma, lo, hi)


@njit(cache=True)
def run_iterations(
    kind,
    infoset,
    estart,
    echild,
    eprob,
    utility,
    offset,
    iplayer,
    infos0,
    infos1,
    parent_row,
    row_owner,
    tree,
    regret,
    strat_sum,
    sigma,
    reach,
    value,
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
    """Run ``count`` iterations (numbers ``t0 + 1 ...``) of alternating-update CFR.

    ``plus``: CFR+ (regrets floored at zero, average weighted by ``t``). Otherwise
    discounted CFR: after iteration ``t`` positive regrets are multiplied by
    ``t^alpha / (t^alpha + 1)``, negative ones by ``t^beta / (t^beta + 1)`` and the
    strategy sum by ``(t / (t + 1))^gamma`` (linear CFR is alpha = beta = gamma = 1).
    ``predictive``: PCFR+ (``plus``) or PDCFR+, see :func:`update_player_predictive`;
    the player's instantaneous regrets go to ``pred`` (one row each, as ``regret``)
    instead of ``regret``, and stay there as the next iteration's prediction. Otherwise
    ``pred`` is not used (it may be empty).
    ``tree``: one parent a node and own reaches per information set (``parent_row``).
    """
    if predictive:
        predictive_matching(regret, pred, offset, iplayer, -1, sigma)
    else:
        regret_matching(regret, offset, iplayer, -1, sigma)
    for it in range(count):
        t = t0 + it + 1
        for p in range(2):
            if tree:
                own_reach_rows(iplayer, parent_row, row_owner, sigma, p, own)
            else:
                own_reach_nodes(kind, infoset, estart, echild, offset, sigma, p, reach, own)
            forward_other(kind, infoset, estart, echild, eprob, offset, sigma, p, tree, reach)
            sign = 1.0 if p == 0 else -1.0
            infos = infos0 if p == 0 else infos1
            # Predictive methods keep this iteration's regrets apart, as the next prediction.
            if predictive:
                clear_rows(infos, offset, pred)
            target = pred if predictive else regret
            cfr_backward(kind, infoset, estart, echild, eprob, utility, offset, sigma, p, sign,
                         value, reach, target)
            if predictive:
                update_player_predictive(
                    t, infos, offset, regret, pred, strat_sum, sigma, own, plus, alpha, gamma
                )
            else:
                update_player(t, infos, offset, regret, strat_sum, sigma, own, plus, alpha, beta,
                              gamma)


@njit(cache=True)
def expected_value(kind, infoset, estart, echild, eprob, utility, offset, strategy, value):
    """Player 0's expected utility when both players follow ``strategy``."""
    n = kind.shape[0]
    for h in range(n - 1, -1, -1):
        lo = estart[h]
        hi = estart[h + 1]
        if kind[h] == 1:
            value[h] = _mixed_value(eprob, 0, lo, hi, echild, value, utility, n, 1.0)
        else:
            row = offset[infoset[h]] - lo
            value[h] = _mixed_value(strategy, row, lo, hi, echild, value, utility, n, 1.0)
    return value[0]


@njit(cache=True)
def best_response(
    kind,
    infoset,
    estart,
    echild,
    eprob,
    utility,
    offset,
    iplayer,
    strategy,
    p,
    tree,
    reach,
    value,
    q,
    choice,
    max_passes,
):
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
    forward_other(kind, infoset, estart, echild, eprob, offset, strategy, p, tree, reach)
    sign = 1.0 if p == 0 else -1.0
    for i in range(iplayer.shape[0]):
        choice[i] = 0
    for passes in range(1, max_passes + 1):
        for i in range(iplayer.shape[0]):
            if iplayer[i] == p:
                for j in range(offset[i], offset[i + 1]):
                    q[j] = 0.0
        for h in range(n - 1, -1, -1):
            ro = reach[h]
            if ro == 0.0 and h != 0:
                value[h] = 0.0
                continue
            lo = estart[h]
            hi = estart[h + 1]
            k = kind[h]
            if k == 1:
                v = _mixed_value(eprob, 0, lo, hi, echild, value, utility, n, sign)
            elif k - 2 == p:
                i = infoset[h]
                row = offset[i] - lo
                for e in range(lo, hi):
                    q[row + e] += ro * _child_value(value, utility, echild[e], n, sign)
                v = _child_value(value, utility, echild[lo + choice[i]], n, sign)
            else:
                row = offset[infoset[h]] - lo
                v = _mixed_value(strategy, row, lo, hi, echild, value, utility, n, sign)
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
            return value[0], passes
    return value[0], max_passes + 1
