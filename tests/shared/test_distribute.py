"""Local process pools end with the command at Ctrl-C."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from analysis.shared.distribute import local_pool

REPOSITORY = Path(__file__).resolve().parents[2]


def _sigint_action():
    return signal.getsignal(signal.SIGINT)


def test_workers_end_at_ctrl_c_unless_the_command_ignores_it():
    previous = signal.getsignal(signal.SIGINT)
    try:
        for here, there in ((signal.default_int_handler, signal.SIG_DFL),
                            (signal.SIG_IGN, signal.SIG_IGN)):
            signal.signal(signal.SIGINT, here)
            with local_pool(2) as pool:
                assert pool.submit(_sigint_action).result() == there
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_match_and_all_its_workers():
    """Ctrl-C (SIGINT to the command's process group, as a terminal sends it) during a
    2-process match: the command says it was interrupted and no worker goes on."""
    code = "import sys; from analysis.cli import main; sys.exit(main())"
    run = subprocess.Popen(
        [sys.executable, "-c", code, "goat-lords", "match", "--agents", "lord:432,greedy",
         "--games", "400", "--workers", "2"], cwd=REPOSITORY, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # as from a terminal, whatever runs the tests (pytest-xdist's workers ignore Ctrl-C)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(8)  # the workers are playing their first games
    workers = subprocess.run(["pgrep", "-P", str(run.pid)], capture_output=True, text=True)
    children = [int(p) for p in workers.stdout.split()]
    assert children, "the match started no workers"
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130 and "interrupted" in err, err[-800:]
    time.sleep(1)
    alive = [p for p in children if _alive(p)]
    assert not alive, f"workers still running after Ctrl-C: {alive}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"
