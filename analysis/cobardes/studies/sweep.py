"""Sweeps: every courtier pairing's battle and war, in parallel, stored, resumable.

One task solves one courtier pairing (the battle and, for the ``war`` kind, the war
from every score) or one pair of named villains, and stores one record
(:class:`PairingRecord`, :class:`VillainPairRecord`) under :func:`pairings_dir`. A sweep
skips what is already stored, over local processes or a Dask cluster.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path

from analysis.cobardes.model import (
    NO_COURTIER,
    OUTCOME_NAMES,
    BattleSpec,
    battle_params,
    initial_position,
    is_mirror,
)
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.graph import BattleGraph, opening_actions
from analysis.cobardes.solvers.war import card_mix, solve_war
from analysis.shared import store
from analysis.shared.distribute import local_pool, run_on_dask
from analysis.shared.progress import bar as progress_bar
from analysis.shared.store import atomic_write_text, read_record
from games.cobardes import cards as C
from games.errors import InvalidParameterError

# Bump when the meaning of a cached pairing changes.
SWEEP_VERSION = 1
STANDARD_PAYOFFS = (1.0, -1.0, 3.0, -3.0, 0.0)


def pairings_dir() -> Path:
    """Where the pairing sweep is stored: the data folder's ``cobardes/pairings``."""
    return store.data("cobardes", "pairings")


def all_pairings(include_none: bool = True) -> list[tuple[str, str]]:
    """The courtier pairings in both seat orders (A vs B and B vs A), plus warriors-only.

    Each courtier exists once ("the same courtier cannot be with both players"), so
    the diagonal of the 10 x 10 table is empty: 90 pairings."""
    names = list(C.COURTIER_NAMES)
    pairs = [(a, b) for a in names for b in names if a != b]
    return ([(NO_COURTIER, NO_COURTIER)] if include_none else []) + pairs


def mirror_pairings() -> list[tuple[str, str]]:
    """The 10 mirror pairings (both players with the same courtier type): hypothetical
    battles, as each courtier card exists once; solved with ``allow_mirror=true``."""
    return [(c, c) for c in C.COURTIER_NAMES]


KINDS = ("battle", "war", "villains")
SOLVER = "backward induction over public positions, matrix games by simplex (exact)"


@dataclass(frozen=True)
class PairingRecord:
    """One courtier pairing solved: the battle (``battle``: payoffs, value, outcome
    probabilities, opening mixes) and, for the ``war`` kind, the war from every score
    (``war``: :meth:`analysis.cobardes.solvers.war.WarSolution.to_json`). A mirror pairing is
    ``hypothetical`` and carries its battle value under each fixed ``quicker`` rule
    (``seat_check``); a record derived by swapping seats says so."""

    pairing: tuple[str, str]
    warriors: int
    combats: int
    battle: dict
    war: dict | None
    solver: str
    positions: int
    matrix_games: int
    compile_seconds: float
    seconds: float
    hypothetical: bool = False
    seat_check: dict | None = None
    derived_from_mirror: bool = False

    def to_json(self) -> dict:
        """The record as stored (same keys, same order)."""
        out: dict = {}
        if self.hypothetical:
            out |= {"hypothetical": True, "seat_check": self.seat_check}
        out |= {"version": SWEEP_VERSION, "pairing": list(self.pairing),
                "warriors": self.warriors, "combats": self.combats, "battle": self.battle,
                "war": self.war, "solver": self.solver, "positions": self.positions,
                "matrix_games": self.matrix_games, "compile_seconds": self.compile_seconds,
                "seconds": self.seconds}
        if self.derived_from_mirror:
            out["derived_from_mirror"] = True
        return out

    @classmethod
    def from_json(cls, data: dict) -> PairingRecord:
        return cls(tuple(data["pairing"]), data["warriors"], data["combats"], data["battle"],
                   data["war"], data["solver"], data["positions"], data["matrix_games"],
                   data["compile_seconds"], data["seconds"], data.get("hypothetical", False),
                   data.get("seat_check"), data.get("derived_from_mirror", False))


@dataclass(frozen=True)
class VillainPairRecord:
    """One pair of named villains solved: the battle's payoffs and value (``battle``)."""

    pairing: tuple[str, str]
    warriors: int
    combats: int
    battle: dict
    solver: str
    positions: int
    matrix_games: int
    seconds: float

    def to_json(self) -> dict:
        """The record as stored (same keys, same order)."""
        return {"version": SWEEP_VERSION, "pairing": list(self.pairing),
                "warriors": self.warriors, "combats": self.combats, "battle": self.battle,
                "solver": self.solver, "positions": self.positions,
                "matrix_games": self.matrix_games, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict) -> VillainPairRecord:
        return cls(tuple(data["pairing"]), data["warriors"], data["combats"], data["battle"],
                   data["solver"], data["positions"], data["matrix_games"], data["seconds"])


Record = PairingRecord | VillainPairRecord


def _kind(war: bool | str) -> str:
    """``True``/``"war"``: the war; ``False``/``"battle"``: the battle alone;
    ``"villains"``: a pair of named villains (warriors + villains, no courtiers)."""
    kind = {True: "war", False: "battle"}.get(war, war) if isinstance(war, bool) else war
    if kind not in KINDS:
        raise InvalidParameterError(f"sweep kind {war!r} is not one of {', '.join(KINDS)}")
    return kind


def task_path(directory: Path, pairing: tuple[str, str], warriors: int, combats: int,
              war: bool | str = True) -> Path:
    """The cache file of one task (see :func:`_kind` for ``war``)."""
    slug = "__".join(p.replace(" ", "").replace("-", "").replace("'", "").lower()
                     for p in pairing)
    return Path(directory) / _kind(war) / f"{slug}__w{warriors}c{combats}.json"


def both_vanguard(pairing: tuple[str, str]) -> bool:
    """Both courtiers act before the combat: who is quicker then depends on the seat, so
    the pairing and its mirror are different battles."""
    return all(p != NO_COURTIER and C.is_vanguard(C.courtier_id(p)) for p in pairing)


def canonical_pairings() -> list[tuple[str, str]]:
    """The pairings a war sweep solves: one seat order of each pair, both orders when
    both courtiers are vanguard ones. Swapping seats otherwise gives the same battle
    seen from the other side (checked on all 90 battles: values negate to 1e-11), so the
    mirror is derived (:func:`mirror`)."""
    order = {name: i for i, name in enumerate(C.COURTIER_NAMES)}
    return [(a, b) for a, b in all_pairings()
            if a == NO_COURTIER or both_vanguard((a, b)) or order[a] < order[b]]


def _swap_outcomes(probs: dict) -> dict:
    names = {"win": "loss", "loss": "win", "crown": "crown_loss", "crown_loss": "crown",
             "draw": "draw"}
    return {names[k]: v for k, v in probs.items()}


def mirror(record: PairingRecord) -> PairingRecord:
    """A pairing's results seen from the other seat (values negated, scores, outcomes
    and opening mixes swapped)."""
    data = record.to_json()
    out = json.loads(json.dumps(data))
    out["pairing"] = data["pairing"][::-1]
    out["derived_from_mirror"] = True
    b = out["battle"]
    b["value"] = -data["battle"]["value"]
    if "outcome_probs" in b:
        b["outcome_probs"] = _swap_outcomes(data["battle"]["outcome_probs"])
    if "opening0" in b:
        b["opening0"], b["opening1"] = data["battle"]["opening1"], data["battle"]["opening0"]
    war = data.get("war")
    if war:
        scores = {}
        for key, s in war["scores"].items():
            a, c = key.split("-")
            win, loss, crown, crown_loss, draw = s["battle_payoffs"]
            scores[f"{c}-{a}"] = dict(
                s, value=-s["value"], battle_payoffs=[-loss, -win, -crown_loss, -crown, -draw],
                outcome_probs=_swap_outcomes(s["outcome_probs"]), opening0=s["opening1"],
                opening1=s["opening0"])
        out["war"] = dict(war, courtiers=war["courtiers"][::-1], scores=scores)
    return PairingRecord.from_json(out)


def all_villain_pairs() -> list[tuple[str, str]]:
    """The 9 x 9 villain pairings (a player cannot hold the rival's villain: the
    diagonal is left out)."""
    names = [C.CARD_NAMES[v] for v in C.VILLAINS]
    return [(a, b) for a in names for b in names if a != b]


def solve_villain_pair(pair: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS
                       ) -> VillainPairRecord:
    """The battle with these two villains named (known to both: public information),
    solved exactly, standard payoffs."""
    start = time.perf_counter()
    cfg, pos, pay = initial_position(battle_params(
        kinds="warriors+villains", warriors=warriors, combats=combats, villain0=pair[0],
        villain1=pair[1]))
    solver = FastExactSolver(cfg, pay)
    value = solver.value(pos)
    return VillainPairRecord(tuple(pair), warriors, combats,
                             {"payoffs": list(STANDARD_PAYOFFS), "value": value}, SOLVER,
                             solver.solved, solver.matrix_games, time.perf_counter() - start)


def solve_pairing(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS,
                  war: bool = True) -> PairingRecord:
    """Solve one pairing: the battle (standard payoffs) and, with ``war``, the war from
    every score.

    A mirror pairing (:func:`mirror_pairings`) is marked ``hypothetical`` and also gets
    its battle value with each fixed ``quicker`` rule (``seat_check``): swapping seats
    turns ``p0`` into ``p1``, so those values should be opposite, and ``random`` 0."""
    courtiers = tuple(None if c == NO_COURTIER else c for c in pairing)
    start = time.perf_counter()
    cfg, pos, _ = initial_position(
        BattleSpec(warriors, combats, pairing, allow_mirror=is_mirror(pairing)).params())
    graph = BattleGraph(cfg, pos)
    battle = graph.solve(STANDARD_PAYOFFS)
    war_json = solve_war(courtiers, warriors, combats, graph=graph).to_json() if war else None
    a0, a1 = opening_actions(graph)
    checks = None
    if is_mirror(pairing):
        checks = {}
        for quicker in ("p0", "p1", "random"):
            spec = BattleSpec(warriors, combats, pairing, quicker=quicker, allow_mirror=True)
            cfg_q, pos_q, _ = initial_position(spec.params())
            checks[quicker] = BattleGraph(cfg_q, pos_q).solve(STANDARD_PAYOFFS).value
    return PairingRecord(
        tuple(pairing), warriors, combats,
        {"payoffs": list(STANDARD_PAYOFFS), "value": battle.value,
         "outcome_probs": dict(zip(OUTCOME_NAMES, map(float, battle.outcome_probs),
                                   strict=True)),
         "opening0": card_mix(a0, battle.root_row), "opening1": card_mix(a1, battle.root_col)},
        war_json, SOLVER, graph.num_positions, graph.num_matrix_games,
        graph.compile_seconds, time.perf_counter() - start,
        hypothetical=checks is not None, seat_check=checks)


def run_task(pairing: tuple[str, str], warriors: int, combats: int, directory: str,
             war: bool | str = True) -> str:
    """Solve and write one pairing unless already on disk; returns the file path."""
    path = task_path(Path(directory), pairing, warriors, combats, war)
    if load_task(path) is None:
        if _kind(war) == "villains":
            record = solve_villain_pair(pairing, warriors, combats)
        else:
            record = solve_pairing(pairing, warriors, combats, _kind(war) == "war")
        atomic_write_text(path, json.dumps(record.to_json(), indent=1))
    return str(path)


def load_task(path: Path) -> Record | None:
    """A cached pairing, or ``None`` when missing, unreadable or from another version."""
    data = read_record(path)
    if data is None or data.get("version") != SWEEP_VERSION:
        return None
    return PairingRecord.from_json(data) if "war" in data else VillainPairRecord.from_json(data)


def run_sweep(pairings: Iterable[tuple[str, str]] | None = None, warriors: int = C.MAX_WARRIOR,
              combats: int = C.MAX_COMBATS, directory: str | Path | None = None, workers: int = 2,
              scheduler=None, progress: bool = True, war: bool | str = True
              ) -> dict[tuple[str, str], Record]:
    """Solve every pairing not yet cached; returns all results (cached and new).

    Parameters
    ----------
    scheduler
        ``None`` for local processes (``workers`` of them; 1 runs in this process),
        a Dask scheduler address (``"tcp://host:8786"``) or a ``distributed.Client``.
    """
    if pairings is None:
        pairings = all_villain_pairs() if _kind(war) == "villains" else all_pairings()
    pairings = list(pairings)
    directory = pairings_dir() if directory is None else Path(directory)
    todo = [p for p in pairings
            if load_task(task_path(directory, p, warriors, combats, war)) is None]
    bar = None
    if progress and todo:
        bar = progress_bar(total=len(todo), desc=f"cobardes {_kind(war)}",
                   unit=" pairings")

    def tick(_=None) -> None:
        if bar is not None:
            bar.update(1)

    try:
        if not todo:
            pass
        elif scheduler is not None:
            run_on_dask(scheduler, run_task,
                        [(p, warriors, combats, str(directory), war) for p in todo], tick)
        elif workers <= 1:
            for p in todo:
                run_task(p, warriors, combats, str(directory), war)
                tick()
        else:
            with local_pool(workers) as pool:
                futures = [pool.submit(run_task, p, warriors, combats, str(directory), war)
                           for p in todo]
                for fut in as_completed(futures):
                    fut.result()
                    tick()
    finally:
        if bar is not None:
            bar.close()
    return load_results(pairings, warriors, combats, directory, war)


def load_results(pairings: Iterable[tuple[str, str]] | None = None, warriors: int = C.MAX_WARRIOR,
                 combats: int = C.MAX_COMBATS, directory: str | Path | None = None,
                 war: bool | str = True) -> dict[tuple[str, str], Record]:
    """The cached pairings present on disk."""
    if pairings is None:
        pairings = all_villain_pairs() if _kind(war) == "villains" else all_pairings()
    pairings = list(pairings)
    directory = pairings_dir() if directory is None else Path(directory)
    out = {}
    for p in pairings:
        data = load_task(task_path(directory, p, warriors, combats, war))
        if data is None and _kind(war) != "villains" and not both_vanguard(p):
            other = load_task(task_path(directory, p[::-1], warriors, combats, war))
            data = mirror(other) if other is not None else None
        if data is not None:
            out[tuple(p)] = data
    return out
