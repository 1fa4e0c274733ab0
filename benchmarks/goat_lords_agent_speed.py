"""Benchmark: the Goat Lords search agent's time per move, against the greedy bot's.

Two-player games of ``python_goat_lords`` (default rules: rounds to 1,000 points), the
search agent (``lord`` at its default budget, or ``--simulations``) against ``greedy``,
seats alternating. Every decision of both bots is timed in the same run: the agent's
mean over all its moves, over the moves it searched (more than one legal move), its
slowest move, and greedy's mean; then the games' seconds and the projected time of a
1,000-game match on one core.

Run: ``.venv/bin/python benchmarks/goat_lords_agent_speed.py [--games 20] [--seed 1]``;
writes ``benchmarks/results/goat_lords_agent_speed.{txt,json}`` (``--out`` another folder).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file

import games  # noqa: F401
from analysis.goat_lords.agents.greedy import greedy_bot
from analysis.goat_lords.agents.lord import DEFAULT, lord_bot
from analysis.play.bots import sample_chance
from analysis.play.match import game_seeds

RESULTS = Path(__file__).resolve().parent / "results"


def run(games_n: int, seed: int, simulations: int) -> dict:
    game = pyspiel.load_game("python_goat_lords", {"players": 2})
    times = {"lord": [], "lord_searched": [], "greedy": []}
    wins = 0.0
    start = time.perf_counter()
    for i in range(games_n):
        seeds = game_seeds(seed, i, 2)
        lord_seat = i % 2
        bots = {lord_seat: ("lord", lord_bot(game, lord_seat, seeds[1], simulations=simulations)),
                1 - lord_seat: ("greedy", greedy_bot(game, 1 - lord_seat, seeds[2]))}
        rng = np.random.default_rng(seeds[0])
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            name, bot = bots[state.current_player()]
            several = len(state.legal_actions()) > 1
            t0 = time.perf_counter()
            action = bot(state)
            spent = time.perf_counter() - t0
            times[name].append(spent)
            if name == "lord" and several:
                times["lord_searched"].append(spent)
            state.apply_action(action)
        returns = state.returns()
        wins += 1.0 if returns[lord_seat] > returns[1 - lord_seat] else (
            0.5 if returns[0] == returns[1] else 0.0)
    seconds = time.perf_counter() - start
    ms = {k: 1000 * float(np.mean(v)) for k, v in times.items()}
    return {
        "games": games_n, "seed": seed, "simulations": simulations,
        "lord_moves": len(times["lord"]), "lord_searched_moves": len(times["lord_searched"]),
        "greedy_moves": len(times["greedy"]),
        "lord_ms_per_move": ms["lord"], "lord_ms_per_searched_move": ms["lord_searched"],
        "lord_slowest_ms": 1000 * max(times["lord"]), "greedy_ms_per_move": ms["greedy"],
        "seconds_per_game": seconds / games_n, "projected_1000_games_minutes": seconds / games_n * 1000 / 60,
        "lord_wins": wins,
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--simulations", type=int, default=DEFAULT.simulations,
                        help=f"the agent's simulations per move (default {DEFAULT.simulations})")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    r = run(args.games, args.seed, args.simulations)
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}",
        f"python_goat_lords, 2 players, rounds to 1,000 points: {r['games']} games lord "
        f"({r['simulations']} simulations) vs greedy, seats alternating, seed {r['seed']}",
        f"lord: {r['lord_ms_per_move']:.2f} ms a move over {r['lord_moves']:,} moves, "
        f"{r['lord_ms_per_searched_move']:.2f} ms a searched move ({r['lord_searched_moves']:,} "
        f"with a choice), slowest {r['lord_slowest_ms']:.1f} ms",
        f"greedy: {r['greedy_ms_per_move']:.3f} ms a move over {r['greedy_moves']:,} moves "
        f"(lord/greedy {r['lord_ms_per_move'] / r['greedy_ms_per_move']:.0f}x)",
        f"{r['seconds_per_game']:.2f} s a game; 1,000 games on one core: "
        f"{r['projected_1000_games_minutes']:.0f} minutes",
        f"lord won {r['lord_wins']:g} of {r['games']} (a speed sample, not a strength figure)",
    ]
    print("\n".join(lines))
    results_file.save(args.out, "goat_lords_agent_speed", lines, {**r, "lines": lines},
                      seed=args.seed)


if __name__ == "__main__":
    main()
