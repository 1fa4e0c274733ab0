"""Benchmark: the full ¡Cobardes! battle with hidden villains, solved by the state-keyed engine.

One courtier pairing (default Squire vs Archer), warriors 0-6 each, 7 combats, both
villains dealt at random from all nine: the state graph is compiled by the deal-lifted
walk (:mod:`analysis.solve.lifted`), then CFR+ runs in slices for a time budget. Printed:
the graph's size, the compile's seconds and peak memory, and after every slice the value
and the exploitability within the abstraction (a lower bound on the true one); then the
value of every villain deal and each player's first-combat mix.

``--method cut`` (the default) solves the public subgames exactly as the walk reaches
them (:mod:`analysis.cobardes.solvers.subgames`, the numba-compiled
:class:`analysis.cobardes.solvers.fast_exact.FastExactSolver`) and runs CFR+ on the trunk only;
``--method graph`` runs CFR+ on the whole state graph. The committed runs started from an
empty numba cache (``NUMBA_CACHE_DIR=$(mktemp -d)``), so their totals include its compile.

Run: ``.venv/bin/python benchmarks/cobardes_full_battle.py [--method cut|graph]
[--minutes 2] [--slices 2]``; writes
``benchmarks/results/cobardes_full_battle[_graph].{txt,json}``. The committed results
come from the defaults (cut) and from ``--method graph --minutes 30 --slices 3``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

import pyspiel
import results_file

import games  # noqa: F401
from analysis.cobardes.solvers.subgames import compile_cut
from analysis.cobardes.solvers.villains import deal_values, first_combat_mix
from analysis.solve import CFRSolver, compile_game

RESULTS = Path(__file__).resolve().parent / "results"


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--courtiers", default="Squire,Archer", help="player 0's,player 1's")
    parser.add_argument("--method", choices=("cut", "graph"), default="cut",
                        help="cut: public subgames exact, CFR+ on the trunk; graph: CFR+ on all")
    parser.add_argument("--minutes", type=float, default=2.0, help="CFR+ time budget")
    parser.add_argument("--slices", type=int, default=2, help="exploitability checks")
    parser.add_argument("--max-memory-gb", type=float, default=26.0,
                        help="node budget at the engine's bytes-per-node estimate")
    parser.add_argument("--warriors", type=int, default=6, help="smaller armies: a trial run")
    parser.add_argument("--combats", type=int, default=7)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    c0, c1 = args.courtiers.split(",")
    params = {"kinds": "all", "courtier0": c0, "courtier1": c1}
    if (args.warriors, args.combats) != (6, 7):
        params.update(warriors=args.warriors, combats=args.combats)
    game = pyspiel.load_game("python_cobardes_battle", params)
    lines = [f"machine: {platform.machine()}, {os.cpu_count()} cores, "
             f"python {platform.python_version()}",
             f"battle: warriors 0-{args.warriors}, {args.combats} combats, {c0} vs {c1}, "
             "both villains dealt at random from all 9 (72 deals)",
             "method: " + ("public subgames solved exactly, CFR+ on the trunk's state graph"
                           if args.method == "cut" else "CFR+ on the whole state graph")]
    print(*lines[-2:], sep="\n", flush=True)
    start, cpu = time.perf_counter(), time.process_time()
    # No printable keys: the measurement needs only the arrays, and they are a fifth of
    # the walk's memory.
    budget = int(args.max_memory_gb * 2**30)
    if args.method == "cut":
        cut = compile_cut(game, graph=True, max_memory=budget, progress=sys.stderr.isatty(),
                          key_names=False)
        cg = cut.compiled
    else:
        cg = compile_game(game, graph=True, max_memory=budget, progress=sys.stderr.isatty(),
                          key_names=False)
    compile_s, compile_cpu = time.perf_counter() - start, time.process_time() - cpu
    summary = {"params": params, "nodes": cg.num_nodes, "internal_nodes": cg.num_internal,
               "infosets": cg.num_infosets, "rows": cg.num_actions,
               "compile_seconds": compile_s, "compile_cpu_seconds": compile_cpu,
               "compile_peak_rss_gb": peak_rss_gb(), "slices": []}
    summary["walked_positions"] = cg.walked
    summary["method"] = args.method
    if args.method == "cut":
        summary.update(exact_positions=cut.exact_positions, exact_seconds=cut.exact_seconds,
                       cuts=cut.cuts)
        lines.append(f"public subgames: {cut.exact_positions:,} positions solved exactly by "
                     f"backward induction in {cut.exact_seconds:.0f} s (within the compile), "
                     f"{cut.cuts:,} trunk edges end in one")
        print(lines[-1], flush=True)
    lines.append(f"{'trunk' if args.method == 'cut' else 'state'} graph: {cg.num_nodes:,} nodes ({cg.num_internal:,} internal), "
                 f"{cg.num_infosets:,} information sets, {cg.num_actions:,} strategy rows; "
                 f"compile {compile_s:.0f} s ({compile_cpu:.0f} s of CPU, "
                 f"{cg.num_nodes / compile_cpu:,.0f} nodes per CPU second; the deal-lifted "
                 f"walk visited {cg.walked:,} positions), peak memory "
                 f"{summary['compile_peak_rss_gb']:.1f} GB")
    print(lines[-1], flush=True)
    solver = CFRSolver(cg, "cfr+")
    for _ in range(args.slices):
        report = solver.run(seconds=args.minutes * 60 / args.slices, progress=False)
        row = {"iterations": solver.iteration, "cfr_seconds": solver.seconds,
               "value": report.value, "exploitability_in_abstraction": report.exploitability}
        summary["slices"].append(row)
        lines.append(f"CFR+ {solver.iteration} iterations, {solver.seconds:.0f} s: value "
                     f"{report.value:+.4f}, exploitability within the abstraction "
                     f"{report.exploitability:.2e} (lower bound on the true one)")
        print(lines[-1], flush=True)
    summary["peak_rss_gb"] = peak_rss_gb()
    summary["total_seconds"] = time.perf_counter() - start
    lines.append(f"total {summary['total_seconds']:.0f} s ({summary['total_seconds'] / 60:.1f} min), "
                 f"peak memory "
                 f"{summary['peak_rss_gb']:.1f} GB; target (5 min) "
                 f"{'met' if summary['total_seconds'] <= 300 else 'missed'}")
    print(lines[-1], flush=True)
    strategy = solver.average_strategy()
    summary["deal_values"] = deal_values(cg, strategy)
    summary["first_combat_mix"] = first_combat_mix(cg, strategy)
    summary["lines"] = lines
    stem = "cobardes_full_battle" + ("" if args.method == "cut" else "_graph")
    results_file.save(args.out, stem, lines, summary, seed=None)


if __name__ == "__main__":
    main()
