"""Benchmark: does refining the trunk key with the order of the rival's plays (while its
villain is hidden) bring the state-keyed solve's true exploitability closer to what it
measures within its abstraction?

For each reduced deck (the Procuress's first: the deck where forgetting the order cost
most), the trunk is solved twice with the same CFR+ iterations: keyed by the coarse keys
(:func:`games.cobardes.keys.infoset_key`, what the sweep uses) and by the refined ones
(:func:`games.cobardes.keys.ordered_infoset_key`). Each strategy's exploitability is
measured within its own abstraction (a lower bound) and in the true game (the
perfect-recall best response walked over the responder's information states); the ratio
of the two is the abstraction's blind spot.

Run: ``.venv/bin/python benchmarks/cobardes_refined_key.py [--iterations 200]``; writes
``benchmarks/results/cobardes_refined_key.{txt,json}``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pyspiel
import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.trunk import OrderedKeys, PublicCut, compile_cut
from analysis.cobardes.solvers.villains import REDUCED_DECKS
from analysis.shared.provenance import code_commit, farol_version
from analysis.solve import CFRSolver
from analysis.solve.best_response import best_response
from analysis.solve.history_best_response import graph_policy, walked_best_response

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_cobardes_battle"


def measure(label: str, params: dict, iterations: int, ordered: bool) -> dict:
    """One key's solve of one deck: nodes, exploitability within and true, seconds."""
    start = time.perf_counter()
    game = pyspiel.load_game(GAME, params)
    graph = compile_cut(game, graph=True, ordered=ordered).compiled
    solver = CFRSolver(graph, "cfr+")
    solver.run(iterations=iterations, progress=False)
    strategy = solver.average_strategy()
    base = game.solver_walker(history=True)
    walker = PublicCut(OrderedKeys(base) if ordered else base,
                       FastExactSolver(game.rules.cfg, game.rules.pay))
    policy = graph_policy(graph, strategy, walker.infoset_key)
    within = true = 0.0
    for player in (0, 1):
        within += best_response(graph, strategy, player)[0] / 2
        true += walked_best_response(walker, player, policy).value / 2
    return {"deck": label, "key": "refined" if ordered else "coarse",
            "nodes": graph.num_nodes, "infosets": graph.num_infosets,
            "within": within, "true": true, "ratio": true / max(within, 1e-300),
            "seconds": time.perf_counter() - start}


def describe(x: dict) -> str:
    return (f"{x['deck']}, {x['key']} key: {x['nodes']:,} nodes, {x['infosets']:,} "
            f"information sets; within the abstraction {x['within']:.3e}, true "
            f"{x['true']:.3e} ({x['ratio']:.2f}x); {x['seconds']:.1f} s")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    text = [f"machine: {machine()}",
            f"farol {farol_version()}, commit {code_commit()}; CFR+ {args.iterations} "
            "iterations on the trunk's state graph; exploitability in battle points (half the "
            "sum of the two best responses)"]
    print(*text, sep="\n", flush=True)
    decks = sorted(REDUCED_DECKS, key=lambda d: "Procuress" not in d[0])
    rows = []
    for label, params in decks:
        for ordered in (False, True):
            rows.append(measure(label, params, args.iterations, ordered))
            text.append(describe(rows[-1]))
            print(text[-1], flush=True)
    procuress = [r for r in rows if "Procuress" in r["deck"]]
    coarse, refined = (next(r for r in procuress if r["key"] == k) for k in ("coarse", "refined"))
    verdict = ("the refined key brings the true exploitability down"
               if refined["true"] < coarse["true"] else
               "the refined key does not help: its strategy is more exploitable in the true "
               "game, an abstraction pathology (a finer imperfect-recall key need not give a "
               "less exploitable strategy); the sweep keeps the coarse key")
    text.append(f"Procuress: true/within ratio {coarse['ratio']:.2f}x with the coarse key, "
                f"{refined['ratio']:.2f}x refined; {verdict}")
    print(text[-1])
    save(args.out, "cobardes_refined_key", text,
         {"version": farol_version(), "commit": code_commit(), "iterations": args.iterations,
          "rows": rows, "refined_helps": refined["true"] < coarse["true"], "lines": text},
         seed=None)


if __name__ == "__main__":
    main()
