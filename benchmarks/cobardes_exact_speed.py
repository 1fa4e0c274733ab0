"""Benchmark: the numba exact solver alone, microseconds a position; and its phase machine.

Squire vs Archer with the Thug and the Sheep named, warriors 0-6, 7 combats: the value
of the first position by :class:`analysis.cobardes.solvers.fast_exact.FastExactSolver` (a fresh
memo each repeat; numba's compile or cache load happens before the clock). Then the
machine alone, inside numba: the moves of 300 random battles (Procuress vs Archer, Thug
vs Sheep) replayed by ``packed.apply_packed``, nanoseconds a move. ``--against DIR``
loads another checkout's ``packed.py`` and ``fast_exact.py`` beside these and times both
in turn in the same process: on a shared machine only figures taken in turn compare.

Then both exact solvers, the Python :class:`analysis.cobardes.solvers.exact.ExactSolver` and the
compiled one, on the same smaller battle (``--compare-combats``, default 3 combats of
the same pairing), microseconds a position each, timed in turn: the figure the solver
docs quote, written to ``benchmarks/results/cobardes_exact_speed.txt`` (and ``.json``)
unless ``--against`` or ``--label`` is given (a comparison of checkouts is printed only).

Run: ``.venv/bin/python benchmarks/cobardes_exact_speed.py [--repeats 3] [--label NAME]
[--against OLD_CHECKOUT]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import types
from pathlib import Path

import numpy as np
import results_file
from numba import njit

from analysis.cobardes.model import payoff_values
from analysis.cobardes.solvers import fast_exact
from analysis.cobardes.solvers.exact import ExactSolver
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


def load_module(path: Path, name: str, source: str | None = None):
    """A module from a file (or from ``source``), registered as ``name`` so that numba's
    cache can find it again."""
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    exec(compile(source if source is not None else path.read_text(), str(path), "exec"),
         module.__dict__)
    return module


def load_checkout(root: Path) -> tuple:
    """Another checkout's phase machine and exact solver, side by side with these: its
    ``packed.py`` as ``packed_against`` and its ``fast_exact.py`` importing that one."""
    packed = load_module(root / "games/cobardes/packed.py", "packed_against")
    solver = root / "analysis/cobardes/solvers/fast_exact.py"
    source = solver.read_text().replace("from games.cobardes.packed import",
                                        "from packed_against import")
    return packed, load_module(solver, "fast_exact_against", source)


def solve_us(solvers: dict, repeats: int) -> dict:
    """Microseconds a position of each solver module's ``FastExactSolver`` on PARAMS,
    the solvers timed in turn: ``{name: (best, median, value, positions)}``."""
    small = make_rules(dict(PARAMS, combats=1))
    rules = make_rules(PARAMS)
    for module in solvers.values():  # compile or load numba's cache
        module.FastExactSolver(small.cfg, small.pay).value(small.initial)
    times = {name: [] for name in solvers}
    names = list(solvers)
    for r in range(repeats):
        for name in names if r % 2 == 0 else names[::-1]:
            solver = solvers[name].FastExactSolver(rules.cfg, rules.pay)
            start = time.perf_counter()
            value = solver.value(rules.initial)
            seconds = time.perf_counter() - start
            times[name].append((seconds / solver.solved * 1e6, value, solver.solved))
    out = {}
    for name, runs in times.items():
        us = sorted(t for t, _, _ in runs)
        out[name] = (us[0], us[len(us) // 2], runs[0][1], runs[0][2])
    return out


RESULTS = Path(__file__).resolve().parent / "results"


def both_solvers_us(combats: int, repeats: int) -> dict:
    """Microseconds a position of the Python and the compiled exact solver on PARAMS with
    ``combats`` combats, timed in turn (a fresh memo each repeat; the compiled one's
    compile happens first, off the clock): ``{name: (best, median, value, positions)}``."""
    rules = make_rules(dict(PARAMS, combats=combats))
    fast_exact.FastExactSolver(rules.cfg, rules.pay).value(rules.initial)
    makers = {"python": lambda: ExactSolver(rules.cfg, payoff_values(rules.pay), record=False,
                                            combat_memo=True),
              "compiled": lambda: fast_exact.FastExactSolver(rules.cfg, rules.pay)}
    times = {name: [] for name in makers}
    for r in range(repeats):
        for name in makers if r % 2 == 0 else list(makers)[::-1]:
            solver = makers[name]()
            start = time.perf_counter()
            value = solver.value(rules.initial)
            seconds = time.perf_counter() - start
            times[name].append((seconds / solver.solved * 1e6, value, solver.solved))
    return {name: (min(t for t, _, _ in runs), sorted(t for t, _, _ in runs)[len(runs) // 2],
                   runs[0][1], runs[0][2]) for name, runs in times.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=4, help="solves of each solver")
    parser.add_argument("--label", default="", help="a name printed with the figure")
    parser.add_argument("--against", type=Path, default=None,
                        help="another checkout (a folder holding games/ and analysis/): its "
                             "solver and machine are timed in turn with these")
    parser.add_argument("--machine-repeats", type=int, default=12,
                        help="timings of each machine")
    parser.add_argument("--compare-combats", type=int, default=3,
                        help="combats of the battle both exact solvers solve (default 3)")
    args = results_file.parse_args(parser, argv)
    solvers, machines = {"this": fast_exact}, {"this": P}
    if args.against:
        machines["against"], solvers["against"] = load_checkout(args.against)
    for name, (low, median, value, positions) in solve_us(solvers, args.repeats).items():
        print(f"{args.label} exact solver ({name}): value {value!r}, {positions:,} positions, "
              f"best {low:.3f} us a position, median {median:.3f}")
    for name, (low, median) in machine_ns(machines, args.machine_repeats).items():
        print(f"{args.label} phase machine ({name}): best {low:.0f} ns a move, median "
              f"{median:.0f}")
    if args.against or args.label:
        return
    both = both_solvers_us(args.compare_combats, args.repeats)
    (py, _, py_value, py_n), (co, _, co_value, co_n) = both["python"], both["compiled"]
    lines = [f"machine: {results_file.machine()}",
             f"{PARAMS['courtier0']} vs {PARAMS['courtier1']}, {PARAMS['villain0']} and "
             f"{PARAMS['villain1']} named, {args.compare_combats} combats: the same value "
             f"({py_value!r} and {co_value!r}) and positions ({py_n:,} and {co_n:,})",
             f"exact solver, best of {args.repeats}, microseconds a position: Python "
             f"{py:.1f}, compiled {co:.2f}; {py / co:.0f} times faster"]
    print(*lines, sep="\n")
    results_file.save(RESULTS, "cobardes_exact_speed", lines,
                      {"params": PARAMS, "combats": args.compare_combats,
                       "repeats": args.repeats,
                       "us": {name: {"best": b, "median": m, "value": v, "positions": n}
                              for name, (b, m, v, n) in both.items()},
                       "speedup": py / co, "lines": lines}, seed=None)


if __name__ == "__main__":
    main()
