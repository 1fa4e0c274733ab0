"""Benchmark: the ¡Cobardes! battle as an OpenSpiel game, move by move.

Random playouts of ``python_cobardes_battle`` (every card kind, villains and courtiers
dealt at random): the time of one ``apply_action`` and of one ``clone``, each averaged
over every move of the playouts, best of a few repeats; then the same playouts' time to
build every move's information-state and observation strings. Each for two states of the
same game, timed in turn on the same playouts: today's (:mod:`games.cobardes.battle`, on
:mod:`games.cobardes.engine`) and the single-engine trial on the numba phase machine
(:mod:`games.cobardes.packed_battle`). Last, one move on an engine position (what the
walkers, the war and the studies hold) by ``engine.apply`` and through the packed machine.

Run: ``.venv/bin/python benchmarks/cobardes_engine_speed.py [--games 300] [--repeats 5]``;
writes ``benchmarks/results/cobardes_engine_speed.{txt,json}`` (``--out`` another folder,
``--tag`` a suffix for the file names).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from pathlib import Path

import pyspiel
import results_file

import games  # noqa: F401
from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.packed_battle import PackedBattleGame, pack_logged, unpack

RESULTS = Path(__file__).resolve().parent / "results"

SEED = 1  # the random games whose moves are timed


def playouts(game, n: int, seed: int) -> list[list[int]]:
    """``n`` random games, as their action sequences."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        state = game.new_initial_state()
        actions = []
        while not state.is_terminal():
            if state.is_chance_node():
                a = rng.choice(state.chance_outcomes())[0]
            else:
                a = rng.choice(state.legal_actions())
            actions.append(a)
            state.apply_action(a)
        out.append(actions)
    return out


def time_apply(new_state, games_: list[list[int]]) -> float:
    """Seconds per ``apply_action`` replaying every game."""
    moves = 0
    start = time.perf_counter()
    for actions in games_:
        state = new_state()
        for a in actions:
            state.apply_action(a)
        moves += len(actions)
    return (time.perf_counter() - start) / moves


def time_clone(new_state, games_: list[list[int]]) -> float:
    """Seconds per ``clone`` of every position of every game."""
    states = []
    for actions in games_:
        state = new_state()
        for a in actions:
            state.apply_action(a)
            states.append(state.clone())
    start = time.perf_counter()
    for s in states:
        s.clone()
    return (time.perf_counter() - start) / len(states)


def time_strings(new_state, games_: list[list[int]]) -> float:
    """Seconds per position for both players' information-state and observation strings
    plus ``str(state)`` and the action names of the legal actions."""
    positions = 0
    start = time.perf_counter()
    for actions in games_:
        state = new_state()
        for a in actions:
            state.apply_action(a)
            if state.is_terminal():
                break
            positions += 1
            str(state)
            if state.is_chance_node():
                continue
            p = state.current_player()
            for q in (0, 1):
                state.information_state_string(q)
                state.observation_string(q)
            for b in state.legal_actions():
                state.action_to_string(p, b)
    return (time.perf_counter() - start) / positions


def compare(states: dict, plays: list[list[int]], repeats: int) -> dict:
    """Best seconds of each timing for each state, the states timed in turn (their
    order reversed at every repeat) so both see the same machine load."""
    timings = {"apply_action": time_apply, "clone": time_clone, "strings": time_strings}
    best = {name: {} for name in states}
    names = list(states)
    for what, timing in timings.items():
        for r in range(repeats):
            for name in names if r % 2 == 0 else names[::-1]:
                t = timing(states[name], plays)
                best[name][what] = min(t, best[name].get(what, t))
    return best


def pos_apply(game, packed, plays: list[list[int]], repeats: int) -> dict:
    """Best seconds of one move on an engine position (:class:`E.Pos`, what the walkers,
    the war and the studies hold) by ``engine.apply`` and through the packed machine
    (pack the position, apply, unpack), timed in turn on every move of the playouts."""
    cfg, machine = game.rules.cfg, packed.machine
    steps = []
    for actions in plays:
        state = game.new_initial_state()
        for a in actions:
            steps.append((state.position, a))
            state.apply_action(a)

    def engine():
        start = time.perf_counter()
        for pos, a in steps:
            E.apply(cfg, pos, a)
        return time.perf_counter() - start

    def through_packed():
        start = time.perf_counter()
        for pos, a in steps:
            unpack(P.apply_logged(machine.cfgv, pack_logged(pos), a, machine.tables),
                   game.rules)
        return time.perf_counter() - start

    runs = {"engine": engine, "packed": through_packed}
    best = {}
    for r in range(repeats):
        for name in runs if r % 2 == 0 else list(runs)[::-1]:
            t = runs[name]() / len(steps)
            best[name] = min(t, best.get(name, t))
    return best


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="random playouts")
    parser.add_argument("--repeats", type=int, default=5, help="best of this many timings")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--tag", default="", help="suffix of the result files")
    args = results_file.parse_args(parser, argv)
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "all"})
    packed = PackedBattleGame({"kinds": "all"})
    states = {"engine": game.new_initial_state, "packed": packed.new_initial_state}
    plays = playouts(game, args.games, seed=SEED)
    moves = sum(len(a) for a in plays)
    time_apply(states["packed"], plays[:2])  # compile or load from numba's cache
    best = compare(states, plays, args.repeats)
    lines = [f"machine: {platform.machine()}, {os.cpu_count()} cores, "
             f"python {platform.python_version()}",
             f"python_cobardes_battle kinds=all: {args.games} random playouts, {moves:,} moves; "
             f"best of {args.repeats}, the two states timed in turn"]
    for name, label in (("engine", "engine.py state (CobardesBattleState)"),
                        ("packed", "packed machine state (PackedBattleState)")):
        b = best[name]
        lines.append(f"{label}: apply_action {b['apply_action'] * 1e6:.2f} us, clone "
                     f"{b['clone'] * 1e6:.2f} us, strings of a position "
                     f"{b['strings'] * 1e6:.1f} us")
    on_pos = pos_apply(game, packed, plays, args.repeats)
    lines.append(f"a move on an engine position (walkers, war, studies): engine.apply "
                 f"{on_pos['engine'] * 1e6:.2f} us, through the packed machine (pack, apply, "
                 f"unpack) {on_pos['packed'] * 1e6:.2f} us")
    print(*lines, sep="\n")
    stem = "cobardes_engine_speed" + (f"_{args.tag}" if args.tag else "")
    results_file.save(args.out, stem, lines,
                      {"games": args.games, "moves": moves, "repeats": args.repeats,
                       "us": {name: {k: v * 1e6 for k, v in b.items()} for name, b in best.items()},
                       "move_on_pos_us": {k: v * 1e6 for k, v in on_pos.items()},
                       "lines": lines}, seed=SEED)


if __name__ == "__main__":
    main()
