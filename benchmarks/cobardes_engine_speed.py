"""Benchmark: the ¡Cobardes! battle as an OpenSpiel game, move by move.

Random playouts of ``python_cobardes_battle`` (every card kind, villains and courtiers
dealt at random): the time of one ``apply_action`` and of one ``clone``, each averaged
over every move of the playouts, best of a few repeats; then the same playouts' time to
build every move's information-state and observation strings. Last, a probe for a single
engine: the numba phase machine (:mod:`games.cobardes.packed`) called from Python move by
move, against the Python engine, on the same moves of battles with named villains (the
packed machine has no random deals, no event log and no battlefield order), and the
copy of a packed position against sharing an immutable one.

Run: ``.venv/bin/python benchmarks/cobardes_engine_speed.py [--games 300] [--repeats 5]``;
writes ``benchmarks/results/cobardes_engine_speed.{txt,json}`` (``--out`` another folder,
``--tag`` a suffix for the file names).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import random
import time
from pathlib import Path

import pyspiel

import games  # noqa: F401
from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.options import make_rules
from games.cobardes.tables import effect_tables

RESULTS = Path(__file__).resolve().parent / "results"


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


def time_apply(game, games_: list[list[int]]) -> float:
    """Seconds per ``apply_action`` replaying every game."""
    moves = 0
    start = time.perf_counter()
    for actions in games_:
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
        moves += len(actions)
    return (time.perf_counter() - start) / moves


def time_clone(game, games_: list[list[int]]) -> float:
    """Seconds per ``clone`` of every position of every game."""
    states = []
    for actions in games_:
        state = game.new_initial_state()
        for a in actions:
            state.apply_action(a)
            states.append(state.clone())
    start = time.perf_counter()
    for s in states:
        s.clone()
    return (time.perf_counter() - start) / len(states)


def time_strings(game, games_: list[list[int]]) -> float:
    """Seconds per position for both players' information-state and observation strings
    plus ``str(state)`` and the action names of the legal actions."""
    positions = 0
    start = time.perf_counter()
    for actions in games_:
        state = game.new_initial_state()
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


def packed_probe(n: int, repeats: int, seed: int = 3) -> dict:
    """Seconds per move of the Python engine and of the packed machine called from
    Python, and per copy of a position (shared) and of a packed array (copied)."""
    rules = make_rules({"kinds": "all", "courtier0": "Procuress", "courtier1": "Archer",
                        "villain0": "Thug", "villain1": "Sheep"})
    cfg = rules.cfg
    cfgv, tables = P.config_vector(cfg), effect_tables(cfg)
    rng = random.Random(seed)
    plays = []
    for _ in range(n):
        pos, actions = rules.initial, []
        while pos.outcome is None:
            legal = ([a for a, _ in E.chance_outcomes(cfg, pos)] if pos.actor == E.CHANCE
                     else E.legal_actions(cfg, pos))
            actions.append(rng.choice(legal))
            pos = E.apply(cfg, pos, actions[-1])
        plays.append(actions)
    moves = sum(len(a) for a in plays)
    root = P.pack(rules.initial)
    P.apply_packed(cfgv, root, plays[0][0], tables)  # compile or load from numba's cache

    def python_engine():
        start = time.perf_counter()
        for actions in plays:
            pos = rules.initial
            for a in actions:
                pos = E.apply(cfg, pos, a)
        return (time.perf_counter() - start) / moves

    def packed_engine():
        start = time.perf_counter()
        for actions in plays:
            s = root
            for a in actions:
                s = P.apply_packed(cfgv, s, a, tables)
        return (time.perf_counter() - start) / moves

    def copies(obj):
        start = time.perf_counter()
        for _ in range(moves):
            copy.deepcopy(obj)
        return (time.perf_counter() - start) / moves

    return {"moves": moves,
            "python_apply_us": min(python_engine() for _ in range(repeats)) * 1e6,
            "packed_apply_us": min(packed_engine() for _ in range(repeats)) * 1e6,
            "python_copy_us": min(copies(rules.initial) for _ in range(repeats)) * 1e6,
            "packed_copy_us": min(copies(root) for _ in range(repeats)) * 1e6}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="random playouts")
    parser.add_argument("--repeats", type=int, default=5, help="best of this many timings")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--tag", default="", help="suffix of the result files")
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "all"})
    plays = playouts(game, args.games, seed=1)
    moves = sum(len(a) for a in plays)
    apply_s = min(time_apply(game, plays) for _ in range(args.repeats))
    clone_s = min(time_clone(game, plays) for _ in range(args.repeats))
    strings_s = min(time_strings(game, plays) for _ in range(args.repeats))
    lines = [f"machine: {platform.machine()}, {os.cpu_count()} cores, "
             f"python {platform.python_version()}",
             f"python_cobardes_battle kinds=all: {args.games} random playouts, {moves:,} moves; "
             f"best of {args.repeats}",
             f"apply_action {apply_s * 1e6:.2f} us, clone {clone_s * 1e6:.2f} us, "
             f"strings of a position {strings_s * 1e6:.1f} us"]
    probe = packed_probe(args.games, args.repeats)
    lines.append(f"single-engine probe ({probe['moves']:,} moves, named villains): engine.apply "
                 f"{probe['python_apply_us']:.2f} us, packed.apply_packed from Python "
                 f"{probe['packed_apply_us']:.2f} us (no log, no battlefield order, no deals); "
                 f"deepcopy of a shared Pos {probe['python_copy_us']:.2f} us, of a packed array "
                 f"{probe['packed_copy_us']:.2f} us")
    print(*lines, sep="\n")
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "cobardes_engine_speed" + (f"_{args.tag}" if args.tag else "")
    (args.out / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    (args.out / f"{stem}.json").write_text(json.dumps(
        {"games": args.games, "moves": moves, "repeats": args.repeats,
         "apply_action_us": apply_s * 1e6, "clone_us": clone_s * 1e6,
         "strings_us": strings_s * 1e6, "packed_probe": probe, "lines": lines}, indent=1))


if __name__ == "__main__":
    main()
