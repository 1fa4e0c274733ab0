"""Benchmark: the time of the sweep of courtier matchups with both villains hidden.

Reads the stored matchup records (``farol cobardes sweep --kind hidden``), each of which
carries its own compile and solve seconds, and projects the whole sweep of 100 matchups:
on 2 local processes, and on Dask clusters of N workers (one matchup a worker at a time;
a matchup's peak memory is the full battle's, see ``cobardes_full_battle.txt``). Then the
rates a matchup of the median size needs to take 3 minutes, beside the rates measured:
the compile's positions a second and CFR+'s position-iterations a second.

Run: ``.venv/bin/python benchmarks/cobardes_hidden_sweep.py [--note TEXT]``; writes
``benchmarks/results/cobardes_hidden_sweep.txt``.
"""

from __future__ import annotations

import argparse
import math
import statistics
from pathlib import Path

import results_file

from analysis.cobardes.studies.hidden_sweep import complete, hidden_matchups, load_hidden

RESULTS = Path(__file__).resolve().parent / "results"


TARGET = 180.0  # seconds a matchup is wanted to take on one core


def rates(records) -> list[str]:
    """The compile and CFR rates measured (median over the matchups, fastest) and what
    a matchup of the median size needs to take :data:`TARGET` seconds, if each of the
    two took half of it."""
    compile_rate = [r.nodes / r.compile_seconds for r in records]
    cfr_rate = [r.nodes * r.iterations / r.solve_seconds for r in records]
    nodes = statistics.median(r.nodes for r in records)
    iterations = statistics.median(r.iterations for r in records)
    need_compile = nodes / (TARGET / 2)
    need_cfr = nodes * iterations / (TARGET / 2)
    return [
        f"median matchup: {nodes:,.0f} positions; compile {statistics.median(compile_rate):,.0f} "
        f"positions a second (fastest {max(compile_rate):,.0f}), CFR "
        f"{statistics.median(cfr_rate):.2e} position-iterations a second (fastest "
        f"{max(cfr_rate):.2e})",
        f"for {TARGET / 60:.0f} minutes a matchup at that size, half each: compile "
        f"{need_compile:,.0f} positions a second ({need_compile / max(compile_rate):.1f}x the "
        f"fastest measured), CFR {need_cfr:.2e} position-iterations a second "
        f"({need_cfr / max(cfr_rate):.1f}x the fastest measured)",
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--note", default="", help="how the machine was loaded during the sweep")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    records = load_hidden()
    total = len(hidden_matchups())
    lines = [f"hidden-villain matchups stored: {len(records)} of {total}",
             f"of them, saying how the battle ends after each deal (what the war with "
             f"villains is composed from): "
             f"{sum(r.outcomes is not None for r in records.values())}",
             f"of them, saying also which courtiers were played (what keeping or renewing "
             f"between battles is composed from): {sum(map(complete, records.values()))}"]
    if args.note:
        lines.append(f"conditions: {args.note}")
    if records:
        seconds = [r.compile_seconds + r.solve_seconds for r in records.values()]
        median = statistics.median(seconds)
        methods = sorted({r.method for r in records.values()})
        its = [r.iterations for r in records.values()]
        lines.append(f"seconds a matchup (compile + {', '.join(methods)} to the floor, "
                     f"{min(its)}-{max(its)} iterations kept): median {median:.0f}, min "
                     f"{min(seconds):.0f}, max "
                     f"{max(seconds):.0f}")
        procuress = [r for p, r in records.items() if "Procuress" in p]
        others = [r.compile_seconds + r.solve_seconds for p, r in records.items()
                  if "Procuress" not in p]
        if procuress and others:
            # Records without the walk's size predate it, and her matchups then walked
            # every villain deal apart (cobardes_procuress_walk.txt compares the two walks).
            apart = sum(r.walked is None for r in procuress)
            when = (f" ({apart} of them solved when her matchups walked every villain deal "
                    "apart)" if apart else "")
            median = statistics.median(r.compile_seconds + r.solve_seconds for r in procuress)
            lines.append(f"with the Procuress: {len(procuress)} stored, median {median:.0f} s"
                         f"{when}; without her: {len(others)} stored, median "
                         f"{statistics.median(others):.0f} s")
        done = sum(seconds)
        left = (total - len(records)) * median
        for workers in (1, 2, 4, 8, 16):
            rounds = math.ceil(total / workers)
            hours = max((done + left) / workers, rounds * min(seconds)) / 3600
            where = {1: "local process", 2: "local processes"}.get(workers, "Dask workers")
            lines.append(f"projected time for all {total} on {workers} {where}: {hours:.1f} h"
                         " (solved ones at their own time, the rest at the median)")
        lines += rates(list(records.values()))
    print(*lines, sep="\n")
    results_file.write_text(args.out / "cobardes_hidden_sweep.txt", lines, seed=None)


if __name__ == "__main__":
    main()
