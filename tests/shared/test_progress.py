"""Progress on standard error off a terminal (plain lines with the time left, no
carriage returns) and Ctrl-C (one line, exit status 130): analysis/shared/progress.py."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis.shared import progress

ROOT = Path(__file__).resolve().parents[2]
FAROL = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())"]


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setenv(progress.EVERY_ENV, "0.1")
    monkeypatch.delenv(progress.ENV, raising=False)


def test_plain_lines_off_a_terminal_say_the_time_left(quick):
    out = io.StringIO()
    with progress.bar(total=8, desc="test work", unit=" steps", file=out) as b:
        for _ in range(8):
            time.sleep(0.06)
            b.update(1)
    text = out.getvalue()
    lines = text.splitlines()
    assert "\r" not in text and len(lines) >= 2
    assert all(line.startswith("farol: test work: ") for line in lines)
    assert any(" left" in line for line in lines[:-1])
    # About half a second of work: 0 s, or 1 s on a loaded machine.
    assert re.search(r"ended after [01] s$", lines[-1]) and "8/8 steps (100%)" in lines[-1]


def test_a_long_single_step_still_shows_it_goes_on(quick):
    out = io.StringIO()
    b = progress.bar(desc="compiling", unit=" nodes", file=out)
    time.sleep(0.4)  # no update at all
    b.close()
    assert out.getvalue().count("farol: compiling: 0 nodes") >= 2


def test_quick_work_and_farol_progress_0_are_silent(quick, monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(progress, "DELAY", 5.0)
    with progress.bar(total=3, desc="quick", file=out) as b:
        b.update(3)
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setenv(progress.ENV, "0")
    with progress.bar(total=3, desc="silenced", file=out) as b:
        time.sleep(0.3)
        b.update(3)
    assert out.getvalue() == ""


def test_expect_names_the_wait_and_the_faster_way():
    out = io.StringIO()
    progress.expect("solving", 150, "farol x --fast", file=out)
    progress.expect("quick", 0.5, file=out)
    assert out.getvalue() == "farol: solving: expect about 2 min 30 s; faster: farol x --fast\n"


def _env(**extra) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **extra)
    env.pop(progress.ENV, None)
    return env


def test_a_command_off_a_terminal_prints_plain_progress(tmp_path):
    run = subprocess.run([*FAROL, "solve", "leduc_poker", "--iterations", "100000000",
                          "--seconds", "4", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env=_env(FAROL_CACHE_DIR=str(tmp_path), FAROL_PROGRESS_EVERY="0.5"))
    assert run.returncode == 0, run.stderr
    assert "\r" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.startswith("farol: cfr+")]
    assert len(lines) >= 3, run.stderr
    assert any(" left" in line for line in lines)
    assert "ended after" in lines[-1]


def test_ctrl_c_stops_with_one_line_and_status_130(tmp_path):
    proc = subprocess.Popen([*FAROL, "solve", "leduc_poker", "--iterations", "1000000000",
                             "--out", str(tmp_path / "out")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=_env(FAROL_CACHE_DIR=str(tmp_path), FAROL_PROGRESS_EVERY="0.2"))
    try:
        assert proc.stderr.readline().startswith("farol: cfr+")  # the work is under way
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.monotonic() - sent < 15
    assert proc.returncode == 130
    rest = [line for line in err.splitlines() if not line.startswith("farol: cfr+")]
    assert rest == ["farol solve: interrupted"], err
    assert "Traceback" not in err


def test_a_match_shows_plain_progress_off_a_terminal():
    """``farol coup match`` run by a script (standard error not a terminal) says how far it
    is in plain lines, without carriage returns."""
    env = dict(os.environ, **{progress.ENV: "1", progress.EVERY_ENV: "0.5"})
    run = subprocess.run(FAROL + ["coup", "match", "--agents", "search", "--players", "4",
                                  "--games", "40", "--workers", "1"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert "\r" not in run.stderr
    assert any(line.startswith("farol: python_coup: ") for line in lines), run.stderr
    assert "/40 games (" in run.stderr


def test_the_time_left_counts_only_this_runs_pace_on_a_resumed_run():
    # 500 of 2,400 games kept from a stopped run, 100 more played in 150 s: 1,800 are
    # left at 1.5 s each, 45 minutes (not 150 s x 1,800 / 600).
    d = {"n": 600, "total": 2400, "elapsed": 150.0, "initial": 500, "unit": "game",
         "prefix": "games"}
    assert progress.plain_line(d).endswith("2 min 30 s so far, about 45 min 0 s left")
    # Nothing played yet in this run: no pace to tell the time left by.
    assert "left" not in progress.plain_line(d | {"n": 500, "elapsed": 3.0})
    assert progress.plain_line(d | {"initial": 0}).endswith("about 7 min 30 s left")


def test_the_time_left_counts_down_between_steps():
    """10 of 40 steps done at 20 s (2 s a step): 60 s left then; 15 s later, with no step
    since, 45 s; it never grows while no step comes."""
    d = {"n": 10, "total": 40, "elapsed": 20.0, "initial": 0}
    assert progress.time_left(d, last=20.0) == pytest.approx(60.0)
    later = [progress.time_left(d | {"elapsed": t}, last=20.0) for t in (25.0, 35.0, 90.0)]
    assert later == pytest.approx([55.0, 45.0, 0.0])
    assert progress.plain_line(d | {"elapsed": 35.0, "prefix": "x"},
                               last=20.0).endswith("about 45 s left")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_bar_shows_within_the_delay_and_goes_on_without_steps(quick):
    """On a terminal the bar appears once the delay has passed even if no step has ended,
    and is drawn again while the first step goes on."""
    out = _Terminal()
    b = progress.bar(total=3, desc="slow start", unit=" games", file=out)
    assert isinstance(b, progress.TerminalBar)
    time.sleep(1.3)  # the first step takes long: nothing calls update
    drawn = out.getvalue()
    b.close()
    assert drawn.count("slow start") >= 2 and "0/3 games" in drawn


def test_a_match_in_one_process_counts_each_game_as_it_ends(monkeypatch):
    """One worker plays games one by one, each counted as it ends (a bar that moved in
    chunks of 50 said nothing for a minute)."""
    from analysis.play import match

    steps: list[int] = []

    class Counting(progress.PlainBar):
        def update(self, n=1):
            steps.append(n)
            return super().update(n)

    def counting_bar(progress=None, **kw):
        return Counting(file=io.StringIO(), **kw)

    monkeypatch.setattr(match, "progress_bar", counting_bar)
    match.play_games("python_coup", ("random", "random"), 12, seed=1, progress=True)
    assert steps == [1] * 12


def test_the_reports_bar_counts_each_step_for_what_it_took_last_time(tmp_path, monkeypatch):
    """``farol report all`` counts each report for the seconds it took the last time, so
    a slow report does not make the time left grow; the seconds are kept for next time."""
    from analysis.report import write

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    store_path = tmp_path / "report_timings.json"
    store_path.write_text('{"coup appendix": 6.0, "coup guide": 1.0, "index and site": 1.0}')
    shares: list[float] = []

    class Recorder(progress.PlainBar):
        def update(self, n=1):
            shares.append(n)
            return super().update(n)

    monkeypatch.setattr(write, "bar", lambda **kw: Recorder(file=io.StringIO(), **kw))
    monkeypatch.setattr(write, "write_family_report", lambda key, out, quick: out / "a.md")
    monkeypatch.setattr(write, "write_guide", lambda key, out: out / "g.md")
    monkeypatch.setattr(write, "write_index", lambda out: out / "index.md")
    monkeypatch.setattr(write, "write_site", lambda out, keys: out / "site")
    written = write.write_all(["coup"], tmp_path)
    assert [p.name for p in written] == ["a.md", "g.md", "index.md", "site"]
    assert shares == pytest.approx([75.0, 12.5, 12.5])
    kept = json.loads(store_path.read_text())
    assert set(kept) == {"coup appendix", "coup guide", "index and site"}
    assert all(v < 1.0 for v in kept.values())  # this run's own (quick) seconds
