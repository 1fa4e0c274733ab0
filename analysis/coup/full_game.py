"""The full 2-player game's first-player advantage: what the engine reaches, with bounds.

The game is ``python_coup`` from the deal (two cards each, the starting player is
seat 0), with the 1-coin rule (``two_player_setup=basic``: the starting player gets
one coin) or both players starting with two (``standard``), Ambassador or Inquisitor.
Player 0's value is the first player's advantage.

For each turn cap the perfect-recall tree's size is estimated (Knuth's probes); where
it fits :data:`NODE_BUDGET` it is compiled and bracketed like the endgames
(:mod:`analysis.coup.brackets`: cap payoff -1 and +1 give rigorous bounds on the
uncapped value). Where it does not fit, the row says so with the estimate, which is
the honest answer. Results go to ``reports/data/coup/full_game.json`` (resumable).

``farol coup full-game`` runs it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pyspiel

from analysis.coup.brackets import SOLVER, bracket_of
from analysis.solve import compile_game
from analysis.solve.cache import atomic_write_text
from analysis.solve.compile import TREE_BYTES_PER_NODE, estimate_tree_nodes

PATH = Path("reports/data/coup/full_game.json")
SETUPS = ("basic", "standard")
DECKS = ("ambassador", "inquisitor")
CAPS = (1, 2, 3, 4, 5, 6, 7)
# Histories compiled at most: ~1.4 GB of arrays, and at the walk's ~10-50k nodes/s up
# to a quarter of an hour of compiling.
NODE_BUDGET = 10_000_000
SOLVE_SECONDS = 600.0


def full_game(setup: str, deck: str, cap: int) -> pyspiel.Game:
    """The 2-player game from the deal, capped at ``cap`` turns (the cap pays 0)."""
    import games  # noqa: F401  (registers python_coup)

    return pyspiel.load_game("python_coup", {"two_player_setup": setup, "deck": deck,
                                             "turn_cap": cap})


def solve_case(setup: str, deck: str, cap: int, budget: int = NODE_BUDGET) -> dict:
    """Size estimate and, where it fits ``budget``, the bracket of one capped full game."""
    game = full_game(setup, deck, cap)
    row = {"setup": setup, "deck": deck, "turn_cap": cap, "solver": SOLVER,
           "estimated_tree_nodes": estimate_tree_nodes(game, probes=400)}
    if row["estimated_tree_nodes"] > budget:
        row["status"] = f"tree over the budget of {budget:.0e} histories"
        return row
    tick = time.perf_counter()
    compiled = compile_game(game, max_memory=int(2 * budget * TREE_BYTES_PER_NODE))
    row["compile_seconds"] = time.perf_counter() - tick
    row["nodes_per_second"] = compiled.num_nodes / row["compile_seconds"]
    row |= bracket_of(compiled, seconds=SOLVE_SECONDS)
    row["status"] = "bracketed"
    return row


def run(path: Path = PATH, setups=SETUPS, decks=DECKS, caps=CAPS,
        budget: int = NODE_BUDGET) -> dict:
    """Every (setup, deck, cap) not yet in ``path`` (over the budget: the estimate only)."""
    path = Path(path)
    try:
        rows = json.loads(path.read_text())
    except (OSError, ValueError):
        rows = {}
    for setup in setups:
        for deck in decks:
            for cap in caps:
                key = f"{setup}|{deck}|{cap}"
                if key not in rows:
                    rows[key] = solve_case(setup, deck, cap, budget)
                    atomic_write_text(path, json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return rows
