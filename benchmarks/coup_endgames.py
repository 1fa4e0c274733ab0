"""Benchmark: the largest 1v1 Coup endgame solved exactly (perfect-recall tree).

Solves one endgame (default: 2 coins each, Ambassador deck, revealed Contessa/Contessa,
turn cap 3: ~10^6 histories) with Farol's engine to exploitability 1e-4 and prints one
line: size, seconds (compile and solve), iterations and exploitability. The line is
also written to ``benchmarks/results/coup_endgames.txt`` (``--quick``: cap 2,
``coup_endgames_quick.txt``).

``python benchmarks/coup_endgames.py [--quick] [--openspiel]``; ``--openspiel`` also
measures the exploitability with OpenSpiel's C++ ``exploitability`` (slow on big trees).

``--bracket --cap 4 --deck inquisitor --coins 2,2`` instead bounds the uncapped value
(``analysis.coup.solvers.brackets``: one compile through Coup's walker, CFR+ with the cap paying
-1 and +1) and appends the line to ``coup_endgames_brackets.txt``; ``--save`` also
stores the record where ``farol coup brackets`` keeps it (so the sweep skips it);
``--markov`` prices the cap with the Markov guarantees (``analysis.coup.guarantees``),
``--max-memory 20GB`` lifts the compile's budget. ``--record PATH`` prints the line of a
record a sweep already stored (its own run's figures) without solving again.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import results_file

from analysis.coup.model import Endgame, brackets_dir, markov_brackets_dir, save_bracket
from analysis.coup.solvers.brackets import solve_bracket
from analysis.coup.solvers.endgames import openspiel_exploitability
from analysis.shared.store import read_json
from analysis.solve import CFRSolver, compile_game, make_result
from analysis.solve.compile import parse_memory

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


def run_bracket(mover: int, other: int, deck: str, cap: int, save: bool,
                markov: bool = False, max_memory: int | None = None) -> str:
    eg = Endgame(mover, other, deck, turn_cap=cap)
    tick = time.perf_counter()
    r = solve_bracket(eg, markov=markov, max_memory=max_memory)
    total = time.perf_counter() - tick
    if save:
        save_bracket(markov_brackets_dir() if markov else brackets_dir(), eg, r)
    return bracket_line(r, total) + f" [{platform.node()}, {time.strftime('%Y-%m-%d')}]"


def bracket_line(r: dict, total: float | None = None) -> str:
    """One line from a bracket record (:func:`analysis.coup.solvers.brackets.solve_bracket`)."""
    eg = Endgame.from_json(r["endgame"])
    lo, hi = r["low"], r["high"]
    markov = r.get("cap_payoffs") == "markov"
    sides = ("cap pays the Markov lower guarantee", "cap pays the Markov upper guarantee") \
        if markov else ("cap payoff -1", "cap payoff +1")
    if total is None:
        total = r["compile_seconds"] + lo["seconds"] + hi["seconds"]
    return (f"coup 1v1 endgame bracket {eg.position()} deck={eg.deck} "
            f"turn_cap={eg.turn_cap}: {r['nodes']:,} nodes, {r['infosets']:,} information "
            f"sets; compile {r['compile_seconds']:.0f} s "
            f"({r['nodes'] / r['compile_seconds']:,.0f} nodes/s, walker); {sides[0]}: "
            f"{lo['iterations']} CFR+ iterations, {lo['seconds']:.0f} s, exploitability "
            f"{lo['exploitability']:.1e}; {sides[1]}: {hi['iterations']} iterations, "
            f"{hi['seconds']:.0f} s, exploitability {hi['exploitability']:.1e}; total "
            f"{total:.0f} s; mover's win probability in [{r['lower_win']:.4f}, "
            f"{r['upper_win']:.4f}] (width {r['width']:.4f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cap 2 instead of 3")
    parser.add_argument("--openspiel", action="store_true")
    parser.add_argument("--deck", default="ambassador")
    parser.add_argument("--coins", default="2,2", help="mover,other coins")
    parser.add_argument("--bracket", action="store_true", help="bound the uncapped value")
    parser.add_argument("--cap", type=int, default=4, help="turn cap of --bracket")
    parser.add_argument("--save", action="store_true", help="store the --bracket record")
    parser.add_argument("--markov", action="store_true",
                        help="--bracket with the cap priced by the Markov guarantees")
    parser.add_argument("--max-memory", default=None, help="--bracket's compile budget, e.g. 20GB")
    parser.add_argument("--record", default=None,
                        help="print (and append) the line of a bracket record a sweep "
                             "already stored, instead of solving again")
    args = results_file.parse_args(parser, argv)
    mover, other = (int(x) for x in args.coins.split(","))
    if args.bracket or args.record:
        if args.record:
            record = read_json(Path(args.record))  # one line naming a damaged file
            line = bracket_line(record) + f" [record {Path(args.record).name}]"
        else:
            line = run_bracket(mover, other, args.deck, args.cap, args.save, args.markov,
                               parse_memory(args.max_memory))
        print(line)
        results_file.append_line(RESULTS / "coup_endgames_brackets.txt", line, seed=None)
        return 0
    line = run(mover, other, args.deck, 2 if args.quick else 3, args.openspiel)
    print(line)
    name = "coup_endgames_quick.txt" if args.quick else "coup_endgames.txt"
    results_file.write_text(RESULTS / name, [line], seed=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
