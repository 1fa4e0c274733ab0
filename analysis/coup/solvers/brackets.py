"""Rigorous bounds on the uncapped value of Coup endgames from capped solves.

With ``V_c(x)`` the value capped at ``c`` turns whose cap pays player 0 ``x``, the
uncapped value lies in ``[V_c(-1), V_c(+1)]``; the bounds are the solved strategies'
guarantees by exact best response, so they hold whatever the solver's error. The cap
can also pay the Markov guarantees (:mod:`analysis.coup.guarantees`), a bracket never
wider. The argument and its tests are in ``docs/coup_analysis.md``.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from analysis.coup.guarantees import CODE_BASE, CapBoundWalker, guarantees_for
from analysis.coup.model import Bracket, Endgame
from analysis.solve import CFRSolver, CompiledGame, compile_game, exploitability
from games.coup.walker import DecisiveCoupWalker

TARGET_EXPLOITABILITY = 1e-4
MAX_ITERATIONS = 50_000
SOLVER = "CFR+ (Farol engine, perfect-recall tree)"


def with_cap_payoff(compiled: CompiledGame, cap_payoff: float) -> CompiledGame:
    """The compiled ``cap_payoff=0`` endgame with the cap's terminals paying ``cap_payoff``.

    Raises
    ------
    ValueError
        If a terminal pays something other than -1, 0 or +1 (not a 1v1 capped endgame
        compiled with ``cap_payoff=0``).
    """
    u = compiled.utility
    if not np.all(np.isin(u, (-1.0, 0.0, 1.0))):
        raise ValueError(f"{compiled.game}: terminal payoffs other than -1, 0, +1; not a cap-0 endgame")
    utility = np.where(u == 0.0, float(cap_payoff), u)
    return dataclasses.replace(compiled, utility=utility,
                               game=f"{compiled.game} [cap_payoff={cap_payoff:zg}]")


def compile_endgame(endgame: Endgame, decisive: bool = False, **kwargs) -> CompiledGame:
    """The perfect-recall tree of ``endgame`` (its cap paying 0).

    ``decisive``: a player who can win at once by a Coup does
    (:class:`games.coup.walker.DecisiveCoupWalker`, an exact reduction: same value,
    same guarantees), which makes the trees of endgames with a 7+ coin player far
    smaller.
    """
    game = endgame.game()
    if decisive:
        kwargs["walker"] = DecisiveCoupWalker(game.config, history=True)
    return compile_game(game, **kwargs)


def compile_markov(endgame: Endgame, **kwargs) -> tuple[CompiledGame, np.ndarray]:
    """The perfect-recall tree of ``endgame`` with winning Coups played (as
    :func:`compile_endgame` with ``decisive``) whose cap terminals pay codes
    (:data:`analysis.coup.guarantees.CODE_BASE` + i), and the Markov bounds: row i holds
    player 0's payoff bounds (low, high) at the cap terminals coded i."""
    return compile_markov_game(endgame.game(),
                               guarantees_for(endgame.deck, endgame.revealed), **kwargs)


def compile_markov_game(game, guarantees, **kwargs) -> tuple[CompiledGame, np.ndarray]:
    """:func:`compile_markov` for any capped Coup ``game`` whose positions ``guarantees``
    (:class:`analysis.coup.guarantees.Guarantees`) cover: the full game, 2v1 endgames."""
    walker = CapBoundWalker(game.config, guarantees)
    compiled = compile_game(game, walker=walker, **kwargs)
    return compiled, np.array(walker.bounds, dtype=float).reshape(-1, 2)


def with_cap_bounds(compiled: CompiledGame, bounds: np.ndarray, side: int) -> CompiledGame:
    """The compiled endgame with each coded cap terminal paying its bound
    (``side`` 0: the low one, 1: the high one; see :func:`compile_markov`)."""
    u = compiled.utility
    coded = u >= CODE_BASE
    utility = u.copy()
    utility[coded] = bounds[(u[coded] - CODE_BASE).astype(np.int64), side]
    if np.any(np.abs(utility) > 1.0):
        raise ValueError(f"{compiled.game}: payoffs beyond +-1 after the cap bounds")
    return dataclasses.replace(compiled, utility=utility,
                               game=f"{compiled.game} [markov cap, {('low', 'high')[side]}]")


@dataclasses.dataclass(frozen=True)
class SolvedSide:
    """One end of a bracket: the solved cap-priced game, its solver, the solver's last
    exploitability report, the exact best responses to its average strategy
    (``check``) and the bound they give (player 0's value)."""

    game: CompiledGame
    solver: CFRSolver
    report: object
    check: object
    bound: float


def solve_side(compiled: CompiledGame, side: int, cap_bounds: np.ndarray | None = None,
               target: float = TARGET_EXPLOITABILITY, max_iterations: int = MAX_ITERATIONS,
               seconds: float | None = None) -> SolvedSide:
    """Solve one end of the bracket of a compiled ``cap_payoff=0`` Coup game.

    ``side`` 0: the cap pays player 0 the least (-1, or the Markov lower bound of
    ``cap_bounds``), and the bound is player 0's guarantee; ``side`` 1: the cap pays
    player 0 the most (+1, or the Markov upper bound), and the bound is what player 1's
    strategy concedes. Either bound is measured by exact best response to the solved
    average strategy, so it holds whatever the solver's residual exploitability.
    """
    if cap_bounds is None:
        game = with_cap_payoff(compiled, (-1.0, 1.0)[side])
    else:
        game = with_cap_bounds(compiled, cap_bounds, side)
    solver = CFRSolver(game, "cfr+")
    report = solver.run(target_exploitability=target, iterations=max_iterations,
                        seconds=seconds, progress=False)
    # The guarantee of the side the bound rests on, by exact best response.
    check = exploitability(game, solver.average_strategy())
    bound = -check.best_response[1] if side == 0 else check.best_response[0]
    return SolvedSide(game, solver, report, check, float(bound))


def bracket_of(compiled: CompiledGame, target: float = TARGET_EXPLOITABILITY,
               max_iterations: int = MAX_ITERATIONS, seconds: float | None = None,
               cap_bounds: np.ndarray | None = None) -> dict:
    """Bounds on the uncapped value of a compiled 2-player ``cap_payoff=0`` Coup game.

    Returns ``lower``/``upper`` (player 0's value bounds), ``lower_win``/``upper_win``
    (as win probabilities), ``width`` (in win probability), ``converged`` (width at most
    :data:`~analysis.coup.model.CONVERGED_WIDTH`), and per cap payoff (``low``: -1, ``high``: +1) the solver's
    iterations, exploitability, estimated value, the bound and the seconds spent.
    ``seconds`` caps each of the two solves (the bounds stay valid, only wider).
    ``cap_bounds``: the Markov bounds of a tree compiled by :func:`compile_markov`; the
    cap then pays them instead of -1 and +1.
    """
    if cap_bounds is None:
        cap_terminals = int(np.count_nonzero(compiled.utility == 0.0))
    else:
        cap_terminals = int(np.count_nonzero(compiled.utility >= CODE_BASE))
    record = {"nodes": compiled.num_nodes, "infosets": compiled.num_infosets,
              "cap_terminals": cap_terminals}
    for side, (name, payoff) in enumerate((("low", -1.0), ("high", 1.0))):
        tick = time.perf_counter()
        solved = solve_side(compiled, side, cap_bounds, target, max_iterations, seconds)
        record[name] = {"cap_payoff": payoff, "iterations": solved.solver.iteration,
                        "exploitability": solved.report.exploitability,
                        "value": solved.report.value, "bound": solved.bound,
                        "seconds": time.perf_counter() - tick}
    lower, upper = record["low"]["bound"], record["high"]["bound"]
    return record | {"lower": lower, "upper": upper} | Bracket.of_values(lower, upper).as_record()


def solve_bracket(endgame: Endgame, target: float = TARGET_EXPLOITABILITY,
                  max_iterations: int = MAX_ITERATIONS,
                  compiled: CompiledGame | None = None, decisive: bool = False,
                  markov: bool = False, max_memory: int | None = None) -> dict:
    """Bounds on the uncapped value of ``endgame`` from its cap (``endgame.turn_cap``).

    The record of :func:`bracket_of` with the endgame, its position, the solver's name
    and the compile's seconds. ``decisive`` compiles with winning Coups played and
    ``markov`` (implies ``decisive``) prices the cap with the Markov guarantees
    (:func:`compile_markov`; the record says so, with the guarantees' size and time).
    ``max_memory``: the compile's budget in bytes (default: half the available memory).
    """
    tick = time.perf_counter()
    bounds = None
    if markov:
        if compiled is not None:
            raise ValueError("markov compiles its own tree (its cap terminals carry codes)")
        compiled, bounds = compile_markov(endgame, max_memory=max_memory)
    elif compiled is None:
        compiled = compile_endgame(endgame, decisive=decisive, max_memory=max_memory)
    record = {"endgame": endgame.to_json(), "position": endgame.position(),
              "solver": SOLVER, "decisive_coup": decisive or markov,
              "cap_payoffs": "markov" if markov else "loss/win",
              "compile_seconds": time.perf_counter() - tick}
    if markov:
        record["markov"] = markov_summary(endgame.game(),
                                          guarantees_for(endgame.deck, endgame.revealed))
    return record | bracket_of(compiled, target, max_iterations, cap_bounds=bounds)


def markov_summary(game, guarantees) -> dict:
    """What a record says of the guarantees that priced ``game``'s cap: the graph's
    positions, the improvement rounds, the seconds, and both players' guarantees at the
    deal (``root_guarantee``: a bracket of its own, ``[W_0, 1 - W_1]``)."""
    root = DecisiveCoupWalker(game.config, history=False).root()
    return {"positions": guarantees.graph.num_positions, "rounds": guarantees.rounds,
            "seconds": guarantees.seconds, "root_guarantee": list(guarantees.of(root))}


def markov_game_bracket(game, guarantees, max_memory: int | None = None,
                        seconds: float | None = None) -> dict:
    """The bracket of any capped Coup ``game`` with the cap priced by ``guarantees``
    (:func:`compile_markov_game`, then :func:`bracket_of`), with the compile's seconds.

    Raises
    ------
    GameTooLargeError
        If the tree is over ``max_memory``.
    """
    tick = time.perf_counter()
    compiled, bounds = compile_markov_game(game, guarantees, max_memory=max_memory)
    return ({"compile_seconds": time.perf_counter() - tick}
            | bracket_of(compiled, seconds=seconds, cap_bounds=bounds))
