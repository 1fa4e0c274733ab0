"""What every benchmark writes: the machine it ran on, its figures as text and as JSON
(each file replaced whole, so an interrupted run never leaves half a file), the timing of
a game's moves, and of a ``farol`` command run as a user runs it."""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyspiel


def machine(load: bool = True) -> str:
    """``x86_64, 2 cores, python 3.11.7`` and, with ``load``, the load average now."""
    text = f"{platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}"
    if load and hasattr(os, "getloadavg"):
        text += f", load average {os.getloadavg()[0]:.2f} at the start"
    return text


def save(out: Path, stem: str, text: Sequence[str], record: dict) -> None:
    """``out/stem.txt`` (the lines of ``text``) and ``out/stem.json`` (``record``)."""
    out.mkdir(parents=True, exist_ok=True)
    for suffix, content in ((".txt", "\n".join(text) + "\n"),
                            (".json", json.dumps(record, indent=1) + "\n")):
        tmp = out / f".{stem}{suffix}.tmp"
        tmp.write_text(content)
        tmp.replace(out / f"{stem}{suffix}")


def measure_and_save(doc: str, stem: str, measure: Callable[[], dict],
                     lines: Callable[[dict], list[str]], argv=None) -> None:
    """A benchmark that takes only ``--out``: measure, print the lines, save both files
    (the JSON with the lines in it)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results",
                        help="results folder")
    args = parser.parse_args(argv)
    m = measure()
    text = lines(m)
    print(*text, sep="\n")
    save(args.out, stem, text, m | {"lines": text})


def timed_play(state: pyspiel.State, agents: Sequence[Callable[[pyspiel.State], int]],
               chance: Callable[[pyspiel.State], int]) -> list[float]:
    """Play ``state`` to its end (``chance`` picks each chance outcome); returns the
    seconds each agent's move took, in order."""
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(chance(state)))
            continue
        start = time.perf_counter()
        action = agents[state.current_player()](state)
        moves.append(time.perf_counter() - start)
        state.apply_action(action)
    return moves


@dataclass(frozen=True)
class FarolRun:
    """A ``farol`` command run in a fresh process: its wall and processor seconds, exit
    status, standard output and last line of standard error."""

    seconds: float
    cpu_seconds: float
    status: int
    stdout: str
    last_error: str


def run_farol(args: Sequence[str], cache: str) -> FarolRun:
    """``farol ARGS`` in a fresh process (Python's start and imports included) with the
    cache folder ``cache`` and no progress bars, timed."""
    env = dict(os.environ, FAROL_CACHE_DIR=cache, FAROL_PROGRESS="0")
    farol = str(Path(sys.executable).parent / "farol")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([farol, *args], capture_output=True, text=True, env=env,
                          check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return FarolRun(wall, cpu, done.returncode, done.stdout,
                    (done.stderr.strip().splitlines() or [""])[-1])
