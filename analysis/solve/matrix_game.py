"""Zero-sum matrix games: one dense tableau simplex, callable from Python and numba code.

:func:`tableau` is the simplex itself (compiled with numba, so the compiled exact solver
calls it inside its recursion); :func:`solve_matrix` wraps it for Python with both
players' mixes, checks the answer is an equilibrium and otherwise falls back to
:func:`solve_matrix_lp` (HiGHS).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy.optimize import linprog

TOL = 1e-12
# Pivoting tolerance: payoffs are O(1) (shifted to >= 1), round-off is ~1e-15 a pivot.
PIVOT_TOL = 1e-9
# An equilibrium is accepted when neither player gains more than this by deviating.
CHECK_TOL = 1e-8


@dataclass(frozen=True)
class MatrixSolution:
    """A solved zero-sum matrix game: ``value`` for the row (maximising) player."""

    value: float
    row: np.ndarray
    col: np.ndarray


@njit(cache=True)
def tableau(a):
    """The matrix game ``a`` (rows maximise) by a tableau simplex with Bland's rule.

    Returns ``(saddle, z, shift, x, y)``. With a pure saddle point, ``saddle`` is true,
    ``z`` the value and ``x``, ``y`` the pure strategies. Otherwise the payoffs are shifted
    by ``shift`` to be positive and the column player's LP ``max sum y s.t. A y <= 1,
    y >= 0`` is solved from the slack basis (feasible: no phase one); the value is
    ``1 / z - shift``, ``y`` the basic solution and ``x`` the slacks' reduced costs (the
    row player's dual), neither clipped nor normalised: the caller checks them.
    """
    m, n = a.shape
    row_min = np.empty(m)
    for i in range(m):
        row_min[i] = a[i].min()
    col_max = np.empty(n)
    for j in range(n):
        col_max[j] = a[:, j].max()
    lower = row_min.max()
    upper = col_max.min()
    if upper - lower <= 1e-12:
        x = np.zeros(m)
        y = np.zeros(n)
        x[np.argmax(row_min)] = 1.0
        y[np.argmin(col_max)] = 1.0
        return True, lower, 0.0, x, y
    shift = 1.0 - a.min()
    # Tableau rows: m constraints [A + shift | I | 1]; objective row [-1 ... | 0 | 0].
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
        for j in range(n + m):  # Bland: the first improving column
            if t[m, j] < -PIVOT_TOL:
                entering = j
                break
        if entering < 0:
            break
        best = np.inf
        leave = -1
        for i in range(m):
            if t[i, entering] > PIVOT_TOL:
                ratio = t[i, n + m] / t[i, entering]
                if ratio < best - TOL or (abs(ratio - best) <= TOL and basis[i] < basis[leave]):
                    best = ratio
                    leave = i
        if leave < 0:  # only round-off says "improving": optimal
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
    y = np.zeros(n)
    for i in range(m):
        if basis[i] < n:
            y[basis[i]] = t[i, n + m]
    return False, t[m, n + m], shift, t[m, n:n + m].copy(), y


def solve_matrix(payoff: np.ndarray) -> MatrixSolution:
    """Solve the zero-sum matrix game ``payoff`` (row player maximises).

    A pure saddle point is returned directly. The tableau's answer (:func:`tableau`) is
    accepted only if neither player gains by deviating; otherwise, or if round-off broke
    a pivot, the game is solved again by :func:`solve_matrix_lp`.
    """
    a = np.ascontiguousarray(payoff, dtype=float)
    saddle, z, shift, x, y = tableau(a)
    if saddle:
        return MatrixSolution(float(z), x, y)
    x = np.clip(x, 0.0, None)
    y = np.clip(y, 0.0, None)
    if z > 0 and x.sum() > 0 and y.sum() > 0:
        sol = MatrixSolution(float(1.0 / z - shift), x / x.sum(), y / y.sum())
        # Accept only a verified equilibrium; near-ties can fool a tableau pivot.
        if (sol.row @ a).min() >= sol.value - CHECK_TOL and \
                (a @ sol.col).max() <= sol.value + CHECK_TOL:
            return sol
    return solve_matrix_lp(a)


def solve_matrix_lp(payoff: np.ndarray) -> MatrixSolution:
    """The same game solved by ``scipy.optimize.linprog`` (HiGHS): the fallback, and the
    reference the tableau simplex is tested against."""
    a = np.asarray(payoff, dtype=float)
    m, n = a.shape
    # Variables x_1..x_m, v. Minimise -v subject to v - (A' x)_j <= 0, sum x = 1.
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.zeros((1, m + 1))
    a_eq[0, :m] = 1.0
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"matrix game LP failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    y = np.clip(-res.ineqlin.marginals, 0.0, None)
    return MatrixSolution(float(-res.fun), x / x.sum(), y / y.sum())
