"""Every courtier matchup with both villains dealt hidden: one state-keyed solve each.

A matchup is the full battle (warriors 0-6, 7 combats by default) with both villains
dealt at random from all nine and kept hidden. Its public subgames are solved exactly
and a CFR method runs on the trunk (:func:`analysis.cobardes.solvers.trunk.compile_cut`) until
its exploitability stops improving (:mod:`analysis.cobardes.solvers.hidden_solution`). One
:class:`HiddenMatchupRecord` per matchup is stored under :func:`hidden_dir`, and the
advice at the battle's opening for both seats beside it (:mod:`analysis.cobardes.solvers.openings`);
:func:`run_hidden_sweep` skips what is stored, over local processes or a Dask cluster.
The 10 mirror matchups (both players with the same courtier type) are hypothetical
battles, as each courtier card exists once.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.model import (
    ENDING_NAMES,
    OUTCOME_NAMES,
    hidden_params,
    is_mirror,
    outcome_totals,
)
from analysis.cobardes.solvers import openings
from analysis.cobardes.solvers.hidden_solution import METHOD, RULE, solve
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.cobardes.solvers.villains import GAME, deal_outcomes, deal_values
from analysis.cobardes.solvers.war import composed_values
from analysis.cobardes.studies.sweep import task_path
from analysis.shared import store
from analysis.shared.distribute import local_pool, run_on_dask
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import pinned
from analysis.shared.store import atomic_write_text, damaged_record, read_record
from analysis.solve.errors import SolveError
from analysis.solve.floor import FloorRule
from games.cobardes import cards as C
from games.errors import InvalidParameterError

# Bump when the meaning of a stored record changes (2: solved to the floor, the method
# and rule recorded, the openings of both seats stored beside).
HIDDEN_VERSION = 2
ORDER_SEED = 20261202  # the order matchups are solved in (see solving_order)
KIND = "hidden"
SOLVER = ("public subgames by exact backward induction; {method} on the trunk's state graph, "
          "{rule} (an abstraction: the exploitability measured within it is a lower bound "
          "on the true one)")


def hidden_dir() -> Path:
    """Where the matchups are stored: the data folder's ``cobardes/pairings``."""
    return store.data("cobardes", "pairings")


def hidden_matchups() -> list[tuple[str, str]]:
    """The 100 courtier matchups: every ordered pair, mirrors included."""
    names = list(C.COURTIER_NAMES)
    return [(a, b) for a in names for b in names]


def solving_order(pairings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The matchups dealt in play first, in a fixed random order, then the mirrors: a
    sweep stopped part way holds a random sample of the dealt matchups it was given."""
    order = np.random.default_rng(ORDER_SEED).permutation(len(pairings))
    shuffled = [pairings[i] for i in order]
    return [p for p in shuffled if not is_mirror(p)] + [p for p in shuffled if is_mirror(p)]


@dataclass(frozen=True)
class HiddenMatchupRecord:
    """One matchup solved. ``value`` is player 0's, before the villains are dealt;
    ``deals`` holds player 0's value after each deal (player 0's villain, then player
    1's); ``exploitability_lower_bound`` is measured within the abstraction."""

    pairing: tuple[str, str]
    warriors: int
    combats: int
    iterations: int
    value: float
    exploitability_lower_bound: float
    deals: dict[str, dict[str, float]]
    nodes: int
    infosets: int
    compile_seconds: float
    solve_seconds: float
    hypothetical: bool
    solver: str
    provenance: dict
    # How the battle ends after each deal (player 0's villain -> player 1's -> ending ->
    # probability), under the solved strategy: the 20 endings (outcome and courtiers
    # played, ENDING_NAMES).
    outcomes: dict | None = None
    # Positions the compile walked (fewer than the graph's nodes: the walk is shared
    # between villain deals).
    walked: int | None = None
    # The CFR method, its stopping rule (analysis.solve.floor.FloorRule) and the
    # iterations run in all (``iterations``: those of the strategy kept).
    method: str = METHOD
    rule: dict | None = None
    total_iterations: int | None = None

    def _deal_rows(self) -> list[dict[str, float]]:
        return [ends for row in self.outcomes.values() for ends in row.values()]

    def battle_outcomes(self) -> dict[str, float] | None:
        """How the battle ends, before the villains are dealt (every deal equally
        likely): outcome class -> probability; None when the record does not hold it."""
        if self.outcomes is None:
            return None
        ends = self.battle_endings()
        if ends is not None:
            return dict(zip(OUTCOME_NAMES, outcome_totals(ends).tolist(), strict=True))
        rows = self._deal_rows()
        return {name: sum(r[name] for r in rows) / len(rows) for name in rows[0]}

    def battle_endings(self) -> np.ndarray | None:
        """The chance of each ending (``ENDING_NAMES`` order: outcome and courtiers
        played) before the villains are dealt; None when the record does not hold it."""
        if self.outcomes is None:
            return None
        rows = self._deal_rows()
        if set(rows[0]) != set(ENDING_NAMES):
            return None
        return np.array([sum(r[name] for r in rows) / len(rows) for name in ENDING_NAMES])

    def war_value(self) -> float | None:
        """Player 0's war value (P(win) - P(lose) of the war to 3 Victory tokens) when
        every battle is this one, villains dealt afresh each time and played as solved
        whatever the score (:func:`analysis.cobardes.solvers.war.composed_values`: a model whose
        error is measured on the villain-free pairings); None without the outcomes."""
        ends = self.battle_outcomes()
        return None if ends is None else composed_values(ends)[(0, 0)]

    def villain_values(self, player: int) -> dict[str, float]:
        """``player``'s value holding each villain, the rival's dealt from the other eight
        (every deal equally likely)."""
        if player == 0:
            return {v: sum(row.values()) / len(row) for v, row in sorted(self.deals.items())}
        cols: dict[str, list[float]] = {}
        for row in self.deals.values():
            for theirs, value in row.items():
                cols.setdefault(theirs, []).append(-value)
        return {v: sum(c) / len(c) for v, c in sorted(cols.items())}

    def to_json(self) -> dict:
        out = {"version": HIDDEN_VERSION, "kind": KIND}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if f.name == "pairing" else value
        return out

    @classmethod
    def from_json(cls, data: dict) -> HiddenMatchupRecord:
        if data.get("version") != HIDDEN_VERSION or data.get("kind") != KIND:
            raise ValueError("not a hidden-villain matchup record of this version")
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: (tuple(v) if k == "pairing" else v) for k, v in data.items()
                      if k in names})


def solve_hidden_matchup(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR,
                         combats: int = C.MAX_COMBATS, method: str = METHOD,
                         rule: FloorRule = RULE, keep: bool = False
                         ) -> tuple[HiddenMatchupRecord, openings.OpeningAdvice]:
    """Solve one matchup with hidden villains (deterministic: the methods draw no
    numbers) and read the advice at its opening for both seats; with ``keep`` its
    solution is stored in the cache too (:mod:`analysis.cobardes.solvers.hidden_solution`: about
    1 GB), for advice at any spot."""
    for name in pairing:
        C.courtier_id(name)  # one clear error for an unknown courtier
    game = pyspiel.load_game(GAME, hidden_params(pairing, warriors, combats))
    start = time.perf_counter()
    cut = compile_cut(game, graph=True, key_names=False, outcomes=True, progress=False)
    compile_seconds = time.perf_counter() - start
    compiled = cut.compiled
    solution, run = solve(game, rule, progress=False, compiled=compiled, keep=keep,
                          method=method)
    record = HiddenMatchupRecord(
        tuple(pairing), warriors, combats, run.iterations, run.value, run.exploitability,
        deal_values(compiled, run.strategy), compiled.num_nodes, compiled.num_infosets,
        compile_seconds, run.seconds + run.check_seconds, is_mirror(pairing),
        SOLVER.format(method=method, rule=rule.words()), solution.provenance,
        deal_outcomes(compiled, run.strategy, cut.outcomes), compiled.walked, method,
        rule.to_json(), run.total_iterations)
    return record, openings.from_solution(tuple(pairing), game, solution, warriors, combats)


def record_path(directory: Path, pairing, warriors: int, combats: int) -> Path:
    """A matchup's file, beside the other pairing sweeps' under ``hidden/``."""
    slug = task_path(directory, pairing, warriors, combats, "battle").name
    return Path(directory) / KIND / slug


def load_record(path: Path) -> HiddenMatchupRecord | None:
    """A stored matchup, or ``None`` when missing or of another version.

    Raises
    ------
    CorruptFileError
        Naming the file, when it is damaged: a stored result is refused, never taken as
        missing (delete it to solve the matchup again).
    """
    data = read_record(path)
    if data is None or data.get("version") != HIDDEN_VERSION or data.get("kind") != KIND:
        return None
    try:
        return HiddenMatchupRecord.from_json(data)
    except (KeyError, TypeError, ValueError):
        raise damaged_record(Path(path), "not a matchup record") from None


def complete(record: HiddenMatchupRecord | None) -> bool:
    """Whether a stored matchup is all the sweep solves for (a record of this version,
    saying how each deal ends; its opening is stored before it)."""
    return record is not None and record.battle_endings() is not None


def stored_complete(directory: Path, pairing, warriors: int, combats: int) -> bool:
    """Whether a matchup is stored complete: its record (:func:`complete`) and its opening
    table keeping each seat's decisions up to its commit
    (:attr:`~analysis.cobardes.solvers.openings.OpeningAdvice.to_commit`; a table stored before
    they were kept has the matchup solved again)."""
    if not complete(load_record(record_path(Path(directory), pairing, warriors, combats))):
        return False
    table = openings.OpeningAdvice.load(openings.table_path(
        tuple(pairing), warriors, combats, openings_dir(Path(directory))))
    return table is not None and table.to_commit


def openings_dir(directory: Path) -> Path:
    """Where the openings go beside the matchups of ``directory``: the data folder's
    ``cobardes/openings`` for the default one."""
    return Path(directory).parent / "openings"


def run_hidden_task(pairing: tuple[str, str], warriors: int, combats: int, directory: str,
                    method: str = METHOD, rule: FloorRule = RULE, keep: bool = False) -> str:
    """Solve and store one matchup unless stored complete (its opening first, then its
    record, so a record stored means both are); returns the record's path."""
    path = record_path(Path(directory), pairing, warriors, combats)
    if not stored_complete(Path(directory), pairing, warriors, combats):
        record, table = solve_hidden_matchup(pairing, warriors, combats, method, rule, keep)
        table.save(openings_dir(Path(directory)))
        atomic_write_text(path, json.dumps(record.to_json(), indent=1))
    return str(path)


def run_hidden_sweep(pairings: Iterable[tuple[str, str]] | None = None, warriors: int = C.MAX_WARRIOR,
                     combats: int = C.MAX_COMBATS, directory: str | Path | None = None,
                     workers: int = 2, scheduler=None, progress: bool = True,
                     method: str = METHOD, rule: FloorRule = RULE,
                     keep_solutions: bool = False
                     ) -> dict[tuple[str, str], HiddenMatchupRecord]:
    """Solve every matchup not yet stored, or stored without how each deal ends or without
    its opening's decisions up to each seat's commit (:func:`stored_complete`); returns
    all stored ones.

    ``scheduler``: ``None`` for local processes (``workers`` of them; 1 runs here), a
    Dask scheduler address or a ``distributed.Client``. ``keep_solutions`` stores each
    matchup's solution for advice too (in the cache of the machine that solved it).
    """
    pairings = hidden_matchups() if pairings is None else [tuple(p) for p in pairings]
    for pairing in pairings:
        if len(pairing) != 2:
            raise InvalidParameterError(f"a matchup names two courtiers, not {pairing!r}")
        for name in pairing:
            C.courtier_id(name)
    directory = hidden_dir() if directory is None else Path(directory)
    todo = solving_order([p for p in pairings
                          if not stored_complete(directory, p, warriors, combats)])
    args = (warriors, combats, str(directory), method, rule, keep_solutions)
    bar = progress_bar(total=len(todo), desc="matchups with hidden villains", unit=" matchups",
               progress=bool(progress and todo))
    # The records name the code the sweep started with, whatever the checkout does meanwhile.
    with pinned(), bar:
        _run_tasks(todo, args, workers, scheduler, bar)
    return load_hidden(pairings, warriors, combats, directory)


def _run_tasks(todo, args, workers, scheduler, bar) -> None:
    """Solve the matchups ``todo``; one that fails is set aside and the others go on,
    then the failures are raised together in one line."""
    failed: list[tuple[tuple[str, str], BaseException]] = []
    if scheduler is not None and todo:
        run_on_dask(scheduler, run_hidden_task, [(p, *args) for p in todo],
                    lambda _: bar.update(1))
    elif workers <= 1:
        for p in todo:
            try:
                run_hidden_task(p, *args)
            except Exception as exc:  # noqa: BLE001 (reported with the others below)
                failed.append((p, exc))
            bar.update(1)
    elif todo:
        with local_pool(workers) as pool:
            futures = {pool.submit(run_hidden_task, p, *args): p for p in todo}
            for fut in as_completed(futures):
                try:
                    fut.result()
                except Exception as exc:  # noqa: BLE001 (reported with the others below)
                    failed.append((futures[fut], exc))
                bar.update(1)
    if failed:
        raise SolveError(f"{len(failed)} of {len(todo)} matchups failed, the others are "
                         "stored: " + "; ".join(f"{a}/{b} ({type(e).__name__}: {e})"
                                                for (a, b), e in failed[:5])
                         + ("; ..." if len(failed) > 5 else ""))


def load_hidden(pairings: Iterable[tuple[str, str]] | None = None, warriors: int = C.MAX_WARRIOR,
                combats: int = C.MAX_COMBATS, directory: str | Path | None = None
                ) -> dict[tuple[str, str], HiddenMatchupRecord]:
    """The stored matchups present on disk."""
    pairings = hidden_matchups() if pairings is None else [tuple(p) for p in pairings]
    directory = hidden_dir() if directory is None else Path(directory)
    out = {}
    for p in pairings:
        record = load_record(record_path(directory, p, warriors, combats))
        if record is not None:
            out[p] = record
    return out
