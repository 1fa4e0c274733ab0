"""The deal-lifted walk of a hidden-villain battle, compiled with numba.

The same walk as :class:`analysis.solve.lifted._LiftedWalk` over
:class:`games.cobardes.hidden.LiftedBattleWalker` (with the public cut of
:mod:`analysis.cobardes.solvers.trunk`), on the packed int64 rows of :mod:`games.cobardes.packed`:
hands and masks are bit operations, keys are three integers, and the public subgames are
valued by the compiled exact solver inside the walk. It numbers nodes, edges, terminals
and information sets in the Python walk's order, so the expansion
(:mod:`analysis.solve.lifted_expand`) builds the same graph, array for array (tested).
Printable keys and action names are read after the walk from one position kept per
information set.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
from numba import njit, objmode, types
from numba.typed import Dict

from analysis.cobardes.solvers.fast_exact import FastExactSolver, solve_packed
from analysis.cobardes.solvers.fast_outcomes import BITS, CLASSES, OutcomeSolver, class_table
from analysis.cobardes.solvers.fast_outcomes import _solve_outcomes as solve_outcomes
from analysis.shared.numba_clock import clock_ns
from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import shown
from analysis.solve.compiled import CHANCE as K_CHANCE
from analysis.solve.compiled import PLAYER0 as K_PLAYER0
from analysis.solve.compiled import CompiledGame
from analysis.solve.errors import GameTooLargeError, UnsupportedGameError
from analysis.solve.lifted import CONCEAL, PLAIN, REVEAL, LiftedWalkArrays, compile_walked
from analysis.solve.lifted_expand import NO_CHILD
from analysis.solve.memory import default_memory_budget, format_bytes
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.hidden import masked_infoset_key, unmask_infoset_key
from games.cobardes.packed import (
    ACTOR,
    AUX,
    BONUS,
    CA0,
    CA1,
    COMBAT,
    CT0,
    CT1,
    EXCH,
    FIRST,
    FORCED,
    FW0,
    FW1,
    H0,
    H1,
    KV0,
    KV1,
    MOD0,
    MOD1,
    NF,
    OKIND,
    OPEN,
    OWIN,
    PHASE,
    PRIV,
    QUEUE,
    QUICK,
    UNH,
    USED,
    VIL,
)
from games.cobardes.tables import effect_tables
from games.cobardes.view import action_string

# A walked row: the packed position, then the deals still to come (their number and up to
# four codes ``2 * kind + player``, kind 0 a courtier, 1 a villain).
PN = NF
PEND0 = NF + 1
W = NF + 5
_PENDING = (("court", 0), ("court", 1), ("villain", 0), ("villain", 1))

# Bytes a walked position costs while the expansion runs (its edges, keys and reveal
# tables; measured on the full battle).
PACKED_WALK_BYTES = 160

_VMASK = C.VILLAIN_MASK
_WMASK = C.WARRIOR_MASK
_TERMINAL, _CHANCE = E.TERMINAL, E.CHANCE
_NUM_ACTIONS = E.NUM_ACTIONS
_DEAL, _COMMIT, _QUICK, _INQ = E.DEAL, E.COMMIT, E.QUICK, E.INQUISITOR
_PROC_TAKE, _PROC_GIVE = E.PROC_TAKE, E.PROC_GIVE
# The walk's error codes (returned, then raised in Python with the walk's words).
_OK, _CYCLE, _TOO_LARGE, _TWICE, _DEPENDS, _NO_OUTCOMES, _ACTIONS_DIFFER = 0, 1, 2, 3, 4, 5, 6
_TICK = 1 << 14  # positions between progress reports

# Cut modes: no public cut, public subgames valued, valued with their endings.
NO_CUT, CUT, CUT_ENDINGS = 0, 1, 2


# --------------------------------------------------------------------------- rows
def to_row(pos: E.Pos) -> np.ndarray:
    """``pos`` as a walked row (its deals to come included)."""
    if pos.phase == E.DEAL:  # pack() refuses a deal to come: the deals are packed apart
        undealt = pos.copy()
        undealt.pending = ()
        undealt.phase = E.COMMIT
        base = P.pack(undealt)
        base[PHASE], base[ACTOR] = E.DEAL, E.CHANCE
    else:
        base = P.pack(pos)
    if len(pos.pending) > 4:
        raise UnsupportedGameError("the compiled walk takes at most four deals to come")
    row = np.zeros(W, np.int64)
    row[:NF] = base
    row[PN] = len(pos.pending)
    for i, pending in enumerate(pos.pending):
        row[PEND0 + i] = _PENDING.index(pending)
    return row


def to_pos(row: np.ndarray) -> E.Pos:
    """The engine position of a walked row, without its log or battlefield (what the keys
    and the action names read)."""
    v = row.tolist()
    pos = E.new_pos((v[H0], v[H1]), (v[CT0], v[CT1]), used=v[USED], unharmed=v[UNH],
                    combat=v[COMBAT], kv=(v[KV0], v[KV1]),
                    pending=[_PENDING[x] for x in v[PEND0:PEND0 + v[PN]]])
    pos.phase, pos.actor, pos.queue = v[PHASE], v[ACTOR], P._QUEUES[v[QUEUE]]
    pos.bonus, pos.priv, pos.forced, pos.first = v[BONUS], v[PRIV], v[FORCED], v[FIRST]
    pos.open = v[OPEN] == 1
    pos.cards, pos.fw, pos.mods = (v[CA0], v[CA1]), (v[FW0], v[FW1]), (v[MOD0], v[MOD1])
    pos.exch, pos.vil, pos.aux, pos.quick = v[EXCH], v[VIL], v[P.AUX], v[QUICK]
    pos.outcome = None if v[OKIND] == 0 else (P._KINDS[v[OKIND]], v[OWIN])
    pos.ev, pos.seen = None, None
    return pos


@njit(cache=True)
def _apply(cfgv, tables, s, action):
    """The row after ``action`` (a copy): the packed machine's move, or a deal."""
    if s[PHASE] != _DEAL:
        return P.apply_packed(cfgv, s, action, tables)
    t = s.copy()
    x = t[PEND0]
    who = x % 2
    n = t[PN] - 1
    for i in range(n):
        t[PEND0 + i] = t[PEND0 + i + 1]
    t[PEND0 + n] = 0
    t[PN] = n
    if x < 2:
        t[CT0 + who] = action
    else:
        t[H0 + who] |= 1 << action
    if n == 0:
        P.start_combat(cfgv, t)
    return t


@njit(cache=True)
def _deal_pool(cfgv, s):
    """The cards the deal to come at ``s`` can give (engine.deal_pool)."""
    if s[PEND0] < 2:
        taken = 0
        for p in range(2):
            if s[CT0 + p] >= 0:
                taken |= 1 << s[CT0 + p]
        return cfgv[4] & ~taken
    return cfgv[5] & ~((s[H0] | s[H1]) & _VMASK)


@njit(cache=True)
def _chance_cards(cfgv, s, out):
    """The chance outcomes at ``s`` into ``out`` (each equally likely); their number."""
    phase = s[PHASE]
    if phase == _QUICK:
        out[0] = 0
        out[1] = 1
        return 2
    if phase == _INQ:
        return P.bits_into(s[H1 - s[AUX]], out, 0)
    return P.bits_into(_deal_pool(cfgv, s), out, 0)


@njit(cache=True)
def _is_public(s):
    """hidden.is_public on a row."""
    if s[OKIND] != 0 or s[PN] != 0:
        return False
    phase = s[PHASE]
    if phase in (_DEAL, _PROC_TAKE, _PROC_GIVE):
        return False
    if phase == _COMMIT and s[OPEN] == 0 and s[CA0 + s[FIRST]] >= 0:
        return False
    return not ((s[H0] & _VMASK & ~s[KV1]) or (s[H1] & _VMASK & ~s[KV0]))


@njit(cache=True)
def _still_hidden(s, p, card):
    """hidden.still_hidden on a row."""
    if not (s[H0 + p] >> card) & 1:
        return False
    if (s[KV1 - p] >> card) & 1:
        return False
    return not (s[CA0 + p] == card and s[OPEN] == 1)


@njit(cache=True)
def _transpose(s, a, b):
    """engine.transpose on a row: villains ``a`` and ``b`` swapped wherever they are."""
    t = s.copy()
    if a == b:
        return t
    both = (1 << a) | (1 << b)
    for f in (H0, H1, KV0, KV1):
        m = s[f]
        t[f] = (m & ~both) | (((m >> a) & 1) << b) | (((m >> b) & 1) << a)
    for f in (CA0, CA1, FW0, FW1, AUX):
        if s[f] == a:
            t[f] = b
        elif s[f] == b:
            t[f] = a
    return t


# --------------------------------------------------------------------------- keys
@njit(cache=True, inline="always")
def _unharmed(s):
    if s[UNH] != 0 and ((s[H0] | s[H1]) & _VMASK or s[PN] != 0):
        return s[UNH]
    return 0


@njit(cache=True, inline="always")
def _pending_code(s):
    code = s[PN]
    for i in range(s[PN]):
        code |= s[PEND0 + i] << (3 + 2 * i)
    return code


@njit(cache=True, inline="always")
def _masked_hand(hand, player, card):
    if card < 0:
        return hand
    return (hand & ~(1 << card)) | (1 << (C.NUM_CARDS + player))


@njit(cache=True, inline="always")
def _masked_card(c, player, card):
    if card >= 0 and c == card:
        return -10 - player
    return c


@njit(cache=True)
def state_key(s, h0, h1):
    """keys.state_key of the row with the hidden villains ``h0``, ``h1`` masked
    (hidden.masked_state_key), as three integers: equal keys, equal integers."""
    w1 = (_masked_hand(s[H0], 0, h0) | (_masked_hand(s[H1], 1, h1) << 18)
          | ((s[CT0] + 1) << 36) | ((s[CT1] + 1) << 40) | (s[USED] << 44)
          | (_unharmed(s) << 46) | (s[COMBAT] << 48) | (s[PHASE] << 53)
          | ((s[ACTOR] + 4) << 57) | (s[QUEUE] << 60))
    w2 = (s[BONUS] | (s[PRIV] << 2) | (s[FORCED] << 4) | (s[FIRST] << 6) | (s[OPEN] << 7)
          | ((_masked_card(s[CA0], 0, h0) + 12) << 8)
          | ((_masked_card(s[CA1], 1, h1) + 12) << 13) | (s[EXCH] << 18)
          | ((s[FW0] + 1) << 22) | ((s[FW1] + 1) << 27) | ((s[MOD0] + 8) << 32)
          | ((s[MOD1] + 8) << 36) | ((s[VIL] + 1) << 40) | ((s[AUX] + 4) << 42)
          | (s[QUICK] << 47) | (s[OKIND] << 48) | ((s[OWIN] + 1) << 51))
    w3 = (s[KV0] & s[H1]) | ((s[KV1] & s[H0]) << 16) | (_pending_code(s) << 32)
    return (w1, w2, w3)


@njit(cache=True)
def infoset_key(s, p, own):
    """keys.infoset_key of ``p`` at the row with ``p``'s hidden villain ``own`` masked
    (hidden.masked_infoset_key), as three integers."""
    r = 1 - p
    rival = s[H0 + r]
    n_villains = 0
    v = rival & _VMASK
    while v:
        v &= v - 1
        n_villains += 1
    c0 = s[CA0]
    c1 = s[CA1]
    if s[PHASE] == _COMMIT and s[OPEN] == 0 and r == s[FIRST]:
        if r == 0 and c0 >= 0:
            c0 = -2
        elif r == 1 and c1 >= 0:
            c1 = -2
    if p == 0:
        c0 = _masked_card(c0, 0, own)
    else:
        c1 = _masked_card(c1, 1, own)
    aux = s[AUX] if (s[PHASE] != _PROC_GIVE or p == s[ACTOR]) else -3
    w1 = (p | (_masked_hand(s[H0 + p], p, own) << 1) | ((rival & _WMASK) << 19)
          | (n_villains << 26) | ((s[KV0 + p] & rival) << 30) | ((s[CT0] + 1) << 46)
          | ((s[CT1] + 1) << 50) | (s[USED] << 54) | (_unharmed(s) << 56)
          | (s[COMBAT] << 58))
    w2 = (s[PHASE] | ((s[ACTOR] + 4) << 4) | (s[QUEUE] << 7) | (s[BONUS] << 10)
          | (s[PRIV] << 12) | (s[FORCED] << 14) | (s[FIRST] << 16) | (s[OPEN] << 17)
          | ((c0 + 12) << 18) | ((c1 + 12) << 23) | (s[EXCH] << 28) | ((s[FW0] + 1) << 32)
          | ((s[FW1] + 1) << 37) | ((s[MOD0] + 8) << 42) | ((s[MOD1] + 8) << 46)
          | ((s[VIL] + 1) << 50) | ((aux + 4) << 52) | (s[QUICK] << 57) | (s[OKIND] << 58)
          | ((s[OWIN] + 1) << 61))
    return (w1, w2, _pending_code(s))


# --------------------------------------------------------------------------- growth
@njit(cache=True, inline="always")
def _room(a, n):
    """``a``, or a copy twice as long, so that index ``n`` fits."""
    if n < a.shape[0]:
        return a
    b = np.empty((max(2 * a.shape[0], n + 1),) + a.shape[1:], a.dtype)
    b[:a.shape[0]] = a
    return b


def _tick(n):
    """Progress of the walk (called from compiled code through objmode)."""
    bar = _BAR[0]
    if bar is not None:
        bar.update(n)


_BAR = [None]


# --------------------------------------------------------------------------- the walk
_KEY = types.UniTuple(types.int64, 3)


@njit(cache=True, inline="always")
def _lookup(d, key):
    """``d[key]``, or -1 (numba types ``dict.get``'s default as an optional)."""
    if key in d:
        return d[key]
    return -1


@njit(cache=True, inline="always")
def _after(s, h0, h1):
    a0 = h0 if h0 >= 0 and _still_hidden(s, 0, h0) else -1
    a1 = h1 if h1 >= 0 and _still_hidden(s, 1, h1) else -1
    return a0, a1


@njit(cache=True, inline="always")
def _revealed(h0, h1, a0, a1):
    return (1 if h0 >= 0 and a0 < 0 else 0) | (2 if h1 >= 0 and a1 < 0 else 0)


@njit(cache=True)
def _moved(s, h0, h1, here, t0, t1):
    """``s`` (masked key ``here``) moved to the deal giving player 0 card ``t0`` and
    player 1 card ``t1`` (-1: that player's card is not moved; player 1's first, as the
    Python walk does), the other hidden cards kept where possible. Returns the row, its
    hidden cards and whether such a deal is at ``s``."""
    cur = s
    now0, now1 = h0, h1
    if t0 >= 0 and t1 >= 0 and t0 == t1:
        return cur, now0, now1, False
    for q in (1, 0):
        v = t1 if q == 1 else t0
        if v < 0:
            continue
        x = now1 if q == 1 else now0
        if v == x:
            continue
        cur = _transpose(cur, x, v)
        if q == 1:
            if now0 == v:
                now0 = x
            now1 = v
        else:
            if now1 == v:
                now1 = x
            now0 = v
    if (now0 != h0 or now1 != h1) and state_key(cur, now0, now1) != here:
        return cur, now0, now1, False
    return cur, now0, now1, True


@njit(cache=True)
def _walk(root, cfgv, tables, cards, cut, term, d0, d1, d2, memo_x, counts, ends,
          keep_rows, max_positions):
    """The deal-lifted walk from ``root`` (see :func:`walk`). ``cut``: positions whose
    every card is known become terminals valued by the exact solver (``d0, d1, d2``,
    ``memo_x``, ``counts``); ``ends``: None, or the outcome-class table, to keep how
    each terminal ends. Returns the walk's arrays, an error code and the node it met it
    at."""
    nv = cards.shape[0]
    # Lifted nodes.
    kind = np.zeros(1 << 16, np.int8)
    hmask = np.zeros(1 << 16, np.int8)
    liid = np.zeros(1 << 16, np.int32)
    elo = np.zeros(1 << 16, np.int64)
    ehi = np.zeros(1 << 16, np.int64)
    onstack = np.zeros(1 << 16, np.uint8)
    # Lifted edges and reveal tables.
    etype = np.zeros(1 << 16, np.int8)
    echild = np.zeros(1 << 16, np.int64)
    eprob = np.zeros(1 << 16, np.float64)
    eaction = np.zeros(1 << 16, np.int32)
    earg = np.zeros(1 << 16, np.int8)
    epool = np.zeros(1 << 16, np.int64)
    table = np.zeros(1 << 16, np.int64)
    # Terminals: payoff, ending code (>= 0) or public subgame (-1 - its row of cut_ends).
    util = np.zeros(1 << 16, np.float64)
    ucode = np.zeros(1 << 16, np.int32)
    cut_ends = np.zeros((1 << 10 if ends is not None else 0, CLASSES), np.float32)
    # Lifted information sets, with a position and hidden card of each (for keys).
    iplayer = np.zeros(1 << 12, np.int8)
    iown = np.zeros(1 << 12, np.int8)
    ioffset = np.zeros(1 << 12, np.int64)
    iactions = np.zeros(1 << 14, np.int32)
    irow = np.zeros((1 << 10 if keep_rows else 0, W), np.int64)
    ihid = np.zeros(1 << 12, np.int64)
    alias_iid = np.zeros(1 << 10, np.int64)
    alias_card = np.zeros(1 << 10, np.int64)
    alias_key = np.zeros((1 << 10, 3), np.int64)
    # The first position at which each player had each action, and acted at all.
    named = np.zeros((2, _NUM_ACTIONS), np.uint8)
    name_row = np.zeros((2, _NUM_ACTIONS, W), np.int64)
    acted = np.zeros(2, np.uint8)
    acted_row = np.zeros((2, W), np.int64)
    # The depth-first stack: frames, their templates (type, arg, code, pool, count and
    # probability) and their jobs (child rows, hidden cards, results).
    f_node = np.zeros(256, np.int64)
    f_j0 = np.zeros(256, np.int64)
    f_jn = np.zeros(256, np.int64)
    f_cur = np.zeros(256, np.int64)
    f_t0 = np.zeros(256, np.int64)
    f_tn = np.zeros(256, np.int64)
    tmpl = np.zeros((1 << 10, 5), np.int64)
    tprob = np.zeros(1 << 10, np.float64)
    jrow = np.zeros((1 << 12, W), np.int64)
    jhid = np.zeros((1 << 12, 2), np.int64)
    jres = np.zeros(1 << 12, np.int64)
    buf = np.zeros(16, np.int64)
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    index = Dict.empty(key_type=_KEY, value_type=types.int64)
    n_nodes = 0
    n_edges = 0
    n_table = 0
    n_util = 0
    n_cut = 0
    n_info = 0
    n_iact = 0
    n_alias = 0
    depth = 0
    jtop = 0
    ttop = 0
    cuts = 0
    exact_ns = 0
    ticked = 0
    err = _OK
    err_at = -1
    # The root is never cut; its key is memoised like any position's.
    opening = root.copy()
    oh0, oh1 = -1, -1
    memo[state_key(opening, -1, -1)] = 0
    open_node = 0
    while True:
        if open_node >= 0:
            # ---- open a lifted node: number it, list its templates and jobs.
            node = open_node
            open_node = -1
            s = opening
            h0, h1 = oh0, oh1
            kind = _room(kind, node)
            hmask = _room(hmask, node)
            liid = _room(liid, node)
            elo = _room(elo, node)
            ehi = _room(ehi, node)
            onstack = _room(onstack, node)
            n_nodes = node + 1
            onstack[node] = 1
            hmask[node] = (1 if h0 >= 0 else 0) | (2 if h1 >= 0 else 0)
            f_node = _room(f_node, depth)
            f_j0 = _room(f_j0, depth)
            f_jn = _room(f_jn, depth)
            f_cur = _room(f_cur, depth)
            f_t0 = _room(f_t0, depth)
            f_tn = _room(f_tn, depth)
            f_node[depth] = node
            f_j0[depth] = jtop
            f_t0[depth] = ttop
            f_cur[depth] = 0
            actor = s[ACTOR]
            n_moves = 0
            q_dealt = -1
            if actor == _CHANCE:
                kind[node] = K_CHANCE
                liid[node] = -1
                n_moves = _chance_cards(cfgv, s, buf)
                if s[PHASE] == _DEAL and s[PN] > 0 and s[PEND0] >= 2:
                    q_dealt = s[PEND0] % 2
            else:
                kind[node] = K_PLAYER0 + actor
                legal = P.legal_packed(cfgv, s)
                n_moves = legal.shape[0]
                for i in range(n_moves):
                    buf[i] = legal[i]
                own = h0 if actor == 0 else h1
                ikey = infoset_key(s, actor, own)
                iid = _lookup(index, ikey)
                if iid < 0:
                    iid = n_info
                    n_info += 1
                    index[ikey] = iid
                    iplayer = _room(iplayer, iid)
                    iown = _room(iown, iid)
                    ihid = _room(ihid, iid)
                    ioffset = _room(ioffset, iid + 1)
                    iplayer[iid] = actor
                    iown[iid] = 1 if own >= 0 else 0
                    ihid[iid] = own
                    for i in range(n_moves):
                        iactions = _room(iactions, n_iact)
                        iactions[n_iact] = -2 - actor if buf[i] == own else buf[i]
                        n_iact += 1
                    ioffset[iid + 1] = n_iact
                    if keep_rows:
                        irow = _room(irow, iid)
                        irow[iid] = s
                    if own < 0:
                        v = s[H0 + actor] & _VMASK
                        card = 0
                        while v:
                            if v & 1:
                                alias_iid = _room(alias_iid, n_alias)
                                alias_card = _room(alias_card, n_alias)
                                alias_key = _room(alias_key, n_alias)
                                k3 = infoset_key(s, actor, card)
                                alias_iid[n_alias] = iid
                                alias_card[n_alias] = card
                                alias_key[n_alias, 0] = k3[0]
                                alias_key[n_alias, 1] = k3[1]
                                alias_key[n_alias, 2] = k3[2]
                                n_alias += 1
                            v >>= 1
                            card += 1
                    for i in range(n_moves):
                        a = buf[i]
                        if named[actor, a] == 0 and a != own:
                            named[actor, a] = 1
                            name_row[actor, a] = s
                    if acted[actor] == 0:
                        acted[actor] = 1
                        acted_row[actor] = s
                else:
                    lo = ioffset[iid]
                    same = ioffset[iid + 1] - lo == n_moves
                    for i in range(n_moves):
                        if same and iactions[lo + i] != (-2 - actor if buf[i] == own
                                                         else buf[i]):
                            same = False
                    if not same:
                        err = _ACTIONS_DIFFER
                        err_at = iid
                        break
                liid[node] = iid
            if q_dealt >= 0:
                # A hidden villain dealt: one conceal template, one job.
                hq = h0 if q_dealt == 0 else h1
                if hq >= 0:
                    err = _TWICE
                    err_at = node
                    break
                pool = _deal_pool(cfgv, s)
                if h0 >= 0:
                    pool |= 1 << h0
                if h1 >= 0:
                    pool |= 1 << h1
                a = buf[0]
                tmpl = _room(tmpl, ttop)
                tprob = _room(tprob, ttop)
                tmpl[ttop, 0] = CONCEAL
                tmpl[ttop, 1] = q_dealt
                tmpl[ttop, 2] = -1
                tmpl[ttop, 3] = pool
                tmpl[ttop, 4] = 1
                tprob[ttop] = 0.0
                ttop += 1
                jrow = _room(jrow, jtop)
                jhid = _room(jhid, jtop)
                jres = _room(jres, jtop)
                jrow[jtop] = _apply(cfgv, tables, s, a)
                jhid[jtop, 0] = a if q_dealt == 0 else h0
                jhid[jtop, 1] = a if q_dealt == 1 else h1
                jtop += 1
            else:
                prob = 1.0 / n_moves if actor == _CHANCE else 0.0
                here = state_key(s, h0, h1)
                for i in range(n_moves):
                    a = buf[i]
                    code = a
                    if h0 >= 0 and a == h0:
                        code = -2
                    if h1 >= 0 and a == h1:
                        code = -3
                    child = _apply(cfgv, tables, s, a)
                    a0, a1 = _after(child, h0, h1)
                    revealed = _revealed(h0, h1, a0, a1)
                    tmpl = _room(tmpl, ttop)
                    tprob = _room(tprob, ttop)
                    tmpl[ttop, 1] = revealed
                    tmpl[ttop, 2] = code
                    tmpl[ttop, 3] = 0
                    tprob[ttop] = prob
                    if revealed == 0:
                        tmpl[ttop, 0] = PLAIN
                        tmpl[ttop, 4] = 1
                        ttop += 1
                        jrow = _room(jrow, jtop)
                        jhid = _room(jhid, jtop)
                        jres = _room(jres, jtop)
                        jrow[jtop] = child
                        jhid[jtop, 0] = a0
                        jhid[jtop, 1] = a1
                        jtop += 1
                        continue
                    width = nv * nv if revealed == 3 else nv
                    tmpl[ttop, 0] = REVEAL
                    tmpl[ttop, 4] = width
                    ttop += 1
                    for beta in range(width):
                        t0, t1 = -1, -1
                        if revealed == 3:
                            t0 = cards[beta // nv]
                            t1 = cards[beta % nv]
                        elif revealed == 1:
                            t0 = cards[beta]
                        else:
                            t1 = cards[beta]
                        jrow = _room(jrow, jtop)
                        jhid = _room(jhid, jtop)
                        jres = _room(jres, jtop)
                        mpos, m0, m1, ok = _moved(s, h0, h1, here, t0, t1)
                        if not ok:
                            jhid[jtop, 0] = -2  # no such deal here
                            jtop += 1
                            continue
                        ma = a
                        if code == -2:
                            ma = m0
                        elif code == -3:
                            ma = m1
                        mchild = _apply(cfgv, tables, mpos, ma)
                        b0, b1 = _after(mchild, m0, m1)
                        if _revealed(m0, m1, b0, b1) != revealed:
                            err = _DEPENDS
                            err_at = node
                            break
                        jrow[jtop] = mchild
                        jhid[jtop, 0] = b0
                        jhid[jtop, 1] = b1
                        jtop += 1
                    if err != _OK:
                        break
                if err != _OK:
                    break
            f_jn[depth] = jtop - f_j0[depth]
            f_tn[depth] = ttop - f_t0[depth]
            depth += 1
            if n_nodes - ticked >= _TICK:
                ticked = n_nodes
                with objmode():
                    _tick(_TICK)
            continue
        if depth == 0:
            break
        f = depth - 1
        if f_cur[f] < f_jn[f]:
            # ---- the frame's next job: a terminal, a known position, or a new one.
            j = f_j0[f] + f_cur[f]
            f_cur[f] += 1
            if jhid[j, 0] == -2:
                jres[j] = NO_CHILD
                continue
            child = jrow[j]
            c0, c1 = jhid[j, 0], jhid[j, 1]
            public = cut != NO_CUT and _is_public(child)
            if child[ACTOR] == _TERMINAL or public:
                util = _room(util, n_util)
                ucode = _room(ucode, n_util)
                if child[OKIND] != 0:
                    util[n_util] = term[child[OKIND], child[OWIN] + 1]
                    if ends is not None:
                        ucode[n_util] = (ends[child[OKIND], child[OWIN] + 1] * BITS
                                         + child[USED])
                else:
                    cuts += 1
                    packed = child[:NF].copy()
                    tick = clock_ns()
                    if ends is not None:
                        value, vec = solve_outcomes(packed, d0, d1, d2, memo_x, counts)
                        if np.isnan(vec[0]):
                            err = _NO_OUTCOMES
                            err_at = f_node[f]
                            break
                        cut_ends = _room(cut_ends, n_cut)
                        for k in range(CLASSES):
                            cut_ends[n_cut, k] = vec[k]
                        ucode[n_util] = -1 - n_cut
                        n_cut += 1
                    else:
                        value = solve_packed(packed, d0, d1, d2, memo_x, counts)
                    exact_ns += clock_ns() - tick
                    util[n_util] = value
                n_util += 1
                jres[j] = -n_util
                continue
            ckey = state_key(child, c0, c1)
            known = _lookup(memo, ckey)
            if known >= 0:
                if onstack[known]:
                    err = _CYCLE
                    err_at = known
                    break
                jres[j] = known
                continue
            if n_nodes >= max_positions:
                err = _TOO_LARGE
                break
            memo[ckey] = n_nodes
            jres[j] = n_nodes
            opening = child.copy()
            oh0, oh1 = c0, c1
            open_node = n_nodes
            continue
        # ---- close the frame: its edges, from its templates and its jobs' results.
        node = f_node[f]
        elo[node] = n_edges
        k = f_j0[f]
        for t in range(f_t0[f], f_t0[f] + f_tn[f]):
            etype = _room(etype, n_edges)
            echild = _room(echild, n_edges)
            eprob = _room(eprob, n_edges)
            eaction = _room(eaction, n_edges)
            earg = _room(earg, n_edges)
            epool = _room(epool, n_edges)
            etype[n_edges] = tmpl[t, 0]
            earg[n_edges] = tmpl[t, 1]
            eaction[n_edges] = tmpl[t, 2]
            epool[n_edges] = tmpl[t, 3]
            eprob[n_edges] = tprob[t]
            count = tmpl[t, 4]
            if tmpl[t, 0] == REVEAL:
                echild[n_edges] = n_table
                for i in range(count):
                    table = _room(table, n_table)
                    table[n_table] = jres[k + i]
                    n_table += 1
            else:
                echild[n_edges] = jres[k]
            k += count
            n_edges += 1
        ehi[node] = n_edges
        onstack[node] = 0
        jtop = f_j0[f]
        ttop = f_t0[f]
        depth -= 1
    # Aliases: a set with its own card hidden that equals a set with the card public.
    aliases = np.zeros((n_alias, 3), np.int64)
    n_kept = 0
    for i in range(n_alias):
        akey = (alias_key[i, 0], alias_key[i, 1], alias_key[i, 2])
        hid = _lookup(index, akey)
        if hid >= 0 and iown[hid] == 1:
            aliases[n_kept, 0] = hid
            aliases[n_kept, 1] = alias_card[i]
            aliases[n_kept, 2] = alias_iid[i]
            n_kept += 1
    return (kind[:n_nodes].copy(), hmask[:n_nodes].copy(), liid[:n_nodes].copy(),
            elo[:n_nodes].copy(), ehi[:n_nodes].copy(), etype[:n_edges].copy(),
            echild[:n_edges].copy(), eprob[:n_edges].copy(), eaction[:n_edges].copy(),
            earg[:n_edges].copy(), epool[:n_edges].copy(), table[:n_table].copy(),
            util[:n_util].copy(), ucode[:n_util].copy(), cut_ends[:n_cut].copy(),
            iplayer[:n_info].copy(), iown[:n_info].copy(), ioffset[:n_info + 1].copy(),
            iactions[:n_iact].copy(), irow[:n_info].copy() if keep_rows else irow,
            ihid[:n_info].copy(), aliases[:n_kept].copy(), named, name_row, acted_row,
            cuts, exact_ns, err, err_at)


# --------------------------------------------------------------------------- Python side
_ERRORS = {
    _CYCLE: "the state graph has a cycle",
    _TWICE: "a second hidden card for one player",
    _DEPENDS: "what a move reveals depends on the hidden cards",
    _NO_OUTCOMES: "no outcome probabilities kept for a public position",
    _ACTIONS_DIFFER: "an information set has different legal actions at different nodes",
}


class PackedWalk:
    """One compiled walk of a battle and what it found: the arrays for the expansion
    (:meth:`arrays`); each walked terminal's payoff (``values``) and how it ends
    (``codes``, ``cut_ends``: as :class:`analysis.cobardes.solvers.trunk.Endings` keeps them;
    empty without endings); the public subgames it cut (``cuts``) and the seconds spent
    valuing them (``exact_seconds``)."""

    def __init__(self, rules, cut: int = CUT_ENDINGS, exact: FastExactSolver | None = None,
                 max_memory: int | None = None, progress: bool | None = None,
                 key_names: bool = True, name: str = "battle"):
        root = rules.initial
        if not any(kind == "villain" for kind, _ in root.pending):
            raise UnsupportedGameError(f"{name}: no hidden villain is dealt; nothing to lift")
        if cut != NO_CUT and exact is None:
            exact = (OutcomeSolver if cut == CUT_ENDINGS else FastExactSolver)(rules.cfg, rules.pay)
        if cut == CUT_ENDINGS and not isinstance(exact, OutcomeSolver):
            raise ValueError("keeping how the battle ends needs an OutcomeSolver")
        if exact is None:
            exact = FastExactSolver(rules.cfg, rules.pay)
        budget = max_memory if max_memory is not None else default_memory_budget()
        cfg = rules.cfg
        self.name = name
        self.cards = tuple(E.bits(cfg.villain_deck))
        self.exact = exact
        cfgv = np.concatenate([P.config_vector(cfg),
                               np.array([cfg.court_deck, cfg.villain_deck], np.int64)])
        max_positions = max(1, budget // PACKED_WALK_BYTES)
        ends = class_table() if isinstance(exact, OutcomeSolver) else None
        bar = None
        if shown(progress):
            bar = progress_bar(desc="walking positions", unit=" nodes", unit_scale=True,
                               mininterval=0.5)
        _BAR[0] = bar
        tick = time.perf_counter()
        try:
            out = _walk(to_row(root), cfgv, effect_tables(cfg), np.array(self.cards),
                        cut, P.terminal_table(rules.pay), *exact._data, exact._memo,
                        exact._counts, ends, key_names, max_positions)
        finally:
            _BAR[0] = None
            if bar is not None:
                bar.close()
        self.seconds = time.perf_counter() - tick
        (kind, hmask, liid, elo, ehi, etype, echild, eprob, eaction, earg, epool, table, util,
         self.codes, self.cut_ends, iplayer, iown, ioffset, iactions, self._irow, self._ihid,
         aliases, named, name_row, acted_row, self.cuts, exact_ns, err, err_at) = out
        if err == _TOO_LARGE:
            raise GameTooLargeError(
                f"{name}: more than {max_positions:,} positions to walk (~"
                f"{format_bytes(max_positions * PACKED_WALK_BYTES)}), over the memory budget")
        if err != _OK:
            raise UnsupportedGameError(f"{name}: {_ERRORS[err]} (at {err_at})")
        self.exact_seconds = exact_ns / 1e9
        self.values = util
        self._iplayer = iplayer
        names = [{}, {}]
        for p in (0, 1):
            for a in np.flatnonzero(named[p]).tolist():
                names[p][a] = action_string(to_pos(name_row[p, a]), p, a)
        self._acted = acted_row
        self._arrays = LiftedWalkArrays(
            self.cards, kind, hmask, liid, elo, ehi, etype, echild, eprob, eaction, earg,
            # Terminals are expanded by their numbers, then given their values (and
            # endings) by :func:`compile_packed`, as trunk.NumberedCut does.
            epool, table, np.arange(util.shape[0], dtype=np.float64), iplayer, iown,
            ioffset, iactions,
            [tuple(row) for row in aliases.tolist()], names, self._name_of,
            self._key_of if key_names else None,
            held_bytes=kind.shape[0] * PACKED_WALK_BYTES)
        self.budget = budget

    def _name_of(self, player: int, action: int) -> str:
        return action_string(to_pos(self._acted[player]), player, action)

    def _key_of(self, iid: int, card: int) -> tuple:
        player = int(self._iplayer[iid])
        own = int(self._ihid[iid])
        hidden = (own, -1) if player == 0 else (-1, own)
        masked = masked_infoset_key(to_pos(self._irow[iid]), player, hidden)
        return unmask_infoset_key(masked, player, card)

    def arrays(self) -> LiftedWalkArrays:
        """The walk's arrays for :func:`analysis.solve.lifted.compile_walked` (once)."""
        parts, self._arrays = self._arrays, None
        return parts


def compile_packed(game, cut: int = CUT_ENDINGS, exact: FastExactSolver | None = None,
                   max_memory: int | None = None, progress: bool | None = None,
                   key_names: bool = True) -> tuple[CompiledGame, PackedWalk, np.ndarray]:
    """Compile a hidden-villain battle's state graph through the compiled walk: the
    graph :func:`analysis.solve.compile_game` (``graph=True``) gives, or with ``cut``
    the trunk :func:`analysis.cobardes.solvers.trunk.compile_cut` gives (public subgames valued
    by ``exact``). Returns the compiled game, the walk (its endings, cuts, seconds) and
    each compiled terminal's number among the walk's terminals (``walk.codes[number]``:
    its ending).

    Raises
    ------
    UnsupportedGameError
        No hidden villain is dealt at the root, or the walk met what a lifted walk
        cannot express.
    GameTooLargeError
        The walk or the expanded graph would exceed ``max_memory``.
    """
    start = time.perf_counter()
    walk = PackedWalk(game.rules, cut, exact, max_memory, progress, key_names, str(game))
    compiled = compile_walked(str(game), walk.arrays(), walk.budget, start)
    number = compiled.utility.astype(np.int64)
    compiled = dataclasses.replace(compiled, utility=walk.values[number])
    return compiled, walk, number
