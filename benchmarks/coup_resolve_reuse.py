"""Benchmark: the re-solving agent reusing the spots it already solved in the process.

Plays the same 2-player games of ``resolve`` against itself twice, each deal from both
seats as the balance tables play them: first with every spot solved afresh (the
reference), then with the process's store of solved spots
(:data:`analysis.coup.agents.resolve.SOLVED`). Checks that every game's moves are
the same both ways, and prints the CPU time a game took each way, the share of
decisions answered from the store, and the store's size at the end.

Run: ``.venv/bin/python benchmarks/coup_resolve_reuse.py [--games 100] [--deck ambassador]
[--setup basic]``; writes ``benchmarks/results/coup_resolve_reuse.{txt,json}``.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cli import bots  # noqa: F401  (registers the agents)
from analysis.coup.agents import resolve as resolve_agent
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.match import replay
from analysis.shared.provenance import provenance

SEED = 1


def play(params: dict, count: int, spots: resolve_agent.SolvedSpots) -> tuple[list, float]:
    """The move lists of ``count`` games (whole deals, both seats) and their CPU seconds,
    with ``spots`` as the store of solved spots."""
    resolve_agent.SOLVED = spots
    start = time.process_time()
    histories = [replay("python_coup", params, ("resolve", "resolve"), SEED, i,
                        deal=deal_chance)[0].history() for i in range(count)]
    return histories, time.process_time() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games each way (even)")
    parser.add_argument("--deck", default="ambassador")
    parser.add_argument("--setup", default="basic")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    args = results_file.parse_args(parser, argv)
    params = {"players": 2, "deck": args.deck, "two_player_setup": args.setup}
    load = machine()
    prov = provenance(SEED)
    play(params, 2, resolve_agent.SolvedSpots(size=0))  # warm-up: compiled code, caches
    fresh, fresh_s = play(params, args.games, resolve_agent.SolvedSpots(size=0))
    kept = resolve_agent.SolvedSpots()
    reused, reused_s = play(params, args.games, kept)
    same = sum(a == b for a, b in zip(fresh, reused, strict=True))
    share = kept.hits / (kept.hits + kept.misses)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    text = [f"machine: {load}",
            f"farol {prov['version']}, commit {prov['commit']}, seed {SEED}",
            f"resolve against resolve, {args.deck} deck, {args.setup} setup, {args.games} games "
            f"({args.games // 2} deals, each from both seats), the same games both ways",
            f"every spot solved afresh: {fresh_s / args.games:.2f} CPU-s a game",
            f"solved spots reused:      {reused_s / args.games:.2f} CPU-s a game "
            f"({fresh_s / reused_s:.2f}x faster); {100 * share:.0f}% of "
            f"{kept.hits + kept.misses:,} decisions answered from the store",
            f"the same moves in {same} of {args.games} games; store at the end: "
            f"{len(kept):,} spots; process peak memory {peak:.2f} GB"]
    print(*text, sep="\n")
    save(args.out, "coup_resolve_reuse", text,
         prov | {"games": args.games, "deck": args.deck,
                         "setup": args.setup, "fresh_cpu_s": fresh_s, "reused_cpu_s": reused_s,
                         "speedup": fresh_s / reused_s, "hits": kept.hits,
                         "misses": kept.misses, "same_games": same, "spots": len(kept),
                         "peak_gb": peak, "lines": text})
    if same != args.games:
        raise SystemExit("the moves differ with the store: it must not change play")


if __name__ == "__main__":
    main()
