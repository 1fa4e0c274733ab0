"""Solving until the exploitability stops improving: the floor of an abstraction.

On an imperfect-recall abstraction CFR need not converge: its average strategy's
exploitability falls, then wanders around a floor the abstraction sets. Iterating past
that floor buys nothing. :func:`solve_to_floor` measures the exploitability every
``every`` iterations, keeps the best strategy measured so far, and stops when the best
has not improved by a fraction ``gain`` for ``patience`` checks in a row, when it
reaches ``target``, or at ``max_iterations``. The strategy returned is the one whose
exploitability was measured, never a later one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis.shared.progress import bar as progress_bar
from analysis.shared.progress import shown
from analysis.solve.cfr import CFRSolver
from analysis.solve.errors import SolveError


@dataclass(frozen=True)
class FloorRule:
    """When :func:`solve_to_floor` stops (see the module's docstring)."""

    every: int = 10
    patience: int = 3
    gain: float = 0.05
    target: float = 0.0
    max_iterations: int = 1000

    def __post_init__(self):
        if self.every < 1 or self.patience < 1 or self.max_iterations < 1:
            raise SolveError("every, patience and max_iterations must be at least 1")
        if not 0 <= self.gain < 1 or not self.target >= 0:
            raise SolveError("gain must be in [0, 1) and target at least 0")

    def to_json(self) -> dict:
        return {"every": self.every, "patience": self.patience, "gain": self.gain,
                "target": self.target, "max_iterations": self.max_iterations}

    def words(self) -> str:
        """The rule in a sentence fragment, for records and reports."""
        text = (f"stopped when {self.patience} checks in a row, {self.every} iterations "
                f"apart, improved the best exploitability by less than {self.gain:z.0%}")
        if self.target > 0:
            text += f", or once it reached {self.target:zg}"
        return text + f" (at most {self.max_iterations} iterations); the best measured kept"


@dataclass(frozen=True, eq=False)
class FloorRun:
    """A solve to the floor: the kept ``strategy`` (by row), its ``exploitability`` and
    ``value``, measured after ``iterations``; the iterations run in all, the seconds of
    iterating and of measuring, and every check as ``(iterations, exploitability)``."""

    strategy: np.ndarray
    exploitability: float
    value: float
    iterations: int
    total_iterations: int
    seconds: float
    check_seconds: float
    checks: list = field(default_factory=list)


def solve_to_floor(solver: CFRSolver, rule: FloorRule = FloorRule(),
                   progress: bool | None = None, checkpoint: str | Path | None = None,
                   checkpoint_every: float = 60.0) -> FloorRun:
    """Iterate ``solver`` under ``rule`` (continuing from its present iteration).

    ``checkpoint``: the solver's iterations are saved there every ``checkpoint_every``
    seconds and when the solve is interrupted (Ctrl-C stops it after the iterations in
    progress), so a solve started again from it loses little; the best strategy is then
    looked for afresh.
    """
    best = None
    last_saved = time.perf_counter()
    stalls = 0
    checks = []
    check_seconds = 0.0
    bar = None
    if shown(progress):
        bar = progress_bar(total=rule.max_iterations, initial=solver.iteration, unit=" it",
                           desc=f"{solver.method} to the floor", mininterval=0.5)
    try:
        while solver.iteration < rule.max_iterations:
            count = min(rule.every, rule.max_iterations - solver.iteration)
            solver.iterate(count)
            tick = time.perf_counter()
            report = solver.exploitability()
            check_seconds += time.perf_counter() - tick
            checks.append((solver.iteration, float(report.exploitability)))
            if bar is not None:
                bar.update(count)
                bar.set_postfix_str(f"exploitability {report.exploitability:z.3g}")
            if best is None or report.exploitability < best[1]:
                improved = best is None or report.exploitability < best[1] * (1 - rule.gain)
                best = (solver.average_strategy(), float(report.exploitability),
                        float(report.value), solver.iteration)
                stalls = 0 if improved else stalls + 1
            else:
                stalls += 1
            if best[1] <= rule.target or stalls >= rule.patience:
                break
            if checkpoint is not None and time.perf_counter() - last_saved >= checkpoint_every:
                solver.save_checkpoint(checkpoint)
                last_saved = time.perf_counter()
    except KeyboardInterrupt:
        if checkpoint is not None:
            solver.save_checkpoint(checkpoint)
        raise
    finally:
        if bar is not None:
            bar.close()
    if best is None:  # nothing left to iterate: measure what there is
        report = solver.exploitability()
        best = (solver.average_strategy(), float(report.exploitability), float(report.value),
                solver.iteration)
    strategy, exploitability, value, at = best
    return FloorRun(strategy, exploitability, value, at, solver.iteration, solver.seconds,
                    check_seconds, checks)
