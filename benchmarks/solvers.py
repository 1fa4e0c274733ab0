"""Side-by-side speed of Farol's CFR engine against OpenSpiel's CFR+ solvers.

One run of this script measures, on each game, three solvers:

* ``farol`` -- :mod:`analysis.solve` (compile once, numba passes; public-tree engine when
  the game factors), CFR+;
* ``openspiel_cpp`` -- ``pyspiel.CFRPlusSolver`` (C++);
* ``openspiel_python`` -- ``open_spiel.python.algorithms.cfr.CFRPlusSolver``.

For each it records seconds per iteration, the exploitability of the average strategy
after 10 s and 60 s of wall time (initialisation -- our compile, their tree walk --
included; exploitability evaluations excluded from the clock; the snapshot is the last
strategy finished before the mark), and the peak memory added by the solver. Each
solver runs in a forked child process so that its peak memory (``VmHWM``) is its own and
a runaway solver can be stopped. Our exploitability comes from our exact best response
(equal to OpenSpiel's to 1e-9, see ``tests/solve/test_solve_engine.py``); OpenSpiel's solvers
are measured with ``pyspiel.exploitability``.

Writes ``benchmarks/results/solvers.csv`` and ``solvers.png`` (``--quick``: 1 s / 4 s
marks, ``solvers_quick.*``) and prints, as its last line,
``min speedup vs OpenSpiel C++ CFR+: <ratio>x``, the smallest per-iteration ratio of
OpenSpiel C++ to ours across the games.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import multiprocessing as mp
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr as python_cfr

import games  # noqa: F401  (registers Farol's games)
from analysis.solve import CFRSolver, compile_game

RESULTS = Path(__file__).resolve().parent / "results"

# (label, game name, parameters)
GAMES = [
    ("leduc_poker", "leduc_poker", {}),
    (
        "goofspiel5_turn_based",
        "turn_based_simultaneous_game(game=goofspiel(num_cards=5,imp_info=True))",
        {},
    ),
    ("liars_dice", "liars_dice", {}),
    (
        "cobardes_battle_small",
        "python_cobardes_battle",
        {
            "warriors": 2,
            "combats": 3,
            "kinds": "warriors+villains",
            "villain_deck": "Thug/Sheep/Executioner",
        },
    ),
    (
        "coup_1v1_endgame",
        "python_coup",
        {"position": "?/assassin/3;?/contessa/3;move:0", "turn_cap": 2},
    ),
]
SOLVERS = ("farol", "openspiel_cpp", "openspiel_python")
# Compile rate on our Python games: (label, game, params, graph mode).
COMPILE_GAMES = [
    (
        "cobardes_villains_tree",
        "python_cobardes_battle",
        {"warriors": 3, "combats": 3, "kinds": "warriors+villains",
         "villain_deck": "Thug/Sheep/Executioner"},
        False,
    ),
    (
        "cobardes_courtiers_graph",
        "python_cobardes_battle",
        {"kinds": "warriors+courtiers", "courtier0": "Squire", "courtier1": "Archer"},
        True,
    ),
    (
        "cobardes_all_graph",
        "python_cobardes_battle",
        {"kinds": "all", "warriors": 3, "combats": 3, "courtier0": "Squire",
         "courtier1": "Archer"},
        True,
    ),
    (
        "coup_1v1_endgame_cap2",
        "python_coup",
        {"position": "?/assassin/3;?/contessa/3;move:0", "turn_cap": 2},
        False,
    ),
]
COMPILE_TARGET = 50_000
# OpenSpiel's Python solver keeps a Python object per state: beyond this many nodes it
# would need minutes and gigabytes just to start on a shared machine.
PYTHON_SOLVER_MAX_NODES = 400_000

COLUMNS = [
    "game",
    "solver",
    "nodes",
    "init_seconds",
    "iterations",
    "seconds_per_iteration",
    "exploitability_10s",
    "exploitability_60s",
    "peak_memory_mb",
    "bytes_per_node",
    "engine",
    "status",
]


def load(name: str, params: dict):
    if "(" in name:
        return pyspiel.load_game(name)
    return pyspiel.load_game(name, params)


def _rss_kb(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # resets VmHWM to the current resident size
    except OSError:
        pass


class Clock:
    """Wall time of the solver alone: exploitability evaluations are taken off."""

    def __init__(self):
        self.start = time.perf_counter()
        self.paused = 0.0

    def now(self) -> float:
        return time.perf_counter() - self.start - self.paused

    def pause(self):
        return _Pause(self)


class _Pause:
    def __init__(self, clock: Clock):
        self.clock = clock

    def __enter__(self):
        self.t = time.perf_counter()

    def __exit__(self, *exc):
        self.clock.paused += time.perf_counter() - self.t


def run_one(
    label: str, name: str, params: dict, solver: str, marks: tuple[float, float], queue
) -> None:
    """Child process: run one solver on one game and put its row on ``queue``."""
    game = load(name, params)
    _reset_peak()
    base_kb = _rss_kb("VmRSS")
    row = {"game": label, "solver": solver, "status": "ok"}
    snapshots: dict[float, float] = {}
    clock = Clock()
    iterations = 0
    iter_seconds = 0.0
    if solver == "farol":
        cg = compile_game(game)
        cfr = CFRSolver(cg, "cfr+")
        row["init_seconds"] = clock.now()
        row["nodes"] = cg.num_nodes
        row["engine"] = cfr.engine
        chunk = 1

        def exploitability() -> float:
            return cfr.exploitability().exploitability

        def step() -> int:
            nonlocal chunk
            t = time.perf_counter()
            cfr.iterate(chunk)
            spent = time.perf_counter() - t
            done = chunk
            # Chunks of ~0.05 s so the marks are hit closely.
            chunk = max(1, min(2 * chunk, int(0.05 / max(spent / chunk, 1e-9))))
            return done
    else:
        if solver == "openspiel_cpp":
            cfr = pyspiel.CFRPlusSolver(game)

            def exploitability() -> float:
                return pyspiel.exploitability(game, cfr.average_policy())
        else:
            cfr = python_cfr.CFRPlusSolver(game)

            def exploitability() -> float:
                return pyspiel.exploitability(
                    game, policy_lib.python_policy_to_pyspiel_policy(cfr.average_policy())
                )

        row["init_seconds"] = clock.now()

        def step() -> int:
            cfr.evaluate_and_update_policy()
            return 1

    def report(final: bool) -> None:
        # Partial rows go out as the run goes, so a run stopped at the time limit still
        # reports what it measured.
        row["iterations"] = iterations
        row["seconds_per_iteration"] = iter_seconds / iterations if iterations else math.nan
        row["exploitability_10s"] = snapshots.get(marks[0], math.nan)
        row["exploitability_60s"] = snapshots.get(marks[1], math.nan)
        row["peak_memory_mb"] = max(_rss_kb("VmHWM") - base_kb, 0) / 1024
        if solver == "farol":
            working = 3 * cg.num_internal * 8 + 4 * cfr.regret.nbytes
            row["bytes_per_node"] = (cg.nbytes() + working) / cg.num_nodes
        queue.put((final, dict(row)))

    last = 0.0
    pending = sorted(marks)
    while pending:
        # Snapshot before an iteration that would end past the mark.
        if clock.now() + last > pending[0] or clock.now() >= pending[0]:
            report(False)
            with clock.pause():
                snapshots[pending[0]] = exploitability() if iterations else math.nan
            pending.pop(0)
            continue
        t = time.perf_counter()
        iterations += step()
        last = time.perf_counter() - t
        iter_seconds += last
        if solver == "farol":
            last = 0.0  # chunks are small: no need to stop short of the mark
        elif iterations == 1:
            report(False)
    report(True)


def measure(label, name, params, solver, marks, timeout) -> dict:
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=run_one, args=(label, name, params, solver, marks, queue))
    proc.start()
    deadline = time.time() + timeout
    row, final = None, False
    while time.time() < deadline and not final:
        try:
            final, row = queue.get(timeout=1.0)
        except Exception:
            if not proc.is_alive():
                break
    if not final:
        status = "timeout" if proc.is_alive() else f"failed (exit {proc.exitcode})"
        if proc.is_alive():
            proc.kill()
        row = dict(row or {"game": label, "solver": solver})
        row["status"] = f"{status} after {timeout:g} s" + (" (partial)" if len(row) > 3 else "")
    proc.join(5)
    return row


def fmt(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def chart(rows: list[dict], path: Path) -> None:
    import matplotlib  # the chart only: a heavy import

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(r["game"] for r in rows))
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    width = 0.27
    for k, solver in enumerate(SOLVERS):
        for ax, column in zip(axes, ("seconds_per_iteration", "exploitability_10s"), strict=True):
            values = []
            for g in labels:
                match = [r for r in rows if r["game"] == g and r["solver"] == solver]
                v = match[0].get(column) if match else None
                values.append(v if isinstance(v, float) and v > 0 else np.nan)
            ax.bar(np.arange(len(labels)) + (k - 1) * width, values, width, label=solver)
    for ax, title in zip(
        axes,
        ("seconds per iteration (lower is better)", "exploitability after 10 s (lower is better)"),
        strict=True,
    ):
        ax.set_yscale("log")
        ax.set_xticks(np.arange(len(labels)))
        ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def csv_lines(rows: list[list]) -> list[str]:
    """Rows as CSV lines."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().splitlines()


def compile_rates(quick: bool) -> list[dict]:
    """Nodes compiled per CPU second on our Python games, through OpenSpiel States and
    through the game's walker (``games.keys.Walker``), in this process one after the
    other. CPU time, not wall time: the machine is shared, and the walk is one core."""
    rows = []
    for label, name, params, graph in COMPILE_GAMES:
        if quick and label != "cobardes_courtiers_graph":
            continue
        game = load(name, params)
        row = {"game": label, "mode": "graph" if graph else "tree"}
        for path, use_walker in (("states", False), ("walker", True)):
            if use_walker and not hasattr(game, "solver_walker"):
                row[path] = None
                continue
            cpu, wall = time.process_time(), time.perf_counter()
            compiled = compile_game(game, graph=graph, use_walker=use_walker)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            row["nodes"] = compiled.num_nodes
            row[path] = compiled.num_nodes / cpu
            row[path + "_wall"] = compiled.num_nodes / wall
        rows.append(row)
        walker = f"{row['walker']:>9,.0f}" if row.get("walker") else "      n/a"
        print(
            f"compile {label:26s} {row['mode']:5s} {row['nodes']:>10,} nodes: "
            f"states {row['states']:>9,.0f} nodes/s, walker {walker} nodes/s (CPU time; "
            f"wall {row.get('walker_wall') or row['states_wall']:,.0f})",
            flush=True,
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 s / 4 s marks")
    parser.add_argument("--games", nargs="*", help="labels of the games to run (default all)")
    args = results_file.parse_args(parser, argv)
    marks = (1.0, 4.0) if args.quick else (10.0, 60.0)
    timeout = 120.0 if args.quick else 600.0
    selected = [g for g in GAMES if not args.games or g[0] in args.games]
    rows: list[dict] = []
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
        f"(shared); python {sys.version.split()[0]}; marks {marks[0]:g} s / {marks[1]:g} s",
        flush=True,
    )
    for label, name, params in selected:
        nodes = compile_game(load(name, params)).num_nodes
        for solver in SOLVERS:
            if solver == "openspiel_python" and nodes > PYTHON_SOLVER_MAX_NODES:
                rows.append(
                    {
                        "game": label,
                        "solver": solver,
                        "nodes": nodes,
                        "status": f"skipped (> {PYTHON_SOLVER_MAX_NODES:,} nodes)",
                    }
                )
                print(f"{label:24s} {solver:17s} skipped ({nodes:,} nodes)", flush=True)
                continue
            row = measure(label, name, params, solver, marks, timeout)
            row.setdefault("nodes", nodes)
            rows.append(row)
            print(
                f"{label:24s} {solver:17s} "
                f"s/iter {fmt(row.get('seconds_per_iteration')):>12s}  "
                f"expl@{marks[0]:g}s {fmt(row.get('exploitability_10s')):>12s}  "
                f"expl@{marks[1]:g}s {fmt(row.get('exploitability_60s')):>12s}  "
                f"peak {fmt(row.get('peak_memory_mb')):>8s} MB  {row['status']}",
                flush=True,
            )
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "solvers_quick" if args.quick else "solvers"
    results_file.write_text(RESULTS / f"{stem}.csv", csv_lines(
        [COLUMNS] + [[fmt(row.get(c)) for c in COLUMNS] for row in rows]), seed=None,
        comment="# ")
    chart(rows, RESULTS / f"{stem}.png")
    ratios = []
    for label, _, _ in selected:
        ours = [r for r in rows if r["game"] == label and r["solver"] == "farol"]
        theirs = [r for r in rows if r["game"] == label and r["solver"] == "openspiel_cpp"]
        if (
            ours
            and theirs
            and ours[0].get("seconds_per_iteration")
            and theirs[0].get("seconds_per_iteration")
        ):
            ratio = theirs[0]["seconds_per_iteration"] / ours[0]["seconds_per_iteration"]
            ratios.append(ratio)
            print(f"speedup per iteration on {label}: {ratio:.1f}x")
    compiled = compile_rates(args.quick)
    results_file.write_text(RESULTS / f"{stem}_compile.csv", csv_lines(
        [["game", "mode", "nodes", "states_nodes_per_s", "walker_nodes_per_s"]]
        + [[row["game"], row["mode"], row["nodes"], fmt(row["states"]), fmt(row.get("walker"))]
           for row in compiled]), seed=None, comment="# ")
    best = [row.get("walker") or row["states"] for row in compiled]
    if best:
        print(
            f"min compile rate on our Python games: {min(best):,.0f} nodes/s "
            f"(target {COMPILE_TARGET:,}: {'met' if min(best) >= COMPILE_TARGET else 'not met'})"
        )
    print(f"wrote {RESULTS / (stem + '.csv')} and {RESULTS / (stem + '.png')}")
    print(
        f"min speedup vs OpenSpiel C++ CFR+: {min(ratios):.1f}x"
        if ratios
        else "min speedup vs OpenSpiel C++ CFR+: n/a"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
