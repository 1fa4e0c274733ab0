"""SIGTERM (``kill``) and SIGHUP (the terminal closed) end a pooled command and every
one of its workers, as Ctrl-C does: no worker is left playing after its command ended.
(Before, the command died at SIGTERM and left its two workers running at full CPU.)"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> set[int]:
    out = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out |= {int(c) for c in (task / "children").read_text().split()}
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _run_then_end(argv: list[str], sig: int, tmp_path: Path, workers: int = 2) -> tuple:
    env = dict(os.environ, PYTHONPATH=str(ROOT), FAROL_DATA_DIR=str(tmp_path / "data"),
               FAROL_CACHE_DIR=str(tmp_path / "cache"), FAROL_PROGRESS="0")
    errors = tmp_path / "stderr.txt"  # a file: a worker left running would hold a pipe open
    workers_seen: set[int] = set()
    with errors.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from analysis.cli import main; "
             "sys.exit(main())", *argv], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
            stderr=err, start_new_session=True)  # its own group: only it gets the signal
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and len(workers_seen) < workers:
            workers_seen = {c for c in _children(proc.pid) if _alive(c)}
            assert proc.poll() is None, errors.read_text()
            time.sleep(0.2)
        assert len(workers_seen) >= workers, "the workers did not start"
        time.sleep(1.0)  # the workers are playing
        proc.send_signal(sig)
        status = proc.wait(timeout=60)
        time.sleep(1.0)
        left = {c for c in workers_seen if _alive(c)}
        return status, errors.read_text(), left
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in workers_seen:  # the test leaves nothing running, whatever it found
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


MATCH = ["coup", "match", "--agents", "honest,bluffer", "--games", "200000", "--workers", "2"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_command_and_its_workers(sig, tmp_path):
    status, err, left = _run_then_end(MATCH, sig, tmp_path)
    assert not left, f"workers still running after {signal.Signals(sig).name}: {left}"
    assert status == 128 + sig, err
    assert err.strip().endswith(f"stopped ({signal.Signals(sig).name})"), err


@pytest.mark.slow
def test_sigterm_ends_a_whatif_and_its_workers(tmp_path):
    status, err, left = _run_then_end(
        ["whatif", "coup", "--param", "assassination_cost=4", "--players", "2",
         "--workers", "2", "--out", str(tmp_path / "out")], signal.SIGTERM, tmp_path)
    assert not left and status == 128 + signal.SIGTERM, (left, err)
