"""Nodes per second of an exhaustive walk of 1v1 Coup endgames: OpenSpiel ``child()``
and Coup's solver walker (``game.solver_walker``, ``games/coup/walker.py``).

The walker walk also asks each decision node's new observations of the player to
move, as the compiler's tree mode does.

Run: ``.venv/bin/python benchmarks/coup_walk.py`` (writes ``results/coup_walk.txt``). OpenSpiel's Python Kuhn poker
``child()`` is timed alongside as a baseline for the machine's current speed
(the machine is shared, so absolute rates vary with its load).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pyspiel
import results_file
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

import games  # noqa: F401  (registers python_coup)
from analysis.solve import compile_game
from games.coup import endgame_game

POSITIONS = (
    ("duke/assassin/7;captain/contessa/7;move:0", 2),
    ("?/assassin/1;?/contessa/1;move:0", 2),
    ("?/duke/3;?/captain/2;move:1", 2),
)


def walk(game: pyspiel.Game) -> tuple[int, float]:
    """Visit every node once with ``state.child``; returns (nodes, seconds)."""
    start = time.perf_counter()
    nodes = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    return nodes, time.perf_counter() - start


def walk_walker(game: pyspiel.Game) -> tuple[int, float]:
    """Visit every node once through ``game.solver_walker()``; returns (nodes, seconds)."""
    w = game.solver_walker(history=True)
    start = time.perf_counter()
    nodes = 0
    stack = [w.root()]
    while stack:
        pos = stack.pop()
        nodes += 1
        player = w.actor(pos)
        if player == -4:
            continue
        actions = [a for a, _ in w.chance_outcomes(pos)] if player == -1 else w.legal_actions(pos)
        for a in actions:
            child = w.child(pos, a)
            for p in (0, 1):
                w.new_observations(pos, child, p)
            stack.append(child)
    return nodes, time.perf_counter() - start


def kuhn_child_microseconds(repeats: int = 20_000) -> float:
    state = pyspiel.load_game("python_kuhn_poker").new_initial_state().child(0).child(1)
    start = time.perf_counter()
    for _ in range(repeats):
        state.child(0)
    return (time.perf_counter() - start) / repeats * 1e6


def compile_rates(position: str, deck: str, cap: int) -> str:
    """Tree and graph compile of one endgame, State walk against the walker (nodes/s)."""
    game = endgame_game(position, turn_cap=cap, deck=deck)
    parts = []
    for graph in (False, True):
        rates = []
        for use_walker in (False, True):
            compiled = compile_game(game, graph=graph, use_walker=use_walker)
            rates.append(compiled.num_nodes / compiled.compile_seconds)
        parts.append(f"{'graph' if graph else 'tree'} {compiled.num_nodes:,} nodes: State walk "
                     f"{rates[0]:,.0f} nodes/s, walker {rates[1]:,.0f} nodes/s "
                     f"(x{rates[1] / rates[0]:.1f})")
    return f"compile {position} cap {cap} {deck}: " + "; ".join(parts)


RESULTS = Path(__file__).resolve().parent / "results" / "coup_walk.txt"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    results_file.parse_args(parser, argv)
    lines = [f"baseline: python_kuhn_poker child() {kuhn_child_microseconds():.1f} us "
             f"[{platform.node()}, {time.strftime('%Y-%m-%d %H:%M')}]"]
    print(lines[0])
    for deck in ("ambassador", "inquisitor"):
        lines.append(compile_rates("?/contessa/2;?/contessa/2;move:0", deck, 2))
        print(lines[-1])
    for position, cap in POSITIONS:
        for deck in ("ambassador", "inquisitor"):
            game = endgame_game(position, turn_cap=cap, deck=deck)
            nodes, seconds = walk(game)
            wnodes, wseconds = walk_walker(game)
            assert wnodes == nodes
            lines.append(f"{position:45s} cap {cap} {deck:10s} {nodes:8,d} nodes: child() "
                         f"{nodes / seconds:9,.0f} nodes/s, walker {wnodes / wseconds:9,.0f} nodes/s")
            print(lines[-1])
    results_file.write_text(RESULTS, lines, seed=None)


if __name__ == "__main__":
    main()
