"""Benchmark: the largest 1v1 Coup endgame solved exactly (perfect-recall tree).

Solves one endgame (default: 2 coins each, Ambassador deck, revealed Contessa/Contessa,
turn cap 3: ~10^6 histories) with Farol's engine to exploitability 1e-4 and prints one
line: size, seconds (compile and solve), iterations and exploitability. The line is
also written to ``benchmarks/results/coup_endgames.txt`` (``--quick``: cap 2,
``coup_endgames_quick.txt``).

``python benchmarks/coup_endgames.py [--quick] [--openspiel]``; ``--openspiel`` also
measures the exploitability with OpenSpiel's C++ ``exploitability`` (slow on big trees).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from analysis.coup.endgames import Endgame, openspiel_exploitability
from analysis.solve import CFRSolver, compile_game, make_result

RESULTS = Path(__file__).resolve().parent / "results"


def run(mover: int, other: int, deck: str, cap: int, check: bool) -> str:
    eg = Endgame(mover, other, deck, turn_cap=cap)
    game = eg.game()
    tick = time.perf_counter()
    compiled = compile_game(game)
    compile_seconds = time.perf_counter() - tick
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(target_exploitability=1e-4, iterations=50_000, progress=False)
    line = (f"coup 1v1 endgame {eg.position()} deck={deck} turn_cap={cap}: "
            f"{compiled.num_nodes:,} nodes, {compiled.num_infosets:,} information sets; "
            f"compile {compile_seconds:.1f} s, solve {solver.seconds:.1f} s "
            f"({solver.iteration} CFR+ iterations, {solver.engine} engine); "
            f"exploitability {report.exploitability:.2e}; value {report.value:+.4f}")
    if check:
        result = make_result(game, compiled, solver, report)
        line += f"; OpenSpiel exploitability {openspiel_exploitability(game, result):.2e}"
    return line + f" [{platform.node()}, {time.strftime('%Y-%m-%d')}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cap 2 instead of 3")
    parser.add_argument("--openspiel", action="store_true")
    parser.add_argument("--deck", default="ambassador")
    parser.add_argument("--coins", default="2,2", help="mover,other coins")
    args = parser.parse_args(argv)
    mover, other = (int(x) for x in args.coins.split(","))
    line = run(mover, other, args.deck, 2 if args.quick else 3, args.openspiel)
    print(line)
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "coup_endgames_quick.txt" if args.quick else "coup_endgames.txt"
    (RESULTS / name).write_text(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
