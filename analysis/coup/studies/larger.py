"""Larger Coup endgames (2v1, 1v2, 2v2 influence): sizes, exact solves and the abstraction's loss.

Where the perfect-recall tree fits it is solved exactly and the state-keyed abstraction's
strategy measured in it (:func:`run`); :func:`run_markov` brackets the uncapped values of
the 2v1 and 1v2 cases with the cap priced by Markov guarantees. Resumable row files
(:func:`rows_path`, :func:`markov_path`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from analysis.coup.guarantees import guarantees_from, uncapped_roots
from analysis.coup.model import BracketFields, data_dir, read_typed_rows
from analysis.coup.solvers.brackets import SOLVER, markov_game_bracket, markov_summary
from analysis.shared.store import read_rows, write_rows
from analysis.solve import CFRSolver, compile_game, exploitability
from analysis.solve.compile import GRAPH_BYTES_PER_NODE, TREE_BYTES_PER_NODE, estimate_tree_nodes
from analysis.solve.errors import GameTooLargeError
from analysis.solve.result import SolveResult
from games.coup import cards as C
from games.coup import endgame_game

# Histories compiled at most for a Markov bracket (~2 GB of arrays).
MARKOV_NODE_BUDGET = 15_000_000
NODE_BUDGET = 1_500_000
TARGET = 1e-3
GRAPH_NODE_BUDGET = 1_000_000
GRAPH_SECONDS = 120.0
MAX_ITERATIONS = 20_000

# (label, position): 2v1 = the mover has two face-down cards, the other one.
CASES = (
    ("2v1", "?+?/-/1;?/contessa/1;move:0"),
    ("1v2", "?/contessa/1;?+?/-/1;move:0"),
    ("2v1", "?+?/-/3;?/contessa/3;move:0"),
    ("1v2", "?/contessa/3;?+?/-/3;move:0"),
    ("2v2 (1-coin rule)", "?+?/-/1;?+?/-/2;move:0"),
    ("2v2 (2 coins each)", "?+?/-/2;?+?/-/2;move:0"),
)
# The decks in the order the study runs and reports them: the inquisitor deck first.
DECKS = C.DECKS[::-1]
CAPS = (1, 2, 3)


def rows_path() -> Path:
    """Where the larger endgames' rows live (the cap scoring 0)."""
    return data_dir("larger.json")


def markov_path() -> Path:
    """Where the rows of the 2v1 and 1v2 brackets priced by Markov guarantees live."""
    return data_dir("larger_markov.json")


@dataclass(frozen=True)
class LargerRow(BracketFields):
    """One case, deck and cap: the size estimate, the exact tree solve and the state-keyed
    abstraction's where they fit (:func:`solve_case`); or, priced by Markov guarantees
    (:func:`solve_markov_case`), the guarantees at the deal and the bracket (its fields:
    :class:`~analysis.coup.model.BracketFields`)."""

    case: str | None = None
    position: str | None = None
    deck: str | None = None
    turn_cap: int | None = None
    estimated_tree_nodes: float | None = None
    tree_compile_seconds: float | None = None
    tree_nodes: int | None = None
    tree_infosets: int | None = None
    tree_iterations: int | None = None
    tree_solve_seconds: float | None = None
    tree_exploitability: float | None = None
    tree_value: float | None = None
    graph_compile_seconds: float | None = None
    graph_nodes: int | None = None
    graph_infosets: int | None = None
    graph_iterations: int | None = None
    graph_solve_seconds: float | None = None
    graph_exploitability_in_abstraction: float | None = None
    graph_value: float | None = None
    imperfect_recall: bool | None = None
    abstraction_loss: float | None = None
    status: str | None = None
    solver: str | None = None
    cap_payoffs: str | None = None
    markov: dict | None = None
    root_bracket: list | None = None
    budget: int | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)


def load_rows(path: Path | None = None) -> dict[str, LargerRow]:
    """The rows on disk (default :func:`rows_path`); raises ``OSError``/``ValueError``
    when the file is missing or unreadable."""
    return read_typed_rows(LargerRow, rows_path() if path is None else path)


def load_markov_rows(path: Path | None = None) -> dict[str, LargerRow]:
    """The Markov-priced rows on disk (default :func:`markov_path`; ``{}`` when missing;
    a damaged file is refused naming it)."""
    return {k: LargerRow.from_json(r)
            for k, r in read_rows(markov_path() if path is None else path).items()}


def abstraction_loss(game, graph_result_strategy, graph_compiled, tree_compiled) -> float:
    """Exploitability, in the perfect-recall game, of a graph-mode (abstract) strategy."""
    stub = SolveResult(game=str(game), parameters={}, method="cfr+", iterations=0, seconds=0.0,
                       exploitability=0.0, value=0.0, nash_conv=0.0, best_response=(0.0, 0.0),
                       mode="graph", abstraction=True, compiled_game=str(game),
                       infoset_keys=list(graph_compiled.infoset_keys),
                       infoset_player=graph_compiled.infoset_player,
                       infoset_offset=graph_compiled.infoset_offset,
                       infoset_actions=graph_compiled.infoset_actions,
                       strategy=graph_result_strategy)
    tabular = stub.to_tabular_policy(game)
    strategy = np.empty(tree_compiled.num_actions)
    for i, key in enumerate(tree_compiled.infoset_keys):
        lo, hi = tree_compiled.infoset_offset[i], tree_compiled.infoset_offset[i + 1]
        row = tabular.action_probability_array[tabular.state_lookup[key]]
        strategy[lo:hi] = row[tree_compiled.infoset_actions[lo:hi]]
    return exploitability(tree_compiled, strategy).exploitability


def solve_case(label: str, position: str, deck: str, cap: int) -> dict:
    """Size estimate, exact tree solve and abstraction solve (where they fit) of one case."""
    game = endgame_game(position, deck=deck, turn_cap=cap)
    row = {"case": label, "position": position, "deck": deck, "turn_cap": cap,
           "estimated_tree_nodes": estimate_tree_nodes(game, probes=300)}
    if row["estimated_tree_nodes"] > NODE_BUDGET:
        return row | graph_only(game)
    tick = time.perf_counter()
    tree = compile_game(game)
    row["tree_compile_seconds"] = time.perf_counter() - tick
    solver = CFRSolver(tree, "cfr+")
    report = solver.run(target_exploitability=TARGET, iterations=MAX_ITERATIONS, progress=False)
    row |= {"tree_nodes": tree.num_nodes, "tree_infosets": tree.num_infosets,
            "tree_iterations": solver.iteration, "tree_solve_seconds": solver.seconds,
            "tree_exploitability": report.exploitability, "tree_value": report.value}
    tick = time.perf_counter()
    graph = compile_game(game, graph=True)
    row["graph_compile_seconds"] = time.perf_counter() - tick
    gsolver = CFRSolver(graph, "cfr+")
    greport = gsolver.run(target_exploitability=TARGET, iterations=MAX_ITERATIONS,
                          progress=False)
    row |= {"graph_nodes": graph.num_nodes, "graph_infosets": graph.num_infosets,
            "graph_iterations": gsolver.iteration, "graph_solve_seconds": gsolver.seconds,
            "graph_exploitability_in_abstraction": greport.exploitability,
            "graph_value": greport.value, "imperfect_recall": graph.imperfect_recall}
    row["abstraction_loss"] = abstraction_loss(game, gsolver.average_strategy(), graph, tree)
    row["status"] = "solved"
    return row


def graph_only(game) -> dict:
    """The state-keyed abstraction alone (the tree does not fit): size, time, and the
    exploitability measured within the abstraction (its loss in the full game is unknown)."""
    tick = time.perf_counter()
    try:
        graph = compile_game(game, graph=True, max_memory=GRAPH_NODE_BUDGET * GRAPH_BYTES_PER_NODE)
    except GameTooLargeError:
        return {"status": "over the budget in both modes"}
    row = {"graph_compile_seconds": time.perf_counter() - tick, "graph_nodes": graph.num_nodes,
           "graph_infosets": graph.num_infosets, "imperfect_recall": graph.imperfect_recall}
    gsolver = CFRSolver(graph, "cfr+")
    greport = gsolver.run(target_exploitability=TARGET, iterations=MAX_ITERATIONS,
                          seconds=GRAPH_SECONDS, progress=False)
    return row | {"graph_iterations": gsolver.iteration, "graph_solve_seconds": gsolver.seconds,
                  "graph_exploitability_in_abstraction": greport.exploitability,
                  "graph_value": greport.value,
                  "status": "tree over the budget; abstraction only"}


def run(path: Path | None = None, cases=CASES, decks=DECKS, caps=CAPS) -> dict:
    """Every case, deck and cap not yet in ``path`` (default :func:`rows_path`), the caps
    of a case in order until neither mode fits."""
    path = rows_path() if path is None else path
    rows = read_rows(path)
    for deck in decks:
        for label, position in cases:
            for cap in caps:
                key = f"{deck}|{position}|{cap}"
                if key in rows:
                    continue
                rows[key] = solve_case(label, position, deck, cap)
                write_rows(path, rows)
                if rows[key]["status"] == "over the budget in both modes":
                    break  # larger caps are larger still
    return rows


def markov_cases() -> tuple[tuple[str, str], ...]:
    """The cases with a player down to one card (2v2 is the full game's deal:
    :func:`analysis.coup.studies.full_game.run_markov` covers it)."""
    return tuple(c for c in CASES if not c[0].startswith("2v2"))


@lru_cache(maxsize=1)
def larger_guarantees(deck: str):
    """The Markov guarantees on the position graph of every :func:`markov_cases` deal."""
    games = [endgame_game(position, deck=deck, turn_cap=1) for _, position in markov_cases()]
    config, roots = uncapped_roots(games)
    return guarantees_from(config, roots, deck)


def solve_markov_case(label: str, position: str, deck: str, cap: int,
                      budget: int = MARKOV_NODE_BUDGET) -> dict:
    """The bracket of one case's uncapped value with the cap priced by the guarantees
    (the guarantees at the deal alone where the tree passes ``budget``)."""
    game = endgame_game(position, deck=deck, turn_cap=cap)
    g = larger_guarantees(deck)
    summary = markov_summary(game, g) | {"edges": g.graph.num_edges}
    w0, w1 = summary["root_guarantee"]
    row = {"case": label, "position": position, "deck": deck, "turn_cap": cap,
           "solver": SOLVER, "cap_payoffs": "markov", "markov": summary,
           "root_bracket": [w0, 1 - w1]}
    try:
        row |= markov_game_bracket(game, g, int(budget * TREE_BYTES_PER_NODE))
    except GameTooLargeError:
        row |= {"status": f"tree over the budget of {budget:z.1e} histories",
                "budget": budget}
        return row
    row["status"] = "bracketed"
    return row


def run_markov(path: Path | None = None, decks=DECKS, caps=CAPS,
               budget: int = MARKOV_NODE_BUDGET) -> dict:
    """:func:`solve_markov_case` for every 2v1/1v2 case, deck and cap not yet in ``path``
    (or found over a smaller budget than ``budget`` there; default :func:`markov_path`)."""
    path = markov_path() if path is None else path
    rows = read_rows(path)
    for deck in decks:
        for label, position in markov_cases():
            for cap in caps:
                key = f"{deck}|{position}|{cap}"
                old = rows.get(key)
                if old is not None and (old["status"] == "bracketed"
                                        or old.get("budget", MARKOV_NODE_BUDGET) >= budget):
                    continue
                rows[key] = solve_markov_case(label, position, deck, cap, budget)
                write_rows(path, rows)
                if rows[key]["status"] != "bracketed":
                    break  # larger caps are larger still
        larger_guarantees.cache_clear()  # one deck's graph in memory at a time
    return rows

