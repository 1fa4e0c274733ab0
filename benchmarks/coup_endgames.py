"""Benchmark: the largest 1v1 Coup endgame solved exactly (perfect-recall tree).

Solves one endgame (default: 2 coins each, Ambassador deck, revealed Contessa/Contessa,
turn cap 3: ~10^6 histories) with Farol's engine to exploitability 1e-4 and prints one
line: size, seconds (compile and solve), iterations and exploitability. The line is
also written to ``benchmarks/results/coup_endgames.txt`` (``--quick``: cap 2,
``coup_endgames_quick.txt``).

``python benchmarks/coup_endgames.py [--quick] [--openspiel]``; ``--openspiel`` also
measures the exploitability with OpenSpiel's C++ ``exploitability`` (slow on big trees).

``--bracket --cap 4 --deck inquisitor --coins 2,2`` instead bounds the uncapped value
(``analysis.coup.brackets``: one compile through Coup's walker, CFR+ with the cap paying
-1 and +1) and appends the line to ``coup_endgames_brackets.txt``; ``--save`` also
stores the record where ``farol coup brackets`` keeps it (so the sweep skips it).
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


def run_bracket(mover: int, other: int, deck: str, cap: int, save: bool) -> str:
    from analysis.coup.brackets import solve_bracket
    from analysis.coup.sweep import BRACKET_DIR, SWEEP_VERSION, bracket_path
    from analysis.solve.cache import atomic_write_text

    eg = Endgame(mover, other, deck, turn_cap=cap)
    tick = time.perf_counter()
    r = solve_bracket(eg)
    total = time.perf_counter() - tick
    if save:
        import json

        r["version"] = SWEEP_VERSION
        atomic_write_text(bracket_path(BRACKET_DIR, eg), json.dumps(r, indent=1) + "\n")
    lo, hi = r["low"], r["high"]
    return (f"coup 1v1 endgame bracket {eg.position()} deck={deck} turn_cap={cap}: "
            f"{r['nodes']:,} nodes, {r['infosets']:,} information sets; compile "
            f"{r['compile_seconds']:.0f} s ({r['nodes'] / r['compile_seconds']:,.0f} nodes/s, "
            f"walker); cap payoff -1: {lo['iterations']} CFR+ iterations, {lo['seconds']:.0f} s, "
            f"exploitability {lo['exploitability']:.1e}; cap payoff +1: {hi['iterations']} "
            f"iterations, {hi['seconds']:.0f} s, exploitability {hi['exploitability']:.1e}; "
            f"total {total:.0f} s; mover's win probability in [{r['lower_win']:.4f}, "
            f"{r['upper_win']:.4f}] (width {r['width']:.4f})"
            f" [{platform.node()}, {time.strftime('%Y-%m-%d')}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cap 2 instead of 3")
    parser.add_argument("--openspiel", action="store_true")
    parser.add_argument("--deck", default="ambassador")
    parser.add_argument("--coins", default="2,2", help="mover,other coins")
    parser.add_argument("--bracket", action="store_true", help="bound the uncapped value")
    parser.add_argument("--cap", type=int, default=4, help="turn cap of --bracket")
    parser.add_argument("--save", action="store_true", help="store the --bracket record")
    args = parser.parse_args(argv)
    mover, other = (int(x) for x in args.coins.split(","))
    if args.bracket:
        line = run_bracket(mover, other, args.deck, args.cap, args.save)
        print(line)
        RESULTS.mkdir(parents=True, exist_ok=True)
        with open(RESULTS / "coup_endgames_brackets.txt", "a") as fh:
            fh.write(line + "\n")
        return 0
    line = run(mover, other, args.deck, 2 if args.quick else 3, args.openspiel)
    print(line)
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "coup_endgames_quick.txt" if args.quick else "coup_endgames.txt"
    (RESULTS / name).write_text(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
