"""How public battles end under the exact solution: beside each value, the chance of
each ending, an outcome class (win, loss, crown, crown loss, draw; player 0's view) with
which courtiers were played (:data:`analysis.cobardes.model.ENDING_NAMES`), compiled
with numba.

The war composed from one battle solution (:func:`analysis.cobardes.solvers.war.composed_values`)
needs how the battle ends, not only its value, and the war with courtiers renewed needs
which courtiers are left to keep. The values are
:class:`~analysis.cobardes.solvers.fast_exact.FastExactSolver`'s, by the same shared induction;
its ``reached`` hook puts each child's ending probabilities on a stack as the induction
meets the child, and its ``solved`` hook carries a position's up from its children's:
the child the induction keeps at a player's choice (the first best), the chance mix, or
both mixes of the matrix game. A position the induction keeps has them kept under the
same key (a key tells the used courtiers: it forgets exactly their identity); one it
does not keep (after a reveal) is solved just before its parent reads it, so it leaves
them on the stack. The value is then the outcome probabilities times the payoffs,
which the tests check.

Asked to (``random_rival``), the solver carries two more vectors beside them: how the
battle ends when one player plays the same solution and the other picks uniformly at
random among its legal moves at every decision (OpenSpiel's ``random`` bot), once with
the solution in each seat. The positions, children and mixes are the same; only the
weights differ, so scoring the solution against a random player costs no second pass.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, objmode, typeof, types
from numba.typed import Dict

from analysis.cobardes.model import DRAW, ENDINGS, USED, ending_index, outcome_class, outcome_kind
from analysis.cobardes.solvers import exact as X
from analysis.cobardes.solvers import fast_exact as F
from analysis.solve.induction import (
    CHANCE,
    FINISHED,
    MATRIX,
    MAX,
    MIN,
    SOLVED,
    register,
    solve_compiled,
)
from analysis.solve.matrix_game import solve_matrix_lp
from games.cobardes import engine as E
from games.cobardes.options import Payoffs
from games.cobardes.packed import _KINDS, OKIND, OWIN, config_vector, pack, terminal_table
from games.cobardes.packed import USED as USED_SLOT
from games.cobardes.tables import effect_tables
from games.errors import InvalidPositionError

CLASSES = ENDINGS
BITS = len(USED)
# The vectors carried with ``random_rival``, CLASSES numbers each: both players play the
# solution; player 0 does against a random player 1; player 1 does against a random
# player 0 (a player plays the solution in block ``b`` unless ``b == 2 - player``).
BLOCKS = 3
TIE = 1e-12  # values this close (relative) are a tie between moves
STACK = 1 << 16  # outcome vectors of children, waiting for their parent


class PackedOutcomes(NamedTuple):
    """:class:`~analysis.cobardes.solvers.fast_exact.PackedBattle`'s tables, the outcome class of
    each way a battle ends, and where the outcome probabilities are kept."""

    terminal: np.ndarray
    no_probs: np.ndarray
    no_mids: np.ndarray
    classes: np.ndarray    # (kind, winner + 1) -> outcome class
    outcomes: Dict         # kept position's key -> its outcome probabilities
    stack: np.ndarray      # (STACK, width): those of children waiting for their parent
    top: np.ndarray        # the stack's height, in a one-cell array
    scratch: np.ndarray    # (width,): a parent's, while it is carried up


def class_table() -> np.ndarray:
    """The outcome class of each packed ending ``(kind, winner + 1)``
    (:func:`analysis.cobardes.model.outcome_class`; an ending nobody won is a draw)."""
    table = np.full((len(_KINDS), 3), DRAW, np.int64)
    for k, kind in enumerate(_KINDS):
        if kind is not None:
            for winner in (0, 1):
                table[k, winner + 1] = outcome_class(kind, winner)
    return table


@njit(cache=True)
def _matrix_mixes(d0, d1, d2, a, counts):
    v, x, y = F._tableau_solution(a)
    if np.isnan(v):
        counts[2] += 1
        with objmode(v="float64", x="float64[:]", y="float64[:]"):
            sol = solve_matrix_lp(a)
            v, x, y = sol.value, np.asarray(sol.row, float), np.asarray(sol.col, float)
    return v, x, y


@njit(cache=True)
def _spare(vec):
    """Player 0's courtier left unplayed minus player 1's (chances), under ``vec``."""
    out = 0.0
    for j in range(CLASSES):
        used = j % BITS
        out += vec[j] * ((1 - (used & 1)) - (1 - (used >> 1)))
    return out


@njit(cache=True)
def _reached(d0, d1, d2, c, how, key):
    """Put child ``c``'s outcome probabilities on the stack: a finished battle's ending,
    a kept position's stored ones (a copy); a position not kept put its own there when
    it was solved, just before."""
    if how == SOLVED:
        return
    top = d0.top[0]
    if top >= d0.stack.shape[0]:
        raise MemoryError("outcome stack full")
    row = d0.stack[top]
    if how == FINISHED:
        row[:] = 0.0
        ending = d0.classes[c[OKIND], c[OWIN] + 1] * BITS + c[USED_SLOT]
        for b in range(row.shape[0] // CLASSES):
            row[b * CLASSES + ending] = 1.0
    else:
        row[:] = d0.outcomes[key]
    d0.top[0] = top + 1


@njit(cache=True)
def _kept_choice(vals, v, kids, kind):
    """The child the solution keeps at a player's choice: the first best (value ``v``)
    which, among tied moves, keeps the mover's courtier unplayed rather than the
    rival's (:func:`_spare` of the children's endings ``kids``): a tie in the battle is
    settled by what a courtier left in hand is worth after it (it may be kept)."""
    sign = 1.0 if kind == MAX else -1.0
    best, spare = -1, -np.inf
    for i in range(vals.shape[0]):
        if abs(vals[i] - v) <= TIE * (1.0 + abs(v)):
            x = sign * _spare(kids[i])
            if x > spare + TIE:
                best, spare = i, x
    return best


@njit(cache=True)
def _carry(d0, d1, d2, s, key, kind, actions, aux, probs, vals, v, row, col):
    """``s``'s outcome probabilities from its children's, the top ``k`` rows of the stack
    (in the children's order): the child the induction keeps at a player's choice
    (:func:`_kept_choice`), the chance mix, or both mixes of the matrix game; in the
    blocks where a player picks at random (:data:`BLOCKS`), every move alike. Kept under
    ``key``, or left on the stack for the parent of a position not kept."""
    k = vals.shape[0]
    base = d0.top[0] - k
    kids = d0.stack[base:base + k]
    out = d0.scratch
    out[:] = 0.0
    width = out.shape[0]
    # Loops written out: no array is made per child.
    if kind == CHANCE:
        for i in range(k - 1, -1, -1):
            w = probs[i]
            for j in range(width):
                out[j] += w * kids[i, j]
    elif kind == MATRIX:
        m = row.shape[0]
        n = col.shape[0]
        for i in range(k - 1, -1, -1):
            r = row[i // n]
            c = col[i % n]
            w = r * c
            for j in range(CLASSES):
                out[j] += w * kids[i, j]
            if width > CLASSES:
                w0, w1 = r / n, c / m  # player 1 at random, then player 0
                for j in range(CLASSES):
                    out[CLASSES + j] += w0 * kids[i, CLASSES + j]
                    out[2 * CLASSES + j] += w1 * kids[i, 2 * CLASSES + j]
    else:
        best = _kept_choice(vals, v, kids, kind)
        out[:] = kids[best]
        if width > CLASSES:
            # The mover plays at random in block 2 as player 0, in block 1 as player 1.
            lo = (2 if kind == MAX else 1) * CLASSES
            for j in range(lo, lo + CLASSES):
                x = 0.0
                for i in range(k):
                    x += kids[i, j]
                out[j] = x / k
    d0.top[0] = base
    if key[0] == 0 and key[1] == 0 and not F._keep(d0, d1, d2, s):
        d0.stack[base] = out
        d0.top[0] = base + 1
    else:
        d0.outcomes[key] = out.copy()


register(PackedOutcomes, terminal=F._terminal, keep=F._keep, key=F._graph_key,
         blank=F._blank, expand=F._expand, child=F._child, matrix=_matrix_mixes,
         solved=_carry, reached=_reached)


@njit(cache=True)
def _solve_outcomes(s, d0, d1, d2, memo, counts):
    """Player 0's value of packed public position ``s`` and its outcome probabilities
    (one call from Python: each call pays for typing the game's tables)."""
    v = solve_compiled(s, d0, d1, d2, memo, counts)
    key = F._key(s)
    if key not in d0.outcomes:
        return v, np.full(CLASSES, np.nan)
    return v, d0.outcomes[key].copy()


class OutcomeSolver(F.FastExactSolver):
    """:class:`~analysis.cobardes.solvers.fast_exact.FastExactSolver` that also tells how each
    public position ends under the exact solution (:meth:`outcome_probs`). Its values
    are the same; it keeps twenty more numbers a kept position, sixty with
    ``random_rival`` (:meth:`endings_against_random`)."""

    def __init__(self, cfg: E.Config, pay: Payoffs, random_rival: bool = False):
        super().__init__(cfg, pay)
        self.random_rival = random_rival
        width = CLASSES * (BLOCKS if random_rival else 1)
        outcomes = Dict.empty(key_type=types.UniTuple(types.int64, 2),
                              value_type=types.float64[:])
        self._data = (PackedOutcomes(terminal_table(pay), np.zeros(0),
                                     np.zeros((0, 0), np.int64), class_table(), outcomes,
                                     np.zeros((STACK, width)), np.zeros(1, np.int64),
                                     np.zeros(width)),
                      config_vector(cfg), effect_tables(cfg))
        self._entry = None

    def _solve(self, *args):
        # A typed dictionary inside the tables makes numba type every argument in Python
        # at each call (~0.1 ms, more than most positions take to look up): after the
        # first call, this solver calls the compiled function for its types directly.
        if self._entry is None:
            result = _solve_outcomes(*args)
            self._entry = _solve_outcomes.overloads[tuple(typeof(a) for a in args)].entry_point
            return result
        return self._entry(*args)

    def value(self, pos: E.Pos) -> float:
        """Player 0's exact value of ``pos``, by this module's compiled solve: numba keeps
        each module's compiled functions apart, so the plain solver's (compiled for these
        tables too) could hold an older way of carrying the endings."""
        return self._carried(pos)[0]

    def outcome_probs(self, pos: E.Pos) -> np.ndarray:
        """The chance of each ending (``ENDING_NAMES`` order) from the public position
        ``pos`` on, both players playing the exact solution."""
        return self.value_and_outcomes(pos)[1]

    def value_and_outcomes(self, pos: E.Pos) -> tuple[float, np.ndarray]:
        """:meth:`value` and :meth:`outcome_probs` of ``pos`` at once."""
        value, out = self._carried(pos)
        return value, out[:CLASSES]

    def endings_against_random(self, pos: E.Pos) -> np.ndarray:
        """The chance of each ending from ``pos`` on when one player plays the exact
        solution (the mix of :meth:`solution_mix`) and the other picks uniformly at random
        among its legal moves at every decision: row 0 with the solution as player 0,
        row 1 as player 1. Needs a solver made with ``random_rival``."""
        if not self.random_rival:
            raise ValueError("this solver was made without random_rival")
        return self._carried(pos)[1][CLASSES:].reshape(BLOCKS - 1, CLASSES)

    def solution_mix(self, pos: E.Pos) -> dict[int, float]:
        """The mix the acting player plays at ``pos`` in the solution whose endings this
        solver carries: at a choice, the one move it keeps (:func:`_kept_choice`); at a
        face-down confrontation, its mix of the matrix game (the answer to a card
        prepared face down is the same mix: it does not see the card).
        ``{action: probability}`` over the legal actions."""
        root = X.matrix_root(pos)
        if X.is_matrix_node(root):
            grid, acts0, acts1 = X.confrontation_grid(self.cfg, root)
            a = np.array([[self.value(c) for c in row] for row in grid])
            _, x, y = _matrix_mixes(*self._data, a, self._counts)
            acts, probs = (acts0, x) if pos.actor == 0 else (acts1, y)
        else:
            acts = E.legal_actions(self.cfg, root)
            kids = [self._carried(E.apply(self.cfg, root, a)) for a in acts]
            vals = np.array([v for v, _ in kids])
            kind = MAX if pos.actor == 0 else MIN
            v = vals.max() if kind == MAX else vals.min()
            probs = np.zeros(len(acts))
            probs[_kept_choice(vals, v, np.array([o for _, o in kids]), kind)] = 1.0
        return {int(a): float(p) for a, p in zip(acts, probs, strict=True)}

    def _carried(self, pos: E.Pos) -> tuple[float, np.ndarray]:
        """Player 0's value of ``pos`` and every vector carried (:data:`BLOCKS`)."""
        if pos.outcome is not None:
            out = np.zeros(self._data[0].scratch.shape[0])
            out[ending_index(outcome_kind(pos), pos.used)::CLASSES] = 1.0
            return self.pay.value(pos.outcome), out
        value, out = self._solve(pack(pos), *self._data, self._memo, self._counts)
        if np.isnan(out[0]):
            raise InvalidPositionError("no outcome probabilities kept for this position")
        return float(value), out
