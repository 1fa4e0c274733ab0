"""Benchmark: how long ``farol advise coup --history`` takes at mid-game spots of 2-player
Coup, against the exact capped endgame solve it replaced as the default.

Spots: ``--games`` games of ``best`` against itself (ambassador deck, basic setup,
seeded), one decision drawn from the second half of each. Each spot is asked as a user
asks it: ``farol advise coup --history ... --json`` in a fresh process (Python's start and
imports included), the wall time taken. Beside it, in the same run, the reference: the
exact capped endgame solve (``--exact``, the default before) at up to ``--exact`` of the
spots where it answers and a player has one face-down card left (a turn's start, two cards
against one first), each in a fresh process with an empty cache. Aim: every spot in 5 s.

Run: ``.venv/bin/python benchmarks/coup_advice_speed.py [--games 20] [--exact 2]``; writes
``benchmarks/results/coup_advice_speed.{txt,json}``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import pyspiel
import results_file
from results_file import decisions_played, machine, run_farol, save

import games  # noqa: F401
from analysis.coup.agents.resolve import ResolveAgent
from analysis.shared.provenance import provenance
from games.coup import engine as E
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "coup_advice_speed"
AIM = 5.0


def spots(count: int, seed: int) -> list[pyspiel.State]:
    """One decision from the second half of each of ``count`` self-play games of best."""
    game = pyspiel.load_game("python_coup", {})
    rng = random.Random(seed)
    out = []
    for g in range(count):
        agents = [ResolveAgent(game, 0, seed=seed + 2 * g), ResolveAgent(game, 1, seed + 2 * g + 1)]
        decisions = decisions_played(game, agents, rng)
        out.append(rng.choice(decisions[len(decisions) // 2:]))
    return out


def timed(args: list[str], cache: str) -> tuple[float, int, str]:
    """Wall seconds, exit status and last stderr line of ``farol advise coup ARGS``."""
    done = run_farol(["advise", "coup", *args], cache)
    return done.seconds, done.status, done.last_error


def cards_left(state: pyspiel.State) -> tuple[int, ...] | None:
    """The face-down cards of each player at a turn's start where a player has one left
    and the exact solve answers (None elsewhere)."""
    core = state.core
    cards = tuple(sorted((len(h) for h in core.hands), reverse=True))
    if state.is_chance_node() or core.queue[0][0] != E.S_ACTION or cards[-1] != 1:
        return None
    return cards


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--exact", type=int, default=2,
                        help="spots also solved exactly, the reference (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    header = machine()
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        for state in spots(args.games, args.seed):
            history = history_text(state)
            seconds, status, err = timed(["--history", history, "--json"], cache)
            rows.append({"history": history, "moves": len(state.history()),
                         "seconds": seconds, "status": status, "error": err,
                         "cards": cards_left(state)})
            print(f"{seconds:5.2f} s, {len(state.history())} moves, exit {status}", flush=True)
        exact = []
        chosen = sorted((r for r in rows if r["cards"]), key=lambda r: -sum(r["cards"]))
        for row in chosen[:args.exact]:
            with tempfile.TemporaryDirectory() as empty:
                seconds, status, err = timed(["--history", row["history"], "--exact"], empty)
            exact.append({"history": row["history"], "seconds": seconds, "status": status,
                          "best_seconds": row["seconds"], "error": err,
                          "cards": row["cards"]})
            print(f"exact: {seconds:.0f} s (best {row['seconds']:.2f} s)", flush=True)
    times = sorted(r["seconds"] for r in rows)
    ok = [r for r in rows if r["status"] == 0]
    p = provenance(args.seed)
    lines = [f"machine: {header}", f"farol {p['version']}, commit {p['commit']}, seed {args.seed}",
             f"spots: one decision from the second half of each of {args.games} games of best "
             "against itself (ambassador deck, basic setup); each asked as farol advise coup "
             "--history ... in a fresh process (start and imports included)",
             f"best's advice: {len(ok)} of {len(rows)} spots answered; median "
             f"{times[len(times) // 2]:.1f} s, slowest {times[-1]:.1f} s; within {AIM:.0f} s: "
             f"{sum(t <= AIM for t in times)} of {len(times)}"]
    for e in exact:
        cards = " against ".join(str(c) for c in e["cards"])
        lines.append(f"reference, the exact capped endgame solve (--exact, the default before) "
                     f"at a turn's start with {cards} face-down cards: {e['seconds']:.0f} s "
                     f"(exit {e['status']}); best's advice there {e['best_seconds']:.1f} s")
    if not exact:
        lines.append("reference: no sampled spot had a player with one face-down card at a "
                     "turn's start")
    print(*lines, sep="\n")
    save(args.out, STEM, lines, {"rows": rows, "exact": exact, "provenance": p,
                                 "machine": header, "lines": lines})


if __name__ == "__main__":
    main()
