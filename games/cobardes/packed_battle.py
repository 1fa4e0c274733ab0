"""The OpenSpiel battle state run by the numba phase machine (a single-engine trial).

:class:`PackedBattleState` plays ``python_cobardes_battle`` on a logged packed position
(:func:`games.cobardes.packed.apply_logged`): the move, its legality check, the events,
the battlefield's order, the visibility masks and the random deals all happen in one
compiled call. Keys and strings read an :class:`~games.cobardes.engine.Pos` unpacked
from the array when first asked for (kept with the position), so
:mod:`games.cobardes.keys` and :mod:`games.cobardes.view` serve it unchanged.
The benchmark ``benchmarks/cobardes_engine_speed.py`` times it against
:class:`games.cobardes.battle.CobardesBattleState`; the tests require the same games.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
import pyspiel
from numba import njit

from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.battle import CobardesBattleGame
from games.cobardes.keys import infoset_key, state_key
from games.cobardes.options import Rules
from games.cobardes.tables import effect_tables
from games.cobardes.view import action_string, describe
from games.errors import IllegalActionError

_KIND_NAMES = (None, E.VICTORY, E.CROWN, E.DRAW, E.PEACE, E.NO_CARDS)


class Machine:
    """One battle's rules as the compiled machine takes them (shared by every state)."""

    def __init__(self, rules: Rules):
        cfg = rules.cfg
        self.rules = rules
        self.cfgv = np.concatenate([P.config_vector(cfg),
                                    np.array([cfg.court_deck, cfg.villain_deck], np.int64)])
        self.tables = effect_tables(cfg)
        self.root = Packed(pack_logged(rules.initial), self)


class Packed:
    """An immutable logged position with its machine; a clone shares it."""

    __slots__ = ("a", "actor", "m", "_pos", "_prev")

    def __init__(self, a: np.ndarray, m: Machine, prev: E.Pos | None = None):
        self.a = a
        self.actor = int(a[P.ACTOR])
        self.m = m
        self._pos = None
        self._prev = prev

    def __deepcopy__(self, memo):
        return self

    def pos(self) -> E.Pos:
        """The engine position this array holds (built once)."""
        if self._pos is None:
            self._pos = unpack(self.a, self.m.rules, self._prev)
            self._prev = None
        return self._pos


_BASE = itemgetter(P.USED, P.UNH, P.COMBAT, P.PHASE, P.ACTOR, P.BONUS, P.PRIV, P.FORCED,
                   P.FIRST, P.EXCH, P.VIL, P.AUX, P.QUICK)
_PAIRS = [(P.H0, P.H1), (P.CT0, P.CT1), (P.CA0, P.CA1), (P.FW0, P.FW1), (P.MOD0, P.MOD1),
          (P.KV0, P.KV1)]
_PAIRS = itemgetter(*[i for pair in _PAIRS for i in pair])
_PENDING = (("court", 0), ("court", 1), ("villain", 0), ("villain", 1))
_REC0, _RW, _SEEN, _LEN, _QUEUES = P.REC0, P.RW, P._SEEN, P.LEN, P._QUEUES
_OKIND, _OWIN, _OPEN, _QUEUE = P.OKIND, P.OWIN, P.OPEN, P.QUEUE
_FN, _FIELD0, _ON, _OUT0, _PN, _PEND0 = P.FN, P.FIELD0, P.ON, P.OUT0, P.PN, P.PEND0


def pack_logged(pos: E.Pos) -> np.ndarray:
    """``pos`` as a logged packed position (:func:`games.cobardes.packed.apply_logged`):
    with its log, battlefield order and random deals to come (any phase)."""
    if pos.phase == E.DEAL:  # pack() refuses a deal to come: the deals are packed apart
        undealt = pos.copy()
        undealt.pending = ()
        undealt.phase = E.COMMIT
        base = P.pack(undealt)
        base[P.PHASE], base[P.ACTOR] = E.DEAL, E.CHANCE
    else:
        base = P.pack(pos)
    a = np.zeros(P.REC0 + P.RW * (len(pos.ev) + len(pos.seen)), np.int64)
    a[:P.NF] = base
    a[P.FN] = len(pos.field)
    for i, (p, c) in enumerate(pos.field):
        a[P.FIELD0 + i] = 16 * p + c
    a[P.ON] = len(pos.out)
    a[P.OUT0:P.OUT0 + len(pos.out)] = pos.out
    a[P.PN] = len(pos.pending)
    for i, pending in enumerate(pos.pending):
        a[P.PEND0 + i] = _PENDING.index(pending)
    k = P.REC0
    for mask in pos.seen:
        a[k], a[k + 1] = mask, P._SEEN
        k += P.RW
    for e in pos.ev:
        a[k], a[k + 1], a[k + 2] = e[0], e[1], len(e) - 2
        a[k + 3:k + 1 + len(e)] = e[2:]
        k += P.RW
    a[P.LEN] = k
    return a


def unpack(a: np.ndarray, rules: Rules, prev: E.Pos | None = None) -> E.Pos:
    """The :class:`E.Pos` of a logged packed position; given the position before the
    move (already unpacked), only the move's records are read."""
    v = a[:_REC0].tolist()
    done = 0 if prev is None else len(prev.ev) + len(prev.seen)
    rows = a[_REC0 + _RW * done:v[_LEN]].tolist()
    ev, seen = [], []
    for i in range(0, len(rows), _RW):
        if rows[i + 1] == _SEEN:
            seen.append(rows[i])
        else:
            ev.append((rows[i], rows[i + 1], *rows[i + 3:i + 3 + rows[i + 2]]))
    pos = E.Pos.__new__(E.Pos)
    (pos.used, pos.unh, pos.combat, pos.phase, pos.actor, pos.bonus, pos.priv, pos.forced,
     pos.first, pos.exch, pos.vil, pos.aux, pos.quick) = _BASE(v)
    h0, h1, c0, c1, a0, a1, f0, f1, m0, m1, k0, k1 = _PAIRS(v)
    pos.h, pos.court, pos.cards, pos.fw, pos.mods, pos.kv = (
        (h0, h1), (c0, c1), (a0, a1), (f0, f1), (m0, m1), (k0, k1))
    pos.queue = _QUEUES[v[_QUEUE]]
    pos.open = v[_OPEN] == 1
    pos.outcome = None if v[_OKIND] == 0 else (_KIND_NAMES[v[_OKIND]], v[_OWIN])
    pos.ev = tuple(ev) if prev is None else prev.ev + tuple(ev)
    pos.seen = tuple(seen) if prev is None else prev.seen + tuple(seen)
    pos.field = tuple([divmod(x, 16) for x in v[_FIELD0:_FIELD0 + v[_FN]]])
    pos.out = tuple(v[_OUT0:_OUT0 + v[_ON]])
    pos.pending = tuple([_PENDING[x] for x in v[_PEND0:_PEND0 + v[_PN]]])
    pos.rules = rules
    return pos


@njit(cache=True)
def _chance_ok(cfgv, s, action):
    phase = s[P.PHASE]
    if action < 0 or action >= 16:
        return False
    if phase == E.QUICK:
        return action < 2
    if phase == E.INQUISITOR:
        return (s[P.H1 - s[P.AUX]] >> action) & 1 == 1
    if phase == E.DEAL:
        return (_deal_pool(cfgv, s) >> action) & 1 == 1
    return False


@njit(cache=True)
def _deal_pool(cfgv, s):
    if s[P.PEND0] < 2:
        taken = 0
        for p in range(2):
            if s[P.CT0 + p] >= 0:
                taken |= 1 << s[P.CT0 + p]
        return cfgv[4] & ~taken
    return cfgv[5] & ~((s[P.H0] | s[P.H1]) & P._VMASK)


@njit(cache=True)
def step(cfgv, s, action, tables):
    """The position after ``action``, or an empty array when it is not legal now."""
    actor = s[P.ACTOR]
    if actor >= 0:
        legal = P.legal_packed(cfgv, s)
        ok = False
        for i in range(legal.shape[0]):
            if legal[i] == action:
                ok = True
        if not ok:
            return s[:0]
    elif actor != E.CHANCE or not _chance_ok(cfgv, s, action):
        return s[:0]
    return P.apply_logged(cfgv, s, action, tables)


@njit(cache=True)
def chance_cards(cfgv, s):
    """The chance outcomes' cards (each equally likely)."""
    out = np.empty(16, np.int64)
    phase = s[P.PHASE]
    if phase == E.QUICK:
        out[0] = 0
        out[1] = 1
        return out[:2]
    if phase == E.INQUISITOR:
        return out[:P.bits_into(s[P.H1 - s[P.AUX]], out, 0)]
    if phase == E.DEAL:
        return out[:P.bits_into(_deal_pool(cfgv, s), out, 0)]
    return out[:0]


class PackedBattleGame(CobardesBattleGame):
    """``python_cobardes_battle`` (same parameters, same type) whose states run on the
    packed machine. Not registered: built directly, ``PackedBattleGame(params)``."""

    def __init__(self, params=None):
        super().__init__(params)
        self.machine = Machine(self.rules)

    def new_initial_state(self):
        return PackedBattleState(self)


class PackedBattleState(pyspiel.State):
    """A battle on the packed machine: one immutable logged position carrying the shared
    rules' machine (a clone copies one reference)."""

    def __init__(self, game: PackedBattleGame):
        super().__init__(game)
        self._s = game.machine.root

    def current_player(self):
        return self._s.actor

    def _legal_actions(self, player):
        s = self._s
        if player != s.actor:
            return []
        return P.legal_packed(s.m.cfgv, s.a).tolist()

    def chance_outcomes(self):
        s = self._s
        cards = chance_cards(s.m.cfgv, s.a).tolist()
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action):
        s = self._s
        m = s.m
        a = step(m.cfgv, s.a, action, m.tables)
        if not a.shape[0]:  # the messages of CobardesBattleState
            if s.actor >= 0:
                raise IllegalActionError(
                    f"{E.action_name(action) if 0 <= action < E.NUM_ACTIONS else action} "
                    f"is not legal for P{s.actor} now ({E.PHASE_NAMES[int(s.a[P.PHASE])]})")
            if s.actor == E.CHANCE:
                raise IllegalActionError(f"{action} is not a chance outcome here")
            raise IllegalActionError("the battle is over")
        self._s = Packed(a, m, s._pos)

    def _action_to_string(self, player, action):
        return action_string(self._s.pos(), player, action)

    def is_terminal(self):
        return self._s.actor == E.TERMINAL

    def returns(self):
        a = self._s.a
        if a[P.OKIND] == 0:
            return [0.0, 0.0]
        v = self._s.m.rules.pay.value((_KIND_NAMES[a[P.OKIND]], int(a[P.OWIN])))
        return [v, -v]

    def __str__(self):
        return describe(self._s.pos())

    def state_key(self):
        return state_key(self._s.pos())

    def infoset_key(self, player):
        return infoset_key(self._s.pos(), player)

    @property
    def position(self) -> E.Pos:
        return self._s.pos()

    @property
    def outcome(self):
        return self._s.pos().outcome
