"""Benchmark: how fast each CFR method solves a full ¡Cobardes! matchup, and where it floors.

Each matchup's trunk (warriors 0-6, 7 combats, both villains dealt hidden from all nine,
public subgames exact) is compiled once by the compiled walk; then CFR+, Discounted CFR
(alpha 1.5, beta 0, gamma 2), Predictive CFR+ and Predictive Discounted CFR+ each run to
``--iterations`` from scratch, with the average strategy's exploitability within the
abstraction measured at log-spaced iterations (its seconds are not counted as solving).
Seconds are the process's CPU seconds (it runs on one core), which other work on the
machine inflates far less than wall-clock time.
The key forgets the order of past moves, so no method is guaranteed to converge: the
curves say whether and where each floors. Printed and saved: each curve, the lowest
exploitability each method reached and when, and a chart (exploitability against
solving seconds, one panel a matchup).

Resumable: a curve already in the results file is kept (``--redo`` runs it again).
Run: ``.venv/bin/python benchmarks/cobardes_solve_curves.py [--matchups A/B,...]
[--methods cfr+,dcfr,pcfr+,pdcfr+] [--iterations 1000]``; writes
``benchmarks/results/cobardes_solve_curves.{txt,json,png}``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.shared.provenance import provenance
from analysis.solve import CFRSolver

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "cobardes_solve_curves"
MATCHUPS = ("Squire/Archer", "Wolf/Maiden", "Procuress/Sentinel")
METHODS = ("cfr+", "dcfr", "pcfr+", "pdcfr+")


def checkpoints(last: int) -> list[int]:
    """Iterations at which the exploitability is measured: about 4 a decade, and ``last``."""
    marks = {int(round(x)) for x in np.geomspace(5, last, 4 * int(np.log10(last / 5)) + 1)}
    return sorted(m for m in marks | {last} if 1 <= m <= last)


def curve(compiled, method: str, last: int) -> dict:
    """One method's run from scratch: exploitability at each checkpoint, solving seconds."""
    solver = CFRSolver(compiled, method)
    points = []
    cpu = 0.0
    for mark in checkpoints(last):
        tick = time.process_time()
        solver.iterate(mark - solver.iteration)
        cpu += time.process_time() - tick
        report = solver.exploitability()
        points.append({"iterations": solver.iteration, "seconds": cpu,
                       "wall_seconds": solver.seconds,
                       "exploitability": report.exploitability, "value": report.value})
        print(f"  {method} {solver.iteration} iterations, {cpu:.0f} CPU s: "
              f"{report.exploitability:.4f}", flush=True)
    return {"method": method, "parameters": solver.method_parameters, "points": points}


def lines_of(record: dict) -> list[str]:
    out = [f"machine: {record['machine']}",
           f"farol {record['provenance']['version']}, commit {record['provenance']['commit']}",
           "battle: warriors 0-6, 7 combats, both villains dealt hidden from all nine; public "
           "subgames exact, CFR on the trunk's state graph; exploitability of the average "
           "strategy within the abstraction (a lower bound on the true one), in battle points"]
    for name, m in record["matchups"].items():
        out.append(f"{name}: {m['nodes']:,} nodes, {m['infosets']:,} information sets, "
                   f"compiled in {m['compile_seconds']:.0f} s "
                   f"({m.get('compile_cpu_seconds', m['compile_seconds']):.0f} CPU s)")
        for c in m["curves"].values():
            pts = c["points"]
            best = min(pts, key=lambda p: p["exploitability"])
            marks = ", ".join(f"{p['iterations']}: {p['exploitability']:.4f}" for p in pts)
            out.append(f"  {c['method']}: lowest {best['exploitability']:.4f} at "
                       f"{best['iterations']} iterations ({best['seconds']:.0f} CPU s); last "
                       f"{pts[-1]['exploitability']:.4f} at {pts[-1]['iterations']} "
                       f"({pts[-1]['seconds']:.0f} CPU s); {marks}")
    return out


def chart(record: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(record["matchups"])
    fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4), squeeze=False)
    for ax, name in zip(axes[0], names, strict=True):
        for c in record["matchups"][name]["curves"].values():
            pts = c["points"]
            ax.plot([p["seconds"] for p in pts], [p["exploitability"] for p in pts],
                    marker="o", ms=3, label=c["method"])
        ax.set_yscale("log")
        ax.set_xlabel("solving CPU seconds (one core)")
        ax.set_title(name.replace("/", " vs "))
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("exploitability within the abstraction")
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matchups", default=",".join(MATCHUPS))
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--redo", action="store_true", help="run stored curves again")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    path = args.out / f"{STEM}.json"
    record = json.loads(path.read_text()) if path.exists() else {"matchups": {}}
    record.update(machine=machine(), provenance=provenance(None))
    for name in args.matchups.split(","):
        pairing = tuple(name.split("/"))
        stored = record["matchups"].setdefault(name, {"curves": {}})
        todo = [m for m in args.methods.split(",")
                if args.redo or len(stored["curves"].get(m, {}).get("points", [])) == 0
                or stored["curves"][m]["points"][-1]["iterations"] < args.iterations]
        if not todo:
            continue
        game = pyspiel.load_game("python_cobardes_battle", hidden_params(pairing))
        start, cpu = time.perf_counter(), time.process_time()
        cut = compile_cut(game, key_names=False)
        compiled = cut.compiled
        stored.update(nodes=compiled.num_nodes, infosets=compiled.num_infosets,
                      compile_seconds=time.perf_counter() - start,
                      compile_cpu_seconds=time.process_time() - cpu)
        print(f"{name}: compiled in {stored['compile_seconds']:.0f} s", flush=True)
        for method in todo:
            stored["curves"][method] = curve(compiled, method, args.iterations)
            text = lines_of(record)
            save(args.out, STEM, text, record | {"lines": text})
        del compiled, cut
    text = lines_of(record)
    print(*text, sep="\n")
    save(args.out, STEM, text, record | {"lines": text})
    chart(record, args.out / f"{STEM}.png")


if __name__ == "__main__":
    main()
