"""``farol solve``: solve a two-player zero-sum game with the compiled CFR engine."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from analysis import store
from analysis.params import parse_params
from analysis.solve import METHODS, solve
from analysis.solve.memory import parse_memory
from games.errors import InvalidParameterError


def default_out_dir(game: str, params: dict, graph: bool) -> Path:
    """``<cache>/results/<game>[-k=v...][-graph]``: where a solve is saved by default
    (inside the cache directory, which version control ignores; see :mod:`analysis.store`)."""
    parts = [game] + [f"{k}={v}" for k, v in sorted(params.items())] + (["graph"] if graph else [])
    slug = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", "-".join(parts)).strip("_")
    return store.cache("results", slug[:150])


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a two-player zero-sum game (CFR+, DCFR, linear CFR)",
        description="Compile GAME once into flat arrays (cached under .farol_cache/) and run "
        "CFR+, discounted or linear CFR on them; prints the value and "
        "exploitability and saves the result (JSON + NPZ). GAME is any OpenSpiel "
        "game name, ours or OpenSpiel's, or a full game string. Ctrl-C stops "
        "after the current iteration with a checkpoint; running the same command "
        "again resumes from it.",
    )
    parser.add_argument("game", metavar="GAME")
    parser.add_argument(
        "--param", action="append", default=[], metavar="K=V", help="game parameter (repeatable)"
    )
    parser.add_argument("--method", choices=sorted(METHODS), default="cfr+")
    parser.add_argument(
        "--target-exploitability",
        type=float,
        metavar="E",
        help="stop once the average strategy is at most this exploitable",
    )
    parser.add_argument("--seconds", type=float, metavar="S", help="time budget of this run")
    parser.add_argument("--iterations", type=int, metavar="N", help="total iteration count")
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
        "--rebuild-cache", action="store_true", help="recompile even if the compiled game is cached"
    )
    parser.add_argument(
        "--max-memory",
        metavar="SIZE",
        help="memory budget of the compiled game, e.g. 8GB (default: half of the available memory)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


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
    if args.fresh and checkpoint.exists():
        checkpoint.unlink()
    result = solve(
        args.game,
        params=params or None,
        method=args.method,
        target_exploitability=args.target_exploitability,
        iterations=args.iterations,
        seconds=args.seconds,
        graph=args.graph,
        rebuild_cache=args.rebuild_cache,
        checkpoint=checkpoint,
        max_memory=parse_memory(args.max_memory),
        progress=False if args.no_progress else None,
    )
    result.save(out)
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
        f"iterations: {result.iterations:,}  seconds: {result.seconds:.2f}"
        f"  (compile {result.compile_seconds:.2f} s, {result.num_nodes:,} nodes)"
    )
    print(f"value (player 0): {result.value:.6f}")
    print(f"exploitability: {result.exploitability:.3g}  (NashConv {result.nash_conv:.3g})")
    print(f"saved: {out}")
    return 0
