"""The battle's phase machine over a position packed in an int64 array, for numba code.

A transcription of :mod:`games.cobardes.engine` (same phases, same order) without what
only the OpenSpiel state needs (the event log, the battlefield's order, random deals),
so the compiled exact solver (:mod:`analysis.cobardes.fast_exact`) can run it. The cards'
effects are looked up in :mod:`games.cobardes.tables`; three one-line rules are inlined
(the Sheep's strength, the winning margin, the Maiden's strongest warrior). The tests run
both machines over whole battles and require the same values everywhere.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import Payoffs
from games.cobardes.tables import (
    M_CAPTURE,
    M_EXCHANGE,
    M_EXECUTE,
    R_ADD,
    R_NO_WINNER,
    R_RIVAL_CHANGES,
    V_CROWN,
    V_FIGHT,
    V_GHOST,
    V_PEACE,
    V_VICTORY,
)
from games.errors import InvalidParameterError, InvalidPositionError

# Fields of a packed position (an int64 array of NF entries).
(H0, H1, CT0, CT1, USED, UNH, COMBAT, PHASE, ACTOR, QUEUE, BONUS, PRIV, FORCED, FIRST, OPEN,
 CA0, CA1, EXCH, FW0, FW1, MOD0, MOD1, VIL, AUX, KV0, KV1, OKIND, OWIN, QUICK, NF) = range(30)

# Outcome kinds (0: the battle goes on).
_KINDS = (None, E.VICTORY, E.CROWN, E.DRAW, E.PEACE, E.NO_CARDS)
O_VICTORY, O_CROWN, O_DRAW, O_PEACE, O_NOCARDS = 1, 2, 3, 4, 5

# The vanguard queue: (), (0,), (1,), (0, 1), (1, 0).
_QUEUES = ((), (0,), (1,), (0, 1), (1, 0))
_QUEUE_CODE = {q: i for i, q in enumerate(_QUEUES)}

# Who decides first on vanguard courtiers (Config.quicker).
_QUICKER = {"alternate": 0, "random": 1, "p0": 2, "p1": 3}

_WMASK = C.WARRIOR_MASK
_VMASK = C.VILLAIN_MASK
_SHEEP = C.SHEEP
_PRINCE = C.PRINCE
_MAIDEN = C.MAIDEN
_PROCURESS = C.PROCURESS
_INQUISITOR = C.INQUISITOR
_MARGIN = C.MARGIN
_FIRST_REARGUARD = min(C.REARGUARD)  # courtier ids: vanguard below, rearguard from here
_CHANCE, _TERMINAL = E.CHANCE, E.TERMINAL
_COMMIT, _VANGUARD, _FOLLOW, _GHOST, _REAR, _ARCHER, _SENTINEL = (
    E.COMMIT, E.VANGUARD, E.FOLLOW, E.GHOST, E.REAR, E.ARCHER, E.SENTINEL)
_PROC_TAKE, _PROC_GIVE, _INQ, _QUICK, _END = E.PROC_TAKE, E.PROC_GIVE, E.INQUISITOR, E.QUICK, E.END
_PASS, _ADVANCE, _SEND, _TAKE0, _GIVE0 = E.PASS, E.ADVANCE, E.SEND, E.TAKE0, E.GIVE0



# --------------------------------------------------------------------------- packing
def config_vector(cfg: E.Config) -> np.ndarray:
    if cfg.quicker not in _QUICKER:
        raise InvalidParameterError(f"unknown quicker rule {cfg.quicker!r}")
    if not 1 <= cfg.combats <= 30 or not 0 <= cfg.exchange_limit <= 14:
        raise InvalidParameterError("the compiled solver handles 1-30 combats and "
                                    "0-14 villain exchanges a combat")
    return np.array([cfg.combats, _QUICKER[cfg.quicker], int(cfg.followup_optional),
                     cfg.exchange_limit], np.int64)


def terminal_table(pay: Payoffs) -> np.ndarray:
    table = np.zeros((len(_KINDS), 3))
    for k, kind in enumerate(_KINDS):
        if kind is not None:
            for winner in (-1, 0, 1):
                table[k, winner + 1] = pay.value((kind, winner))
    return table


def pack(pos: E.Pos) -> np.ndarray:
    """``pos`` as the compiled engine's int64 array (no pending deal allowed)."""
    if pos.pending or pos.phase == E.DEAL:
        raise InvalidPositionError("the compiled exact solver needs dealt cards (no random "
                                   "deal to come)")
    a = np.empty(NF, np.int64)
    a[H0], a[H1] = pos.h
    a[CT0], a[CT1] = pos.court
    a[USED], a[UNH], a[COMBAT], a[PHASE], a[ACTOR] = (pos.used, pos.unh, pos.combat,
                                                     pos.phase, pos.actor)
    a[QUEUE] = _QUEUE_CODE[tuple(pos.queue)]
    a[BONUS], a[PRIV], a[FORCED], a[FIRST], a[OPEN] = (pos.bonus, pos.priv, pos.forced,
                                                       pos.first, int(pos.open))
    a[CA0], a[CA1] = pos.cards
    a[EXCH] = pos.exch
    a[FW0], a[FW1] = pos.fw
    a[MOD0], a[MOD1] = pos.mods
    a[VIL], a[AUX] = pos.vil, pos.aux
    a[KV0], a[KV1] = pos.kv
    if pos.outcome is None:
        a[OKIND], a[OWIN] = 0, -1
    else:
        a[OKIND], a[OWIN] = _KINDS.index(pos.outcome[0]), pos.outcome[1]
    a[QUICK] = pos.quick
    return a


# --------------------------------------------------------------------------- engine
@njit(cache=True)
def _end(s, kind, winner):
    s[OKIND] = kind
    s[OWIN] = winner
    s[PHASE] = _END
    s[ACTOR] = _TERMINAL


@njit(cache=True)
def _can_advance(s, p):
    c = s[CT0 + p]
    if c < 0 or c >= _FIRST_REARGUARD or (s[USED] >> p) & 1:
        return False
    return c != _INQUISITOR or s[H1 - p] != 0


@njit(cache=True)
def _start_combat(cfgv, s):
    s[BONUS] = 0
    s[PRIV] = 0
    s[FORCED] = 0
    s[EXCH] = 0
    s[CA0] = -1
    s[CA1] = -1
    s[FW0] = -1
    s[FW1] = -1
    s[MOD0] = 0
    s[MOD1] = 0
    s[VIL] = -1
    s[AUX] = -1
    if s[H0] == 0 or s[H1] == 0:
        _end(s, O_NOCARDS, -1)
        return
    can0 = _can_advance(s, 0)
    can1 = _can_advance(s, 1)
    mode = cfgv[1]
    if mode == 1 and can0 and can1:
        s[PHASE] = _QUICK
        s[ACTOR] = _CHANCE
        return
    if mode == 0:
        s[QUICK] = (s[COMBAT] - 1) % 2
    elif mode == 2:
        s[QUICK] = 0
    elif mode == 3:
        s[QUICK] = 1
    else:
        s[QUICK] = 0 if can0 else 1
    _open_vanguard(cfgv, s)


@njit(cache=True)
def _open_vanguard(cfgv, s):
    s[QUEUE] = 3 if s[QUICK] == 0 else 4
    _next_vanguard(cfgv, s)


@njit(cache=True)
def _queue_head(q):
    return 0 if q == 1 or q == 3 else 1


@njit(cache=True)
def _queue_tail(q):
    if q == 3:
        return 2
    if q == 4:
        return 1
    return 0


@njit(cache=True)
def _next_vanguard(cfgv, s):
    q = s[QUEUE]
    while q != 0:
        p = _queue_head(q)
        if _can_advance(s, p):
            s[QUEUE] = q
            s[PHASE] = _VANGUARD
            s[ACTOR] = p
            return
        q = _queue_tail(q)
    s[QUEUE] = 0
    _enter_confront(s)


@njit(cache=True)
def _enter_confront(s):
    if s[H0] == 0 or s[H1] == 0:
        _end(s, O_NOCARDS, -1)
        return
    priv = s[PRIV]
    if priv == 0 or priv == 3 and s[CT0] != _MAIDEN and s[CT1] != _MAIDEN:
        s[FIRST] = 0
        s[OPEN] = 0
    elif priv == 3:
        s[FIRST] = 0 if s[CT0] == _MAIDEN else 1
        s[OPEN] = 1
    else:
        s[FIRST] = 1 if priv == 1 else 0
        s[OPEN] = 1
    s[CA0] = -1
    s[CA1] = -1
    s[PHASE] = _COMMIT
    s[ACTOR] = s[FIRST]


@njit(cache=True)
def _strength(card):
    return 1 if card == _SHEEP else card


@njit(cache=True)
def _value(s, p):
    return _strength(s[FW0 + p]) + ((s[BONUS] >> p) & 1) + s[MOD0 + p]


@njit(cache=True)
def _winner(s):
    d = _value(s, 0) - _value(s, 1)
    if d >= _MARGIN:
        return 0
    if -d >= _MARGIN:
        return 1
    return -1


@njit(cache=True)
def _rear(s, p, rear_t):
    """The rearguard effect code and amount player ``p`` could send now (code 0: none)."""
    c = s[CT0 + p]
    if c < _FIRST_REARGUARD or (s[USED] >> p) & 1:
        return 0, 0
    own = 1 if s[H0 + p] & _WMASK else 0
    rival = 1 if s[H1 - p] & _WMASK else 0
    return rear_t[c, s[FW0 + p], own, rival, 0], rear_t[c, s[FW0 + p], own, rival, 1]


@njit(cache=True)
def _enter_fight(cfgv, s, rear_t):
    w = _winner(s)
    if w >= 0 and _rear(s, 1 - w, rear_t)[0] != 0:
        s[PHASE] = _REAR
        s[ACTOR] = 1 - w
        return
    _finish_fight(cfgv, s, w)


@njit(cache=True)
def _finish_fight(cfgv, s, w):
    if w < 0:
        _end_combat(cfgv, s)
        return
    if s[FW0 + 1 - w] == _PRINCE:
        _end(s, O_CROWN, w)
    else:
        _end(s, O_VICTORY, w)


@njit(cache=True)
def _end_combat(cfgv, s):
    for p in range(2):
        if s[FW0 + p] == _PRINCE:
            s[UNH] |= 1 << p
    s[COMBAT] += 1
    if s[COMBAT] > cfgv[0]:
        _end(s, O_DRAW, -1)
        return
    _start_combat(cfgv, s)


@njit(cache=True)
def _begin_follow(cfgv, s, p):
    s[VIL] = p
    if s[H0 + p] & _WMASK:
        s[PHASE] = _FOLLOW
        s[ACTOR] = p
    else:
        _end_combat(cfgv, s)


@njit(cache=True)
def _resolve(cfgv, s, tables):
    villainy, meet, _, rear_t, _ = tables
    a0 = s[CA0]
    a1 = s[CA1]
    s[H0] &= ~(1 << a0)
    s[H1] &= ~(1 << a1)
    v0 = a0 >= 7
    v1 = a1 >= 7
    if not v0 and not v1:
        s[FW0] = a0
        s[FW1] = a1
        _enter_fight(cfgv, s, rear_t)
        return
    if v0 and v1:
        kind = meet[a0, a1, s[EXCH], 0]
        who = meet[a0, a1, s[EXCH], 1]
        if kind == M_EXECUTE:
            _end(s, O_VICTORY, who)
            return
        if kind == M_CAPTURE:
            victim = a1 if who == 0 else a0
            s[H0 + who] |= 1 << victim
            s[KV1 - who] |= 1 << victim
        elif kind == M_EXCHANGE:
            s[H0] |= 1 << a1
            s[H1] |= 1 << a0
            s[KV0] |= 1 << a0
            s[KV1] |= 1 << a1
            s[EXCH] += 1
        _enter_confront(s)
        return
    p = 0 if v0 else 1
    q = 1 - p
    villain = a0 if v0 else a1
    warrior = a1 if v0 else a0
    effect = villainy[villain, warrior, (s[UNH] >> p) & 1]
    if effect == V_CROWN:
        _end(s, O_CROWN, p)
    elif effect == V_VICTORY:
        _end(s, O_VICTORY, p)
    elif effect == V_PEACE:
        _end(s, O_PEACE, -1)
    elif effect == V_FIGHT:
        s[FW0 + p] = villain
        s[FW0 + q] = warrior
        _enter_fight(cfgv, s, rear_t)
    elif effect == V_GHOST:
        s[H0 + q] |= 1 << warrior
        others = s[H0 + q] & _WMASK & ~(1 << warrior)
        if others:
            s[AUX] = warrior
            s[VIL] = p
            s[PHASE] = _GHOST
            s[ACTOR] = q
        else:
            s[H0 + q] &= ~(1 << warrior)
            s[FW0 + q] = warrior
            _begin_follow(cfgv, s, p)
    else:
        s[FW0 + q] = warrior
        _begin_follow(cfgv, s, p)


@njit(cache=True)
def _swap_villains(cfgv, s, p, take, give):
    r = 1 - p
    s[H0 + r] = (s[H0 + r] & ~(1 << take)) | (1 << give)
    s[H0 + p] = (s[H0 + p] & ~(1 << give)) | (1 << take)
    s[KV0 + p] |= 1 << give
    s[KV0 + r] |= 1 << take
    _next_vanguard(cfgv, s)


@njit(cache=True)
def apply_packed(cfgv, s0, action, tables):
    """The packed position after ``action`` (a copy; ``s0`` is not changed)."""
    _, _, vanguard, rear_t, inq_t = tables
    s = s0.copy()
    phase = s[PHASE]
    p = s[ACTOR]
    if phase == _COMMIT:
        s[CA0 + p] = action
        if p == s[FIRST]:
            s[ACTOR] = 1 - p
            return s
        _resolve(cfgv, s, tables)
    elif phase == _VANGUARD:
        s[QUEUE] = _queue_tail(s[QUEUE])
        c = s[CT0 + p]
        if action == _PASS:
            _next_vanguard(cfgv, s)
            return s
        s[USED] |= 1 << p
        r = 1 - p
        if c == _PROCURESS:
            theirs = s[H0 + r] & _VMASK
            s[KV0 + p] |= theirs
            if theirs and s[H0 + p] & _VMASK:
                s[PHASE] = _PROC_TAKE
                s[ACTOR] = p
            else:
                _next_vanguard(cfgv, s)
        elif c == _INQUISITOR:
            s[AUX] = p
            s[PHASE] = _INQ
            s[ACTOR] = _CHANCE
        else:
            if vanguard[c, 0]:
                s[BONUS] |= 1 << p
            if vanguard[c, 1]:
                s[PRIV] |= 1 << p
            if vanguard[c, 2]:
                s[FORCED] |= 1 << r
            _next_vanguard(cfgv, s)
    elif phase == _FOLLOW:
        if action == _PASS:
            _end_combat(cfgv, s)
            return s
        s[H0 + p] &= ~(1 << action)
        s[FW0 + p] = action
        _enter_fight(cfgv, s, rear_t)
    elif phase == _GHOST:
        s[H0 + p] &= ~(1 << action)
        s[FW0 + p] = action
        _begin_follow(cfgv, s, 1 - p)
    elif phase == _REAR:
        if action == _PASS:
            _finish_fight(cfgv, s, 1 - p)
            return s
        kind, amount = _rear(s, p, rear_t)
        s[USED] |= 1 << p
        if kind == R_ADD:
            s[MOD0 + p] += amount
            _enter_fight(cfgv, s, rear_t)
        elif kind == R_NO_WINNER:
            _end_combat(cfgv, s)
        else:
            changer = 1 - p if kind == R_RIVAL_CHANGES else p
            fled = s[FW0 + changer]
            s[H0 + changer] |= 1 << fled
            s[AUX] = fled
            s[PHASE] = _ARCHER if kind == R_RIVAL_CHANGES else _SENTINEL
            s[ACTOR] = changer
    elif phase in (_ARCHER, _SENTINEL):
        s[H0 + p] &= ~(1 << action)
        s[FW0 + p] = action
        s[MOD0 + p] = 0
        s[AUX] = -1
        _enter_fight(cfgv, s, rear_t)
    elif phase == _PROC_TAKE:
        if action == _PASS:
            _next_vanguard(cfgv, s)
            return s
        take = action - _TAKE0 + 7
        own = s[H0 + p] & _VMASK
        if own & (own - 1) == 0:
            _swap_villains(cfgv, s, p, take, _low_bit(own))
        else:
            s[AUX] = take
            s[PHASE] = _PROC_GIVE
    elif phase == _PROC_GIVE:
        _swap_villains(cfgv, s, p, s[AUX], action - _GIVE0 + 7)
    elif phase == _INQ:
        owner = s[AUX]
        s[AUX] = -1
        if inq_t[action]:
            _end(s, O_VICTORY, owner)
            return s
        if action >= 7:
            s[KV0 + owner] |= 1 << action
        _next_vanguard(cfgv, s)
    elif phase == _QUICK:
        s[QUICK] = action
        _open_vanguard(cfgv, s)
    return s


@njit(cache=True)
def _low_bit(mask):
    i = 0
    while not (mask >> i) & 1:
        i += 1
    return i


@njit(cache=True)
def bits_into(mask, out, n):
    i = 0
    while mask:
        if mask & 1:
            out[n] = i
            n += 1
        mask >>= 1
        i += 1
    return n


@njit(cache=True)
def legal_packed(cfgv, s):
    """The acting player's legal actions (ascending, as the engine lists them)."""
    out = np.empty(E.NUM_ACTIONS, np.int64)
    phase = s[PHASE]
    p = s[ACTOR]
    n = 0
    if phase == _COMMIT:
        hand = s[H0 + p]
        if (s[FORCED] >> p) & 1 and hand & _WMASK:
            w = hand & _WMASK
            i = -1
            while w:
                w >>= 1
                i += 1
            out[0] = i
            n = 1
        else:
            n = bits_into(hand, out, 0)
    elif phase == _VANGUARD:
        out[0] = _PASS
        out[1] = _ADVANCE
        n = 2
    elif phase == _FOLLOW:
        n = bits_into(s[H0 + p] & _WMASK, out, 0)
        if cfgv[2]:
            out[n] = _PASS
            n += 1
    elif phase in (_GHOST, _ARCHER, _SENTINEL):
        n = bits_into(s[H0 + p] & _WMASK & ~(1 << s[AUX]), out, 0)
    elif phase == _REAR:
        out[0] = _PASS
        out[1] = _SEND
        n = 2
    elif phase == _PROC_TAKE:
        out[0] = _PASS
        n = bits_into(s[H1 - p] & _VMASK, out, 1)
        for i in range(1, n):
            out[i] += _TAKE0 - 7
    elif phase == _PROC_GIVE:
        n = bits_into(s[H0 + p] & _VMASK, out, 0)
        for i in range(n):
            out[i] += _GIVE0 - 7
    return out[:n]
