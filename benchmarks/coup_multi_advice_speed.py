"""Benchmark: how long ``farol advise coup`` takes at random spots of 3, 4 and 6 player
Coup, and how wide its intervals are.

Spots: for each table, ``--spots`` games of ``best`` (at 3-6 players the fast search
agent) against itself, seeded, one decision with two or more legal moves drawn at random
from each. Each spot is asked as a user asks it, ``farol advise coup --param players=N
--history ... --json``, in a fresh process (Python's start and imports included); the
wall and processor seconds, and the widest half-interval of a move that is not tied with
the best. Beside them, in the same run: the 2-player advice at the opening (the same
command at 2 players), and the first 4-player advice after a fresh clone, whose compiled
roll-outs are built once (numba's cache in an empty folder). Aim: every spot within
10 s, and each move's interval within 3 points either way unless it is a tie.

Run: ``.venv/bin/python benchmarks/coup_multi_advice_speed.py [--spots 6] [--seed 1]``;
writes ``benchmarks/results/coup_multi_advice_speed.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
from pathlib import Path

import pyspiel
import results_file
from results_file import decisions_played, machine, run_farol, save

import games  # noqa: F401
from analysis.coup.agents.fast import fast_bot
from analysis.shared.provenance import provenance
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "coup_multi_advice_speed"
AIM, HALF = 10.0, 0.03
OPENING = "Draw Duke;Draw Contessa;Draw Captain;Draw Assassin"


def spots(players: int, count: int, seed: int) -> list[pyspiel.State]:
    """One decision drawn at random from each of ``count`` self-play games of best."""
    game = pyspiel.load_game("python_coup", {"players": players})
    rng = random.Random(seed * 100 + players)
    out = []
    for g in range(count):
        agents = [fast_bot(game, p, seed * 1000 + 10 * g + p) for p in range(players)]
        decisions = decisions_played(game, agents, rng)
        out.append(rng.choice(decisions))
    return out


def ask(players: int, history: str, cache: str) -> dict:
    done = run_farol(["advise", "coup", "--param", f"players={players}", "--history", history,
                      "--json"], cache)
    row = {"seconds": done.seconds, "cpu_seconds": done.cpu_seconds, "status": done.status,
           "error": done.last_error}
    if done.status == 0 and players > 2:
        advice = json.loads(done.stdout)
        open_moves = [m for m in advice["moves"] if not m["tie_with_best"]] or advice["moves"]
        row |= {"moves": len(advice["moves"]), "step": advice["step"],
                "ties": len(advice["best_moves"]),
                "widest_half": max((m["ci95"][1] - m["ci95"][0]) / 2 for m in open_moves)}
    return row


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = results_file.parse_args(parser, argv)
    cache = tempfile.mkdtemp(prefix="farol-multi-advice-")
    record = {"machine": machine(), "provenance": provenance(seed=args.seed), "tables": {}}
    lines = [f"machine: {record['machine']}", f"seed {args.seed}, {args.spots} spots a table, "
             "each a fresh process"]
    reference = ask(2, OPENING, cache)
    record["two_players_opening"] = reference
    lines.append(f"reference, 2 players at the opening: {reference['seconds']:.1f} s wall, "
                 f"{reference['cpu_seconds']:.1f} s processor")
    for players in (3, 4, 6):
        rows = []
        for state in spots(players, args.spots, args.seed):
            rows.append(ask(players, history_text(state), cache) | {"moves_played": len(state.history())})
        ok = [r for r in rows if r["status"] == 0]
        secs = [r["seconds"] for r in ok]
        record["tables"][players] = rows
        lines.append(
            f"{players} players: {len(ok)}/{len(rows)} answered; wall median {statistics.median(secs):.1f} s, "
            f"slowest {max(secs):.1f} s ({sum(s <= AIM for s in secs)} within {AIM:.0f} s); "
            f"processor median {statistics.median(r['cpu_seconds'] for r in ok):.1f} s; widest "
            f"half-interval of a move not tied with the best {100 * max(r['widest_half'] for r in ok):.1f} "
            f"points ({sum(r['widest_half'] <= HALF for r in ok)} of {len(ok)} spots within "
            f"{100 * HALF:.0f})")
        for r in rows:
            lines.append(f"  {r.get('step', '?'):22s} {r.get('moves', 0):2d} moves "
                         f"{r['seconds']:5.1f} s wall {r['cpu_seconds']:5.1f} s cpu, "
                         f"{r.get('ties', 0)} tied best, widest +-{100 * r.get('widest_half', 0):.1f}"
                         + ("" if r["status"] == 0 else f"  FAILED: {r['error']}"))
    fresh = tempfile.mkdtemp(prefix="farol-numba-")
    os.environ["NUMBA_CACHE_DIR"] = fresh
    state = spots(4, 1, args.seed + 1)[0]
    first = ask(4, history_text(state), cache)
    second = ask(4, history_text(state), cache)
    del os.environ["NUMBA_CACHE_DIR"]
    record["fresh_clone"] = {"first": first, "second": second}
    lines.append(f"fresh clone, 4 players: the first advice {first['seconds']:.1f} s wall "
                 f"({first['cpu_seconds']:.1f} s processor, compiling the roll-outs once), the "
                 f"same spot again {second['seconds']:.1f} s ({second['cpu_seconds']:.1f} s)")
    print(*lines, sep="\n")
    save(RESULTS, STEM, lines, record | {"lines": lines})


if __name__ == "__main__":
    main()
