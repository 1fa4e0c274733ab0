"""What every benchmark writes: the machine it ran on, its figures as text and as JSON
(each file replaced whole, so an interrupted run never leaves half a file), the timing of
a game's moves, and of a ``farol`` command run as a user runs it.

Every result names the code that made it: :func:`save` and :func:`write_text` stamp the
version, the commit and the seed into the JSON (and a line into the text when it has
none), and refuse to write from a checkout whose code (``games/``, ``analysis/``,
``benchmarks/`` outside ``results/``) differs from its commit, unless the benchmark was
run with ``--allow-dirty`` (:func:`parse_args`), which the result then says.
"""

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

from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import REPOSITORY

DIRTY_OPTION = "--allow-dirty"
DIRTY_WORDS = "measured with uncommitted changes (--allow-dirty)"
_ALLOW_DIRTY: list[bool] = [False]
NO_SEED = object()  # save's default: the seed is in the record already


def uncommitted() -> list[str]:
    """The files of the code (``games/``, ``analysis/``, ``benchmarks/`` but its results)
    that differ from the checkout's commit; ``[]`` outside a git checkout."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--", "games", "analysis",
                              "benchmarks", ":!benchmarks/results"], cwd=REPOSITORY,
                             check=True, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line[3:] for line in out.splitlines() if line.strip()]


def allow_dirty(allowed: bool = True) -> None:
    """Let this run write results from uncommitted code (they say so)."""
    _ALLOW_DIRTY[0] = allowed


def require_clean() -> None:
    """Exit with status 2 and one line when the code has uncommitted changes and the run
    was not given ``--allow-dirty``: a result must name the code that made it."""
    changed = uncommitted()
    if changed and not _ALLOW_DIRTY[0]:
        sys.stderr.write(f"{Path(sys.argv[0]).name}: the code has uncommitted changes "
                         f"({', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''}); "
                         f"commit them first, or pass {DIRTY_OPTION} (the result will say "
                         "so)\n")
        raise SystemExit(2)


def add_dirty_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(DIRTY_OPTION, action="store_true",
                        help="write the results even from code with uncommitted changes "
                             "(the results then say so)")


def parse_args(parser: argparse.ArgumentParser, argv=None) -> argparse.Namespace:
    """``parser.parse_args(argv)`` with ``--allow-dirty`` added, refusing at once (before
    any measuring) to run from uncommitted code without it."""
    add_dirty_option(parser)
    args = parser.parse_args(argv)
    allow_dirty(args.allow_dirty)
    require_clean()
    return args


def stamp(record: dict, seed=NO_SEED) -> dict:
    """``record`` with ``version``, ``commit`` and ``seed`` at its top (a record's own,
    or its ``provenance``'s, are kept; ``seed`` given here wins; None: the run draws no
    random numbers), and ``allow_dirty`` where the code had uncommitted changes."""
    inner = record.get("provenance") if isinstance(record.get("provenance"), dict) else {}
    out = dict(record)
    out.setdefault("version", inner.get("version", farol_version()))
    out.setdefault("commit", inner.get("commit", code_commit()))
    if seed is not NO_SEED:
        out["seed"] = seed
    elif "seed" not in out:
        if "seed" not in inner:
            raise ValueError("a result must record its seed (None: it draws no random numbers)")
        out["seed"] = inner["seed"]
    if uncommitted() or "+changes" in str(out["commit"]):
        out["allow_dirty"] = True
    return out


def provenance_line(record: dict) -> str:
    """``farol V, commit C, seed S`` of a stamped record (and the uncommitted changes)."""
    line = f"farol {record['version']}, commit {record['commit']}, seed {record['seed']}"
    return line + (f"; {DIRTY_WORDS}" if record.get("allow_dirty") else "")


def _text_with_provenance(text: Sequence[str], record: dict) -> list[str]:
    lines = list(text)
    if not any("commit " in line for line in lines):
        lines.insert(0, provenance_line(record))
    elif record.get("allow_dirty") and not any(DIRTY_WORDS in line for line in lines):
        lines.append(DIRTY_WORDS)
    return lines


def machine(load: bool = True) -> str:
    """``x86_64, 2 cores, python 3.11.7`` and, with ``load``, the load average now."""
    text = f"{platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}"
    if load and hasattr(os, "getloadavg"):
        text += f", load average {os.getloadavg()[0]:.2f} at the start"
    return text


def save(out: Path, stem: str, text: Sequence[str], record: dict, seed=NO_SEED) -> None:
    """``out/stem.txt`` (the lines of ``text``) and ``out/stem.json`` (``record``),
    stamped with version, commit and seed (:func:`stamp`; the text gains a line saying
    them when none of its lines names a commit); refused from uncommitted code unless
    allowed (:func:`require_clean`)."""
    require_clean()
    record = stamp(record, seed)
    text = _text_with_provenance(text, record)
    if "lines" in record:
        record["lines"] = text
    out.mkdir(parents=True, exist_ok=True)
    for suffix, content in ((".txt", "\n".join(text) + "\n"),
                            (".json", json.dumps(record, indent=1) + "\n")):
        _replace(out / f"{stem}{suffix}", content)


def write_text(path: Path, text: Sequence[str], seed, comment: str = "") -> None:
    """A results text file alone (no JSON): its lines, with a line naming the version,
    commit and seed when none names a commit (``comment`` before it: ``"# "`` in a CSV);
    refused from uncommitted code unless allowed."""
    require_clean()
    record = stamp({}, seed)
    lines = list(text)
    if not any("commit " in line for line in lines):
        lines.insert(0, comment + provenance_line(record))
    path.parent.mkdir(parents=True, exist_ok=True)
    _replace(path, "\n".join(lines) + "\n")


def append_line(path: Path, line: str, seed) -> None:
    """One more line at the end of a results text file that collects lines, each run's
    line naming its version, commit and seed; refused from uncommitted code unless
    allowed."""
    require_clean()
    record = stamp({}, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fh.write(f"{line} [{provenance_line(record)}]\n")


def _replace(path: Path, content: str) -> None:
    tmp = path.parent / f".{path.name}.tmp"
    tmp.write_text(content)
    tmp.replace(path)


def measure_and_save(doc: str, stem: str, measure: Callable[[], dict],
                     lines: Callable[[dict], list[str]], argv=None) -> None:
    """A benchmark that takes only ``--out``: measure, print the lines, save both files
    (the JSON with the lines in it)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results",
                        help="results folder")
    args = parse_args(parser, argv)
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


def decisions_played(game: pyspiel.Game, agents: Sequence[Callable[[pyspiel.State], int]],
                     rng) -> list[pyspiel.State]:
    """A game of ``agents`` from the deal to its end, chance drawn by ``rng``
    (``random.Random``): a copy of every spot where the player to move has a choice."""
    state, decisions = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if len(state.legal_actions()) > 1:
            decisions.append(state.clone())
        state.apply_action(agents[state.current_player()](state))
    return decisions


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
