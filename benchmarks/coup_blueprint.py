"""Benchmark: what the Coup blueprint costs, and how good it is on a graph we can check.

1. CFR+ on a graph with cycles against OpenSpiel's C++ CFR+ on the same game (Leduc
   poker, a tree, so both compute the same thing): seconds an iteration, and
   OpenSpiel's NashConv of each after the same number of iterations.
2. The 1v1 endgames' whole graph (every coin pair, one card each, no turn cap): walk
   time, seconds an iteration, and the lower bounds on the blueprint's exploitability
   as training goes on (a best response keyed like the blueprint, valued exactly).
3. A deck's whole game, when its graph is in the cache (``--deck``): its size and
   seconds an iteration, hence the time a build takes.

Run: ``.venv/bin/python benchmarks/coup_blueprint.py [--deck ambassador]``; writes
``benchmarks/results/coup_blueprint.{txt,json}``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from open_spiel.python.algorithms import exploitability

import games  # noqa: F401
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.studies.blueprint_bounds import exploitability_lower_bound, keyed_response
from analysis.solve.cyclic import CyclicCFR

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_cyclic_cfr import tabular, tree_graph  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def leduc(iterations: int) -> dict:
    game = pyspiel.load_game("leduc_poker")
    graph, keys = tree_graph(game)
    root = np.zeros(graph.num_nodes)
    root[0] = 1.0
    ours = CyclicCFR(graph, root)
    ours.run(1)
    tick = time.perf_counter()
    ours.run(iterations + 1)
    our_seconds = (time.perf_counter() - tick) / iterations
    solver = pyspiel.CFRPlusSolver(game)
    tick = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    their_seconds = (time.perf_counter() - tick) / iterations
    return {"iterations": iterations, "nodes": graph.num_nodes,
            "ours_seconds_per_iteration": our_seconds,
            "openspiel_seconds_per_iteration": their_seconds,
            "ours_nash_conv": exploitability.nash_conv(game, tabular(game, keys, ours)),
            "openspiel_nash_conv": pyspiel.nash_conv(game, solver.average_policy())}


def endgames(checkpoints: tuple[int, ...], response_iterations: int) -> dict:
    tick = time.perf_counter()
    dg = B.walk("ambassador", {"1v1": Endgame(2, 2).game()})
    walk_seconds = time.perf_counter() - tick
    solver = CyclicCFR(dg.graph, dg.root_vector("1v1"))
    rows = []
    for n in checkpoints:
        tick = time.perf_counter()
        before = solver.iterations
        solver.run(n)
        per_iteration = (time.perf_counter() - tick) / max(1, n - before)
        strategies = (solver.average_strategy(0), solver.average_strategy(1))
        responses = [keyed_response(dg, "1v1", strategies, seat, response_iterations)
                     for seat in (0, 1)]
        value = float(solver.evaluate(strategies)[dg.roots["1v1"]])
        rows.append({"iterations": n, "seconds_per_iteration": per_iteration,
                     "first_player_win": (1 + value) / 2,
                     "response_values": [r.value_lower for r in responses],
                     "exploitability_lower_bound": exploitability_lower_bound(responses)})
    return {"nodes": dg.graph.num_nodes, "edges": dg.graph.num_edges,
            "information_sets": [len(k) for k in dg.keys], "walk_seconds": walk_seconds,
            "rows": rows}


def deck(name: str, iterations: int) -> dict | None:
    path = B.graph_path(name, "dealt")
    if not path.exists():
        return None
    tick = time.perf_counter()
    dg = B.load_deck_graph(name, path)
    load_seconds = time.perf_counter() - tick
    tick = time.perf_counter()
    solver = CyclicCFR(dg.graph, dg.root_vector("standard"))
    setup_seconds = time.perf_counter() - tick
    solver.run(1)
    tick = time.perf_counter()
    solver.run(1 + iterations)
    per_iteration = (time.perf_counter() - tick) / iterations
    return {"deck": name, "nodes": dg.graph.num_nodes, "edges": dg.graph.num_edges,
            "information_sets": [len(k) for k in dg.keys], "load_seconds": load_seconds,
            "setup_seconds": setup_seconds, "seconds_per_iteration": per_iteration,
            "hours_for_1000_iterations_per_setup": per_iteration * 1000 / 3600}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default=None, help="also time a deck's cached graph")
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    args = results_file.parse_args(parser, argv)
    quick = args.quick
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
           "load_average": os.getloadavg()[0],
           "leduc": leduc(20 if quick else 200),
           "endgames": endgames((10, 30) if quick else (30, 100, 300, 1000),
                                20 if quick else 200)}
    if args.deck:
        out["deck"] = deck(args.deck, 2 if quick else 5)
    lines = ["Coup blueprint: CFR+ on graphs with cycles (analysis/solve/cyclic.py)",
             f"machine: {out['machine']}; load average at the start {out['load_average']:.1f}"
             " (the machine is shared: compare figures of one run with each other)", ""]
    le = out["leduc"]
    lines += [f"Leduc poker ({le['nodes']:,} nodes), {le['iterations']} iterations each:",
              f"  ours (Python + numba, graph form): {le['ours_seconds_per_iteration'] * 1e3:.2f}"
              f" ms an iteration, NashConv {le['ours_nash_conv']:.2e}",
              f"  OpenSpiel C++ CFR+: {le['openspiel_seconds_per_iteration'] * 1e3:.2f} ms an "
              f"iteration, NashConv {le['openspiel_nash_conv']:.2e}", ""]
    eg = out["endgames"]
    lines += [f"1v1 endgames' whole graph: {eg['nodes']:,} positions, {eg['edges']:,} moves, "
              f"{eg['information_sets'][0]:,}/{eg['information_sets'][1]:,} information sets; "
              f"walked in {eg['walk_seconds']:.1f} s"]
    for r in eg["rows"]:
        lines.append(f"  {r['iterations']:>5} iterations: {r['seconds_per_iteration'] * 1e3:.0f} ms"
                     f" an iteration; first player wins {r['first_player_win']:.3f} in self-play;"
                     f" exploitability at least {r['exploitability_lower_bound']:.4f} "
                     "(win probability, keyed best responses)")
    d = out.get("deck")
    if d:
        lines += ["", f"{d['deck']} deck, whole game: {d['nodes']:,} positions, {d['edges']:,} "
                  f"moves, {d['information_sets'][0]:,}/{d['information_sets'][1]:,} information"
                  f" sets; graph loaded in {d['load_seconds']:.0f} s; "
                  f"{d['seconds_per_iteration']:.1f} s an iteration, so 1,000 iterations of one "
                  f"setup take {d['hours_for_1000_iterations_per_setup']:.1f} h"]
    print(*lines, sep="\n")
    if not quick:
        results_file.save(RESULTS, "coup_blueprint", lines, out, seed=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
