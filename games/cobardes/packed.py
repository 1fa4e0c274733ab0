"""The battle's phase machine over a position packed in an int64 array, for numba code.

A transcription of :mod:`games.cobardes.engine` (same phases, same order) that the
compiled exact solver (:mod:`analysis.cobardes.solvers.fast_exact`) runs as :func:`apply_packed`.
:func:`apply_logged` runs the same moves on a longer array that also keeps what only an
OpenSpiel state reads (the events, the battlefield's order, each move's visibility mask,
random deals; :mod:`games.cobardes.packed_battle`); the solver's specialization does none
of that work. The cards' effects are looked up in :mod:`games.cobardes.tables`; three
one-line rules are inlined (the Sheep's strength, the winning margin, the Maiden's
strongest warrior). The tests run both machines over whole battles and require the same
values, fields and events everywhere.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import events as EV
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

# A logged position (:func:`apply_logged`) goes on after those NF fields with what only
# the OpenSpiel state reads: the battlefield in order (entries ``16 * player + card``),
# the villains withdrawn, the random deals to come (``2 * kind + player``, kind 0 a
# courtier, 1 a villain) and, from REC0 to LEN, records of RW ints: an event
# ``(seen_by, code, nargs, x0, x1, x2)`` or a move's visibility mask ``(mask, -1, ...)``.
FN = NF
FIELD0 = FN + 1
ON = FIELD0 + 20
OUT0 = ON + 1
PN = OUT0 + 16
PEND0 = PN + 1
LEN = PEND0 + 4
REC0 = LEN + 1
RW = 6
ROOM = 24 * RW  # records one move can add, at most
_SEEN = -1
_DEAL = E.DEAL

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
_SEDUCTRESS = C.SEDUCTRESS
(_E_COMBAT, _E_NO_CARDS, _E_DRAW, _E_QUICKER, _E_YOU_RECEIVE, _E_RECEIVES, _E_COURTIER,
 _E_HOLDS_BACK, _E_ADVANCES, _E_SHOWS_YOU, _E_SHOWS, _E_NO_SWAP, _E_SWAP_YOURS,
 _E_SWAP_THEIRS, _E_SWAP, _E_INQ_DRAWS, _E_INQ_WINS, _E_PLAYS_FIRST, _E_YOU_PREPARE,
 _E_PREPARES, _E_REVEAL, _E_EXECUTE, _E_CAPTURE, _E_EXCHANGE, _E_WITHDRAW, _E_VILLAIN_CROWN,
 _E_VILLAIN_VICTORY, _E_VILLAIN_PEACE, _E_VILLAIN_FIGHTS, _E_GHOST_FRIGHTENS,
 _E_GHOST_STAYS, _E_NO_FOLLOW, _E_DECLINES, _E_FOLLOWS, _E_REPLACES, _E_COMBAT_TIED,
 _E_FIGHT_CROWN, _E_FIGHT_VICTORY, _E_KEEPS_BACK, _E_SENDS, _E_COMBAT_NO_WINNER,
 _E_RETURNS, _E_CHANGES) = (
    EV.COMBAT, EV.NO_CARDS, EV.DRAW, EV.QUICKER, EV.YOU_RECEIVE, EV.RECEIVES, EV.COURTIER,
    EV.HOLDS_BACK, EV.ADVANCES, EV.SHOWS_YOU, EV.SHOWS, EV.NO_SWAP, EV.SWAP_YOURS,
    EV.SWAP_THEIRS, EV.SWAP, EV.INQ_DRAWS, EV.INQ_WINS, EV.PLAYS_FIRST, EV.YOU_PREPARE,
    EV.PREPARES, EV.REVEAL, EV.EXECUTE, EV.CAPTURE, EV.EXCHANGE, EV.WITHDRAW,
    EV.VILLAIN_CROWN, EV.VILLAIN_VICTORY, EV.VILLAIN_PEACE, EV.VILLAIN_FIGHTS,
    EV.GHOST_FRIGHTENS, EV.GHOST_STAYS, EV.NO_FOLLOW, EV.DECLINES, EV.FOLLOWS, EV.REPLACES,
    EV.COMBAT_TIED, EV.FIGHT_CROWN, EV.FIGHT_VICTORY, EV.KEEPS_BACK, EV.SENDS,
    EV.COMBAT_NO_WINNER, EV.RETURNS, EV.CHANGES)


# --------------------------------------------------------------------------- packing
# The packed machine's own limits, wider than the rules' (cards.MAX_COMBATS): the exact
# solver's memo key (analysis/cobardes/solvers/fast_exact.py) keeps the combat number in 5 bits,
# and a battle's last position counts one past its last combat (30 + 1 = 31 fits); the
# villain exchanges of a combat in 4 bits (0-14, and one past).
MAX_PACKED_COMBATS = 30
MAX_PACKED_EXCHANGES = 14


def config_vector(cfg: E.Config) -> np.ndarray:
    if cfg.quicker not in _QUICKER:
        raise InvalidParameterError(f"unknown quicker rule {cfg.quicker!r}")
    if (not 1 <= cfg.combats <= MAX_PACKED_COMBATS
            or not 0 <= cfg.exchange_limit <= MAX_PACKED_EXCHANGES):
        raise InvalidParameterError(
            f"the compiled solver handles 1-{MAX_PACKED_COMBATS} combats and "
            f"0-{MAX_PACKED_EXCHANGES} villain exchanges a combat")
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
# ``lg`` is None in the exact solver's specialization (numba prunes every ``lg is not
# None`` branch at compile time: it does no extra work) and the position itself when
# logging (:func:`apply_logged`). The three log writers are inlined (numba IR): left as
# calls, they cost the exact solver about 8% (measured in turn in one process).
@njit(cache=True, inline="always")
def _say(lg, seen, code, n, x0, x1, x2):
    if lg is not None:
        k = lg[LEN]
        lg[k] = seen
        lg[k + 1] = code
        lg[k + 2] = n
        lg[k + 3] = x0
        lg[k + 4] = x1
        lg[k + 5] = x2
        lg[LEN] = k + RW


@njit(cache=True, inline="always")
def _field_add(lg, p, card):
    if lg is not None:
        lg[FIELD0 + lg[FN]] = 16 * p + card
        lg[FN] += 1


@njit(cache=True, inline="always")
def _field_remove(lg, p, card):
    if lg is not None:
        x = 16 * p + card
        n = lg[FN]
        i = 0
        while lg[FIELD0 + i] != x:
            i += 1
        for j in range(i, n - 1):
            lg[FIELD0 + j] = lg[FIELD0 + j + 1]
        lg[FN] = n - 1


@njit(cache=True)
def _end(s, kind, winner, lg):
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
def _start_combat(cfgv, s, lg):
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
    _say(lg, 3, _E_COMBAT, 1, s[COMBAT], 0, 0)
    if s[H0] == 0 or s[H1] == 0:
        _end(s, O_NOCARDS, -1, lg)
        _say(lg, 3, _E_NO_CARDS, 0, 0, 0, 0)
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
    _open_vanguard(cfgv, s, lg)


@njit(cache=True)
def start_combat(cfgv, s):
    """Start ``s``'s current combat, in place (after the last deal of a walk's row)."""
    _start_combat(cfgv, s, None)


@njit(cache=True)
def _open_vanguard(cfgv, s, lg):
    s[QUEUE] = 3 if s[QUICK] == 0 else 4
    _next_vanguard(cfgv, s, lg)


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
def _next_vanguard(cfgv, s, lg):
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
    _enter_confront(s, lg)


@njit(cache=True)
def _enter_confront(s, lg):
    if s[H0] == 0 or s[H1] == 0:
        _end(s, O_NOCARDS, -1, lg)
        _say(lg, 3, _E_NO_CARDS, 0, 0, 0, 0)
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
def _enter_fight(cfgv, s, rear_t, lg):
    w = _winner(s)
    if w >= 0 and _rear(s, 1 - w, rear_t)[0] != 0:
        s[PHASE] = _REAR
        s[ACTOR] = 1 - w
        return
    _finish_fight(cfgv, s, w, lg)


@njit(cache=True)
def _finish_fight(cfgv, s, w, lg):
    if w < 0:
        if lg is not None:
            _say(lg, 3, _E_COMBAT_TIED, 3, s[COMBAT], _value(s, 0), _value(s, 1))
        _end_combat(cfgv, s, lg)
        return
    if s[FW0 + 1 - w] == _PRINCE:
        _end(s, O_CROWN, w, lg)
        if lg is not None:
            _say(lg, 3, _E_FIGHT_CROWN, 3, _value(s, 0), _value(s, 1), w)
    else:
        _end(s, O_VICTORY, w, lg)
        if lg is not None:
            _say(lg, 3, _E_FIGHT_VICTORY, 3, _value(s, 0), _value(s, 1), w)


@njit(cache=True)
def _end_combat(cfgv, s, lg):
    for p in range(2):
        if s[FW0 + p] == _PRINCE:
            s[UNH] |= 1 << p
    s[COMBAT] += 1
    if s[COMBAT] > cfgv[0]:
        _end(s, O_DRAW, -1, lg)
        _say(lg, 3, _E_DRAW, 1, cfgv[0], 0, 0)
        return
    _start_combat(cfgv, s, lg)


@njit(cache=True)
def _begin_follow(cfgv, s, p, lg):
    s[VIL] = p
    if s[H0 + p] & _WMASK:
        s[PHASE] = _FOLLOW
        s[ACTOR] = p
    else:
        _say(lg, 3, _E_NO_FOLLOW, 1, p, 0, 0)
        _end_combat(cfgv, s, lg)


@njit(cache=True)
def _resolve(cfgv, s, tables, lg):
    villainy, meet, _, rear_t, _ = tables
    a0 = s[CA0]
    a1 = s[CA1]
    s[H0] &= ~(1 << a0)
    s[H1] &= ~(1 << a1)
    v0 = a0 >= 7
    v1 = a1 >= 7
    if not v0 and not v1:
        _field_add(lg, 0, a0)
        _field_add(lg, 1, a1)
        s[FW0] = a0
        s[FW1] = a1
        _enter_fight(cfgv, s, rear_t, lg)
        return
    if v0 and v1:
        kind = meet[a0, a1, s[EXCH], 0]
        who = meet[a0, a1, s[EXCH], 1]
        if kind == M_EXECUTE:
            _field_add(lg, 0, a0)
            _field_add(lg, 1, a1)
            _end(s, O_VICTORY, who, lg)
            _say(lg, 3, _E_EXECUTE, 1, who, 0, 0)
            return
        if kind == M_CAPTURE:
            victim = a1 if who == 0 else a0
            _field_add(lg, who, _SEDUCTRESS)
            s[H0 + who] |= 1 << victim
            s[KV1 - who] |= 1 << victim
            _say(lg, 3, _E_CAPTURE, 2, who, victim, 0)
        elif kind == M_EXCHANGE:
            s[H0] |= 1 << a1
            s[H1] |= 1 << a0
            s[KV0] |= 1 << a0
            s[KV1] |= 1 << a1
            s[EXCH] += 1
            _say(lg, 3, _E_EXCHANGE, 0, 0, 0, 0)
        elif lg is not None:
            lg[OUT0 + lg[ON]] = a0
            lg[OUT0 + lg[ON] + 1] = a1
            lg[ON] += 2
            _say(lg, 3, _E_WITHDRAW, 0, 0, 0, 0)
        _enter_confront(s, lg)
        return
    p = 0 if v0 else 1
    q = 1 - p
    villain = a0 if v0 else a1
    warrior = a1 if v0 else a0
    _field_add(lg, 0, a0)
    _field_add(lg, 1, a1)
    effect = villainy[villain, warrior, (s[UNH] >> p) & 1]
    if effect == V_CROWN:
        _end(s, O_CROWN, p, lg)
        _say(lg, 3, _E_VILLAIN_CROWN, 2, p, villain, 0)
    elif effect == V_VICTORY:
        _end(s, O_VICTORY, p, lg)
        _say(lg, 3, _E_VILLAIN_VICTORY, 2, p, villain, 0)
    elif effect == V_PEACE:
        _end(s, O_PEACE, -1, lg)
        _say(lg, 3, _E_VILLAIN_PEACE, 2, p, villain, 0)
    elif effect == V_FIGHT:
        s[FW0 + p] = villain
        s[FW0 + q] = warrior
        _say(lg, 3, _E_VILLAIN_FIGHTS, 2, p, villain, 0)
        _enter_fight(cfgv, s, rear_t, lg)
    elif effect == V_GHOST:
        _field_remove(lg, q, warrior)
        s[H0 + q] |= 1 << warrior
        others = s[H0 + q] & _WMASK & ~(1 << warrior)
        if others:
            s[AUX] = warrior
            s[VIL] = p
            s[PHASE] = _GHOST
            s[ACTOR] = q
            _say(lg, 3, _E_GHOST_FRIGHTENS, 2, p, warrior, 0)
        else:
            s[H0 + q] &= ~(1 << warrior)
            _field_add(lg, q, warrior)
            s[FW0 + q] = warrior
            _say(lg, 3, _E_GHOST_STAYS, 2, q, warrior, 0)
            _begin_follow(cfgv, s, p, lg)
    else:
        s[FW0 + q] = warrior
        _begin_follow(cfgv, s, p, lg)


@njit(cache=True)
def _swap_villains(cfgv, s, p, take, give, lg):
    r = 1 - p
    s[H0 + r] = (s[H0 + r] & ~(1 << take)) | (1 << give)
    s[H0 + p] = (s[H0 + p] & ~(1 << give)) | (1 << take)
    s[KV0 + p] |= 1 << give
    s[KV0 + r] |= 1 << take
    _say(lg, 1 << p, _E_SWAP_YOURS, 2, give, take, 0)
    _say(lg, 1 << r, _E_SWAP_THEIRS, 3, p, take, give)
    _say(lg, 3, _E_SWAP, 1, p, 0, 0)
    _next_vanguard(cfgv, s, lg)


@njit(cache=True)
def apply_packed(cfgv, s0, action, tables):
    """The packed position after ``action`` (a copy; ``s0`` is not changed)."""
    s = s0.copy()
    _apply(cfgv, s, action, tables, None)
    return s


@njit(cache=True)
def apply_logged(cfgv, s0, action, tables):
    """:func:`apply_packed` on a logged position (``packed_battle.pack_logged``): also the events,
    the battlefield's order, the move's visibility mask and the random deals."""
    n = s0[LEN]
    s = np.empty(n + ROOM, np.int64)
    s[:n] = s0[:n]
    _apply(cfgv, s, action, tables, s)
    return s[:s[LEN]]


# Inlined into both callers (numba IR): called, it made the solver's moves ~1.5x slower.
@njit(cache=True, inline="always")
def _apply(cfgv, s, action, tables, lg):
    _, _, vanguard, rear_t, inq_t = tables
    phase = s[PHASE]
    p = s[ACTOR]
    if lg is not None:
        # Who sees this move: the first card prepared face down and a villain dealt
        # are private.
        if phase == _COMMIT and p == s[FIRST] and s[OPEN] == 0:
            _say(lg, 1 << p, _SEEN, 0, 0, 0, 0)
        elif phase == _DEAL and lg[PEND0] >= 2:
            _say(lg, 1 << (lg[PEND0] % 2), _SEEN, 0, 0, 0, 0)
        else:
            _say(lg, 3, _SEEN, 0, 0, 0, 0)
    if phase == _COMMIT:
        s[CA0 + p] = action
        if p == s[FIRST]:
            if lg is not None:
                if s[OPEN]:
                    _say(lg, 3, _E_PLAYS_FIRST, 2, p, action, 0)
                else:
                    _say(lg, 1 << p, _E_YOU_PREPARE, 1, action, 0, 0)
                    _say(lg, 3, _E_PREPARES, 1, p, 0, 0)
            s[ACTOR] = 1 - p
            return
        _say(lg, 3, _E_REVEAL, 2, s[CA0], s[CA1], 0)
        _resolve(cfgv, s, tables, lg)
    elif phase == _VANGUARD:
        s[QUEUE] = _queue_tail(s[QUEUE])
        c = s[CT0 + p]
        if action == _PASS:
            _say(lg, 3, _E_HOLDS_BACK, 2, p, c, 0)
            _next_vanguard(cfgv, s, lg)
            return
        s[USED] |= 1 << p
        r = 1 - p
        _say(lg, 3, _E_ADVANCES, 2, p, c, 0)
        if c == _PROCURESS:
            theirs = s[H0 + r] & _VMASK
            _say(lg, 1 << p, _E_SHOWS_YOU, 2, r, theirs, 0)
            _say(lg, 3, _E_SHOWS, 2, r, p, 0)
            s[KV0 + p] |= theirs
            if theirs and s[H0 + p] & _VMASK:
                s[PHASE] = _PROC_TAKE
                s[ACTOR] = p
            else:
                _next_vanguard(cfgv, s, lg)
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
            _next_vanguard(cfgv, s, lg)
    elif phase == _FOLLOW:
        if action == _PASS:
            _say(lg, 3, _E_DECLINES, 1, p, 0, 0)
            _end_combat(cfgv, s, lg)
            return
        s[H0 + p] &= ~(1 << action)
        _field_add(lg, p, action)
        s[FW0 + p] = action
        _say(lg, 3, _E_FOLLOWS, 2, p, action, 0)
        _enter_fight(cfgv, s, rear_t, lg)
    elif phase == _GHOST:
        s[H0 + p] &= ~(1 << action)
        _field_add(lg, p, action)
        s[FW0 + p] = action
        _say(lg, 3, _E_REPLACES, 2, p, action, 0)
        _begin_follow(cfgv, s, 1 - p, lg)
    elif phase == _REAR:
        if action == _PASS:
            _say(lg, 3, _E_KEEPS_BACK, 2, p, s[CT0 + p], 0)
            _finish_fight(cfgv, s, 1 - p, lg)
            return
        kind, amount = _rear(s, p, rear_t)
        s[USED] |= 1 << p
        _say(lg, 3, _E_SENDS, 2, p, s[CT0 + p], 0)
        if kind == R_ADD:
            s[MOD0 + p] += amount
            _enter_fight(cfgv, s, rear_t, lg)
        elif kind == R_NO_WINNER:
            _say(lg, 3, _E_COMBAT_NO_WINNER, 1, s[COMBAT], 0, 0)
            _end_combat(cfgv, s, lg)
        else:
            changer = 1 - p if kind == R_RIVAL_CHANGES else p
            fled = s[FW0 + changer]
            _field_remove(lg, changer, fled)
            s[H0 + changer] |= 1 << fled
            s[AUX] = fled
            s[PHASE] = _ARCHER if kind == R_RIVAL_CHANGES else _SENTINEL
            s[ACTOR] = changer
            _say(lg, 3, _E_RETURNS, 2, changer, fled, 0)
    elif phase in (_ARCHER, _SENTINEL):
        s[H0 + p] &= ~(1 << action)
        _field_add(lg, p, action)
        s[FW0 + p] = action
        s[MOD0 + p] = 0
        s[AUX] = -1
        _say(lg, 3, _E_CHANGES, 2, p, action, 0)
        _enter_fight(cfgv, s, rear_t, lg)
    elif phase == _PROC_TAKE:
        if action == _PASS:
            _say(lg, 3, _E_NO_SWAP, 1, p, 0, 0)
            _next_vanguard(cfgv, s, lg)
            return
        take = action - _TAKE0 + 7
        own = s[H0 + p] & _VMASK
        if own & (own - 1) == 0:
            _swap_villains(cfgv, s, p, take, _low_bit(own), lg)
        else:
            s[AUX] = take
            s[PHASE] = _PROC_GIVE
    elif phase == _PROC_GIVE:
        _swap_villains(cfgv, s, p, s[AUX], action - _GIVE0 + 7, lg)
    elif phase == _INQ:
        owner = s[AUX]
        s[AUX] = -1
        _say(lg, 3, _E_INQ_DRAWS, 2, owner, action, 0)
        if inq_t[action]:
            _end(s, O_VICTORY, owner, lg)
            _say(lg, 3, _E_INQ_WINS, 1, owner, 0, 0)
            return
        if action >= 7:
            s[KV0 + owner] |= 1 << action
        _next_vanguard(cfgv, s, lg)
    elif phase == _QUICK:
        s[QUICK] = action
        _say(lg, 3, _E_QUICKER, 1, action, 0, 0)
        _open_vanguard(cfgv, s, lg)
    elif lg is not None and phase == _DEAL:
        _deal(cfgv, s, action, lg)


@njit(cache=True)
def _deal(cfgv, s, action, lg):
    x = lg[PEND0]
    who = x % 2
    n = lg[PN] - 1
    for i in range(n):
        lg[PEND0 + i] = lg[PEND0 + i + 1]
    lg[PN] = n
    if x < 2:
        s[CT0 + who] = action
        _say(lg, 3, _E_COURTIER, 3, who, action, 0)
    else:
        s[H0 + who] |= 1 << action
        _say(lg, 1 << who, _E_YOU_RECEIVE, 1, action, 0, 0)
        _say(lg, 3, _E_RECEIVES, 1, who, 0, 0)
    if n == 0:
        _start_combat(cfgv, s, lg)


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
