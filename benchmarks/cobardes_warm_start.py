"""Benchmark: a ¡Cobardes! battle variant whose tree is unchanged (other payoffs) solved
from the printed rules' solution (warm start) against a solve from scratch.

The battle: hidden villains on a reduced deck (warriors 0-2, 3 combats, four villains),
small enough for CFR+ on its perfect-recall tree. The printed rules' solve (a Crown worth
3) runs first and is checkpointed; the variant (a Crown worth 2) is then solved by CFR+
cold, and warm from that checkpoint (:meth:`analysis.solve.CFRSolver.warm_start`: the
printed solve's regrets, the average afresh; and the same keeping the printed average),
each until its average strategy's exploitability (exact best response) falls below each
threshold. Iterations and solver seconds (checks off the clock) are recorded.

Run: ``.venv/bin/python benchmarks/cobardes_warm_start.py``; writes
``benchmarks/results/cobardes_warm_start.{txt,json}``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyspiel
from results_file import machine, measure_and_save

import games  # noqa: F401
from analysis.shared.provenance import provenance
from analysis.solve import CFRSolver, compile_game

BATTLE = {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
          "villain_deck": "Thug/Sheep/Executioner/Beggar"}
VARIANT = {"crown_value": 2.0, "crown_loss_value": -2.0}
PRINTED_ITERATIONS = 2000
THRESHOLDS = (1e-2, 1e-3, 1e-4)
MAX_ITERATIONS = 3000


def curve(solver: CFRSolver) -> dict:
    """Iterate one at a time until the last threshold (or the ceiling); the first
    iteration and solver seconds at which each threshold was met."""
    first = {}
    start_seconds = solver.seconds
    done = 0
    while done < MAX_ITERATIONS and len(first) < len(THRESHOLDS):
        solver.iterate(1)
        done += 1
        e = solver.exploitability().exploitability
        for t in THRESHOLDS:
            if e <= t and f"{t:g}" not in first:
                first[f"{t:g}"] = {"iterations": done,
                                   "seconds": round(solver.seconds - start_seconds, 3)}
    return first


def measure() -> dict:
    printed = compile_game(pyspiel.load_game("python_cobardes_battle", BATTLE))
    variant = compile_game(pyspiel.load_game("python_cobardes_battle", BATTLE | VARIANT))
    CFRSolver(printed).iterate(2)  # numba's compile, off the clock
    base = CFRSolver(printed)
    base.iterate(PRINTED_ITERATIONS)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "printed.npz"
        base.save_checkpoint(path)
        runs = {"cold": curve(CFRSolver(variant))}
        warm = CFRSolver(variant)
        warm.warm_start(path)
        runs["warm (regrets)"] = curve(warm)
        kept = CFRSolver(variant)
        kept.warm_start(path, keep_average=True)
        runs["warm (regrets and average)"] = curve(kept)
    return {"machine": machine(), **provenance(None), "battle": BATTLE, "variant": VARIANT,
            "infosets": int(printed.num_infosets), "nodes": int(printed.num_nodes),
            "printed_iterations": PRINTED_ITERATIONS,
            "printed_exploitability": base.exploitability().exploitability,
            "printed_seconds": round(base.seconds, 2), "runs": runs}


def lines(m: dict) -> list[str]:
    out = [f"machine: {m['machine']}", f"farol {m['version']}, commit {m['commit']}",
           f"battle {m['battle']} ({m['nodes']:,} nodes, {m['infosets']:,} information sets); "
           f"variant {m['variant']} (the same tree, other payoffs)",
           f"printed rules: CFR+ {m['printed_iterations']} iterations, exploitability "
           f"{m['printed_exploitability']:.2e}, {m['printed_seconds']} s",
           "variant, CFR+ to each exploitability (iterations, solver seconds):"]
    for name, first in m["runs"].items():
        cells = "  ".join(
            f"{t:g}: " + (f"{first[f'{t:g}']['iterations']} it {first[f'{t:g}']['seconds']:.2f} s"
                          if f"{t:g}" in first else f"not within {MAX_ITERATIONS}")
            for t in THRESHOLDS)
        out.append(f"  {name:28s} {cells}")
    return out


if __name__ == "__main__":
    measure_and_save(__doc__, "cobardes_warm_start", measure, lines)
