"""Benchmark: advice at full-battle spots where a villain is hidden, against the solve it
reads, in the same run.

The full Squire vs Archer battle with both villains dealt hidden. The first
``farol advise cobardes --history ... --solve`` in a fresh process solves the battle and
stores it (the reference: what an answer costs without a stored solution); then, at
spots drawn from random games, the whole command in a fresh process reads the stored
solution. Prints the seconds of each (mean, slowest), the solve's peak memory and the
stored file's size, against the aim of 10 s an answer.

Run: ``.venv/bin/python benchmarks/cobardes_hidden_advice.py [--spots 12] [--seed 1]``
(about 10 minutes; the solve goes to a fresh cache folder, removed at the end); writes
``benchmarks/results/cobardes_hidden_advice.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyspiel
import results_file

import games  # noqa: F401
from analysis.cobardes.advice.advise import _hidden_from_a_player
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers.hidden_solution import HiddenSolution, solution_path
from analysis.cobardes.studies.hidden_sweep import load_record, record_path
from analysis.shared import store
from analysis.shared.provenance import provenance
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parents[1]
GAME = "python_cobardes_battle"
PAIRING = ("Squire", "Archer")
AIM = 10.0


def spots(game, count: int, seed: int) -> list:
    """Decisions where a villain is hidden, one from each random game: the last such
    decision of every other game (the most history to weigh), else one at random."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state, hidden = game.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
                continue
            if _hidden_from_a_player(state.position):
                hidden.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        if hidden:
            out.append(hidden[-1] if len(out) % 2 else rng.choice(hidden))
    return out


def command_seconds(params: str, state, solve: bool = False) -> float:
    """Wall seconds of the whole ``farol advise cobardes`` in a new process."""
    argv = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())",
            "advise", "cobardes", "--params", params, "--history", history_text(state),
            "--json", *(["--solve"] if solve else [])]
    tick = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - tick
    if done.returncode != 0:
        raise SystemExit(f"farol advise failed: {done.stderr.strip()}")
    data = json.loads(done.stdout)
    if len(data["actions"]) != len(state.legal_actions()):
        raise SystemExit("the advice does not list every legal move")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = results_file.parse_args(parser, argv)
    with tempfile.TemporaryDirectory(prefix="farol-bench-") as cache:
        os.environ[store.CACHE_ENV] = cache  # the commands below inherit it
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    params = hidden_params(PAIRING)
    game = pyspiel.load_game(GAME, params)
    text_params = ",".join(f"{k}={v}" for k, v in params.items() if v != "")
    chosen = spots(game, args.spots + 1, args.seed)
    path = solution_path(game)
    lines = [f"Advice where a villain is hidden, full {PAIRING[0]} vs {PAIRING[1]} battle "
             "(benchmarks/cobardes_hidden_advice.py)",
             f"machine: {platform.machine()}, {os.cpu_count()} cores; load average at the "
             f"start {os.getloadavg()[0]:.1f}"]
    out: dict = {"pairing": list(PAIRING), "aim_seconds": AIM}
    first = command_seconds(text_params, chosen[0], solve=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    out |= {"solve_seconds": first, "solve_peak_gb": peak}
    lines.append(f"first answer, solving and storing the battle: {first / 60:.1f} min, "
                 f"peak memory {peak:.1f} GB (reference)")
    size = path.stat().st_size / 2**30
    solution = HiddenSolution.load(path)
    record = load_record(record_path(store.data("cobardes", "pairings"), PAIRING, 6, 7))
    if record is not None:
        same = (solution.value, solution.exploitability) == (
            record.value, record.exploitability_lower_bound)
        out["same_as_sweep_record"] = same
        lines.append(f"its value {solution.value:+.6f} and exploitability within the "
                     f"abstraction {solution.exploitability:.4f} "
                     f"{'equal' if same else 'DIFFER FROM'} the stored sweep record's")
    seconds = [command_seconds(text_params, state) for state in chosen[1:]]
    mean, slowest = sum(seconds) / len(seconds), max(seconds)
    out |= {"stored_gb": size, "spots": len(seconds), "mean_seconds": mean,
            "slowest_seconds": slowest, "seconds": seconds,
            "history_lengths": [len(s.history()) for s in chosen[1:]],
            "provenance": provenance(args.seed)}
    lines += [f"stored solution: {size:.1f} GB (read memory-mapped)",
              f"each later answer, the whole command in a fresh process, {len(seconds)} "
              f"spots of random games: mean {mean:.1f} s, slowest {slowest:.1f} s "
              f"(aim: {AIM:.0f} s)"]
    print(*lines, sep="\n")
    results_file.save(RESULTS, "cobardes_hidden_advice", lines, out | {"lines": lines})
    return 0


if __name__ == "__main__":
    sys.exit(main())
