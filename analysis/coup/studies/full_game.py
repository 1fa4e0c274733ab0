"""The full 2-player game from the deal: sizes and brackets of the first player's advantage.

For each setup, deck and turn cap the perfect-recall tree's size is estimated; where it
fits the budget it is compiled and bracketed like the endgames (:func:`run`), and
:func:`run_markov` prices the cap with the whole game's Markov guarantees, which bound
the first player's win probability at the deal already. Resumable row files
(:func:`rows_path`, :func:`markov_path`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from analysis.coup.guarantees import guarantees_from, uncapped_roots
from analysis.coup.model import BracketFields, data_dir, full_game, read_typed_rows
from analysis.coup.solvers.brackets import SOLVER, bracket_of, markov_game_bracket, markov_summary
from analysis.shared.store import read_rows, write_rows
from analysis.solve import compile_game
from analysis.solve.compile import TREE_BYTES_PER_NODE, estimate_tree_nodes
from analysis.solve.errors import GameTooLargeError
from games.coup import cards as C

MARKOV_CAPS = (1, 2)
# The whole game's graph (~10^7 positions) is ~100x an endgame's, and an opponent who
# stalls in loops makes value iteration crawl: fewer improvement rounds (they gain
# little after the first few) and a sweep limit (stopping early only lowers W).
FULL_GAME_ROUNDS = 6
FULL_GAME_SWEEPS = 300
CAPS = (1, 2, 3, 4, 5, 6, 7)
# Histories compiled at most: ~1.4 GB of arrays, and at the walk's ~10-50k nodes/s up
# to a quarter of an hour of compiling.
NODE_BUDGET = 10_000_000
SOLVE_SECONDS = 600.0


def rows_path() -> Path:
    """Where the capped full games' rows live (the cap scoring 0)."""
    return data_dir("full_game.json")


def markov_path() -> Path:
    """Where the rows of the full games with the cap priced by Markov guarantees live."""
    return data_dir("full_game_markov.json")


@dataclass(frozen=True)
class FullGameRow(BracketFields):
    """One (setup, deck, cap) of the full game: the size estimate and, where the tree
    fits, the bracket (:func:`solve_case`); or, priced by Markov guarantees
    (:func:`solve_markov_case`), the guarantees at the deal and the bracket (its fields:
    :class:`~analysis.coup.model.BracketFields`)."""

    setup: str | None = None
    deck: str | None = None
    turn_cap: int | None = None
    solver: str | None = None
    cap_payoffs: str | None = None
    markov: dict | None = None
    root_bracket: list | None = None
    estimated_tree_nodes: float | None = None
    status: str | None = None
    refused: str | None = None
    nodes_per_second: float | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)


def load_rows(path: Path | None = None) -> dict[str, FullGameRow]:
    """The rows on disk by ``setup|deck|cap`` (default :func:`rows_path`); raises
    ``OSError``/``ValueError`` when the file is missing or unreadable."""
    return read_typed_rows(FullGameRow, rows_path() if path is None else path)


def load_markov_rows(path: Path | None = None) -> dict[str, FullGameRow]:
    """The Markov-priced rows on disk (default :func:`markov_path`; ``{}`` when missing;
    a damaged file is refused naming it)."""
    return {k: FullGameRow.from_json(r)
            for k, r in read_rows(markov_path() if path is None else path).items()}


def solve_case(setup: str, deck: str, cap: int, budget: int = NODE_BUDGET) -> dict:
    """Size estimate and, where it fits ``budget``, the bracket of one capped full game."""
    game = full_game(setup, deck, cap)
    row = {"setup": setup, "deck": deck, "turn_cap": cap, "solver": SOLVER,
           "estimated_tree_nodes": estimate_tree_nodes(game, probes=400)}
    if row["estimated_tree_nodes"] > budget:
        row["status"] = f"tree over the budget of {budget:z.0e} histories"
        return row
    tick = time.perf_counter()
    compiled = compile_game(game, max_memory=int(2 * budget * TREE_BYTES_PER_NODE))
    row["compile_seconds"] = time.perf_counter() - tick
    row["nodes_per_second"] = compiled.num_nodes / row["compile_seconds"]
    row |= bracket_of(compiled, seconds=SOLVE_SECONDS)
    row["status"] = "bracketed"
    return row


def run(path: Path | None = None, setups=C.DEALT_SETUPS, decks=C.DECKS, caps=CAPS,
        budget: int = NODE_BUDGET) -> dict:
    """Every (setup, deck, cap) not yet in ``path`` (default :func:`rows_path`; over the
    budget: the estimate only)."""
    path = rows_path() if path is None else path
    rows = read_rows(path)
    for setup in setups:
        for deck in decks:
            for cap in caps:
                key = f"{setup}|{deck}|{cap}"
                if key not in rows:
                    rows[key] = solve_case(setup, deck, cap, budget)
                    write_rows(path, rows)
    return rows


@lru_cache(maxsize=1)
def full_game_guarantees(deck: str, progress: bool = False):
    """The Markov guarantees of the whole 2-player game with ``deck``: one position graph
    from the deals of both setups (they differ only in the first player's coins)."""
    config, roots = uncapped_roots([full_game(setup, deck, 1) for setup in C.DEALT_SETUPS])
    return guarantees_from(config, roots, deck, rounds=FULL_GAME_ROUNDS, progress=progress,
                           max_sweeps=FULL_GAME_SWEEPS)


def solve_markov_case(setup: str, deck: str, cap: int, budget: int = NODE_BUDGET,
                      progress: bool = False) -> dict:
    """The first player's guarantees at the deal and, where the tree fits ``budget``, the
    bracket of the capped game whose cap pays the Markov guarantees."""
    game = full_game(setup, deck, cap)
    g = full_game_guarantees(deck, progress)
    summary = markov_summary(game, g) | {"edges": g.graph.num_edges,
                                         "max_sweeps": FULL_GAME_SWEEPS}
    w0, w1 = summary["root_guarantee"]
    row = {"setup": setup, "deck": deck, "turn_cap": cap, "solver": SOLVER,
           "cap_payoffs": "markov", "markov": summary, "root_bracket": [w0, 1 - w1]}
    try:
        row |= markov_game_bracket(game, g, int(2 * budget * TREE_BYTES_PER_NODE),
                                   SOLVE_SECONDS)
    except GameTooLargeError as exc:
        row |= {"status": f"tree over the budget of {budget:z.0e} histories",
                "refused": str(exc)}
        return row
    row["nodes_per_second"] = row["nodes"] / row["compile_seconds"]
    row["status"] = "bracketed"
    return row


def run_markov(path: Path | None = None, setups=C.DEALT_SETUPS, decks=C.DECKS, caps=MARKOV_CAPS,
               budget: int = NODE_BUDGET, progress: bool = False) -> dict:
    """:func:`solve_markov_case` for every (setup, deck, cap) not yet in ``path`` (default
    :func:`markov_path`)."""
    path = markov_path() if path is None else path
    rows = read_rows(path)
    for deck in decks:
        for setup in setups:
            for cap in caps:
                key = f"{setup}|{deck}|{cap}"
                if key not in rows:
                    rows[key] = solve_markov_case(setup, deck, cap, budget, progress)
                    write_rows(path, rows)
        full_game_guarantees.cache_clear()  # one deck's graph in memory at a time
    return rows
