"""Backward induction over a graph of positions, written once for Python and numba.

A game describes its positions through functions of its ``data`` (the game's tables, or
a solver object in Python) and a position ``s``:

- ``terminal(d0, d1, d2, s)``: player 0's payoff of a finished position, NaN otherwise;
- ``keep(d0, d1, d2, s)``, ``key(d0, d1, d2, s)``: whether and under which key a value is kept
  (``blank(d0, d1, d2)``: the key told of a position not kept);
- ``expand(d0, d1, d2, s)``: ``(kind, count, probs, m, n, actions, aux)``, the kind being
  ``MAX``/``MIN`` (player 0/1 picks a child), ``CHANCE`` (children drawn with ``probs``)
  or ``MATRIX`` (both choose at once: ``count = m * n`` children row by row, player 0
  choosing the row); ``actions`` are the moves to the children (a matrix node's: player
  0's ``m``, then player 1's ``n``) and ``aux`` whatever ``child`` needs;
- ``child(d0, d1, d2, s, kind, actions, aux, m, n, i)``: the ``i``-th child;
- ``matrix(d0, d1, d2, a, counts)``: the value of the zero-sum game ``a`` (rows maximise) and
  both mixes (empty if ``solved`` ignores them);
- ``solved(d0, d1, d2, s, key, kind, actions, aux, probs, values, value, row, col)``: told
  every position's answer (to record strategies or carry other figures up the graph);
- ``reached(d0, d1, d2, c, how, key)``: told each child once its value is known, ``how``
  being ``FINISHED`` (a terminal), ``KEPT`` (kept under ``key``) or ``SOLVED`` (not kept,
  just solved), so that a game carrying figures up the graph gets them child by child
  without computing the child again.

``counts`` accumulates positions solved, matrix games and what ``matrix`` counts in its
third cell. The same source runs twice: :func:`solve` in Python, calling those
functions as methods of ``data`` (``data.expand(s)``), and :func:`solve_compiled` in
numba, where a game's compiled functions are attached to its data's named-tuple class
by :func:`register`. Call :func:`solve_compiled` from a cached numba function of the
game's own module: that cache then holds the whole solver, and an edit of the game's
module compiles it again.
"""

from __future__ import annotations

import functools
import types

import numpy as np
from numba import njit
from numba.core import types as nbtypes
from numba.extending import overload

from analysis.solve.matrix_game import solve_matrix

MAX, MIN, CHANCE, MATRIX = 0, 1, 2, 3
# How a child's value was found (``reached``).
FINISHED, KEPT, SOLVED = 0, 1, 2
FUNCTIONS = ("terminal", "keep", "key", "blank", "expand", "child", "matrix", "solved",
             "reached")


# The game's functions as compiled code calls them: numba picks a game's own by the type
# of ``data`` (see :func:`register`).
def terminal(d0, d1, d2, s):
    raise NotImplementedError


def keep(d0, d1, d2, s):
    raise NotImplementedError


def key(d0, d1, d2, s):
    raise NotImplementedError


def blank(d0, d1, d2):
    raise NotImplementedError


def expand(d0, d1, d2, s):
    raise NotImplementedError


def child(d0, d1, d2, s, kind, actions, aux, m, n, i):
    raise NotImplementedError


def matrix(d0, d1, d2, a, counts):
    raise NotImplementedError


def solved(d0, d1, d2, s, key, kind, actions, aux, probs, vals, v, row, col):
    raise NotImplementedError


def reached(d0, d1, d2, c, how, key):
    raise NotImplementedError


def register(data_class, **functions) -> None:
    """Let compiled code solve the game whose data are instances of the named tuple
    ``data_class``: ``functions`` maps each name of :data:`FUNCTIONS` to the game's
    compiled function, taking the same arguments."""
    if set(functions) != set(FUNCTIONS):
        raise ValueError(f"register needs exactly the functions {FUNCTIONS}")
    for name, fn in functions.items():
        _attach(globals()[name], data_class, fn)


def _attach(stub, data_class, fn) -> None:
    @functools.wraps(stub)  # the stub's signature, which numba checks the game's against
    def typer(d0, *args):
        if isinstance(d0, nbtypes.BaseNamedTuple) and d0.instance_class is data_class:
            return fn.py_func
        return None
    # The small ones per child go inline (no call passing the game's tables each time).
    overload(stub, inline="never" if stub in (expand, matrix) else "always")(typer)


# Recursive, so every call has the same argument types (a game's ``blank`` key must have
# the type of its keys): numba's cache of a recursive function called with other types
# crashes when loaded (numba issues 6061, 6713).
@njit
def _node(s, key_s, d0, d1, d2, memo, counts):
    """Player 0's value of the unfinished position ``s`` from its children's values.

    Children the game keeps are looked up in ``memo`` (solved and stored there if new);
    the others are solved each time they are reached.
    """
    counts[0] += 1
    kind, k, probs, m, n, actions, aux = expand(d0, d1, d2, s)
    vals = np.empty(k)
    for i in range(k):
        c = child(d0, d1, d2, s, kind, actions, aux, m, n, i)
        x = terminal(d0, d1, d2, c)
        if x != x:  # NaN: not finished
            if keep(d0, d1, d2, c):
                ck = key(d0, d1, d2, c)
                if ck in memo:
                    x = memo[ck]
                else:
                    x = _node(c, ck, d0, d1, d2, memo, counts)
                    memo[ck] = x
                reached(d0, d1, d2, c, KEPT, ck)
            else:
                bk = blank(d0, d1, d2)
                x = _node(c, bk, d0, d1, d2, memo, counts)
                reached(d0, d1, d2, c, SOLVED, bk)
        else:
            reached(d0, d1, d2, c, FINISHED, blank(d0, d1, d2))
        vals[i] = x
    if kind == MATRIX:
        counts[1] += 1
        v, row, col = matrix(d0, d1, d2, vals.reshape(m, n), counts)
    else:
        row = col = vals[:0]
        if kind == CHANCE:
            v = 0.0
            for i in range(k):
                v += probs[i] * vals[i]
        else:
            v = vals[0]
            for i in range(1, k):
                if (kind == MAX and vals[i] > v) or (kind == MIN and vals[i] < v):
                    v = vals[i]
    v = float(v)
    solved(d0, d1, d2, s, key_s, kind, actions, aux, probs, vals, v, row, col)
    return v


@njit
def solve_compiled(s, d0, d1, d2, memo, counts):
    """Player 0's value of position ``s`` by backward induction, remembered in ``memo``
    (``s`` itself always, whatever the game's ``keep`` says)."""
    x = terminal(d0, d1, d2, s)
    if x == x:
        return x
    key_s = key(d0, d1, d2, s)
    if key_s in memo:
        return memo[key_s]
    v = _node(s, key_s, d0, d1, d2, memo, counts)
    memo[key_s] = v
    return v


# In Python the game's functions are methods of ``d0`` (the per-child ones spelled out:
# they run for every child).
_METHODS = {
    "terminal": lambda d0, d1, d2, s: d0.terminal(s),
    "keep": lambda d0, d1, d2, s: d0.keep(s),
    "key": lambda d0, d1, d2, s: d0.key(s),
    "child": lambda d0, d1, d2, s, kind, actions, aux, m, n, i: d0.child(
        s, kind, actions, aux, m, n, i),
    "blank": lambda d0, d1, d2: d0.blank(),
    "expand": lambda d0, d1, d2, s: d0.expand(s),
    "matrix": lambda d0, d1, d2, a, counts: d0.matrix(a, counts),
    "solved": lambda d0, d1, d2, *args: d0.solved(*args),
    "reached": lambda d0, d1, d2, *args: d0.reached(*args),
}


class Graph:
    """A graph for :func:`solve` in Python: a game's positions as methods (see the
    module's docstring). Its ``child`` takes the ``i``-th of the children ``expand``
    listed, and its ``matrix`` solves the game exactly with both mixes; a game overrides
    what it does otherwise."""

    def child(self, s, kind, actions, kids, m, n, i):
        return kids[i]

    def reached(self, c, how, key) -> None:
        pass

    def matrix(self, a: np.ndarray, counts) -> tuple:
        sol = solve_matrix(a)
        return sol.value, sol.row, sol.col


def _plain(*compiled):
    """Plain Python twins of compiled functions of this module, calling one another and
    the game's functions as methods of ``data``."""
    scope = dict(globals())
    scope.update(_METHODS)
    twins = []
    for fn in compiled:
        twin = types.FunctionType(fn.py_func.__code__, scope, fn.__name__)
        twin.__doc__ = fn.py_func.__doc__
        twins.append(twin)
    scope.update({fn.__name__: twin for fn, twin in zip(compiled, twins, strict=True)})
    return twins


# The same backward induction run by Python, over positions numba cannot read.
_node_plain, solve = _plain(_node, solve_compiled)
