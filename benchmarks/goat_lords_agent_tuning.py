"""Tuning runs of the Goat Lords search agent: one setting of ``lord`` against greedy bots.

Plays ``--games`` games of ``python_goat_lords`` (default rules) with one ``lord`` seat,
given as ``SearchSettings`` fields in JSON, against greedy bots in the other seats, seats
rotating as ``farol goat-lords match`` rotates them (game ``i`` seeded from the seed and
``i``). Prints the agent's win rate with its 95% Wilson interval, its mean point margin
over the best rival at the end, and its milliseconds a move; appends the line to
``benchmarks/results/goat_lords_agent_tuning.txt``.

Run: ``.venv/bin/python benchmarks/goat_lords_agent_tuning.py '{"simulations": 144}' --games 150``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file

import games  # noqa: F401
from analysis.goat_lords.agents import lord as search
from analysis.goat_lords.agents.greedy import greedy_choice
from analysis.play.bots import sample_chance
from analysis.play.match import game_seeds, seating, win_shares
from analysis.statistics.intervals import wilson

RESULTS = Path(__file__).resolve().parent / "results"


def run(settings: search.SearchSettings, games_n: int, players: int, seed: int) -> dict:
    game = pyspiel.load_game("python_goat_lords", {"players": players})
    agents = ("lord",) + ("greedy",) * (players - 1)
    wins, margins, spent, moves = 0.0, [], 0.0, 0
    start = time.time()
    for i in range(games_n):
        seats = seating(agents, i)
        seeds = game_seeds(seed, i, players)
        me = seats.index("lord")
        rng = random.Random(seeds[me + 1])
        chance = np.random.default_rng(seeds[0])
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, chance))
                continue
            p = state.current_player()
            if p == me:
                t0 = time.perf_counter()
                action = search.search(state.table, p, rng, settings)
                spent += time.perf_counter() - t0
                moves += 1
            else:
                action = greedy_choice(state.table, p, state.legal_actions())
            state.apply_action(action)
        wins += win_shares(state.returns())[me]
        totals = state.table.totals
        margins.append(totals[me] - max(totals[q] for q in range(players) if q != me))
    p, lo, hi = wilson(wins, games_n)
    return {"win": p, "lo": lo, "hi": hi, "margin": float(np.mean(margins)),
            "margin_se": float(np.std(margins) / np.sqrt(games_n)),
            "ms_per_move": 1000 * spent / moves, "seconds_per_game": (time.time() - start) / games_n}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("settings", nargs="?", default="{}", help="SearchSettings fields as JSON")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    changes = json.loads(args.settings)
    settings = dataclasses.replace(search.DEFAULT, **changes)
    r = run(settings, args.games, args.players, args.seed)
    line = (f"{changes} vs greedy, {args.players}p, {args.games} games, seed {args.seed}: "
            f"win {100 * r['win']:.1f}% [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}], margin "
            f"{r['margin']:.1f} ± {r['margin_se']:.1f}, {r['ms_per_move']:.1f} ms a move, "
            f"{r['seconds_per_game']:.2f} s a game")
    print(line)
    results_file.append_line(args.out / "goat_lords_agent_tuning.txt", line, seed=args.seed)


if __name__ == "__main__":
    main()
