"""Long jobs survive SIGKILL at a random moment: rerunning the same command finishes the job,
with the results of an uninterrupted run, and recomputes nothing already saved.

Each test runs ``farol`` in a subprocess (data and cache folders under ``tmp_path``), kills
it with SIGKILL after a seeded random delay, resumes it with the same command and compares.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.goat_lords.studies.tournament import Experiment, load_rows, run_experiment

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300


def _command(args: list[str]) -> list[str]:
    return [sys.executable, "-c",
            f"import sys; from analysis.cli import main; sys.exit(main({args!r}))"]


def _env(tmp_path: Path) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), FAROL_DATA_DIR=str(tmp_path / "data"),
                FAROL_CACHE_DIR=str(tmp_path / "cache"))


def farol(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``farol ARGS`` to completion; fails the test on a non-zero exit."""
    done = subprocess.run(_command(args), cwd=ROOT, env=_env(tmp_path), capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def start(args: list[str], tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen(_command(args), cwd=ROOT, env=_env(tmp_path),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def interrupt(args: list[str], tmp_path: Path, folder: Path, started, delay: float,
              complete=lambda: False) -> None:
    """Run ``farol ARGS`` and SIGKILL it ``delay`` seconds after ``started()`` holds (its
    first result saved). On a machine fast enough to finish first, or to save every
    result (``complete()``) before the kill lands, start again from an empty ``folder``
    with half the delay."""
    while True:
        proc = start(args, tmp_path)
        end = time.monotonic() + TIMEOUT
        while not started() and proc.poll() is None:
            assert time.monotonic() < end, "timed out waiting for the job"
            time.sleep(0.02)
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            if kill(proc) and not complete():
                return
        else:
            assert proc.returncode == 0, f"the job failed with exit code {proc.returncode}"
        assert delay > 0.01, "the job always finished first"
        shutil.rmtree(folder, ignore_errors=True)
        delay /= 2


def kill(proc: subprocess.Popen) -> bool:
    """SIGKILL ``proc``: True if the kill interrupted it, False if it had just finished."""
    proc.send_signal(signal.SIGKILL)
    code = proc.wait(timeout=60)
    assert code in (0, -signal.SIGKILL), f"the job failed with exit code {code}"
    return code == -signal.SIGKILL


def snapshot(folder: Path, pattern: str) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.glob(pattern))}


def assert_only_records(folder: Path) -> None:
    """Nothing but records in ``folder``, and at most a temporary file of a write the kill
    cut short (``<record>.json<random>.tmp``, never read as a record)."""
    strays = [p.name for p in folder.iterdir() if p.suffix != ".json"]
    assert all(".json" in name and name.endswith(".tmp") for name in strays), strays
    assert len(strays) <= 1, strays


# ---------------------------------------------------------------- ¡Cobardes! sweep

SWEEP = ["cobardes", "sweep", "--kind", "battle", "--warriors", "3", "--combats", "3",
         "--workers", "1"]
TIMING = ("seconds", "compile_seconds")


def _records(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[path.name] = {k: v for k, v in data.items() if k not in TIMING}
    return out


def sweep_survives_sigkill(tmp_path: Path, args: list[str], kind: str, seed: int,
                           records) -> Path:
    """Kill the sweep ``args`` at a random moment, resume it, and check it: saved records
    whole and untouched, the same records as an uninterrupted run. Returns the folder."""
    rng = random.Random(seed)
    reference = tmp_path / "reference"
    farol(args + ["--dir", str(reference)], tmp_path)
    folder = tmp_path / "sweep"
    run = args + ["--dir", str(folder)]
    interrupt(run, tmp_path, folder, lambda: any((folder / kind).glob("*.json")),
              rng.uniform(0.1, 1.0))
    before = snapshot(folder / kind, "*.json")
    assert before
    # Every record under its final name is whole (written through a temporary file).
    for _, raw in before.values():
        json.loads(raw)
    farol(run, tmp_path)
    after = snapshot(folder / kind, "*.json")
    for name, saved in before.items():
        assert after[name] == saved, f"{name} was recomputed"
    assert records(folder / kind) == records(reference / kind)
    assert_only_records(folder / kind)
    return folder / kind


@pytest.mark.slow
def test_cobardes_sweep_survives_sigkill(tmp_path):
    sweep_survives_sigkill(tmp_path, SWEEP, "battle", 20261201, _records)


HIDDEN = ["cobardes", "sweep", "--kind", "hidden", "--warriors", "2", "--combats", "2",
          "--max-iterations", "20", "--workers", "1", "--matchups",
          "Squire/Archer,Archer/Squire,Wolf/Maiden,Maiden/Wolf,Procuress/Wolf,Wolf/Wolf"]


def _hidden_records(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[path.name] = {k: v for k, v in data.items()
                          if k not in ("compile_seconds", "solve_seconds", "provenance")}
    return out


@pytest.mark.slow
def test_hidden_villain_sweep_survives_sigkill(tmp_path):
    folder = sweep_survives_sigkill(tmp_path, HIDDEN, "hidden", 20261203, _hidden_records)
    assert len(list(folder.glob("*.json"))) == 6


# ---------------------------------------------------------------- Goat Lords tournament

GAMES = ["goat-lords", "--games", "400", "--workers", "1", "--seed", "7"]


def _csv(folder: Path) -> Path:
    (path,) = folder.glob("goat_lords_*.csv")
    return path


def _frame(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str)


@pytest.mark.slow
def test_goat_lords_tournament_survives_sigkill(tmp_path):
    rng = random.Random(20261202)
    reference = tmp_path / "reference"
    farol(GAMES + ["--out", str(reference)], tmp_path)
    folder = tmp_path / "games"
    args = GAMES + ["--out", str(folder)]
    interrupt(args, tmp_path, folder, lambda: any(folder.glob("goat_lords_*.csv")),
              rng.uniform(0.1, 1.0))
    saved = _csv(folder).read_bytes()
    whole = saved[: saved.rfind(b"\n") + 1]
    farol(args, tmp_path)
    final = _csv(folder).read_bytes()
    assert final.startswith(whole), "rows saved before the kill were rewritten"
    frame = _frame(_csv(folder))
    assert not frame["index"].duplicated().any()
    assert len(frame) == 400
    pd.testing.assert_frame_equal(frame, _frame(_csv(reference)))


@pytest.mark.slow
def test_goat_lords_half_written_row_is_played_again(tmp_path):
    """A kill in the middle of an append leaves a last line without its newline: the
    reader ignores it and the resumed run replaces it by the whole row."""
    exp = Experiment("halfrow", 2, ("greedy", "greedy"), 12, seed=3)
    reference = run_experiment(exp, tmp_path / "reference", workers=1, progress=False)
    folder = tmp_path / "games"
    run_experiment(Experiment("halfrow", 2, ("greedy", "greedy"), 8, seed=3), folder,
                   workers=1, progress=False)
    path = folder / "goat_lords_halfrow.csv"
    whole = path.read_bytes()
    reference_text = (tmp_path / "reference" / "goat_lords_halfrow.csv").read_bytes()
    # The 9th game's row, cut in the middle (as a SIGKILL during the write would leave it).
    ninth = reference_text[len(whole):].split(b"\n")[0]
    path.write_bytes(whole + ninth[: len(ninth) // 2])
    assert len(load_rows(exp, folder)) == 8
    rows = run_experiment(exp, folder, workers=1, progress=False)
    assert path.read_bytes() == reference_text
    pd.testing.assert_frame_equal(rows.reset_index(drop=True),
                                  reference.reset_index(drop=True))


# ---------------------------------------------------------------- checkpointed solve

ITERATIONS = 60_000


def _solve(out: Path, checkpoint: Path, *extra: str) -> list[str]:
    return ["solve", "leduc_poker", "--iterations", str(ITERATIONS), "--out", str(out),
            "--checkpoint", str(checkpoint), "--no-progress", *extra]


def _checkpoint_iteration(path: Path) -> int:
    with np.load(path) as data:
        return int(data["iteration"])


@pytest.mark.slow
def test_checkpointed_solve_survives_sigkill(tmp_path):
    """A solve stopped with a checkpoint, then killed while continuing, resumes from the
    checkpoint and ends with the very strategy of an uninterrupted solve (CFR+ is
    deterministic and the checkpoint holds its whole state)."""
    rng = random.Random(20261203)
    farol(_solve(tmp_path / "reference", tmp_path / "reference.npz"), tmp_path)
    out, checkpoint = tmp_path / "out", tmp_path / "ck.npz"
    farol(_solve(out, checkpoint, "--seconds", "1"), tmp_path)
    saved = _checkpoint_iteration(checkpoint)
    assert 0 < saved < ITERATIONS
    stopped = checkpoint.read_bytes()
    delay = rng.uniform(2.0, 6.0)
    while True:
        proc = start(_solve(out, checkpoint), tmp_path)
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            # The checkpoint is whole, not half-written. A kill after the last iteration's
            # checkpoint (while the results are written) interrupts no iteration: try sooner.
            if kill(proc) and _checkpoint_iteration(checkpoint) < ITERATIONS:
                break
        # A machine fast enough to finish first: back to the stopped solve, kill sooner.
        assert delay > 0.1, "the solve always finished before it could be interrupted"
        checkpoint.write_bytes(stopped)
        delay /= 2
    resumed_from = _checkpoint_iteration(checkpoint)
    assert saved <= resumed_from < ITERATIONS
    farol(_solve(out, checkpoint), tmp_path)
    result = json.loads((out / "result.json").read_text())
    reference = json.loads((tmp_path / "reference" / "result.json").read_text())
    assert result["iterations"] == reference["iterations"] == ITERATIONS
    for key in ("value", "exploitability", "nash_conv", "best_response"):
        assert result[key] == reference[key], key
    with np.load(out / "strategy.npz") as a, np.load(tmp_path / "reference" / "strategy.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        for name in a.files:
            np.testing.assert_array_equal(a[name], b[name])


# ---------------------------------------------------------------- Coup endgame sweep

COUP = ["coup", "sweep", "--caps", "1", "--coins", "0-2", "--decks", "ambassador",
        "--workers", "1"]


def _coup_records(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        out[path.name] = {k: v for k, v in data.items() if not k.endswith("seconds")}
    return out


@pytest.mark.slow
def test_coup_sweep_survives_sigkill(tmp_path):
    rng = random.Random(20261204)
    reference = tmp_path / "reference"
    farol(COUP + ["--directory", str(reference)], tmp_path)
    folder = tmp_path / "endgames"
    args = COUP + ["--directory", str(folder)]
    interrupt(args, tmp_path, folder, lambda: any(folder.glob("*.json")),
              rng.uniform(0.1, 1.5), complete=lambda: len(list(folder.glob("*.json"))) >= 9)
    before = snapshot(folder, "*.json")
    assert 0 < len(before) < 9
    for _, raw in before.values():
        json.loads(raw)
    farol(args, tmp_path)
    after = snapshot(folder, "*.json")
    for name, saved in before.items():
        assert after[name] == saved, f"{name} was recomputed"
    assert len(after) == 9
    assert _coup_records(folder) == _coup_records(reference)
    assert_only_records(folder)
