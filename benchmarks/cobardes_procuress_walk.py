"""Benchmark: a Procuress matchup's compile, walking every villain deal apart or sharing the walk.

The Procuress's owner is shown the rival's villain; the rival knows it already, so the
show is a reveal like any other and the deal-lifted walk (:mod:`analysis.solve.lifted`)
applies to her matchups too. Before, they walked every villain deal apart. This compiles
one matchup's trunk both ways, as the sweep compiles it (public subgames solved exactly,
how each battle ends kept), each in a process of its own so that each peak memory is its
own, and checks that the two graphs are the same array for array.

Run: ``.venv/bin/python benchmarks/cobardes_procuress_walk.py [--courtiers Squire,Procuress]
[--warriors 6 --combats 7]``; writes ``benchmarks/results/cobardes_procuress_walk.{txt,json}``.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import results_file
from results_file import machine, save

from analysis.shared.provenance import code_commit, farol_version
from analysis.solve.compiled import ARRAYS

RESULTS = Path(__file__).resolve().parent / "results"


def compile_once(params: dict, shared: bool) -> dict:
    """One compile of the trunk (in a fresh process): its seconds, size, peak memory and a
    digest of its arrays."""
    import pyspiel

    import games  # noqa: F401
    from analysis.cobardes.solvers.fast_outcomes import CLASSES as ENDINGS
    from analysis.cobardes.solvers.trunk import compile_cut

    game = pyspiel.load_game("python_cobardes_battle", params)
    start, cpu = time.perf_counter(), time.process_time()
    cut = compile_cut(game, graph=True, key_names=False, outcomes=True, lifted=shared)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    compiled = cut.compiled
    digest = hashlib.sha256()
    for name in ARRAYS:
        digest.update(getattr(compiled, name).tobytes())
    # How each terminal ends (its public subgames are numbered as the walk met them, so
    # the chances are compared terminal by terminal).
    for k in range(ENDINGS):
        digest.update(cut.outcomes.column(k).tobytes())
    return {"walk": "shared between villain deals" if shared else "every villain deal apart",
            "seconds": seconds, "cpu_seconds": cpu, "walked": int(compiled.walked),
            "nodes": int(compiled.num_nodes), "infosets": int(compiled.num_infosets),
            "exact_seconds": cut.exact_seconds, "digest": digest.hexdigest(),
            "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--courtiers", default="Squire,Procuress", help="player 0's,player 1's")
    parser.add_argument("--warriors", type=int, default=6, help="smaller armies: a trial run")
    parser.add_argument("--combats", type=int, default=7)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    c0, c1 = args.courtiers.split(",")
    if "Procuress" not in (c0, c1):
        parser.error("one of the two courtiers must be the Procuress")
    params = {"kinds": "all", "courtier0": c0, "courtier1": c1}
    if (args.warriors, args.combats) != (6, 7):
        params.update(warriors=args.warriors, combats=args.combats)
    lines = [f"machine: {machine()}",
             f"farol {farol_version()}, commit {code_commit()}",
             f"battle: warriors 0-{args.warriors}, {args.combats} combats, {c0} vs {c1}, both "
             "villains dealt at random from all 9; the trunk compiled as the sweep compiles it "
             "(public subgames solved exactly, how each battle ends kept), each walk in a "
             "process of its own"]
    print(*lines, sep="\n", flush=True)
    runs = []
    context = multiprocessing.get_context("spawn")
    for shared in (False, True):
        with ProcessPoolExecutor(1, mp_context=context) as pool:
            run = pool.submit(compile_once, params, shared).result()
        runs.append(run)
        line = (f"{run['walk']:<30} {run['seconds']:7.0f} s ({run['cpu_seconds']:.0f} s of CPU, "
                f"{run['exact_seconds']:.0f} s of it in the public subgames), "
                f"{run['walked']:>12,} positions walked for {run['nodes']:,} nodes, "
                f"peak memory {run['peak_gb']:.1f} GB")
        print(line, flush=True)
        lines.append(line)
    same = runs[0]["digest"] == runs[1]["digest"]
    lines.append("the same graph, array for array: " + ("yes" if same else "NO"))
    lines.append(f"sharing the walk: {runs[0]['seconds'] / runs[1]['seconds']:.2f}x faster, "
                 f"{runs[0]['walked'] / runs[1]['walked']:.2f}x fewer positions walked")
    print(*lines[-2:], sep="\n")
    save(args.out, "cobardes_procuress_walk", lines,
         {"params": params, "runs": runs, "same_graph": same, "commit": code_commit(),
          "version": farol_version(), "lines": lines}, seed=None)
    if not same:
        raise SystemExit("the two walks gave different graphs")


if __name__ == "__main__":
    main()
