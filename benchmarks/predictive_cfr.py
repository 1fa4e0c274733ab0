"""Benchmark: CFR+, DCFR and their predictive forms PCFR+ and PDCFR+ on Leduc poker.

Runs each method for the same number of iterations with :class:`analysis.solve.CFRSolver`
on each engine (the public tree, the engine Leduc gets by default, and the history
engine, the one state graphs use), and records the exploitability of the average
strategy (our exact best response, equal to OpenSpiel's to 1e-9) at iteration marks
1, 3, 10, 30, ... with the solver seconds spent to get there (exploitability checks off
the clock; numba's compile warmed up before). Methods as in ``docs/solve.md``: CFR+
(linear averaging), DCFR (alpha 1.5, beta 0, gamma 2), PCFR+ (quadratic averaging),
PDCFR+ (alpha 2.3, gamma 5). One process, one method at a time.

Run: ``.venv/bin/python benchmarks/predictive_cfr.py [--iterations 30000]
[--engines public history]``; writes ``benchmarks/results/predictive_cfr.{txt,json}``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pyspiel
import results_file
from results_file import machine, save

from analysis.shared.provenance import provenance
from analysis.solve import CFRSolver, compile_game

GAME = "leduc_poker"
METHODS = ("cfr+", "dcfr", "pcfr+", "pdcfr+")
THRESHOLDS = (1e-2, 1e-3, 1e-4)
STEPPED = 3000  # iterations checked one by one for the thresholds


def marks(iterations: int) -> list[int]:
    """1, 3, 10, 30, ... below ``iterations``, then ``iterations``."""
    out, k = [], 1
    while k < iterations:
        out.append(k)
        k = k * 3 if str(k).startswith("1") else k * 10 // 3
    return out + [iterations]


def run(compiled, method: str, engine: str, iterations: int) -> dict:
    """One method's curve: exploitability and solver seconds at each mark (iterations
    run in chunks between the marks), then, in a second, untimed run checked after every
    iteration, the first iteration where each threshold was met (``None``: not within
    ``STEPPED`` iterations)."""
    solver = CFRSolver(compiled, method, engine=engine)
    rows = []
    for mark in marks(iterations):
        solver.iterate(mark - solver.iteration)
        rows.append({"iterations": mark, "seconds": solver.seconds,
                     "exploitability": solver.exploitability().exploitability})
    stepped = CFRSolver(compiled, method, engine=engine)
    first: dict[float, int] = {}
    while stepped.iteration < min(iterations, STEPPED) and len(first) < len(THRESHOLDS):
        stepped.iterate(1)
        e = stepped.exploitability().exploitability
        for threshold in THRESHOLDS:
            if e <= threshold and threshold not in first:
                first[threshold] = stepped.iteration
    return {"method": method, "engine": solver.engine,
            "parameters": solver.method_parameters, "curve": rows,
            "first_iteration_at": {f"{t:g}": first.get(t) for t in THRESHOLDS}}


def table(runs: list[dict], stepped: int) -> list[str]:
    head = f"  {'iterations':>10s}" + "".join(f"  {m:>20s}" for m in METHODS)
    out = [head]
    for k, mark in enumerate(r["iterations"] for r in runs[0]["curve"]):
        cells = "".join(
            f"  {r['curve'][k]['exploitability']:>10.3e} {r['curve'][k]['seconds']:>7.2f} s"
            for r in runs)
        out.append(f"  {mark:>10,}{cells}")
    for t in THRESHOLDS:
        cells = "".join(f"  {_count(r['first_iteration_at'][f'{t:g}'], stepped):>20s}"
                        for r in runs)
        out.append(f"  {'to ' + format(t, 'g'):>10s}{cells}")
    return out


def _count(n, stepped: int) -> str:
    return f"> {stepped:,} it" if n is None else f"{n:,} it"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30_000)
    parser.add_argument("--engines", nargs="+", default=["public", "history"],
                        choices=["public", "history"])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    args = results_file.parse_args(parser, argv)
    load = machine()
    prov = provenance(None)
    compiled = compile_game(pyspiel.load_game(GAME))
    for engine in args.engines:  # warm-up: numba's compiled code for both kinds of update
        for method in ("cfr+", "pcfr+"):
            CFRSolver(compiled, method, engine=engine).iterate(2)
    runs = {engine: [run(compiled, m, engine, args.iterations) for m in METHODS]
            for engine in args.engines}
    text = [f"machine: {load}",
            f"farol {prov['version']}, commit {prov['commit']}",
            f"{GAME}: {compiled.num_nodes:,} nodes, {compiled.num_infosets:,} information "
            f"sets; {args.iterations:,} iterations a method, alternating updates",
            "each cell: exploitability of the average strategy, solver seconds so far "
            "(exploitability checks excluded); 'to E': the first iteration at most E "
            "exploitable (checked after every iteration, up to "
            f"{min(args.iterations, STEPPED):,})"]
    for engine, rows in runs.items():
        text.append(f"engine {engine}:")
        text += table(rows, min(args.iterations, STEPPED))
    print(*text, sep="\n")
    save(args.out, "predictive_cfr", text,
         prov | {"game": GAME, "nodes": compiled.num_nodes, "iterations": args.iterations,
                 "runs": runs, "lines": text})


if __name__ == "__main__":
    main()
