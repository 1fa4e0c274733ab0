"""Backward induction over public battle positions, compiled with numba.

The values of :class:`analysis.cobardes.solvers.exact.ExactSolver` with ``combat_memo``, for the
public subgames of the hidden-villain battles (:mod:`analysis.cobardes.solvers.subgames`) and
advice. Positions are packed int64 arrays run by the numba phase machine of
:mod:`games.cobardes.packed`; matrix games go to the shared simplex
(:mod:`analysis.solve.matrix_game`); the memo is a numba dictionary keyed by the position
packed in two integers. Positions with a random deal still to come are refused. The
backward induction itself is the shared one (:mod:`analysis.solve.induction`), compiled
here over packed positions.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, objmode, types
from numba.typed import Dict

from analysis.cobardes.solvers import exact as X
from analysis.solve.induction import CHANCE, MATRIX, MAX, MIN, register, solve_compiled
from analysis.solve.matrix_game import CHECK_TOL, solve_matrix_lp, tableau
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import Payoffs
from games.cobardes.packed import (  # noqa: F401  (pack: imported from here by tests)
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
    apply_packed,
    bits_into,
    config_vector,
    legal_packed,
    pack,
    terminal_table,
)
from games.cobardes.tables import effect_tables  # noqa: F401  (imported from here by tests)

# Positions after a reveal, not remembered below a root (``ExactSolver``'s combat_memo).
_AFTER_REVEAL = tuple(sorted(X._AFTER_REVEAL))
_VMASK = C.VILLAIN_MASK
_CHANCE, _COMMIT, _QUICK = E.CHANCE, E.COMMIT, E.QUICK


@njit(cache=True)
def _key(s):
    """The memo key: :func:`analysis.cobardes.model.canonical_key`, packed in two ints."""
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
def _tableau_solution(a):
    """The matrix game ``a`` (rows maximise) by the shared tableau simplex
    (:func:`analysis.solve.matrix_game.tableau`): its value and both mixes; the value is
    NaN when the answer is not verified."""
    saddle, z, shift, x, y = tableau(a)
    if saddle:
        return z, x, y
    x = np.maximum(x, 0.0)
    y = np.maximum(y, 0.0)
    sx = x.sum()
    sy = y.sum()
    if not (z > 0 and sx > 0 and sy > 0):
        return np.nan, x, y
    value = 1.0 / z - shift
    x /= sx
    y /= sy
    if (x @ a).min() >= value - CHECK_TOL and (a @ y).max() <= value + CHECK_TOL:
        return value, x, y
    return np.nan, x, y


@njit(cache=True)
def _tableau_value(a):
    """Value of the matrix game ``a`` (rows maximise) by the shared tableau simplex; NaN
    when its answer is not verified."""
    return _tableau_solution(a)[0]


def _lp_value(a: np.ndarray) -> float:
    return solve_matrix_lp(a).value


@njit(cache=True)
def _matrix_value(a, counts):
    v = _tableau_value(a)
    if np.isnan(v):
        counts[2] += 1
        with objmode(v="float64"):
            v = _lp_value(a)
    return v


# --------------------------------------------------------------------------- the graph
# The packed battle for the shared backward induction (:mod:`analysis.solve.induction`):
# its data in three parts, ``d0`` a :class:`PackedBattle`, ``d1`` the rules' vector and
# ``d2`` the cards' effect tables (passed as they are: numba counts references to what it
# takes out of a tuple, and that costs the solver a quarter of its speed).
class PackedBattle(NamedTuple):
    """Player 0's payoff by ending, and what positions without chance or without a
    matrix game give as probabilities and as ``aux`` (empty arrays)."""

    terminal: np.ndarray
    no_probs: np.ndarray
    no_mids: np.ndarray


@njit(cache=True)
def _terminal(d0, d1, d2, s):
    if s[OKIND] != 0:
        return d0.terminal[s[OKIND], s[OWIN] + 1]
    return np.nan


@njit(cache=True)
def _keep(d0, d1, d2, s):
    return s[PHASE] not in _AFTER_REVEAL


@njit(cache=True)
def _graph_key(d0, d1, d2, s):
    return _key(s)


@njit(cache=True)
def _blank(d0, d1, d2):
    return (np.int64(0), np.int64(0))  # the type of :func:`_key`'s keys


@njit(cache=True)
def _expand(d0, d1, d2, s):
    phase = s[PHASE]
    actor = s[ACTOR]
    if actor == _CHANCE:
        if phase == _QUICK:
            acts = np.arange(2)
        else:
            cards = np.empty(16, np.int64)
            acts = cards[:bits_into(s[H1 - s[AUX]], cards, 0)]
        k = acts.shape[0]
        return CHANCE, k, np.full(k, 1.0 / k), 0, 0, acts, d0.no_mids
    if phase == _COMMIT and s[OPEN] == 0 and actor == s[FIRST] and s[CA0 + actor] < 0:
        # A matrix game: ``aux`` holds the position after each of the mover's cards.
        rows = legal_packed(d1, s)
        mids = np.empty((rows.shape[0], s.shape[0]), np.int64)
        for i in range(rows.shape[0]):
            mids[i] = apply_packed(d1, s, rows[i], d2)
        cols = legal_packed(d1, mids[0])
        m = rows.shape[0]
        n = cols.shape[0]
        if actor == 0:
            return MATRIX, m * n, d0.no_probs, m, n, np.concatenate((rows, cols)), mids
        return MATRIX, m * n, d0.no_probs, n, m, np.concatenate((cols, rows)), mids
    acts = legal_packed(d1, s)
    return (MAX if actor == 0 else MIN), acts.shape[0], d0.no_probs, 0, 0, acts, d0.no_mids


@njit(cache=True)
def _child(d0, d1, d2, s, kind, actions, aux, m, n, i):
    if kind != MATRIX:
        return apply_packed(d1, s, actions[i], d2)
    # Player 0's card is row i // n; ``aux`` is indexed by the mover's card.
    if s[ACTOR] == 0:
        return apply_packed(d1, aux[i // n], actions[m + i % n], d2)
    return apply_packed(d1, aux[i % n], actions[i // n], d2)


@njit(cache=True)
def _matrix(d0, d1, d2, a, counts):
    none = a[0, :0]
    return _matrix_value(a, counts), none, none


@njit(cache=True)
def _values_only(d0, d1, d2, s, key, kind, actions, aux, probs, vals, v, row, col):
    pass


@njit(cache=True)
def _children_ignored(d0, d1, d2, c, how, key):
    pass


register(PackedBattle, terminal=_terminal, keep=_keep, key=_graph_key, blank=_blank,
         expand=_expand, child=_child, matrix=_matrix, solved=_values_only,
         reached=_children_ignored)


@njit(cache=True)
def solve_packed(s, d0, d1, d2, memo, counts):
    """Player 0's exact value of packed position ``s`` (``d0, d1, d2``: a
    :class:`PackedBattle`, the rules' vector, the effect tables) by the shared backward
    induction (:func:`analysis.solve.induction.solve_compiled`).

    ``memo`` maps the keys of solved positions to their values: every position asked
    for and, below it, the positions before a reveal (those after one are reached from
    that reveal only and are not kept). ``counts`` accumulates positions solved, matrix
    games and LP fallbacks.
    """
    return solve_compiled(s, d0, d1, d2, memo, counts)


class FastExactSolver:
    """Values of public battle positions: :class:`~analysis.cobardes.solvers.exact.ExactSolver`
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
        self._data = (PackedBattle(terminal_table(pay), np.zeros(0), np.zeros((0, 0), np.int64)),
                      config_vector(cfg), effect_tables(cfg))
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
        return float(solve_packed(pack(pos), *self._data, self._memo, self._counts))

    def strategy(self, pos: E.Pos) -> dict[int, float]:
        """The acting player's equilibrium mix at ``pos``: ``{action: probability}``, the
        one :meth:`ExactSolver.strategy <analysis.cobardes.solvers.exact.ExactSolver.strategy>`
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

    def action_values(self, pos: E.Pos) -> dict[int, float]:
        """Each legal action's value for the player acting at ``pos`` (a public position):
        both play the equilibrium afterwards, and at a face-down confrontation the rival
        plays its equilibrium mix. An action in the equilibrium mix is worth the
        position's value; any other, at most that."""
        root = X.matrix_root(pos)
        cfg = self.cfg
        if X.is_matrix_node(root):
            grid, acts0, acts1 = X.confrontation_grid(cfg, root)
            values = np.array([[self.value(c) for c in row] for row in grid])
            sol = X.solve_matrix(values)
            acts, vals = (acts0, values @ sol.col) if pos.actor == 0 else (acts1,
                                                                             sol.row @ values)
        else:
            acts = E.legal_actions(cfg, root)
            vals = np.array([self.value(E.apply(cfg, root, a)) for a in acts])
        sign = 1.0 if pos.actor == 0 else -1.0
        return {int(a): sign * float(v) for a, v in zip(acts, vals, strict=True)}

    def confrontation(self, pos: E.Pos) -> E.Pos:
        """The first position of ``pos``'s confrontation, vanguard courtiers held back."""
        return X.confrontation(self.cfg, pos)
