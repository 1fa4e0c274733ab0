"""The trunk of a hidden-villain battle: the battle with its public subgames cut off.

Once every villain left in a hand is known to both players (or none is left), the rest
of the battle is a public subgame (:func:`games.cobardes.hidden.is_public`), solved
exactly by backward induction. :class:`PublicCut` makes the compiler see those
positions as terminals paying their exact value; what is left, where a villain is
still hidden, is the trunk that CFR+ solves (:func:`solve_trunk`). The whole solution's
exploitability is the trunk's: a best response gains nothing in a public subgame solved
exactly.
"""

from __future__ import annotations

import dataclasses
import time
from array import array
from dataclasses import dataclass

import numpy as np
import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.model import ending_index, outcome_kind
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.fast_outcomes import CLASSES, OutcomeSolver
from analysis.cobardes.solvers.packed_walk import CUT, CUT_ENDINGS, compile_packed
from analysis.solve import CFRSolver, compile_game
from analysis.solve.compile import CompiledGame
from analysis.solve.digest import key_text
from analysis.solve.errors import GameTooLargeError
from analysis.solve.floor import FloorRule
from games.cobardes import engine as E
from games.cobardes import keys as K
from games.cobardes.hidden import is_public
from games.errors import InvalidParameterError

GAME = "python_cobardes_battle"


class Wrapper:
    """A battle walker wrapping another: every method it does not define is the wrapped
    one's. The compile looks the methods up millions of times, so they are bound once
    rather than found through ``__getattr__`` at every call."""

    def __init__(self, base):
        self._base = base
        own = {name for klass in type(self).__mro__ for name in vars(klass)}
        for name in dir(base):
            if not name.startswith("_") and name not in own:
                method = getattr(base, name)
                if callable(method):
                    setattr(self, name, method)

    def __getattr__(self, name):
        return getattr(self._base, name)


class PublicCut(Wrapper):
    """A battle walker (:class:`games.keys.Walker`) whose public positions are terminals.

    Every method not listed here is the wrapped walker's (including the deal-lifted
    walker's, so the lifted compile applies to the trunk). The root is never cut: a
    public battle is the exact solver's alone.

    Parameters
    ----------
    base
        The battle's walker (``game.solver_walker(...)`` or ``game.lifted_walker()``).
    exact
        The solver of the public subgames; its memo is shared by every subgame, so a
        sub-battle reached from several trunk leaves is solved once.
    """

    def __init__(self, base, exact: ExactSolver | FastExactSolver):
        super().__init__(base)
        self._root = base.root()
        self.exact = exact
        self.cuts = 0  # trunk leaves valued by the exact solver (walk edges, not positions)
        self.exact_seconds = 0.0

    def actor(self, s: E.Pos) -> int:
        if s is not self._root and is_public(s):
            return E.TERMINAL
        return s.actor

    def returns(self, s: E.Pos) -> tuple[float, float]:
        if s.outcome is not None:
            return self._base.returns(s)
        self.cuts += 1
        tick = time.perf_counter()
        value = self.exact.value(s)
        self.exact_seconds += time.perf_counter() - tick
        return value, -value


@dataclass(frozen=True)
class Endings:
    """How each terminal of a compiled trunk ends (the 20 endings of
    :data:`analysis.cobardes.model.ENDING_NAMES`), kept small: ``code[t]`` is the ending
    of a terminal where the battle is over, or ``-1 - i`` for one valuing a public
    subgame, whose ending probabilities are row ``i`` of ``cuts``."""

    code: np.ndarray   # int32, one a terminal
    cuts: np.ndarray   # float32, (public subgames, ENDINGS)

    def column(self, k: int) -> np.ndarray:
        """Each terminal's chance of ending ``k``."""
        sure = self.code >= 0
        out = np.where(sure, (self.code == k).astype(np.float64), 0.0)
        out[~sure] = self.cuts[-1 - self.code[~sure], k]
        return out

    def dense(self) -> np.ndarray:
        """Terminals x endings (for small trunks: it takes 80 bytes a terminal)."""
        return np.stack([self.column(k) for k in range(CLASSES)], axis=1)


class NumberedCut(PublicCut):
    """:class:`PublicCut` that also keeps how each trunk leaf ends: a battle over, its
    ending; a public subgame, the chance of each ending under its exact solution
    (:class:`~analysis.cobardes.solvers.fast_outcomes.OutcomeSolver`).

    The compiler takes one number from each leaf (its payoff) and keeps no link back to
    the position, so this walker hands it the leaf's number instead; :func:`compile_cut`
    then puts each compiled terminal's value and endings in its place."""

    def __init__(self, base, exact: OutcomeSolver):
        super().__init__(base, exact)
        self.values = array("d")
        self.codes = array("i")  # a leaf's ending, or -1 - its row in ``cut_ends``
        self.cut_ends = array("f")  # CLASSES a public subgame

    def returns(self, s: E.Pos) -> tuple[float, float]:
        number = float(len(self.values))
        if s.outcome is not None:
            self.values.append(self._base.returns(s)[0])
            self.codes.append(ending_index(outcome_kind(s), s.used))
            return number, -number
        self.cuts += 1
        tick = time.perf_counter()
        value, ends = self.exact.value_and_outcomes(s)
        self.exact_seconds += time.perf_counter() - tick
        self.values.append(value)
        self.codes.append(-1 - len(self.cut_ends) // CLASSES)
        self.cut_ends.extend(ends.tolist())
        return number, -number

    def in_place(self, compiled: CompiledGame) -> tuple[CompiledGame, Endings]:
        """``compiled`` (walked with this cut) with each terminal's value in place of its
        number, and each terminal's endings."""
        number = compiled.utility.astype(np.int64)
        values = np.frombuffer(self.values, dtype=np.float64)
        codes = np.frombuffer(self.codes, dtype=np.int32)
        cuts = np.frombuffer(self.cut_ends, dtype=np.float32).reshape(-1, CLASSES)
        return dataclasses.replace(compiled, utility=values[number]), Endings(codes[number], cuts)


class OrderedKeys(Wrapper):
    """A battle walker keyed by the refined keys (:func:`games.cobardes.keys.ordered_state_key`,
    :func:`~games.cobardes.keys.ordered_infoset_key`): the coarse keys plus the order of
    each rival's plays while a villain of theirs is hidden. With ``record``,
    ``coarse_of`` maps each refined information-set key, as the compiled game prints
    it, to the coarse key it refines (to read a coarse strategy in the refined graph)."""

    def __init__(self, base, record: bool = False):
        super().__init__(base)
        self.record = record
        self.coarse_of: dict[str, str] = {}

    def state_key(self, s: E.Pos):
        return K.ordered_state_key(s)

    def infoset_key(self, s: E.Pos, player: int):
        key = K.ordered_infoset_key(s, player)
        if self.record:
            self.coarse_of.setdefault(key_text(key), key_text(key[0]))
        return key


@dataclass(frozen=True)
class CutCompile:
    """The trunk's compiled game and what valuing its leaves cost."""

    compiled: CompiledGame
    cuts: int
    exact_positions: int
    exact_seconds: float
    seconds: float
    coarse_of: dict | None = None  # refined key -> coarse key (``ordered`` and ``record``)
    # With ``outcomes``: how each terminal ends (:class:`Endings`).
    outcomes: Endings | None = None


def compile_cut(game: pyspiel.Game, graph: bool = True, max_memory: int | None = None,
                progress: bool | None = None, key_names: bool = True,
                abstract_keys: bool = False,
                exact: ExactSolver | FastExactSolver | None = None,
                ordered: bool = False, record: bool = False,
                outcomes: bool = False, lifted: bool = True,
                engine: str = "packed") -> CutCompile:
    """Compile ``game``'s trunk: the battle with its public subgames as exact terminals.

    ``graph=True`` gives the state-keyed graph (deal-lifted when the battle's villains
    are dealt hidden), ``graph=False`` the perfect-recall tree (``abstract_keys`` as in
    :func:`analysis.solve.compile_game`). The public subgames are solved by a new
    :class:`FastExactSolver` (its memo dropped afterwards) unless a solver is passed in.
    ``ordered``: the graph keyed by the refined keys (:class:`OrderedKeys`, on the
    battle's own walker, not the deal-lifted one); ``record`` keeps which coarse key
    each refined one refines. ``outcomes``: also how each terminal ends
    (:class:`NumberedCut`; ``exact``, if passed, must be an :class:`OutcomeSolver`).
    ``lifted=False`` walks every villain deal apart (the same graph, more slowly: for
    checks and benchmarks). ``engine``: the deal-lifted walk compiled with numba on
    packed rows (``"packed"``, :mod:`analysis.cobardes.solvers.packed_walk`; with the compiled
    exact solver only) or in Python (``"python"``); the same graph, array for array.

    Raises
    ------
    InvalidParameterError
        ``game`` is not a ¡Cobardes! battle, or its starting position is public (no
        hidden villain: solve it exactly with :mod:`analysis.cobardes.solvers.exact`).
    """
    if not hasattr(game, "rules") or str(game.get_type().short_name) != GAME:
        raise InvalidParameterError(f"the public-subgame cut needs a {GAME} game, not {game}")
    rules = game.rules
    root = rules.initial
    if not root.pending and is_public(root):
        raise InvalidParameterError(
            "this battle has no hidden villain: solve it exactly (farol cobardes exact)")
    if engine not in ("packed", "python"):
        raise InvalidParameterError(f"unknown walk engine {engine!r}; choose packed or python")
    if exact is None:
        exact = (OutcomeSolver if outcomes else FastExactSolver)(rules.cfg, rules.pay)
    base = game.lifted_walker() if graph and not ordered and lifted else None
    # The compiled walk values the public subgames with the compiled exact solver.
    if (base is not None and base.lifts() and engine == "packed"
            and isinstance(exact, FastExactSolver)):
        tick = time.perf_counter()
        compiled, walk, number = compile_packed(game, CUT_ENDINGS if outcomes else CUT,
                                                exact, max_memory, progress, key_names)
        ends = Endings(walk.codes[number], walk.cut_ends) if outcomes else None
        return CutCompile(compiled, walk.cuts, exact.solved, walk.exact_seconds,
                          time.perf_counter() - tick, None, ends)
    if base is None or not base.lifts():
        base = game.solver_walker(history=not graph)
    refined = OrderedKeys(base, record) if ordered else None
    walker = (NumberedCut if outcomes else PublicCut)(refined or base, exact)
    tick = time.perf_counter()
    compiled = compile_game(game, graph=graph, max_memory=max_memory, progress=progress,
                            key_names=key_names, abstract_keys=abstract_keys, walker=walker)
    ends = None
    if outcomes:
        compiled, ends = walker.in_place(compiled)
    return CutCompile(compiled, walker.cuts, exact.solved, walker.exact_seconds,
                      time.perf_counter() - tick,
                      refined.coarse_of if refined is not None and record else None, ends)


# How a battle's trunk is solved (benchmarks/results/cobardes_solve_curves.txt: the curves
# these were chosen from; a check costs about 7 iterations, two best responses).
METHOD = "dcfr"
RULE = FloorRule(every=15, patience=2, gain=0.05, max_iterations=400)

# A trunk is solved on its perfect-recall tree (exact) when it compiles within this.
TREE_MEMORY = 2 * 2**30


def compile_trunk(game: pyspiel.Game, tree_memory: int = TREE_MEMORY,
                  progress: bool | None = None) -> CutCompile:
    """``game``'s trunk compiled on its perfect-recall tree when that fits within
    ``tree_memory`` (exact), else on its state-keyed graph (an abstraction)."""
    try:
        return compile_cut(game, graph=False, max_memory=tree_memory, progress=progress)
    except GameTooLargeError:
        return compile_cut(game, graph=True, progress=progress)


def solve_trunk(game: pyspiel.Game, iterations: int, tree_memory: int = TREE_MEMORY,
                progress: bool | None = None):
    """Solve ``game``'s trunk by CFR+: on its perfect-recall tree when that compiles within
    ``tree_memory`` (exact; the exploitability is the true one), else on its state-keyed
    graph (an abstraction). Returns the :class:`CutCompile`, the solver and its report."""
    cut = compile_trunk(game, tree_memory, progress)
    solver = CFRSolver(cut.compiled, "cfr+")
    report = solver.run(iterations=iterations, progress=progress)
    return cut, solver, report


def trunk_key(compiled: CompiledGame, state, player: int) -> str:
    """The key of ``player``'s information set at ``state`` in a compiled trunk: the
    information-state string in a tree, the state-keyed key in a graph."""
    if compiled.mode == "tree":
        return state.information_state_string(player)
    return repr(state.infoset_key(player))
