"""Beyond the cap: the state-keyed estimate of uncapped 1v1 Coup endgames.

Where the rigorous brackets (:mod:`analysis.coup.solvers.brackets`) are still wide, the endgame
is solved in the state-keyed abstraction (graph mode, information sets keyed by what a
player sees now) at growing caps until the value settles (:func:`estimate`); its loss is
measured where the perfect-recall tree fits (:func:`loss_at_cap`) and the estimate set
beside the bracket (:func:`compare`). It is an estimate, not an equilibrium value. Two
key schemes (:data:`KEYS`): ``plain`` and ``memory`` (with claim memory,
:class:`games.coup.walker.MemoryWalker`).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analysis.coup.model import (
    CONVERGED_WIDTH,
    Endgame,
    StoredRecord,
    brackets_by_cap,
    brackets_dir,
    data_dir,
    intersect_brackets,
    markov_brackets_dir,
)
from analysis.coup.studies.runner import run_all
from analysis.shared.progress import shown
from analysis.shared.store import atomic_write_text, read_record
from analysis.solve import CFRSolver, CompiledGame, compile_game, exploitability
from analysis.solve.abstraction import graph_strategy_on_tree
from analysis.solve.compile import GRAPH_BYTES_PER_NODE
from analysis.solve.errors import GameTooLargeError
from games.coup.cards import DECKS
from games.coup.walker import MemoryWalker
from games.errors import InvalidParameterError

VERSION = 1
CAPS = (4, 8, 16, 32)
KEYS = ("plain", "memory")
# Each turn multiplies the memory-keyed graph by about 3-4: cap 6 is 1.5-3.5 million nodes.
MEMORY_CAPS = (4, 5, 6)
VALUE_TOLERANCE = 1e-3
TARGET = 1e-4
MAX_ITERATIONS = 2_000
SECONDS_PER_SOLVE = 15.0
# Largest graph compiled (nodes): ~300 bytes a node at the compile's peak, under 1 GB.
MAX_GRAPH_NODES = 3_000_000
# No further cap is started once an endgame's cap loop has spent this long.
SECONDS_PER_ENDGAME = 150.0
LOSS_CAP = 3
# The perfect-recall cap-3 trees have 0.5-2.6 million histories; budget for compiling one.
TREE_MEMORY = 1_500_000_000
SOLVER = "CFR+ (Farol engine, state-keyed graph abstraction)"
MEMORY_SOLVER = "CFR+ (Farol engine, state-keyed graph abstraction with claim memory)"
TREE_SOLVER = "CFR+ (Farol engine, perfect-recall tree)"
# The scope: every mover/other coin pair; :func:`scope` keeps those whose rigorous bracket
# is still wide (118 endgames over both decks: the others need no estimate).
SCOPE_PAIRS = tuple((a, b) for a in range(10) for b in range(10))




def records_dir(keys: str = "plain") -> Path:
    """Where the estimates of the abstraction ``keys`` names live."""
    return data_dir("abstraction" if check_keys(keys) == "plain" else "abstraction_memory")


# --------------------------------------------------------------------------- one cap
def check_keys(keys: str, name: str = "keys") -> str:
    """``keys`` if it names an abstraction (:data:`KEYS`); a one-line error naming
    ``name`` (the option, on the command line) otherwise."""
    if keys not in KEYS:
        raise InvalidParameterError(f"{name} {keys!r}: choose from {', '.join(KEYS)}")
    return keys


def walker_for(game, keys: str, history: bool):
    """The walker whose keys define the abstraction (``None``: the game's own, plain)."""
    if check_keys(keys) == "plain":
        return None
    return MemoryWalker(game.config, history)


def graph_solve(endgame: Endgame, cap: int, target: float = TARGET,
                max_iterations: int = MAX_ITERATIONS, seconds: float | None = SECONDS_PER_SOLVE,
                max_nodes: int = MAX_GRAPH_NODES, keys: str = "plain",
                ) -> tuple[dict, CompiledGame | None, CFRSolver | None]:
    """Solve the state-keyed abstraction of ``endgame`` at turn cap ``cap`` (cap paying 0).

    Returns the row (cap, nodes, infosets, iterations, seconds, value, win probability,
    best responses and exploitability within the abstraction), the compiled graph and
    the solver; over ``max_nodes`` the row says so and the other two are ``None``.
    ``keys`` chooses the abstraction (:data:`KEYS`).
    """
    game = dataclasses.replace(endgame, turn_cap=cap).game()
    tick = time.perf_counter()
    try:
        graph = compile_game(game, graph=True, max_memory=max_nodes * GRAPH_BYTES_PER_NODE,
                             walker=walker_for(game, keys, history=False))
    except GameTooLargeError:
        return {"cap": cap, "status": "over the node limit",
                "seconds": time.perf_counter() - tick}, None, None
    compile_seconds = time.perf_counter() - tick
    solver = CFRSolver(graph, "cfr+")
    report = solver.run(target_exploitability=target, iterations=max_iterations,
                        seconds=seconds, progress=False)
    row = {"cap": cap, "status": "solved", "nodes": graph.num_nodes,
           "infosets": graph.num_infosets, "imperfect_recall": bool(graph.imperfect_recall),
           "iterations": solver.iteration, "compile_seconds": compile_seconds,
           "solve_seconds": solver.seconds, "seconds": time.perf_counter() - tick,
           "value": report.value, "win": (1 + report.value) / 2,
           "best_response": list(report.best_response),
           "exploitability": report.exploitability}
    return row, graph, solver


def cap_loop(solve_at: Callable[[int], dict], caps: Iterable[int] = CAPS,
             tolerance: float = VALUE_TOLERANCE,
             seconds: float | None = SECONDS_PER_ENDGAME) -> dict:
    """Solve at each cap in turn until the value converges or a limit stops the loop.

    ``solve_at(cap)`` returns a row with ``status`` (``"solved"`` or a reason it was
    not), ``value`` and ``seconds``. Returns the rows, ``converged`` (the last two
    solved values differ by less than ``tolerance``), the cap of the estimate
    (``estimate_cap``, the last solved) and why the loop stopped (``stopped``).
    """
    rows: list[dict] = []
    solved: list[dict] = []
    spent = 0.0
    stopped = "caps exhausted"
    converged = False
    for cap in caps:
        if seconds is not None and spent >= seconds:
            stopped = "time limit"
            break
        row = solve_at(cap)
        rows.append(row)
        spent += row.get("seconds", 0.0)
        if row["status"] != "solved":
            stopped = row["status"]
            break
        solved.append(row)
        if len(solved) >= 2 and abs(solved[-1]["value"] - solved[-2]["value"]) < tolerance:
            converged, stopped = True, "value converged"
            break
    last = solved[-1] if solved else None
    return {"caps": rows, "converged": converged, "stopped": stopped,
            "estimate_cap": last["cap"] if last else None,
            "value": last["value"] if last else None,
            "win": (1 + last["value"]) / 2 if last else None,
            "change": abs(solved[-1]["value"] - solved[-2]["value"]) / 2 if len(solved) >= 2
            else None}


# --------------------------------------------------------------------------- the loss
def loss_at_cap(endgame: Endgame, cap: int = LOSS_CAP, target: float = TARGET,
                max_iterations: int = MAX_ITERATIONS, tree_target: float = TARGET,
                tree_iterations: int = 50_000, keys: str = "plain") -> dict:
    """The abstraction's loss at ``cap``, where the perfect-recall tree fits.

    The cap-``cap`` abstraction is solved (CFR+ to ``target``, no time cap) and its
    strategy played in the perfect-recall tree of the same capped game: its
    exploitability there (exact best response) is the loss, its value there
    ``abstract_value_in_tree``. The tree is also solved exactly (``exact_value``, with
    its own iterations and exploitability). By zero-sum algebra the abstract
    strategy's value lies within twice the loss of the exact value (plus the exact
    solve's own error). ``keys`` chooses the abstraction (:data:`KEYS`).
    """
    eg = dataclasses.replace(endgame, turn_cap=cap)
    tick = time.perf_counter()
    game = eg.game()
    tree = compile_game(game, max_memory=TREE_MEMORY, abstract_keys=True,
                        walker=walker_for(game, keys, history=True))
    tree_compile = time.perf_counter() - tick
    exact = CFRSolver(tree, "cfr+")
    exact_report = exact.run(target_exploitability=tree_target, iterations=tree_iterations,
                             progress=False)
    row, graph, solver = graph_solve(eg, cap, target, max_iterations, seconds=None, keys=keys)
    strategy = graph_strategy_on_tree(graph, solver.average_strategy(), tree)
    played = exploitability(tree, strategy)
    return {"cap": cap, "tree_nodes": tree.num_nodes, "tree_infosets": tree.num_infosets,
            "tree_compile_seconds": tree_compile, "tree_iterations": exact.iteration,
            "tree_solve_seconds": exact.seconds, "tree_exploitability": exact_report.exploitability,
            "exact_value": exact_report.value, "exact_win": (1 + exact_report.value) / 2,
            "abstraction": row, "loss": played.exploitability,
            "abstract_value_in_tree": played.value,
            "abstract_best_response_in_tree": list(played.best_response),
            "seconds": time.perf_counter() - tick}


# --------------------------------------------------------------------------- brackets
def bracket_of(endgame: Endgame, directory: Path | None = None) -> dict | None:
    """The tightest rigorous bracket on disk for ``endgame``'s uncapped value.

    Every cap's bracket holds the uncapped value, so their intersection does too:
    ``lower_win`` is the largest lower end, ``upper_win`` the smallest upper end, with the
    caps they come from. ``None`` when no bracket is on disk. ``directory``: where the
    records are (default: the plain brackets and the Markov-priced ones).
    """
    if directory is None:
        by_cap = brackets_by_cap(brackets_dir(), endgame, also=markov_brackets_dir())
    else:
        by_cap = brackets_by_cap(Path(directory), endgame)
    bracket = intersect_brackets(by_cap)
    if bracket is None:
        return None
    bracket["max_exploitability"] = max(
        max(r.low["exploitability"], r.high["exploitability"]) for r in by_cap.values())
    return bracket


def compare(win: float, bracket: dict) -> dict:
    """Whether the win probability ``win`` lies in ``bracket`` (``lower_win``,
    ``upper_win``), and by how much it misses (0 when inside)."""
    below = bracket["lower_win"] - win
    above = win - bracket["upper_win"]
    return {"inside": bool(below <= 0 and above <= 0), "outside_by": max(below, above, 0.0)}


# --------------------------------------------------------------------------- endgames
def slug(endgame: Endgame) -> str:
    """The endgame's file name stem without its cap (the estimate spans caps)."""
    return endgame.slug().rsplit("_cap", 1)[0]


def estimate(endgame: Endgame, caps: Iterable[int] = CAPS, loss_cap: int | None = LOSS_CAP,
             bracket_dir: Path | None = None, keys: str = "plain") -> dict:
    """The whole record of one endgame: the cap loop, the loss at ``loss_cap`` and the
    comparison with the rigorous bracket, in the abstraction ``keys`` chooses."""
    check_keys(keys)
    tick = time.perf_counter()
    record = {"endgame": {"mover_coins": endgame.mover_coins,
                          "other_coins": endgame.other_coins, "deck": endgame.deck,
                          "revealed": list(endgame.revealed)},
              "position": endgame.position(), "keys": keys,
              "solver": SOLVER if keys == "plain" else MEMORY_SOLVER,
              "parameters": {"caps": list(caps), "target": TARGET,
                             "max_iterations": MAX_ITERATIONS,
                             "seconds_per_solve": SECONDS_PER_SOLVE,
                             "max_graph_nodes": MAX_GRAPH_NODES,
                             "seconds_per_endgame": SECONDS_PER_ENDGAME,
                             "value_tolerance": VALUE_TOLERANCE, "cap_payoff": 0.0}}
    record |= cap_loop(lambda cap: graph_solve(endgame, cap, keys=keys)[0], caps)
    if loss_cap is not None:
        record["loss"] = loss_at_cap(endgame, loss_cap, keys=keys)
    bracket = bracket_of(endgame, bracket_dir)
    record["bracket"] = bracket
    if bracket is not None and record["win"] is not None:
        record |= compare(record["win"], bracket)
    record["seconds"] = time.perf_counter() - tick
    record["version"] = VERSION
    return record


@dataclass(frozen=True)
class Estimate(StoredRecord):
    """One endgame's stored estimate (:func:`estimate`): the cap loop's rows (``caps``)
    and verdict, the loss at the loss cap, the rigorous bracket then on disk and where
    the estimate falls. Its ``endgame`` is stored without a cap (the estimate spans
    caps; read back with the default one)."""

    endgame: Endgame | None = None
    position: str | None = None
    keys: str | None = None
    solver: str | None = None
    parameters: dict | None = None
    caps: list | None = None
    converged: bool | None = None
    stopped: str | None = None
    estimate_cap: int | None = None
    value: float | None = None
    win: float | None = None
    change: float | None = None
    loss: dict | None = None
    bracket: dict | None = None
    inside: bool | None = None
    outside_by: float | None = None
    seconds: float | None = None
    version: int | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def endgame_json(self, endgame: Endgame) -> dict:
        return {"mover_coins": endgame.mover_coins, "other_coins": endgame.other_coins,
                "deck": endgame.deck, "revealed": list(endgame.revealed)}


def load(directory: Path, endgame: Endgame) -> Estimate | None:
    """The record of ``endgame`` on disk, or ``None`` (missing, unreadable or stale)."""
    record = read_record(Path(directory) / f"{slug(endgame)}.json")
    return Estimate.from_json(record) if record and record.get("version") == VERSION else None


def run_task(endgame: Endgame, directory: str, caps: tuple[int, ...],
             loss_cap: int | None = LOSS_CAP, keys: str = "plain") -> dict:
    """Estimate one endgame and write its record (the sweep's worker function)."""
    record = estimate(endgame, caps, loss_cap, keys=keys)
    atomic_write_text(Path(directory) / f"{slug(endgame)}.json",
                      json.dumps(record, indent=1) + "\n")
    return record


def scope(decks: Iterable[str] = DECKS, pairs: Iterable[tuple[int, int]] = SCOPE_PAIRS,
          bracket_dir: Path | None = None) -> list[Endgame]:
    """The endgames of ``pairs`` (mover, other coins) whose rigorous bracket is wider than
    :data:`CONVERGED_WIDTH` (or missing), for each deck."""
    out = []
    for deck in decks:
        for a, b in pairs:
            eg = Endgame(a, b, deck, turn_cap=LOSS_CAP)
            bracket = bracket_of(eg, bracket_dir)
            if bracket is None or bracket["width"] > CONVERGED_WIDTH:
                out.append(eg)
    return out


def sweep(endgames: list[Endgame], directory: Path | None = None, caps: Iterable[int] = CAPS,
          workers: int = 1, progress: bool | None = None,
          loss_cap: int | None = LOSS_CAP, keys: str = "plain") -> list[Estimate]:
    """Estimate every endgame not yet on disk (resumable; through the shared runner).

    Progress shows on stderr unless ``FAROL_PROGRESS=0`` (``progress=None``).
    """
    directory = records_dir() if directory is None else Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    caps = tuple(caps)
    if progress is None:
        progress = shown()
    check_keys(keys)
    todo = [(eg, str(directory), caps, loss_cap, keys) for eg in endgames
            if load(directory, eg) is None]
    run_all(run_task, todo, workers, progress, "coup abstraction")
    return [load(directory, eg) for eg in endgames]


def cached(directory: Path | None = None) -> list[Estimate]:
    """Every current record in ``directory`` (default: the plain keys'; sorted by deck
    and coins)."""
    directory = records_dir() if directory is None else Path(directory)
    out = []
    for path in sorted(directory.glob("*.json")):
        record = read_record(path)
        if record is not None and record.get("version") == VERSION:
            out.append(Estimate.from_json(record))
    return sorted(out, key=lambda r: (r.endgame.deck, r.endgame.mover_coins,
                                      r.endgame.other_coins))
