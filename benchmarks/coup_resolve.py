"""Benchmark: re-solving 2-player Coup spots from the blueprint, against the blueprint's
rollout advice in the same run.

At decisions drawn from blueprint self-play games (each setup with stored values),
times `farol advise coup --history`'s answer two ways: the depth-limited re-solve
(what advice uses once the values are stored) and the blueprint's mix valued by
rollouts (what it used before). Prints per setup the seconds (mean, slowest), the
depth reached, the size of the small game and its exploitability, and the first
advice's extra seconds to load the blueprint and read the graph's edges and values
(a session's first answer pays both once). Then, for the first ``--cold`` spots of each
setup, the whole command in a fresh process: Python starting, imports, the blueprint
opened, the re-solve (the files themselves in the system's file cache).

Run: ``.venv/bin/python benchmarks/coup_resolve.py [--spots 10] [--cold 3]``; writes
``benchmarks/results/coup_resolve.{txt,json}``.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import results_file

import games  # noqa: F401
from analysis.coup.advice.blueprint import ROLLOUTS, advise_spot, sample_spots
from analysis.coup.solvers.blueprint import load_blueprint
from analysis.coup.solvers.blueprint_resolve import value_graph_for
from analysis.shared.provenance import provenance
from games.coup.cards import DECKS, SETUPS
from games.errors import InvalidParameterError
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"


def cold_seconds(state) -> float:
    """Wall seconds of ``farol advise coup`` at ``state`` in a new process."""
    params = state.get_game().get_parameters()
    argv = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())",
            "advise", "coup", "--params",
            ",".join(f"{k}={params[k]}" for k in ("players", "deck", "two_player_setup")),
            "--history", history_text(state)]
    tick = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=Path(__file__).resolve().parents[1])
    return time.perf_counter() - tick


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cold", type=int, default=3,
                        help="spots per setup also timed as a fresh farol advise coup")
    args = results_file.parse_args(parser, argv)
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
           "load_average": os.getloadavg()[0], "rollouts": ROLLOUTS,
           "provenance": provenance(args.seed), "setups": []}
    lines = ["Re-solving 2-player Coup spots from the blueprint (benchmarks/coup_resolve.py)",
             f"machine: {out['machine']}; load average at the start {out['load_average']:.1f}",
             f"{args.spots} decisions of blueprint games per setup; reference: the "
             f"blueprint's mix valued by {ROLLOUTS} rollouts per move", ""]
    for deck in DECKS:
        tick = time.perf_counter()
        try:
            bp = load_blueprint(deck)
        except InvalidParameterError:
            continue
        loaded = time.perf_counter() - tick
        out.setdefault("blueprint_load_seconds", {})[deck] = loaded
        lines.append(f"{deck} blueprint (every setup built) loaded in {loaded:.1f} s")
        for setup in SETUPS:
            if setup not in bp.setups:
                continue
            tick = time.perf_counter()
            vg = value_graph_for(bp, setup)  # read once per process, by a session's first advice
            first = time.perf_counter() - tick
            if vg is None:
                continue
            rows, cold = [], []
            for i, state in enumerate(sample_spots(bp, setup, args.spots, args.seed)):
                if i < args.cold:
                    cold.append(cold_seconds(state))
                tick = time.perf_counter()
                advice = advise_spot(state, bp)
                resolve_s = time.perf_counter() - tick
                tick = time.perf_counter()
                advise_spot(state, bp, ROLLOUTS, resolve=False)
                rollout_s = time.perf_counter() - tick
                r = advice.resolve or {}
                rows.append({"moves": len(state.history()), "resolve_seconds": resolve_s,
                             "rollout_seconds": rollout_s, "depth": r.get("depth"),
                             "nodes": r.get("nodes"), "worlds": r.get("worlds"),
                             "exploitability": r.get("exploitability")})
            solved = [x for x in rows if x["depth"] is not None]
            entry = {"deck": deck, "setup": setup, "first_read_seconds": first, "spots": rows,
                     "cold_command_seconds": cold}
            out["setups"].append(entry)
            sec = [x["resolve_seconds"] for x in rows]
            ref = [x["rollout_seconds"] for x in rows]
            depths = [x["depth"] for x in solved]
            lines.append(
                f"{deck} {setup}: re-solve mean {np.mean(sec):.1f} s, slowest {max(sec):.1f} s "
                f"(aim: 10 s at most); rollouts mean {np.mean(ref):.1f} s, slowest "
                f"{max(ref):.1f} s; first read of edges and values {first:.1f} s")
            if solved:
                lines.append(
                    f"  re-solved {len(solved)} of {len(rows)} spots: depth {min(depths)}-"
                    f"{max(depths)} decisions, {int(np.median([x['nodes'] for x in solved])):,} "
                    f"positions (median), {int(np.median([x['worlds'] for x in solved]))} worlds "
                    "(median); exploitability inside the small game at most "
                    f"{max(x['exploitability'] for x in solved):.4f} in win probability")
            if cold:
                lines.append(f"  the whole command in a fresh process, {len(cold)} spots: mean "
                             f"{np.mean(cold):.1f} s, slowest {max(cold):.1f} s (aim: 10 s)")
    print(*lines, sep="\n")
    results_file.save(RESULTS, "coup_resolve", lines, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
