"""A hidden-villain battle solved, as advice reads it: stored once in the cache.

The public subgames are solved exactly and the trunk by a CFR method on its state-keyed
graph (:mod:`analysis.cobardes.solvers.trunk`) until its exploitability stops improving
(:mod:`analysis.solve.floor`: the key forgets the order of past moves, so the solve meets
a floor, and iterating past it buys nothing); the best strategy measured is kept. A
:class:`HiddenSolution` keeps what advice at any spot needs: the graph's edges with their
OpenSpiel actions, the average strategy, and every node's value. Its arrays are read
memory-mapped, so a spot touches only the pages it uses.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel

from analysis.cobardes.solvers.trunk import METHOD, RULE, compile_cut
from analysis.cobardes.solvers.villains import node_values
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import READ_ERRORS, CorruptFileError
from analysis.solve import CFRSolver
from analysis.solve.floor import FloorRule, FloorRun, solve_to_floor
from analysis.solve.mapped import atomic_savez, load_npz_mapped

# Bump when the meaning of a stored solution changes.
SOLUTION_VERSION = 2
_ARRAYS = ("kind", "infoset", "edge_start", "edge_child", "edge_action", "edge_prob",
           "infoset_offset", "infoset_actions", "strategy", "values")


@dataclass(frozen=True, eq=False)
class HiddenSolution:
    """A hidden-villain battle's trunk solved: the graph (internal nodes' ``kind`` and
    ``infoset``, CSR edges with their OpenSpiel actions and chances, each information
    set's rows), the CFR+ average ``strategy`` by row, and player 0's value at every node
    (``values``: internal nodes, then terminals). ``exploitability`` is measured within
    the state-keyed abstraction: a lower bound on the true one. Compared by identity:
    its arrays are large."""

    game: str
    arrays: dict
    iterations: int
    exploitability: float
    value: float
    provenance: dict
    method: str = METHOD

    def __getattr__(self, name):
        if name in _ARRAYS:
            return self.arrays[name]
        raise AttributeError(name)

    def save(self, path: Path) -> None:
        meta = {"version": SOLUTION_VERSION, "game": self.game, "iterations": self.iterations,
                "exploitability": self.exploitability, "value": self.value,
                "provenance": self.provenance, "method": self.method}
        atomic_savez(Path(path), meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                     **self.arrays)

    @classmethod
    def from_run(cls, game: pyspiel.Game, compiled, run: FloorRun, method: str = METHOD
                 ) -> HiddenSolution:
        """The solution a solve to the floor (``run``) gave on ``game``'s ``compiled``
        trunk."""
        cg = compiled
        arrays = {"kind": cg.kind, "infoset": cg.infoset, "edge_start": cg.edge_start,
                  "edge_child": cg.edge_child, "edge_action": cg.edge_action,
                  "edge_prob": cg.edge_prob, "infoset_offset": cg.infoset_offset,
                  "infoset_actions": cg.infoset_actions, "strategy": run.strategy,
                  "values": node_values(cg, run.strategy)}
        return cls(str(game), arrays, run.iterations, run.exploitability, run.value,
                   provenance(None), method)

    @classmethod
    def load(cls, path: Path) -> HiddenSolution | None:
        """The solution at ``path`` (arrays memory-mapped), ``None`` when missing or of
        another version. A damaged file raises :class:`CorruptFileError` naming it."""
        if not Path(path).exists():
            return None
        try:
            data = load_npz_mapped(path)
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("version") != SOLUTION_VERSION:
                return None
            arrays = {name: data[name] for name in _ARRAYS}
            return cls(meta["game"], arrays, meta["iterations"], meta["exploitability"],
                       meta["value"], meta["provenance"], meta["method"])
        except READ_ERRORS as exc:
            raise CorruptFileError(f"stored battle solution {store.shown(Path(path))} is "
                                   f"unreadable ({exc}); delete it to solve the battle again",
                                   reason=str(exc)) from None


def solution_path(game: pyspiel.Game) -> Path:
    """Where ``game``'s solution is cached: one file per game (its full parameters)."""
    digest = hashlib.sha256(str(game).encode()).hexdigest()[:16]
    return store.cache("cobardes", "hidden", f"solution_{digest}.npz")


def checkpoint_path(game: pyspiel.Game) -> Path:
    """Where a solve in progress keeps its CFR+ iterations (every minute and on Ctrl-C):
    an interrupted solve resumes from it, after compiling the trunk again."""
    return solution_path(game).with_suffix(".checkpoint.npz")


def solve(game: pyspiel.Game, rule: FloorRule = RULE, progress: bool | None = None,
          compiled=None, keep: bool = True, method: str = METHOD
          ) -> tuple[HiddenSolution, FloorRun]:
    """Solve ``game``'s trunk (or use its ``compiled`` trunk) with ``method`` to the
    floor ``rule`` sets, and cache the solution (deterministic: the methods draw no
    numbers; not stored unless ``keep``: a full battle's is about 1 GB). An interrupted
    solve resumes from its checkpoint. Returns the solution and the run."""
    if compiled is None:
        compiled = compile_cut(game, graph=True, key_names=False, progress=progress).compiled
    solver = CFRSolver(compiled, method)
    checkpoint = checkpoint_path(game)
    if checkpoint.exists():
        try:
            solver.load_checkpoint(checkpoint)
        except CorruptFileError:
            checkpoint.unlink()  # a damaged or stale one: start afresh
            solver = CFRSolver(compiled, method)
    run = solve_to_floor(solver, rule, progress=progress, checkpoint=checkpoint)
    solution = HiddenSolution.from_run(game, compiled, run, method)
    if keep:
        solution.save(solution_path(game))
    checkpoint.unlink(missing_ok=True)
    return solution, run
