"""Hidden-villain battles solved on their trunk: what cutting the public subgames costs.

The trunk (:mod:`analysis.cobardes.solvers.trunk`) is the battle with its public subgames solved
exactly and cut off. Its state-keyed abstraction refines the whole graph's, so its loss
is measured on reduced decks (:func:`cut_loss`), and on a reduced army the value of each
hidden villain deal is read from the trunk's exact solution
(:func:`hidden_villain_values_exact`).
"""

from __future__ import annotations

from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.cobardes.solvers.villains import AbstractionLoss, deal_values, measure_loss
from analysis.shared import store
from analysis.solve import CFRSolver

GAME = "python_cobardes_battle"

# Decks on which the trunk's loss is measured: the whole graph's reduced decks
# (:data:`analysis.cobardes.solvers.villains.REDUCED_DECKS`) and larger ones whose whole
# perfect-recall tree is out of reach but whose trunk's tree fits (all nine villains).
LARGER_DECKS = (
    ("warriors 0-3, 3 combats, all 9 villains",
     {"kinds": "warriors+villains", "warriors": 3, "combats": 3}),
    ("warriors 0-3, 3 combats, Squire vs Archer, all 9 villains",
     {"kinds": "all", "warriors": 3, "combats": 3, "courtier0": "Squire",
      "courtier1": "Archer"}),
    ("warriors 0-3, 4 combats, Squire vs Archer, all 9 villains",
     {"kinds": "all", "warriors": 3, "combats": 4, "courtier0": "Squire",
      "courtier1": "Archer"}),
)


def cut_loss_path() -> Path:
    """Where the trunk's abstraction-loss measurements are stored."""
    return store.data("cobardes", "cut_loss.json")


def hidden_villains_path() -> Path:
    """Where the value of each hidden villain deal (:func:`hidden_villain_values_exact`)
    is stored."""
    return store.data("cobardes", "hidden_villains.json")


def cut_loss(label: str, params: dict, iterations: int = 2000) -> AbstractionLoss:
    """Solve the trunk of ``params`` on its perfect-recall tree and on its state graph
    (public subgames exact in both, CFR+ with the same iterations) and measure the graph
    strategy's true exploitability in the tree: the loss of the state-keyed trunk."""
    game = pyspiel.load_game(GAME, params)
    exact = FastExactSolver(game.rules.cfg, game.rules.pay)
    return measure_loss(
        label, lambda: compile_cut(game, graph=False, abstract_keys=True, exact=exact).compiled,
        lambda: compile_cut(game, graph=True, exact=exact).compiled, iterations)


def hidden_villain_values_exact(label: str, params: dict, iterations: int = 2000,
                                progress: bool = False) -> dict:
    """The value of each hidden villain deal, from the battle's exact solution.

    The trunk's perfect-recall tree (public subgames exact at its leaves) is solved by
    CFR+; its exploitability is the whole solution's true exploitability. Returns the
    record the report reads: ``label``, ``table`` (player 0's villain -> player 1's ->
    value), ``provenance``, ``value``, ``iterations``, ``exploitability``, ``nodes``.
    """
    game = pyspiel.load_game(GAME, params)
    cut = compile_cut(game, graph=False, progress=progress)
    solver = CFRSolver(cut.compiled, "cfr+")
    report = solver.run(iterations=iterations, progress=progress)
    tree = cut.compiled
    provenance = (f"CFR+ on the perfect-recall tree of the trunk ({tree.num_nodes:,} nodes, "
                  f"{tree.num_infosets:,} information sets), public subgames solved exactly "
                  f"({cut.exact_positions:,} positions), {solver.iteration} iterations, "
                  f"exploitability {report.exploitability:z.1e} (true, not an abstraction's)")
    return {"label": label, "params": dict(params),
            "table": deal_values(tree, solver.average_strategy()),
            "provenance": provenance, "value": report.value, "iterations": solver.iteration,
            "exploitability": report.exploitability, "abstraction": False,
            "nodes": tree.num_nodes, "exact_positions": cut.exact_positions,
            "seconds": cut.seconds + solver.seconds}
