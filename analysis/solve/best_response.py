"""Exact best response, exploitability, NashConv and game value on the compiled arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.solve import kernels
from analysis.solve.compiled import CompiledGame
from analysis.solve.errors import SolveError


@dataclass(frozen=True)
class Exploitability:
    """How far a strategy profile is from equilibrium.

    ``value`` is player 0's expected utility under the profile; ``best_response`` holds
    each player's best-response value against the other's strategy; ``nash_conv`` is
    their sum (zero-sum game) and ``exploitability`` half of it, as in OpenSpiel.
    """

    value: float
    best_response: tuple[float, float]
    nash_conv: float
    exploitability: float


def _args(cg: CompiledGame):
    return cg.kind, cg.infoset, cg.edge_start, cg.edge_child, cg.edge_prob, cg.utility


def check_strategy(cg: CompiledGame, strategy: np.ndarray) -> np.ndarray:
    """``strategy`` as a float64 row array of the right length, or a clear error."""
    strategy = np.ascontiguousarray(strategy, dtype=np.float64)
    if strategy.shape != (cg.num_actions,):
        raise SolveError(
            f"strategy has shape {strategy.shape}; {cg.game} needs ({cg.num_actions},)"
        )
    return strategy


def expected_value(cg: CompiledGame, strategy: np.ndarray) -> float:
    """Player 0's expected utility when both players follow ``strategy``."""
    strategy = check_strategy(cg, strategy)
    value = np.empty(cg.num_internal)
    return float(kernels.expected_value(*_args(cg), cg.infoset_offset, strategy, value))


def best_response(
    cg: CompiledGame, strategy: np.ndarray, player: int, max_passes: int = 1_000
) -> tuple[float, np.ndarray]:
    """Player ``player``'s best-response value to the opponent's part of ``strategy``.

    Returns the value (for ``player``) and, per information set, the chosen action slot
    (meaningful for ``player``'s information sets only).

    In an imperfect-recall abstraction the choices may keep changing (an information set
    below itself); after ``max_passes`` the value of the last pass's choices is returned:
    a lower bound of the best response within the abstraction.

    Raises
    ------
    SolveError
        If the choices do not settle in a game without abstraction (which cannot happen
        with perfect recall).
    """
    strategy = check_strategy(cg, strategy)
    n = cg.num_internal
    choice = np.zeros(cg.num_infosets, dtype=np.int64)
    value, passes = kernels.best_response(
        *_args(cg),
        cg.infoset_offset,
        cg.infoset_player,
        strategy,
        player,
        cg.mode == "tree",
        np.empty(n),
        np.empty(n),
        np.empty(cg.num_actions),
        choice,
        max_passes,
    )
    if passes > max_passes and not cg.imperfect_recall:
        raise SolveError(
            f"best response of player {player} in {cg.game} did not settle in {max_passes} passes"
        )
    return float(value), choice


def exploitability(cg: CompiledGame, strategy: np.ndarray) -> Exploitability:
    """Value, best responses, NashConv and exploitability of ``strategy`` (one row array)."""
    br0, _ = best_response(cg, strategy, 0)
    br1, _ = best_response(cg, strategy, 1)
    nash_conv = br0 + br1
    return Exploitability(expected_value(cg, strategy), (br0, br1), nash_conv, nash_conv / 2)


def uniform_strategy(cg: CompiledGame) -> np.ndarray:
    """Every information set's actions equally likely."""
    counts = np.diff(cg.infoset_offset)
    return np.repeat(1.0 / counts, counts)
