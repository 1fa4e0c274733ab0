"""Benchmark: a new user's first requests, each in a fresh process with an empty cache.

The three requests a user tries first, on a fresh clone (``FAROL_CACHE_DIR`` an empty
temporary folder, the stored results of ``reports/data/`` as shipped in git):

- Coup: opening advice in a 2-player game (``farol advise coup --history ...``: what
  ``best`` plays there; ``--cap-pricing`` now goes only with ``--exact``);
- ¡Cobardes!: advice at a battle's opening with a villain (``farol advise cobardes
  --my-courtier Squire --their-courtier Archer --my-villain Thug``);
- ¡Cobardes!: a game against the solved opponent (``farol play python_cobardes_battle
  --opponent solved``, quitting at the first prompt).

Each must answer, or refuse in one line naming the command that precomputes the answer,
within 10 seconds. Wall time and peak memory (``/usr/bin/time -v``) are measured per
request; a request still running at ``--timeout`` seconds is stopped and marked so.

Run: ``.venv/bin/python benchmarks/natural_requests.py [--timeout 60]``; writes
``benchmarks/results/natural_requests.{txt,json}``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import results_file
from results_file import machine

from analysis.shared.provenance import code_commit, farol_version

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).resolve().parent / "results"
FAROL = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())"]
LIMIT = 10.0  # seconds a natural request may take

REQUESTS = (
    ("coup opening",
     ["advise", "coup", "--history", "Draw Duke;Draw Contessa;Draw Captain;Draw Assassin"],
     ""),
    ("cobardes villain advice",
     ["advise", "cobardes", "--my-courtier", "Squire", "--their-courtier", "Archer",
      "--my-villain", "Thug"], ""),
    ("cobardes solved opponent",
     ["play", "python_cobardes_battle", "--opponent", "solved", "--seed", "1"], "q\n"),
)

# What the same requests did before this work (commit c98b8c9), as reported on a
# fresh clone, and the one re-measured here before the change.
BEFORE = (
    "coup opening: nothing printed, stopped at 175 s and 0.9 GB (reported); re-measured "
    "here: nothing printed, stopped at 60 s",
    "cobardes villain advice: nothing printed, stopped at 175 s and 3.5 GB (reported)",
    "cobardes solved opponent: no answer after the first move, 1.3 GB, progress only on a "
    "terminal (reported)",
    "the full solve behind the ¡Cobardes! requests (farol advise cobardes --history "
    "... --solve, Squire vs Archer): 11 min 53 s and 3.5 GB peak, measured here",
)

# What storing the shipped answers took, measured here once (the machine shared with a
# background sweep): the commands a user runs to add more.
PRECOMPUTED = (
    "farol coup openings --deck ambassador --setups basic: 6 min 14 s, 2.9 GB peak "
    "(a 36.6 million node tree, 119 CFR+ iterations, exploitability 9.3e-05); 25 kB stored",
    "farol cobardes openings --matchups Squire/Archer: the battle's solve above, then 3.5 s; "
    "15 kB stored",
)


def run(argv: list[str], stdin: str, timeout: float) -> dict:
    """One request in a fresh process with an empty cache: seconds, peak memory, exit
    status, and the first lines it printed."""
    with tempfile.TemporaryDirectory(prefix="farol-fresh-cache-") as cache:
        env = dict(os.environ, FAROL_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        env.pop("FAROL_PROGRESS", None)
        timed = ["/usr/bin/time", "-v", *FAROL, *argv]
        start = time.perf_counter()
        proc = subprocess.Popen(timed, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
            stopped = False
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            stopped = True
        seconds = time.perf_counter() - start
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    said = [line for line in err.splitlines()
            if line and not line.startswith(("\t", "Command"))]
    return {"seconds": round(seconds, 2), "stopped": stopped,
            "exit_status": None if stopped else proc.returncode,
            "peak_mb": round(int(peak.group(1)) / 1024, 1) if peak else None,
            "stdout_head": out.splitlines()[:3], "stderr": said[:3]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds after which a request is stopped (default 60)")
    args = results_file.parse_args(parser)
    record = {"version": farol_version(), "commit": code_commit(), "seed": None,
              "machine": machine(), "limit_seconds": LIMIT, "before": list(BEFORE),
              "precomputed": list(PRECOMPUTED),
              "requests": []}
    lines = ["A new user's first requests, each in a fresh process with an empty cache "
             "(benchmarks/natural_requests.py)",
             f"machine: {record['machine']}",
             f"Farol {record['version']}, commit {record['commit']}",
             "one run of each request (wall time includes Python's start and imports, about "
             "1 s; the machine is shared, so a second or two either way is noise)", ""]
    for name, argv, stdin in REQUESTS:
        got = run(argv, stdin, args.timeout)
        got |= {"name": name, "command": "farol " + " ".join(argv)}
        record["requests"].append(got)
        status = (f"stopped at {args.timeout:.0f} s" if got["stopped"]
                  else f"exit status {got['exit_status']}")
        verdict = "within" if not got["stopped"] and got["seconds"] <= LIMIT else "OVER"
        lines += [f"{name}: {got['seconds']:.1f} s ({verdict} {LIMIT:.0f} s), peak "
                  f"{got['peak_mb']} MB, {status}",
                  f"  $ {got['command']}"]
        lines += [f"  | {line}" for line in got["stdout_head"] + got["stderr"]]
        lines.append("")
        print("\n".join(lines[-(3 + len(got["stdout_head"]) + len(got["stderr"])):]),
              flush=True)
    lines += ["Before this work:"] + [f"  {b}" for b in BEFORE]
    lines += ["", "Storing the shipped answers:"] + [f"  {p}" for p in PRECOMPUTED]
    results_file.save(RESULTS, "natural_requests", lines, record)
    print(f"written: {RESULTS / 'natural_requests.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
