"""Benchmark: one ¡Cobardes! matchup with hidden villains, solved the old way and the new.

The matchup (default Squire vs Archer; warriors 0-6, 7 combats, both villains dealt
hidden from all nine) is compiled as the sweep compiles it (public subgames exact, how
each battle ends kept), once by the deal-lifted walk in Python and once by the compiled
walk on packed rows; the two graphs are compared array for array. Then its trunk is
solved the old way (CFR+, 200 iterations) and the new (the sweep's method until its
exploitability stops improving, :mod:`analysis.solve.floor`). Printed: each step's CPU
seconds (one core: other work on the machine inflates CPU time far less than wall
time), peak memory, and the exploitability within the abstraction each solve reaches.

Run: ``.venv/bin/python benchmarks/cobardes_matchup_speed.py [--courtiers A,B]``; writes
``benchmarks/results/cobardes_matchup_speed.{txt,json}``.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers.hidden_solution import METHOD, RULE
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.shared.provenance import provenance
from analysis.solve import CFRSolver
from analysis.solve.compiled import ARRAYS
from analysis.solve.floor import solve_to_floor

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "cobardes_matchup_speed"
OLD_ITERATIONS = 200


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def compile_with(game, engine: str) -> tuple[dict, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    cut = compile_cut(game, key_names=False, outcomes=True, engine=engine)
    return {"cpu_seconds": time.process_time() - cpu, "seconds": time.perf_counter() - wall,
            "exact_seconds": cut.exact_seconds, "exact_positions": cut.exact_positions,
            "peak_gb": peak_gb()}, cut


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--courtiers", default="Squire,Archer", help="player 0's,player 1's")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    pairing = tuple(args.courtiers.split(","))
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(pairing))
    record = {"machine": machine(), "provenance": provenance(None), "pairing": pairing}
    record["python"], old = compile_with(game, "python")
    python_arrays = {name: getattr(old.compiled, name) for name in ARRAYS}
    python_codes = old.outcomes.code
    del old
    gc.collect()
    record["packed"], new = compile_with(game, "packed")
    cg = new.compiled
    record["same_graph"] = bool(
        all(np.array_equal(python_arrays[n], getattr(cg, n)) for n in ARRAYS)
        and np.array_equal(python_codes, new.outcomes.code))
    del python_arrays, python_codes
    record.update(nodes=cg.num_nodes, infosets=cg.num_infosets, walked=cg.walked)
    cpu = time.process_time()
    solver = CFRSolver(cg, "cfr+")
    solver.iterate(OLD_ITERATIONS)
    report = solver.exploitability()
    record["old_solve"] = {"method": "cfr+", "iterations": OLD_ITERATIONS,
                           "cpu_seconds": time.process_time() - cpu,
                           "exploitability": report.exploitability}
    del solver
    cpu = time.process_time()
    run = solve_to_floor(CFRSolver(cg, METHOD), RULE)
    record["new_solve"] = {"method": METHOD, "rule": RULE.to_json(), "iterations": run.iterations,
                           "total_iterations": run.total_iterations,
                           "cpu_seconds": time.process_time() - cpu,
                           "exploitability": run.exploitability}
    record["peak_gb"] = peak_gb()
    old_total = record["python"]["cpu_seconds"] + record["old_solve"]["cpu_seconds"]
    new_total = record["packed"]["cpu_seconds"] + record["new_solve"]["cpu_seconds"]
    record.update(old_total_cpu_seconds=old_total, new_total_cpu_seconds=new_total)
    p, k, o, n = record["python"], record["packed"], record["old_solve"], record["new_solve"]
    lines = [
        f"machine: {record['machine']}",
        f"farol {record['provenance']['version']}, commit {record['provenance']['commit']}",
        f"matchup: {pairing[0]} vs {pairing[1]}, warriors 0-6, 7 combats, both villains dealt "
        f"hidden from all nine; public subgames exact ({k['exact_positions']:,} positions), "
        f"how each battle ends kept; {cg.num_nodes:,} nodes, {cg.num_infosets:,} information "
        f"sets, {cg.walked:,} positions walked",
        f"compile, Python walk: {p['cpu_seconds']:.0f} CPU s, {p['seconds']:.0f} wall s "
        f"({p['exact_seconds']:.0f} wall s of it in the public subgames)",
        f"compile, compiled walk: {k['cpu_seconds']:.0f} CPU s, {k['seconds']:.0f} wall s "
        f"({k['exact_seconds']:.0f} wall s of it in the public subgames); "
        f"{p['cpu_seconds'] / k['cpu_seconds']:.1f}x less CPU; the "
        f"same graph array for array: {'yes' if record['same_graph'] else 'NO'}",
        f"solve, old (CFR+, {OLD_ITERATIONS} iterations): {o['cpu_seconds']:.0f} CPU s, "
        f"exploitability within the abstraction {o['exploitability']:.4f}",
        f"solve, new ({METHOD}, {RULE.words()}): {n['cpu_seconds']:.0f} CPU s, "
        f"{n['total_iterations']} iterations run, the best at {n['iterations']}: "
        f"exploitability within the abstraction {n['exploitability']:.4f}",
        f"total: old {old_total:.0f} CPU s ({old_total / 60:.1f} min), new {new_total:.0f} CPU s "
        f"({new_total / 60:.1f} min); peak memory {record['peak_gb']:.1f} GB",
    ]
    print(*lines, sep="\n")
    save(args.out, STEM, lines, record | {"lines": lines})


if __name__ == "__main__":
    main()
