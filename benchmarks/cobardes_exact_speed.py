"""Benchmark: the numba exact solver alone, microseconds a position; and its phase machine.

Squire vs Archer with the Thug and the Sheep named, warriors 0-6, 7 combats: the value
of the first position by :class:`analysis.cobardes.fast_exact.FastExactSolver` (a fresh
memo each repeat; numba's compile or cache load happens before the clock). Then the
machine alone, inside numba: the moves of 300 random battles (Procuress vs Archer, Thug
vs Sheep) replayed by ``packed.apply_packed``, nanoseconds a move; ``--against FILE``
times another version's ``packed.py`` in turn in the same process. The script imports
only what every version of the solver has, so it also times two checkouts in turn
(``PYTHONPATH`` set to each). On a shared machine, only figures taken in turn compare.

Run: ``.venv/bin/python benchmarks/cobardes_exact_speed.py [--repeats 3] [--label NAME]
[--against OLD/packed.py]``;
prints its figures (nothing is written).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from pathlib import Path

import numpy as np
from numba import njit

from analysis.cobardes.fast_exact import FastExactSolver
from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.options import make_rules
from games.cobardes.tables import effect_tables

PARAMS = {"kinds": "all", "courtier0": "Squire", "courtier1": "Archer",
          "villain0": "Thug", "villain1": "Sheep"}


def replayer(machine):
    """A numba loop replaying move lists with ``machine.apply_packed`` (a packed module)."""
    @njit
    def replay(cfgv, root, moves, starts, tables, rounds):
        check = 0
        for _ in range(rounds):
            for g in range(starts.shape[0] - 1):
                s = root
                for i in range(starts[g], starts[g + 1]):
                    s = machine.apply_packed(cfgv, s, moves[i], tables)
                check += s[machine.OKIND]
        return check
    return replay


def machine_ns(machines: dict, repeats: int, games: int = 300, rounds: int = 10,
               seed: int = 3) -> dict:
    """Nanoseconds a move of each packed module's ``apply_packed`` replaying the same
    random battles in numba, the modules timed in turn: ``{name: (best, median)}``."""
    rules = make_rules({"kinds": "all", "courtier0": "Procuress", "courtier1": "Archer",
                        "villain0": "Thug", "villain1": "Sheep"})
    cfg = rules.cfg
    rng = random.Random(seed)
    moves, starts = [], [0]
    for _ in range(games):
        pos = rules.initial
        while pos.outcome is None:
            legal = ([a for a, _ in E.chance_outcomes(cfg, pos)] if pos.actor == E.CHANCE
                     else E.legal_actions(cfg, pos))
            moves.append(rng.choice(legal))
            pos = E.apply(cfg, pos, moves[-1])
        starts.append(len(moves))
    args = (P.config_vector(cfg), P.pack(rules.initial), np.array(moves, np.int64),
            np.array(starts, np.int64), effect_tables(cfg))
    loops = {name: replayer(m) for name, m in machines.items()}
    times = {name: [] for name in loops}
    for loop in loops.values():
        loop(*args, 1)  # compile
    names = list(loops)
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            loops[name](*args, rounds)
            times[name].append((time.perf_counter() - start) / (rounds * len(moves)) * 1e9)
    return {name: (min(t), sorted(t)[len(t) // 2]) for name, t in times.items()}


def load_module(path: Path, name: str):
    """Another version of :mod:`games.cobardes.packed`, loaded from a file."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="best of this many solves")
    parser.add_argument("--label", default="", help="a name printed with the figure")
    parser.add_argument("--against", type=Path, default=None,
                        help="another version's packed.py: its machine is timed in turn")
    parser.add_argument("--machine-repeats", type=int, default=12,
                        help="timings of each machine")
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
    machines = {"this": P}
    if args.against:
        machines["against"] = load_module(args.against, "packed_against")
    for name, (low, median) in machine_ns(machines, args.machine_repeats).items():
        print(f"{args.label} phase machine ({name}): best {low:.0f} ns a move, median "
              f"{median:.0f}")


if __name__ == "__main__":
    main()
