"""``farol solve``: solve a two-player zero-sum game with the compiled CFR engine."""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import pyspiel

from analysis.cli.numbers import finite_float, int_in
from analysis.cli.outputs import check_output_dir, check_output_file
from analysis.cli.parser import add_examples
from analysis.shared import store
from analysis.shared.params import load_game, parse_params
from analysis.shared.store import CorruptFileError
from analysis.solve import METHODS, CFRSolver, compile_game, solve
from analysis.solve.cache import check_checkpoint_file
from analysis.solve.memory import parse_memory
from analysis.solve.result import SolveResult
from games.errors import InvalidParameterError, OutputError


def default_out_dir(game: str, params: dict, graph: bool) -> Path:
    """``<cache>/results/<game>[-k=v...][-graph]``: where a solve is saved by default
    (inside the cache directory, which version control ignores; see :mod:`analysis.shared.store`)."""
    parts = [game] + [f"{k}={v}" for k, v in sorted(params.items())] + (["graph"] if graph else [])
    slug = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", "-".join(parts)).strip("_")
    return store.cache("results", slug[:150])


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Compile GAME once into flat arrays (cached under .farol_cache/) and run "
        "CFR+, discounted or linear CFR, or predictive CFR+ (pcfr+) or predictive "
        "discounted CFR+ (pdcfr+) on them; prints the value and "
        "exploitability and saves the result (JSON + NPZ). GAME is any OpenSpiel "
        "game name, ours or OpenSpiel's, or a full game string. Ctrl-C stops "
        "after the current iteration with a checkpoint; running the same command "
        "again resumes from it.")
    parser.add_argument("game", metavar="GAME")
    parser.add_argument(
        "--param", action="append", default=[], metavar="K=V", help="game parameter (repeatable)"
    )
    parser.add_argument(
        "--method",
        choices=sorted(METHODS),
        default="cfr+",
        help="cfr+ (default), dcfr (alpha 1.5, beta 0, gamma 2), lcfr, pcfr+ (predictive "
        "CFR+, quadratic averaging) or pdcfr+ (predictive discounted CFR+, alpha 2.3, "
        "gamma 5); see docs/solve.md",
    )
    parser.add_argument(
        "--target-exploitability",
        type=finite_float(0, above=True),
        metavar="E",
        help="stop once the average strategy is at most this exploitable",
    )
    parser.add_argument("--seconds", type=finite_float(0, above=True), metavar="S", help="time budget of this run")
    parser.add_argument("--iterations", type=int_in(1), metavar="N", help="total iteration count")
    parser.add_argument(
        "--graph",
        action="store_true",
        help="state-graph mode: merge transpositions through state_key()",
    )
    parser.add_argument(
        "--out", metavar="DIR", help="result directory (default .farol_cache/results/<game...>)"
    )
    parser.add_argument(
        "--checkpoint",
        metavar="PATH",
        help="checkpoint file (default .farol_cache/checkpoints/<out>-<method>.npz)",
    )
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    parser.add_argument(
        "--warm-start",
        metavar="PATH",
        help="start from the checkpoint of a solve of the same game with other payoffs (a "
        "variant whose tree is unchanged): its regrets, the average afresh",
    )
    parser.add_argument(
        "--rebuild-cache", action="store_true", help="recompile even if the compiled game is cached"
    )
    parser.add_argument(
        "--max-memory",
        metavar="SIZE",
        help="memory budget of the compiled game, e.g. 8GB (default: half of the available memory)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
    add_examples(parser,
                 "farol solve python_cobardes_battle --param kinds=warriors --param warriors=3 "
                 "--param combats=3 --method dcfr --target-exploitability 0.001 "
                 "--max-memory 8GB")


def warm_start(args: argparse.Namespace, params: dict, checkpoint: Path) -> None:
    """Write this solve's first checkpoint from ``--warm-start``: the other solve's regrets
    on this game's compiled tree (refused in one line when the trees differ)."""
    game = load_game(args.game, params or None) if "(" not in args.game else pyspiel.load_game(args.game)
    solver = CFRSolver(compile_game(game, graph=args.graph), args.method)
    solver.warm_start(Path(args.warm_start))
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    solver.save_checkpoint(checkpoint)


def run(args: argparse.Namespace) -> int:
    if "(" in args.game and args.param:
        raise InvalidParameterError(
            "give parameters inside the game string or with --param, not both"
        )
    params = parse_params(args.game, args.param) if "(" not in args.game else {}
    out = Path(args.out) if args.out else default_out_dir(args.game, params, args.graph)
    checkpoint = (
        Path(args.checkpoint)
        if args.checkpoint
        else store.cache("checkpoints", f"{out.name}-{args.method.replace('+', 'plus')}.npz")
    )
    # Check the output locations now: a solve may run for hours.
    check_output_dir(out, "--out")
    check_output_file(checkpoint, "--checkpoint")
    if args.fresh and checkpoint.exists():
        checkpoint.unlink()

    if args.warm_start and not checkpoint.exists():
        warm_start(args, params, checkpoint)

    def run_solve():
        if checkpoint.exists():
            check_checkpoint_file(checkpoint)
        return solve(
            args.game,
            params=params or None,
            method=args.method,
            target_exploitability=args.target_exploitability,
            iterations=args.iterations,
            seconds=args.seconds,
            graph=args.graph,
            rebuild_cache=args.rebuild_cache,
            checkpoint=checkpoint,
            max_memory=memory_budget(args.max_memory),
            progress=False if args.no_progress else None,
        )

    try:
        result = run_solve()
    except CorruptFileError as exc:
        # A checkpoint the user named is refused; the default one is a cache: it is
        # named in one line, removed, and the solve starts afresh.
        if args.checkpoint or not checkpoint.exists() or str(checkpoint) not in str(exc):
            raise
        store.say_damaged(checkpoint, exc.reason)
        checkpoint.unlink()
        result = run_solve()
    saved = save_or_rescue(result, out)
    print(f"game: {result.game}")
    print(
        f"method: {result.method}  mode: {result.mode}  engine: {result.engine}"
        + (
            "  (imperfect-recall abstraction: exploitability within the abstraction)"
            if result.abstraction
            else ""
        )
    )
    print(
        f"iterations: {result.iterations:,}  seconds: {result.seconds:z.2f}"
        f"  (compile {result.compile_seconds:z.2f} s, {result.num_nodes:,} nodes)"
    )
    print(f"value (player 0): {result.value:z.6f}")
    print(f"exploitability: {result.exploitability:z.3g}  (NashConv {result.nash_conv:z.3g})")
    print(f"saved: {saved}")
    return 0 if saved == out else 1


def memory_budget(text: str | None) -> int | None:
    """``--max-memory`` in bytes (``None``: the default), refusing sizes that are not
    finite and positive."""
    try:
        value = parse_memory(text)
    except InvalidParameterError:
        raise
    except (ValueError, OverflowError):
        value = None if text is None else 0
    if text is not None and (value is None or value <= 0):
        raise InvalidParameterError(
            f"--max-memory takes a positive size like 8GB or 512MB, not {text!r}"
        )
    return value


def save_or_rescue(result: SolveResult, out: Path) -> Path:
    """Save ``result`` in ``out``; if that fails (the folder went away, the disk filled),
    save it under the cache's ``rescued`` folder instead and say so on stderr, so that the
    work is not lost. Returns where it was saved."""
    try:
        return result.save(out)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        rescued = store.cache("rescued", f"{out.name or 'result'}-{stamp}")
        try:
            result.save(rescued)
        except OSError as again:
            raise OutputError(
                f"cannot save the result in --out {out} ({reason}) nor in {rescued} "
                f"({again.strerror or again})"
            ) from None
        print(
            f"farol solve: cannot save the result in --out {out} ({reason}); "
            f"saved it in {rescued.absolute()} instead",
            file=sys.stderr,
        )
        return rescued
