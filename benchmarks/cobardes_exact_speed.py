"""Benchmark: the numba exact solver alone, microseconds a position.

Squire vs Archer with the Thug and the Sheep named, warriors 0-6, 7 combats: the value
of the first position by :class:`analysis.cobardes.fast_exact.FastExactSolver` (a fresh
memo each repeat; numba's compile or cache load happens before the clock). It imports
only what every version of the solver has, so the same script times two checkouts in
turn (``PYTHONPATH`` set to each): that is how a change to the phase machine is measured
on a shared machine.

Run: ``.venv/bin/python benchmarks/cobardes_exact_speed.py [--repeats 3] [--label NAME]``;
prints one line (nothing is written).
"""

from __future__ import annotations

import argparse
import time

from analysis.cobardes.fast_exact import FastExactSolver
from games.cobardes.options import make_rules

PARAMS = {"kinds": "all", "courtier0": "Squire", "courtier1": "Archer",
          "villain0": "Thug", "villain1": "Sheep"}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="best of this many solves")
    parser.add_argument("--label", default="", help="a name printed with the figure")
    args = parser.parse_args(argv)
    small = make_rules(dict(PARAMS, combats=1))
    FastExactSolver(small.cfg, small.pay).value(small.initial)  # compile or load the cache
    rules = make_rules(PARAMS)
    best = None
    for _ in range(args.repeats):
        solver = FastExactSolver(rules.cfg, rules.pay)
        start = time.perf_counter()
        value = solver.value(rules.initial)
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
    print(f"{args.label} value {value!r}, {solver.solved:,} positions, best {best:.3f} s: "
          f"{best / solver.solved * 1e6:.3f} us a position")


if __name__ == "__main__":
    main()
