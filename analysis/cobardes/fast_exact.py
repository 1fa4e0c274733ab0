"""Backward induction over public battle positions, compiled with numba.

The same solution as :class:`analysis.cobardes.exact.ExactSolver` with ``combat_memo``
(values only), about 20 times faster (1.4 µs a position against 28 µs): the battle's
phase machine (:mod:`games.cobardes.engine`) runs as numba code over a position packed
in a small int64 array, and the memo is a numba dictionary keyed by the position packed
in two integers. It is what values the public subgames of the hidden-villain battles
(:mod:`analysis.cobardes.subgames`): the full battle's 15 million public positions take
half a minute instead of six in the Python rules. :meth:`FastExactSolver.strategy` gives
the equilibrium mix at a position from the solved values (advice, the solved bot).

The cards' effects are not re-implemented: they are tabulated here from the pure
functions of :mod:`games.cobardes.cards` (villainy, villains meeting, vanguard and
rearguard courtiers, the Inquisitor's draw). What is transcribed is the engine's
sequence of phases, with three one-line rules it applies on the way: the Sheep fights
with strength 1 (:func:`~games.cobardes.cards.strength`), a combat is won by
``cards.MARGIN`` points (:func:`~games.cobardes.cards.combat_winner`) and the Maiden
forces the strongest warrior (:func:`~games.cobardes.cards.strongest_warrior`); as
tables passed down the recursion they made the solver about 10% slower. The tests run
both engines over whole battles (every courtier, every villain, each rules option) and
require the same value at every position and the same number of positions solved.

Positions with a random deal still to come are not public and are refused.
"""

from __future__ import annotations

import numpy as np
from numba import njit, objmode, types
from numba.typed import Dict

from analysis.cobardes import exact as X
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import Payoffs
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

# Effect codes of the tables.
_VILLAINY_CODES = {C.CROWN: 1, C.VICTORY: 2, C.PEACE: 3, C.FOLLOW_UP: 4, C.GHOST: 5, C.FIGHT: 6}
V_CROWN, V_VICTORY, V_PEACE, V_FOLLOW, V_GHOST, V_FIGHT = 1, 2, 3, 4, 5, 6
_MEET_CODES = {C.EXECUTE: 1, C.CAPTURE: 2, C.EXCHANGE: 3, C.WITHDRAW: 4}
M_EXECUTE, M_CAPTURE, M_EXCHANGE, M_WITHDRAW = 1, 2, 3, 4
_REAR_CODES = {C.ADD: 1, C.NO_WINNER: 2, C.RIVAL_CHANGES: 3, C.OWN_CHANGES: 4}
R_ADD, R_NO_WINNER, R_RIVAL_CHANGES, R_OWN_CHANGES = 1, 2, 3, 4

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

# Matrix-game tolerances: those of :func:`analysis.cobardes.exact.solve_matrix`.
_TOL, _PIVOT_TOL, _CHECK_TOL = X._TOL, X._PIVOT_TOL, X._CHECK_TOL
# Positions after a reveal, not remembered below a root (``ExactSolver``'s combat_memo).
_AFTER_REVEAL = tuple(sorted(X._AFTER_REVEAL))


# --------------------------------------------------------------------------- tables
def effect_tables(cfg: E.Config) -> tuple[np.ndarray, ...]:
    """The cards' effects as integer tables, read off :mod:`games.cobardes.cards`.

    Returns ``(villainy, meet, vanguard, rearguard, inquisitor)``:

    * ``villainy[villain, warrior, prince_unharmed]``: the villain's effect code;
    * ``meet[v0, v1, exchanges, 0|1]``: the kind and acting player when two villains
      meet, for every exchange count the battle can reach (``0..exchange_limit``);
    * ``vanguard[courtier]``: flags ``(bonus, rival_first, rival_forced)``;
    * ``rearguard[courtier, own_fighter, own_has_warrior, rival_has_warrior, 0|1]``: the
      effect code (0: cannot act) and amount. The rearguard functions read a hand only
      through whether it holds a warrior (their docstrings quote why), which is what
      the table keys on.
    * ``inquisitor[card]``: 1 if drawing that card wins the battle.
    """
    villainy = np.zeros((C.NUM_CARDS, C.NUM_WARRIORS, 2), np.int64)
    for v in C.VILLAINS:
        for w in range(C.NUM_WARRIORS):
            for u in (0, 1):
                villainy[v, w, u] = _VILLAINY_CODES[C.villainy(v, w, bool(u))]
    limit = cfg.exchange_limit
    meet = np.zeros((C.NUM_CARDS, C.NUM_CARDS, limit + 1, 2), np.int64)
    for v0 in C.VILLAINS:
        for v1 in C.VILLAINS:
            for e in range(limit + 1):
                kind, who = C.villains_meet(v0, v1, e, limit)
                meet[v0, v1, e] = (_MEET_CODES[kind], who)
    vanguard = np.zeros((len(C.COURTIERS), 3), np.int64)
    for c, effect in C.VANGUARD_EFFECTS.items():
        flags = effect()
        vanguard[c] = (int(flags["bonus"]), int(flags["rival_first"]),
                       int(flags["rival_forced"]))
    rear = np.zeros((len(C.COURTIERS), C.NUM_CARDS, 2, 2, 2), np.int64)
    for c in C.REARGUARD:
        for w in range(C.NUM_CARDS):
            for own in (0, 1):
                for rival in (0, 1):
                    got = C.rearguard(c, w, _WMASK if own else 0, _WMASK if rival else 0)
                    if got is not None:
                        rear[c, w, own, rival] = (_REAR_CODES[got[0]], got[1])
    inquisitor = np.array([int(C.inquisitor(c)) for c in range(C.NUM_CARDS)], np.int64)
    return villainy, meet, vanguard, rear, inquisitor


def _config_vector(cfg: E.Config) -> np.ndarray:
    if cfg.quicker not in _QUICKER:
        raise InvalidParameterError(f"unknown quicker rule {cfg.quicker!r}")
    if not 1 <= cfg.combats <= 30 or not 0 <= cfg.exchange_limit <= 14:
        raise InvalidParameterError("the compiled solver handles 1-30 combats and "
                                    "0-14 villain exchanges a combat")
    return np.array([cfg.combats, _QUICKER[cfg.quicker], int(cfg.followup_optional),
                     cfg.exchange_limit], np.int64)


def _terminal_table(pay: Payoffs) -> np.ndarray:
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
def _bits_into(mask, out, n):
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
            n = _bits_into(hand, out, 0)
    elif phase == _VANGUARD:
        out[0] = _PASS
        out[1] = _ADVANCE
        n = 2
    elif phase == _FOLLOW:
        n = _bits_into(s[H0 + p] & _WMASK, out, 0)
        if cfgv[2]:
            out[n] = _PASS
            n += 1
    elif phase in (_GHOST, _ARCHER, _SENTINEL):
        n = _bits_into(s[H0 + p] & _WMASK & ~(1 << s[AUX]), out, 0)
    elif phase == _REAR:
        out[0] = _PASS
        out[1] = _SEND
        n = 2
    elif phase == _PROC_TAKE:
        out[0] = _PASS
        n = _bits_into(s[H1 - p] & _VMASK, out, 1)
        for i in range(1, n):
            out[i] += _TAKE0 - 7
    elif phase == _PROC_GIVE:
        n = _bits_into(s[H0 + p] & _VMASK, out, 0)
        for i in range(n):
            out[i] += _GIVE0 - 7
    return out[:n]


@njit(cache=True)
def _key(s):
    """The memo key: :func:`analysis.cobardes.exact.canonical_key`, packed in two ints."""
    ct0 = s[CT0]
    ct1 = s[CT1]
    used = s[USED]
    if used and s[PRIV] != 3:
        if used & 1:
            ct0 = -1
        if used & 2:
            ct1 = -1
        used = 0
    unh = s[UNH] if (s[H0] | s[H1]) & _VMASK else 0
    kv0 = ((s[KV0] & s[H1]) & _VMASK) >> 7
    kv1 = ((s[KV1] & s[H0]) & _VMASK) >> 7
    k1 = (s[H0] | (s[H1] << 16) | ((ct0 + 1) << 32) | ((ct1 + 1) << 36) | (used << 40)
          | (unh << 42) | (s[COMBAT] << 44) | (s[PHASE] << 49) | ((s[ACTOR] + 1) << 53)
          | (s[QUEUE] << 55) | (s[BONUS] << 58) | (s[PRIV] << 60))
    k2 = (s[FORCED] | (s[FIRST] << 2) | (s[OPEN] << 3) | ((s[CA0] + 1) << 4)
          | ((s[CA1] + 1) << 9) | (s[EXCH] << 14) | ((s[FW0] + 1) << 18) | ((s[FW1] + 1) << 23)
          | ((s[MOD0] + 8) << 28) | ((s[MOD1] + 8) << 32) | ((s[VIL] + 1) << 36)
          | ((s[AUX] + 1) << 38) | (kv0 << 43) | (kv1 << 52) | (s[QUICK] << 61))
    return (k1, k2)


# --------------------------------------------------------------------------- solving
@njit(cache=True)
def _tableau_value(a):
    """Value of the matrix game ``a`` (rows maximise) by the tableau simplex of
    :func:`analysis.cobardes.exact.solve_matrix`; NaN when its answer is not verified."""
    m, n = a.shape
    lower = -np.inf
    for i in range(m):
        lower = max(lower, a[i].min())
    upper = np.inf
    for j in range(n):
        upper = min(upper, a[:, j].max())
    if upper - lower <= 1e-12:
        return lower
    shift = 1.0 - a.min()
    t = np.zeros((m + 1, n + m + 1))
    for i in range(m):
        for j in range(n):
            t[i, j] = a[i, j] + shift
        t[i, n + i] = 1.0
        t[i, n + m] = 1.0
    for j in range(n):
        t[m, j] = -1.0
    basis = np.arange(n, n + m)
    for _ in range(10 * (m + n) + 50):
        entering = -1
        for j in range(n + m):
            if t[m, j] < -_PIVOT_TOL:
                entering = j
                break
        if entering < 0:
            break
        best = np.inf
        leave = -1
        for i in range(m):
            if t[i, entering] > _PIVOT_TOL:
                ratio = t[i, n + m] / t[i, entering]
                if ratio < best - _TOL or (abs(ratio - best) <= _TOL and basis[i] < basis[leave]):
                    best = ratio
                    leave = i
        if leave < 0:
            break
        pivot = t[leave, entering]
        for j in range(n + m + 1):
            t[leave, j] /= pivot
        for i in range(m + 1):
            f = t[i, entering]
            if i != leave and f != 0.0:
                for j in range(n + m + 1):
                    t[i, j] -= f * t[leave, j]
        basis[leave] = entering
    z = t[m, n + m]
    x = np.maximum(t[m, n:n + m], 0.0)
    y = np.zeros(n)
    for i in range(m):
        if basis[i] < n:
            y[basis[i]] = max(t[i, n + m], 0.0)
    sx = x.sum()
    sy = y.sum()
    if not (z > 0 and sx > 0 and sy > 0):
        return np.nan
    value = 1.0 / z - shift
    x /= sx
    y /= sy
    if (x @ a).min() >= value - _CHECK_TOL and (a @ y).max() <= value + _CHECK_TOL:
        return value
    return np.nan


def _lp_value(a: np.ndarray) -> float:
    return X.solve_matrix_lp(a).value


@njit(cache=True)
def _matrix_value(a, counts):
    v = _tableau_value(a)
    if np.isnan(v):
        counts[2] += 1
        with objmode(v="float64"):
            v = _lp_value(a)
    return v


@njit(cache=True)
def solve_packed(s, cfgv, tables, terminal, memo, counts):
    """Player 0's exact value of packed position ``s``.

    ``memo`` maps the keys of solved positions to their values: every position asked
    for and, below it, the positions before a reveal (those after one are reached from
    that reveal only and are not kept). ``counts`` accumulates positions solved, matrix
    games and LP fallbacks.
    """
    if s[OKIND] != 0:
        return terminal[s[OKIND], s[OWIN] + 1]
    key = _key(s)
    if key in memo:
        return memo[key]
    v = _solve(s, cfgv, tables, terminal, memo, counts)
    memo[key] = v
    return v


# Recursive, so every call has the same argument types: numba's cache of a recursive
# function called with other types crashes when loaded (numba issues 6061, 6713).
@njit(cache=True)
def _solve(s, cfgv, tables, terminal, memo, counts):
    if s[OKIND] != 0:
        return terminal[s[OKIND], s[OWIN] + 1]
    phase = s[PHASE]
    keep = phase not in _AFTER_REVEAL
    key = (0, 0)
    if keep:
        key = _key(s)
        if key in memo:
            return memo[key]
    counts[0] += 1
    actor = s[ACTOR]
    if actor == _CHANCE:
        v = 0.0
        if phase == _QUICK:
            for q in range(2):
                v += 0.5 * _solve(apply_packed(cfgv, s, q, tables), cfgv, tables, terminal,
                                  memo, counts)
        else:
            hand = s[H1 - s[AUX]]
            cards = np.empty(16, np.int64)
            n = _bits_into(hand, cards, 0)
            prob = 1.0 / n
            for i in range(n):
                v += prob * _solve(apply_packed(cfgv, s, cards[i], tables), cfgv, tables,
                                   terminal, memo, counts)
    elif phase == _COMMIT and s[OPEN] == 0 and actor == s[FIRST] and s[CA0 + actor] < 0:
        rows = legal_packed(cfgv, s)
        mid0 = apply_packed(cfgv, s, rows[0], tables)
        cols = legal_packed(cfgv, mid0)
        m = rows.shape[0]
        n = cols.shape[0]
        # Player 0 maximises over the rows of ``a``.
        a = np.empty((m, n)) if actor == 0 else np.empty((n, m))
        for i in range(m):
            mid = mid0 if i == 0 else apply_packed(cfgv, s, rows[i], tables)
            for j in range(n):
                x = _solve(apply_packed(cfgv, mid, cols[j], tables), cfgv, tables, terminal,
                           memo, counts)
                if actor == 0:
                    a[i, j] = x
                else:
                    a[j, i] = x
        counts[1] += 1
        v = _matrix_value(a, counts)
    else:
        acts = legal_packed(cfgv, s)
        v = np.inf if actor == 1 else -np.inf
        for i in range(acts.shape[0]):
            x = _solve(apply_packed(cfgv, s, acts[i], tables), cfgv, tables, terminal,
                       memo, counts)
            if (actor == 0 and x > v) or (actor == 1 and x < v):
                v = x
    if keep:
        memo[key] = v
    return v


class FastExactSolver:
    """Values of public battle positions: :class:`~analysis.cobardes.exact.ExactSolver`
    (``record=False, combat_memo=True``) compiled with numba.

    Parameters
    ----------
    cfg
        The engine's rules options.
    pay
        Player 0's payoff for each way a battle ends.

    The memo is shared by every position solved with the same solver.
    """

    def __init__(self, cfg: E.Config, pay: Payoffs):
        self.cfg = cfg
        self.pay = pay
        self._cfgv = _config_vector(cfg)
        self._tables = effect_tables(cfg)
        self._terminal = _terminal_table(pay)
        self._memo = Dict.empty(key_type=types.UniTuple(types.int64, 2),
                                value_type=types.float64)
        self._counts = np.zeros(3, np.int64)

    @property
    def solved(self) -> int:
        """Positions solved so far (each once; a memoised one is not solved again)."""
        return int(self._counts[0])

    @property
    def matrix_games(self) -> int:
        return int(self._counts[1])

    @property
    def lp_fallbacks(self) -> int:
        """Matrix games the tableau could not verify, solved again by HiGHS."""
        return int(self._counts[2])

    def value(self, pos: E.Pos) -> float:
        """Player 0's exact value of ``pos`` (a public position: every card is known)."""
        if pos.outcome is not None:
            return self.pay.value(pos.outcome)
        return float(solve_packed(pack(pos), self._cfgv, self._tables, self._terminal,
                                  self._memo, self._counts))

    def strategy(self, pos: E.Pos) -> dict[int, float]:
        """The acting player's equilibrium mix at ``pos``: ``{action: probability}``, the
        one :meth:`ExactSolver.strategy <analysis.cobardes.exact.ExactSolver.strategy>`
        gives (the same local game solved the same way over the same child values)."""
        root = X.matrix_root(pos)
        cfg = self.cfg
        actor = pos.actor
        if X.is_matrix_node(root):
            grid, acts0, acts1 = X.confrontation_grid(cfg, root)
            sol = X.solve_matrix(np.array([[self.value(c) for c in row] for row in grid]))
            acts, probs = (acts0, sol.row) if actor == 0 else (acts1, sol.col)
        else:
            acts = E.legal_actions(cfg, root)
            vals = np.array([self.value(E.apply(cfg, root, a)) for a in acts])
            probs = X.best_actions(vals, actor)[1]
        return {int(a): float(p) for a, p in zip(acts, probs, strict=True)}

    def confrontation(self, pos: E.Pos) -> E.Pos:
        """The first position of ``pos``'s confrontation, vanguard courtiers held back."""
        return X.confrontation(self.cfg, pos)
