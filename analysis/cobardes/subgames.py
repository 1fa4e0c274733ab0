"""Hidden-villain battles solved with their public subgames cut off and solved exactly.

A battle with hidden villains stops being a game of hidden information as soon as
every villain left in a hand is known to both players (played, exchanged, drawn by an
Inquisitor) — or none is left. From such a position
(:func:`games.cobardes.hidden.is_public`) the rest of the battle is a *public
subgame*: every past move is known to both, so its value does not depend on beliefs
and backward induction over positions (matrix games at the face-down confrontations)
solves it exactly: :class:`analysis.cobardes.fast_exact.FastExactSolver`, the
numba-compiled twin of :class:`analysis.cobardes.exact.ExactSolver` (the Python one can be
passed instead; both give the same values, position by position).

:class:`PublicCut` wraps the battle's walker so that the compiler
(:func:`analysis.solve.compile_game`) sees those positions as terminals paying their
exact value. What is left — the *trunk*, where a villain is still hidden — is what
CFR+ has to solve:

* the state-keyed graph of the trunk (``graph=True``) is about half the full graph's
  nodes, and CFR+ never iterates over the public subgames;
* the solution is the trunk's CFR+ strategy followed by the exact strategies of the
  public subgames. Its exploitability is the trunk's: in a proper subgame solved
  exactly a best response gains nothing, so a best response against the whole
  solution is a best response in the trunk with the exact values at its leaves;
* the perfect-recall tree of the trunk (``graph=False``) is far smaller than the
  battle's, so on reduced decks :func:`cut_loss` measures the true exploitability of
  the state-keyed trunk solution, as :func:`analysis.cobardes.villains.abstraction_loss`
  does for the whole graph.

The trunk's state-keyed abstraction is a refinement of the whole graph's: positions
where the rival knows a player's villain are no longer merged with positions where the
rival does not (they are now terminals of the trunk), so the two can give slightly
different values; both are measured.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.exact import ExactSolver
from analysis.cobardes.fast_exact import FastExactSolver
from analysis.cobardes.villains import AbstractionLoss, deal_values, measure_loss
from analysis.solve import CFRSolver, compile_game
from analysis.solve.compile import CompiledGame
from games.cobardes import engine as E
from games.cobardes.hidden import is_public
from games.errors import InvalidParameterError

GAME = "python_cobardes_battle"

# Decks on which the trunk's loss is measured: the whole graph's reduced decks
# (:data:`analysis.cobardes.villains.REDUCED_DECKS`) and larger ones whose whole
# perfect-recall tree is out of reach but whose trunk's tree fits (all nine villains).
LARGER_DECKS = (
    ("warriors 0-3, 3 combats, all 9 villains",
     {"kinds": "warriors+villains", "warriors": 3, "combats": 3}),
    ("warriors 0-3, 3 combats, Squire vs Archer, all 9 villains",
     {"kinds": "all", "warriors": 3, "combats": 3, "courtier0": "Squire",
      "courtier1": "Archer"}),
    ("warriors 0-3, 4 combats, Squire vs Archer, all 9 villains",
     {"kinds": "all", "warriors": 3, "combats": 4, "courtier0": "Squire",
      "courtier1": "Archer"}),
)


class PublicCut:
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
        self._base = base
        self._root = base.root()
        self.exact = exact
        self.cuts = 0  # trunk leaves valued by the exact solver (walk edges, not positions)
        self.exact_seconds = 0.0
        # The compile looks the wrapped walker's methods up millions of times: bind them
        # once rather than through __getattr__ at every call.
        for name in dir(base):
            if not name.startswith("_") and name not in vars(PublicCut):
                method = getattr(base, name)
                if callable(method):
                    setattr(self, name, method)

    def __getattr__(self, name):
        return getattr(self._base, name)

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
class CutCompile:
    """The trunk's compiled game and what valuing its leaves cost."""

    compiled: CompiledGame
    cuts: int
    exact_positions: int
    exact_seconds: float
    seconds: float


def compile_cut(game: pyspiel.Game, graph: bool = True, max_memory: int | None = None,
                progress: bool = False, key_names: bool = True,
                abstract_keys: bool = False,
                exact: ExactSolver | FastExactSolver | None = None) -> CutCompile:
    """Compile ``game``'s trunk: the battle with its public subgames as exact terminals.

    ``graph=True`` gives the state-keyed graph (deal-lifted when the battle's villains
    are dealt hidden), ``graph=False`` the perfect-recall tree (``abstract_keys`` as in
    :func:`analysis.solve.compile_game`). The public subgames are solved by a new
    :class:`FastExactSolver` (its memo dropped afterwards) unless a solver is passed in.

    Raises
    ------
    InvalidParameterError
        ``game`` is not a ¡Cobardes! battle, or its starting position is public (no
        hidden villain: solve it exactly with :mod:`analysis.cobardes.exact`).
    """
    if not hasattr(game, "rules") or str(game.get_type().short_name) != GAME:
        raise InvalidParameterError(f"the public-subgame cut needs a {GAME} game, not {game}")
    rules = game.rules
    root = rules.initial
    if not root.pending and is_public(root):
        raise InvalidParameterError(
            "this battle has no hidden villain: solve it exactly (farol cobardes exact)")
    if exact is None:
        exact = FastExactSolver(rules.cfg, rules.pay)
    if graph:
        base = game.lifted_walker()
        if not base.lifts():
            base = game.solver_walker(history=False)
    else:
        base = game.solver_walker(history=True)
    walker = PublicCut(base, exact)
    tick = time.perf_counter()
    compiled = compile_game(game, graph=graph, max_memory=max_memory, progress=progress,
                            key_names=key_names, abstract_keys=abstract_keys, walker=walker)
    return CutCompile(compiled, walker.cuts, exact.solved, walker.exact_seconds,
                      time.perf_counter() - tick)


# A trunk is solved on its perfect-recall tree (exact) when it compiles within this.
TREE_MEMORY = 2 * 2**30


def solve_trunk(game: pyspiel.Game, iterations: int, tree_memory: int = TREE_MEMORY,
                progress: bool = False):
    """Solve ``game``'s trunk by CFR+: on its perfect-recall tree when that compiles within
    ``tree_memory`` (exact; the exploitability is the true one), else on its state-keyed
    graph (an abstraction). Returns the :class:`CutCompile`, the solver and its report."""
    from analysis.solve.errors import GameTooLargeError

    try:
        cut = compile_cut(game, graph=False, max_memory=tree_memory, progress=progress)
    except GameTooLargeError:
        cut = compile_cut(game, graph=True, progress=progress)
    solver = CFRSolver(cut.compiled, "cfr+")
    report = solver.run(iterations=iterations, progress=progress)
    return cut, solver, report


def trunk_key(compiled: CompiledGame, state, player: int) -> str:
    """The key of ``player``'s information set at ``state`` in a compiled trunk: the
    information-state string in a tree, the state-keyed key in a graph."""
    if compiled.mode == "tree":
        return state.information_state_string(player)
    return repr(state.infoset_key(player))


def cut_loss(label: str, params: dict, iterations: int = 2000) -> AbstractionLoss:
    """Solve the trunk of ``params`` on its perfect-recall tree and on its state graph
    (public subgames exact in both, CFR+ with the same iterations) and measure the graph
    strategy's true exploitability in the tree: the loss of the state-keyed trunk."""
    game = pyspiel.load_game(GAME, params)
    exact = FastExactSolver(game.rules.cfg, game.rules.pay)
    return measure_loss(
        label, lambda: compile_cut(game, graph=False, abstract_keys=True, exact=exact).compiled,
        lambda: compile_cut(game, graph=True, exact=exact).compiled, iterations)


def hidden_villain_values_exact(label: str, params: dict, iterations: int = 2000,
                                progress: bool = False) -> dict:
    """The value of each hidden villain deal, from the battle's exact solution.

    The trunk's perfect-recall tree (public subgames exact at its leaves) is solved by
    CFR+; its exploitability is the whole solution's true exploitability. Returns the
    record the report reads: ``label``, ``table`` (player 0's villain -> player 1's ->
    value), ``provenance``, ``value``, ``iterations``, ``exploitability``, ``nodes``.
    """
    game = pyspiel.load_game(GAME, params)
    cut = compile_cut(game, graph=False, progress=progress)
    solver = CFRSolver(cut.compiled, "cfr+")
    report = solver.run(iterations=iterations, progress=progress)
    tree = cut.compiled
    provenance = (f"CFR+ on the perfect-recall tree of the trunk ({tree.num_nodes:,} nodes, "
                  f"{tree.num_infosets:,} information sets), public subgames solved exactly "
                  f"({cut.exact_positions:,} positions), {solver.iteration} iterations, "
                  f"exploitability {report.exploitability:.1e} (true, not an abstraction's)")
    return {"label": label, "params": dict(params),
            "table": deal_values(tree, solver.average_strategy()),
            "provenance": provenance, "value": report.value, "iterations": solver.iteration,
            "exploitability": report.exploitability, "abstraction": False,
            "nodes": tree.num_nodes, "exact_positions": cut.exact_positions,
            "seconds": cut.seconds + solver.seconds}
