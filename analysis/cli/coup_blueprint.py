"""``farol coup blueprint build|info``: the 2-player Coup blueprint (a strong strategy
for the whole game from the deal) and how much it can be beaten.

``build`` walks the deck's whole game once (cached), trains each setup (resumable:
an interrupted build goes on from its last checkpoint), measures lower bounds on
its exploitability and stores the blueprint's value at every position (advice
re-solves from them) and, for the dealt setups, the small table of those values that
the ``resolve-blueprint`` agent's re-solves stop on (shipped with Farol); ``info``
prints what is stored. A deck's two games (the dealt
setups, the draft) are built by a process each when both are asked for, one per core.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from analysis.cli.lists import comma_list
from analysis.cli.numbers import int_in
from analysis.cli.outputs import with_schema
from analysis.cli.parser import add_examples
from analysis.coup.solvers import blueprint, continuations, leaf_table
from analysis.coup.solvers.blueprint_resolve import compute_values, values_current
from analysis.coup.studies import blueprint_bluffs as BB
from analysis.coup.studies.blueprint_bounds import measure_bounds
from analysis.shared import store
from analysis.shared.progress import shown
from games.coup import cards
from games.errors import InvalidParameterError

# How the stored blueprints' accuracy is measured (the report quotes these runs).
RESPONSE_ITERATIONS = 20
BOUND_SWEEPS = 60
LOCAL_GAMES = 2000


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("blueprint", help="the 2-player blueprint: build it, or show it")
    what = parser.add_subparsers(dest="blueprint_command", metavar="build|continuations|info")
    what.required = True
    build = what.add_parser("build", help="train the blueprint of a deck (resumable) and "
                                          "measure how much it can be beaten")
    add_deck_arguments(build)
    build.add_argument("--iterations", type=int_in(1), default=blueprint.ITERATIONS,
                       help=f"CFR+ iterations per setup (default {blueprint.ITERATIONS})")
    build.add_argument("--response-iterations", type=int_in(0), default=RESPONSE_ITERATIONS,
                       help="iterations of the best response trained against it in each seat "
                            f"(default {RESPONSE_ITERATIONS}; 0 skips the measurement)")
    build.add_argument("--bound-sweeps", type=int_in(1), default=BOUND_SWEEPS,
                       help="value sweeps bounding each best response's payoff from below "
                            f"(default {BOUND_SWEEPS}; fewer: faster, a looser but still "
                            "valid bound)")
    build.add_argument("--local-games", type=int_in(0), default=LOCAL_GAMES,
                       help=f"games of the local best response in each seat (default "
                            f"{LOCAL_GAMES:,}; 0 skips it)")
    build.add_argument("--local-depth", type=int_in(1), default=1,
                       help="decisions the local best response plans exactly before the "
                            "blueprint takes over (default 1; deeper: a stronger response, "
                            "slower games)")
    build.add_argument("--bluff-games", type=int_in(0), default=2000,
                       help="self-play games for the bluff, challenge and block tables "
                            f"(default 2000, a multiple of {BB.BATCHES}; 0 skips them)")
    build.add_argument("--seed", type=int_in(0), default=20261202,
                       help="the seed of those games (default 20261202)")
    # Every option above is passed on as it is to the processes of --workers 2.
    build.set_defaults(forwarded=[a.dest for a in build._actions
                                  if a.dest not in ("help", "deck", "setups")])
    build.add_argument("--workers", type=int_in(1), default=min(2, os.cpu_count() or 1),
                       help="processes: with 2 (the default on 2 cores or more), the dealt "
                            "setups and the draft are built at the same time")
    build.set_defaults(func=run_build)
    add_examples(build, "farol coup blueprint build --deck ambassador --setups basic")
    more = what.add_parser("continuations", help="the blueprint's continuation values for "
                                                 "resolve-multi's re-solves (resumable)")
    add_deck_arguments(more)
    more.add_argument("--response-iterations", type=int_in(1), default=RESPONSE_ITERATIONS,
                      help="iterations of the keyed best response continuation "
                           f"(default {RESPONSE_ITERATIONS})")
    more.set_defaults(func=run_continuations)
    add_examples(more, "farol coup blueprint continuations --deck ambassador --setups basic")
    info = what.add_parser("info", help="what the stored blueprint is and how accurate")
    add_deck_arguments(info, every=True)
    info.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_examples(info, "farol coup blueprint info", "farol coup blueprint info --json")
    info.set_defaults(func=run_info)


def add_deck_arguments(parser: argparse.ArgumentParser, every: bool = False) -> None:
    """``--deck`` and ``--setups`` (default: the dealt setups, or ``every`` setup)."""
    parser.add_argument("--deck", choices=cards.DECKS, default="ambassador",
                        help="ambassador (default) or inquisitor")
    setups = cards.SETUPS if every else blueprint.PARTS["dealt"]
    about = "all three" if every else "basic,standard; a draft's game has a larger graph of its own"
    parser.add_argument("--setups", default=",".join(setups),
                        help=f"2-player setups, comma-separated: basic, standard, draft "
                             f"(default: {about})")


def parse_setups(text: str) -> tuple[str, ...]:
    return comma_list("--setups", text, blueprint.check_setup)


def run_build(args: argparse.Namespace) -> int:
    setups = parse_setups(args.setups)
    if args.bluff_games % BB.BATCHES:
        raise InvalidParameterError(
            f"--bluff-games {args.bluff_games}: a multiple of {BB.BATCHES}, e.g. 2000")
    parts = [part for part in blueprint.PARTS if any(blueprint.part_of(s) == part
                                                     for s in setups)]
    if args.workers > 1 and len(parts) > 1:
        return build_parts_at_once(args, setups, parts)
    progress = shown()
    for part in blueprint.PARTS:
        mine = tuple(s for s in setups if blueprint.part_of(s) == part)
        if not mine:
            continue
        # Each graph is loaded once (minutes for a whole deck) and serves both steps.
        dg = blueprint.deck_graph(args.deck, part, progress)
        values = {}  # each setup trained now, valued everywhere by its training
        bp = blueprint.build(args.deck, part, mine, args.iterations, progress, dg, values)
        for setup in mine:  # what advice re-solves from (the local response too)
            if not values_current(bp, setup):
                compute_values(bp, setup, dg, progress, values.pop(setup, None))
        del values
        if part == "dealt":
            leaf_table.build(args.deck, mine, progress, dg)
        if args.response_iterations or args.local_games:
            measure_bounds(bp, mine, args.response_iterations, progress, dg,
                           args.local_games, args.seed, args.bound_sweeps, args.local_depth)
        del dg
        for setup in mine if args.bluff_games else ():
            BB.save_table(BB.play_and_tally(bp, setup, args.bluff_games, args.seed, progress))
    print_info(args.deck, setups)
    return 0


def run_continuations(args: argparse.Namespace) -> int:
    setups = parse_setups(args.setups)
    for setup in setups:
        if blueprint.part_of(setup) != "dealt":
            raise InvalidParameterError(f"--setups {setup}: continuation values are built "
                                        "for the dealt setups (basic, standard)")
        continuations.build(args.deck, setup, response_iterations=args.response_iterations,
                            progress=shown())
        print(f"continuation values of the {args.deck} deck's {setup} setup built "
              f"({store.shown(continuations.tables_path(args.deck, setup))})")
    return 0


def build_parts_at_once(args: argparse.Namespace, setups, parts) -> int:
    """``farol coup blueprint build`` for each part's setups in a process of its own, at
    the same time (its progress bars on a line of their own; the deck's summary is
    written under a lock); the worst exit status of the two."""
    command = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())",
               "--data", str(store.data_root()), "coup", "blueprint", "build",
               "--deck", args.deck, "--workers", "1"]
    for name in args.forwarded:
        command += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    children = []
    for line, part in enumerate(parts):
        mine = ",".join(s for s in setups if blueprint.part_of(s) == part)
        env = os.environ | {"TQDM_POSITION": str(line), store.CACHE_ENV: str(store.cache_root())}
        children.append(subprocess.Popen([*command, "--setups", mine], env=env))
    try:
        codes = [child.wait() for child in children]
    except KeyboardInterrupt:  # each child saves its checkpoint and stops
        for child in children:
            child.wait()
        raise
    for part, code in zip(parts, codes, strict=True):
        if code < 0:
            print(f"farol coup blueprint build: the {part} setups' process was stopped "
                  f"(signal {-code}); run the same command again to go on", file=sys.stderr)
    return next((code if code > 0 else 1 for code in codes if code), 0)


def run_info(args: argparse.Namespace) -> int:
    setups = parse_setups(args.setups)
    if args.json:
        print(json.dumps(with_schema("blueprint-info", blueprint.read_summary(args.deck)),
                         indent=1, sort_keys=True))
        return 0
    print_info(args.deck, setups)
    return 0


def print_info(deck: str, setups: tuple[str, ...]) -> None:
    summary = blueprint.read_summary(deck)
    trained = summary.get("setups", {})
    bounds = summary.get("bounds", {})
    print(f"Coup blueprint, {deck} deck ({store.shown(blueprint.summary_path(deck))})")
    for setup in setups:
        rec = trained.get(setup)
        if rec is None:
            print(f"  {setup}: not built yet (farol coup blueprint build --deck {deck} "
                  f"--setups {setup})")
            continue
        size = (f" on {rec['nodes']:,} positions and {rec['edges']:,} moves"
                if "nodes" in rec and "edges" in rec else "")
        line = (f"  {setup}: {rec['iterations']} iterations{size}; the first player wins "
                f"{(1 + rec['first_player_value']) / 2:z.1%} in the blueprint's self-play")
        b = bounds.get(setup) or {}
        acc = blueprint.accuracy(summary, setup)
        if acc.at_least is None:
            line += "; exploitability not measured yet"
        else:
            line += (f"; exploitability at least {acc.at_least:z.3f} in win probability "
                     f"(the larger lower bound of: {acc.text()})")
        print(line)
        for r in b.get("local_best_response", []):
            lo, hi = r["ci95"]
            depth = r.get("depth", 1)
            plans = "its next decision" if depth == 1 else f"its next {depth} decisions"
            print(f"    a best response planning {plans} in seat {r['seat'] + 1} gains "
                  f"{r['gain'] / 2:+z.3f} [{lo / 2:+z.3f}, {hi / 2:+z.3f}] in win probability "
                  f"over {r['games']} games")
        table = BB.load_tables(deck, [setup]).get(setup)
        if table is not None:
            claims = [r for r in table.rows if r.question == "claim" and r.influence == 0
                      and r.coins == "any"]
            print(f"    P(bluff | claim) over {table.games} self-play games: " + ", ".join(
                f"{r.card} {r.rate:z.0%} [{r.ci95[0]:z.0%}, {r.ci95[1]:z.0%}]" for r in claims))
