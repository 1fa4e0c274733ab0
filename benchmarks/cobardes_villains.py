"""Benchmark: a ¡Cobardes! battle with hidden villains, solved by the state-keyed engine.

For one courtier pairing (Squire vs Archer) with both villains dealt at random from the
full villain deck: the compiled size, the seconds (compile, CFR+) and the exploitability
within the abstraction on a ladder of armies; then full armies with a reduced villain
deck within the time budget. The full battle is ``benchmarks/cobardes_full_battle.py``.

Run: ``.venv/bin/python benchmarks/cobardes_villains.py [--budget 300]``;
writes ``benchmarks/results/cobardes_villains.{txt,json}``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import pyspiel
import results_file

import games  # noqa: F401
from analysis.solve import CFRSolver, compile_game

PAIRING = {"courtier0": "Squire", "courtier1": "Archer"}
LADDER = ((2, 3), (3, 3), (3, 4))
# Full armies with this many villains fit the 5-minute budget; the full deck does not.
REDUCED_DECK = "Thug/Sheep/Executioner"
RESULTS = Path(__file__).resolve().parent / "results"


def run_one(warriors: int, combats: int, seconds: float) -> dict:
    params = {"kinds": "all", "warriors": warriors, "combats": combats, **PAIRING}
    game = pyspiel.load_game("python_cobardes_battle", params)
    start, cpu = time.perf_counter(), time.process_time()
    compiled = compile_game(game, graph=True)
    compile_s = time.perf_counter() - start
    compile_cpu = time.process_time() - cpu
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(seconds=seconds, progress=False)
    return {"warriors": warriors, "combats": combats, "nodes": compiled.num_nodes,
            "infosets": compiled.num_infosets, "compile_seconds": compile_s,
            "cfr_seconds": solver.seconds, "iterations": solver.iteration,
            "value": report.value, "exploitability_in_abstraction": report.exploitability,
            "nodes_per_second": compiled.num_nodes / compile_s,
            "nodes_per_cpu_second": compiled.num_nodes / compile_cpu}


def full_army_reduced_deck(deck: str, budget: float) -> dict:
    """Full armies (warriors 0-6, 7 combats) with hidden villains from a reduced villain
    deck: compile, then CFR+ for what is left of ``budget`` seconds."""
    params = {"kinds": "all", "villain_deck": deck, **PAIRING}
    game = pyspiel.load_game("python_cobardes_battle", params)
    start, cpu = time.perf_counter(), time.process_time()
    compiled = compile_game(game, graph=True)
    compile_s, compile_cpu = time.perf_counter() - start, time.process_time() - cpu
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(seconds=max(budget - compile_s, 10.0), progress=False)
    return {"deck": deck, "nodes": compiled.num_nodes, "infosets": compiled.num_infosets,
            "compile_seconds": compile_s, "compile_cpu_seconds": compile_cpu,
            "seconds": compile_s + solver.seconds, "iterations": solver.iteration,
            "value": report.value, "exploitability_in_abstraction": report.exploitability}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=300.0, help="seconds (target 300)")
    parser.add_argument("--cfr-seconds", type=float, default=30.0)
    args = results_file.parse_args(parser)
    lines = [f"machine: {platform.machine()}, {os.cpu_count()} cores (shared), "
             f"python {platform.python_version()}"]
    rows = []
    for w, c in LADDER:
        r = run_one(w, c, args.cfr_seconds)
        rows.append(r)
        lines.append(
            f"warriors 0-{w}, {c} combats, Squire vs Archer, 9 hidden villains: "
            f"{r['nodes']:,} graph nodes, {r['infosets']:,} information sets; compile "
            f"{r['compile_seconds']:.1f} s ({r['nodes_per_second']:,.0f} nodes/s, "
            f"{r['nodes_per_cpu_second']:,.0f} per CPU second), CFR+ "
            f"{r['iterations']} iterations in {r['cfr_seconds']:.1f} s, value {r['value']:+.4f}, "
            f"exploitability within the abstraction {r['exploitability_in_abstraction']:.2e}")
        print(lines[-1], flush=True)
    reduced = full_army_reduced_deck(REDUCED_DECK, args.budget)
    lines.append(
        f"full armies (warriors 0-6, 7 combats), Squire vs Archer, hidden villains from "
        f"{reduced['deck']} (6 deals of 72): {reduced['nodes']:,} graph nodes, "
        f"{reduced['infosets']:,} information sets; compile {reduced['compile_seconds']:.0f} s "
        f"({reduced['compile_cpu_seconds']:.0f} s of CPU), CFR+ {reduced['iterations']} "
        f"iterations, {reduced['seconds']:.0f} s in all, value {reduced['value']:+.4f}, "
        f"exploitability within the abstraction {reduced['exploitability_in_abstraction']:.2e}")
    print(lines[-1], flush=True)
    results_file.save(RESULTS, "cobardes_villains", lines,
                      {"lines": lines, "ladder": rows, "reduced_deck": reduced}, seed=None)


if __name__ == "__main__":
    main()
