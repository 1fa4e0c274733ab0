"""Benchmark: a whole deck's Coup blueprint built from an empty cache, as a user starts it.

Runs ``farol coup blueprint build --setups basic,standard,draft`` in a fresh cache and
data folder (nothing reused from earlier builds) with the given workers, and times each
step by when its file lands in the cache: each part's graph, its trained strategy, and
each setup's values at every position (what advice re-solves from). The measurement of
the blueprint's accuracy and the bluff tables are left out (``--response-iterations 0
--local-games 0 --bluff-games 0``): they are timed by their own runs. The reference in
the same run: the two parts' own times, whose sum is what one process would take.

Run: ``.venv/bin/python benchmarks/coup_blueprint_build.py [--deck ambassador]
[--iterations 50] [--workers 2] [--render]``; writes ``benchmarks/results/coup_blueprint_build_<deck>.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import results_file

from analysis.shared.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parent.parent
AIM_SECONDS = 2 * 3600


def steps(deck: str) -> dict[str, str]:
    """Each step's name -> the cache file that lands when it is done."""
    # A part's strategy file is first saved when its first setup is trained.
    files = {"dealt graph walked": f"{deck}-dealt-graph.npz",
             "draft graph walked": f"{deck}-draft-graph.npz",
             "basic trained": f"{deck}-dealt-strategy.npz",
             "draft trained": f"{deck}-draft-strategy.npz"}
    for setup in ("basic", "standard", "draft"):
        files[f"{setup} values at every position"] = f"{deck}-{setup}-values.npz"
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="ambassador", choices=("ambassador", "inquisitor"))
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--render", action="store_true",
                        help="print and write the text of the stored JSON again, no build")
    args = results_file.parse_args(parser, argv)
    stem = RESULTS / f"coup_blueprint_build_{args.deck}"
    if args.render:
        return write(json.loads(stem.with_suffix(".json").read_text()), stem)
    out = {"provenance": provenance(None), "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
           "load_average": os.getloadavg()[0], "deck": args.deck,
           "iterations": args.iterations, "workers": args.workers}
    with tempfile.TemporaryDirectory(prefix="farol-build-") as scratch:
        cache = Path(scratch, "cache")
        folder = cache / "coup" / "blueprint"
        command = [sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())",
                   "--data", str(Path(scratch, "data")),
                   "coup", "blueprint", "build", "--deck", args.deck,
                   "--setups", "basic,standard,draft", "--iterations", str(args.iterations),
                   "--response-iterations", "0", "--local-games", "0", "--bluff-games", "0",
                   "--workers", str(args.workers)]
        env = os.environ | {"FAROL_CACHE_DIR": str(cache)}
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=REPO, env=env)
        landed: dict[str, float] = {}
        while child.poll() is None:
            for step, name in steps(args.deck).items():
                if step not in landed and (folder / name).exists():
                    landed[step] = time.perf_counter() - start
            time.sleep(2)
        out["seconds"] = time.perf_counter() - start
        out["exit_status"] = child.returncode
        for step, name in steps(args.deck).items():  # a step that landed in the last 2 s
            if step not in landed and (folder / name).exists():
                landed[step] = out["seconds"]
        out["steps_seconds"] = landed
        out["cache_megabytes"] = sum(f.stat().st_size for f in folder.glob("*")) / 2 ** 20
    # The largest process's peak (each part's process, or the one process with 1 worker).
    out["peak_rss_gigabytes"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2 ** 20
    dealt = max((t for s, t in landed.items() if "draft" not in s), default=float("nan"))
    draft = max((t for s, t in landed.items() if "draft" in s), default=float("nan"))
    out["part_seconds"] = {"dealt": dealt, "draft": draft}
    return write(out, stem)


def write(out: dict, stem: Path) -> int:
    """Print the results' text and write it beside their JSON at ``stem``."""
    landed = out["steps_seconds"]
    dealt, draft = out["part_seconds"]["dealt"], out["part_seconds"]["draft"]
    lines = [f"Coup blueprint, whole {out['deck']} deck from an empty cache "
             "(benchmarks/coup_blueprint_build.py)",
             f"machine: {out['machine']}; load average at the start {out['load_average']:.1f}",
             f"{out['iterations']} CFR+ iterations per setup, {out['workers']} worker processes; "
             f"exit status {out['exit_status']}", ""]
    lines += [f"  {t / 60:6.1f} min  {step}" for step, t in sorted(landed.items(),
                                                                    key=lambda kv: kv[1])]
    lines += ["",
              f"whole deck: {out['seconds'] / 3600:.2f} h (aim: 2 h at most); the two parts "
              f"took {dealt / 3600:.2f} h (basic, standard) and {draft / 3600:.2f} h (draft), "
              f"about {(dealt + draft) / 3600:.2f} h one after the other",
              f"largest process's peak memory {out['peak_rss_gigabytes']:.1f} GB; "
              f"cache {out['cache_megabytes']:,.0f} MB"]
    commit = out.get("provenance", {}).get("commit")
    if commit:
        lines.append(f"code: commit {commit[:7]}")
    print(*lines, sep="\n")
    results_file.save(stem.parent, stem.name, lines, out)
    return 0 if out["exit_status"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
