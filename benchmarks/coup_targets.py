"""Benchmark: Coup from the deal as a user meets it, timed against the panel's honest
agent in the same run.

1. Loading a deck's blueprint (the first move of `--opponent blueprint`, the first
   advice).
2. 1,000 two-player games between blueprint agents (2 worker processes), beside 1,000
   games between honest agents.
3. Advice at decisions of blueprint games (`farol advise coup --history`): seconds per
   spot, the slowest included.
4. A 6-player game of the strongest agent (`best`) in every seat, beside the honest
   agent's.
5. Which is `best` at 2 players: the blueprint against `search`, seats rotated, with
   95% intervals.

Run: ``.venv/bin/python benchmarks/coup_targets.py [--deck ambassador] [--games 1000]``;
writes ``benchmarks/results/coup_targets.{txt,json}``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import results_file

import games  # noqa: F401
from analysis.cli.bots import build
from analysis.coup.advice.blueprint import ROLLOUTS, advise_spot, sample_spots
from analysis.coup.solvers.blueprint import load_blueprint
from analysis.play.match import play_match

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"


def timed(fn):
    tick = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - tick


def match_seconds(agent: str, players: int, count: int, params: dict, workers: int) -> float:
    _, seconds = timed(lambda: play_match(GAME, (agent,) * players, count, 1, params,
                                          workers=workers, build=build))
    return seconds


def advice_seconds(bp, deck: str, spots: int, seed: int) -> list[float]:
    """Seconds to advise ``spots`` decisions drawn from blueprint games (basic setup, the default)."""
    return [timed(lambda s=state: advise_spot(s, bp, ROLLOUTS))[1]
            for state in sample_spots(bp, "basic", spots, seed)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="ambassador")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spots", type=int, default=20)
    parser.add_argument("--duel-games", type=int, default=400)
    args = results_file.parse_args(parser, argv)
    params = {"players": 2, "deck": args.deck}
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
           "load_average": os.getloadavg()[0], "deck": args.deck, "games": args.games}
    bp, out["blueprint_load_seconds"] = timed(lambda: load_blueprint(args.deck))
    out["blueprint_games_seconds"] = match_seconds("blueprint", 2, args.games, params, 2)
    out["honest_games_seconds"] = match_seconds("honest", 2, args.games, params, 2)
    spots = advice_seconds(bp, args.deck, args.spots, 7)
    out["advice_seconds"] = {"mean": float(np.mean(spots)), "max": float(np.max(spots)),
                             "spots": len(spots), "rollouts": ROLLOUTS}
    six = {"players": 6, "deck": args.deck}
    try:
        out["best_6p_game_seconds"] = match_seconds("best", 6, 3, six, 1) / 3
    except Exception as exc:  # noqa: BLE001  (no strong agent registered: say so)
        out["best_6p_game_seconds"] = None
        out["best_missing"] = str(exc)
    out["honest_6p_game_seconds"] = match_seconds("honest", 6, 30, six, 1) / 30
    duel = play_match(GAME, ("blueprint", "search"), args.duel_games, 3, params, workers=2,
                      build=build)
    mine = duel.totals()[0]
    out["blueprint_vs_search"] = {"games": mine.games, "win_rate": mine.win_rate,
                                  "ci95": list(mine.ci95)}
    a = out["advice_seconds"]
    lines = ["Coup from the deal, timed as a user meets it (benchmarks/coup_targets.py)",
             f"machine: {out['machine']}; load average at the start {out['load_average']:.1f}",
             "", f"{args.deck} blueprint loaded in {out['blueprint_load_seconds']:.1f} s",
             f"{args.games} two-player games, 2 processes: blueprint agents "
             f"{out['blueprint_games_seconds']:.0f} s (aim: 300 s at most); honest agents "
             f"{out['honest_games_seconds']:.0f} s",
             f"advice at {a['spots']} decisions of blueprint games ({a['rollouts']} games per "
             f"move): mean {a['mean']:.1f} s, slowest {a['max']:.1f} s (aim: 10 s at most)"]
    if out["best_6p_game_seconds"] is None:
        lines.append(f"6-player game of best: not timed ({out['best_missing']})")
    else:
        lines.append(f"6-player game, best in every seat: {out['best_6p_game_seconds']:.1f} s "
                     "(aim: 60 s at most)")
    lines.append(f"6-player game, honest in every seat: {out['honest_6p_game_seconds']:.2f} s")
    d = out["blueprint_vs_search"]
    lines.append(f"2 players, blueprint against search ({d['games']} games, seats rotated): the "
                 f"blueprint wins {100 * d['win_rate']:.1f}% [{100 * d['ci95'][0]:.1f}, "
                 f"{100 * d['ci95'][1]:.1f}]")
    print(*lines, sep="\n")
    # Fixed seeds: the timed matches 1, the advice spots 7, the blueprint-search duel 3.
    results_file.save(RESULTS, "coup_targets", lines, out,
                      seed={"matches": 1, "spots": 7, "duel": 3})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
