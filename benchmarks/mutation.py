"""Mutation testing of the code that carries results: do the tests fail when it is wrong?

Cosmic Ray (``cosmic-ray``, see docs/testing.md) makes small changes (mutants) to one
function at a time: an operator swapped (``+`` for ``-``, ``<`` for ``<=``), a number
moved by one, a condition negated, a loop skipped. Each mutant is applied to a copy of
the committed code and the tests chosen for that code are run; a mutant the tests do
not fail on *survived*, and the mutation score is the share killed.

Each :data:`TARGETS` entry names the functions of one concern (the CFR updates, the
best response, the local best response's gain, the what-if's difference, the
intervals, ...), the tests that must catch a change to them, and how many mutants are
tried (a fixed sample, spread evenly over the functions' sites, the same on every run).
Numba is switched off while mutants run (``NUMBA_DISABLE_JIT=1``: the compiled kernels
run as the Python they are written in), so each mutant costs a test run and no compile.

``--write`` (what makes ``benchmarks/results/mutation.txt`` and ``.json``) records each
target's score and its surviving mutants; ``--check`` (run by ``.ci/run``) runs the same
sample and fails, naming the target, when a score falls below the committed one (a
ratchet: the scores only go up). ``--budget`` stops a run that would go over its time,
saying so, and fails it.

Run: ``.venv/bin/python benchmarks/mutation.py --write`` (about 10 minutes on 2 idle
cores) or ``--check``; ``--only NAME,...`` for some targets.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import results_file

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
STEM = "mutation"
# Operators left out: bit operators and shifts on floats only raise (a TypeError kills
# them for nothing), and removing @njit changes nothing with numba switched off.
LEFT_OUT = ("_RShift", "_LShift", "_BitOr", "_BitAnd", "_BitXor", "RemoveDecorator")
TIMEOUT = 120.0  # seconds a mutant's tests may take (more: killed, as a hang)
# Equivalent mutants: the same program, no test can tell. (function, operator, the
# mutated line) -> why; left out before the sample is drawn, and listed.
GTE = "core/ReplaceComparisonOperator_Gt_GtE"
EQUIVALENT = {
    ("best_response", "core/ReplaceComparisonOperator_Eq_LtE", "if iplayer[i] == p:"):
        "also clears the opponent's rows of q, which are never read",
    ("update_player", GTE, "if r > 0.0:"): "adds a zero regret to the total",
    ("update_player", GTE, "r = r * pos if r > 0.0 else r * neg"): "a zero regret stays 0",
    ("update_player_predictive", GTE, "regret[j] = r * pos if r > 0.0 else 0.0"):
        "a zero regret stays 0",
    ("_match_row", GTE, "if regret[j] > 0.0:"): "adds a zero regret to the total",
    ("_set_row", GTE, "sigma[j] = regret[j] * scale if regret[j] > 0.0 else 0.0"):
        "a zero regret gets probability 0 either way",
    ("_predict_row", GTE, "if q > 0.0:"): "adds a zero to the total",
    ("_predict_row", "core/ReplaceComparisonOperator_Gt_NotEq", "if total > 0.0:"):
        "the total sums positive numbers: not 0 is more than 0",
    ("best_response", "core/NumberReplacer", "q[j] = 0.0"):
        "every action of a set starts from the same number: the best one is the same",
    ("best_response", "core/ReplaceComparisonOperator_NotEq_Eq", "if ro == 0.0 and h != 0:"):
        "a node nobody reaches is valued anyway (its weight is 0); the root is always reached",
    ("best_response", "core/ReplaceComparisonOperator_NotEq_IsNot",
     "if best != choice[i] and q[lo + choice[i]] < best_q:"):
        "the second test alone keeps the old choice on a tie",
    ("best_response", "core/ReplaceBinaryOperator_Sub_Mod", "elif k - 2 == p:"):
        "player nodes are kinds 2 and 3: k % 2 is k - 2 there",
    ("best_response", "core/ReplaceBinaryOperator_Add_Pow",
     "for j in range(lo + 1, offset[i + 1]):"):
        "the first action compared with itself is never better",
    ("own_reach_rows", "core/ReplaceComparisonOperator_Eq_LtE", "if iplayer[i] == p:"):
        "also refreshes the other player's own reaches, which its own pass recomputes",
    ("bound_of", "core/ReplaceComparisonOperator_Eq_GtE",
     "total = next(r for r in result.totals() if r.agent == lineup[0])"):
        "the responder comes first in the totals, so the first match is the same",
    ("_predict_row", GTE, "sigma[j] = q * scale if q > 0.0 else 0.0"):
        "a zero gets probability 0 either way",
}


def equivalent(code: Path, spec) -> str | None:
    """Why the mutant ``spec`` is equivalent, or None."""
    line = (code / spec.module_path).read_text().splitlines()[spec.start_pos[0] - 1].strip()
    return EQUIVALENT.get((spec.definition_name, spec.operator_name, line))


@dataclass(frozen=True)
class Target:
    """One concern's functions in one module, the tests that guard them, and the sample."""

    name: str
    module: str
    functions: tuple[str, ...]
    tests: tuple[str, ...]
    mutants: int


PY = "tests/play/test_whatif_direction.py"
TARGETS = (
    Target("CFR update", "analysis/solve/kernels.py",
           ("update_player", "update_player_predictive", "regret_matching", "_match_row",
            "_set_row", "predictive_matching", "_predict_row", "cfr_backward", "clear_rows",
            "normalize_rows", "own_reach_rows", "own_reach_nodes"),
           ("tests/solve/test_solve_kernels.py", "tests/solve/test_solve_discounted.py",
            "tests/solve/test_solve_predictive.py::test_update_rules_match_the_papers"), 30),
    Target("best response", "analysis/solve/kernels.py",
           ("best_response", "forward_other", "expected_value"),
           ("tests/solve/test_solve_engine.py", "tests/solve/test_solve_kernels.py", "-k",
            "best_response or equals_openspiel and not liars or equilibrium or graph_passes "
            "or expected_value"),
           15),
    Target("exploitability", "analysis/solve/best_response.py",
           ("best_response", "exploitability", "expected_value", "check_strategy"),
           ("tests/solve/test_solve_engine.py", "-k",
            "best_response or equals_openspiel and not liars or equilibrium"), 8),
    Target("LBR gain", "analysis/coup/studies/local_best_response.py",
           ("bound_of", "at_least", "complete"),
           ("tests/coup/test_coup_local_best_response.py", "-k",
            "hand_made or saves_and_reloads or complete"),
           10),
    Target("what-if difference", "analysis/play/whatif.py",
           ("paired_difference", "estimate", "holds", "half_width"),
           (PY, "-k", "not dearer"), 12),
    Target("intervals", "analysis/statistics/intervals.py",
           ("wilson", "mean_interval", "cluster_interval", "standard_error", "difference",
            "pooled", "bound_points"),
           (PY, "-k", "not dearer"), 15),
)


def copy_of_the_code(into: Path) -> Path:
    """The committed code (``git archive HEAD``) unpacked into ``into``: mutants never
    touch the checkout."""
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def config_text(target: Target) -> str:
    tests = " ".join(f"'{t}'" if " " in t else t for t in target.tests)
    return (f'[cosmic-ray]\nmodule-path = "{target.module}"\ntimeout = {TIMEOUT}\n'
            f'excluded-modules = []\ntest-command = "{sys.executable} -m pytest -x -q '
            f'-p no:cacheprovider -o addopts= {tests.replace(chr(34), chr(39))}"\n\n'
            '[cosmic-ray.distributor]\nname = "local"\n')


def sample(items, count: int) -> set[str]:
    """``count`` work items spread evenly over the sites in source order (every run the
    same ones): the job ids kept."""
    items = sorted(items, key=lambda w: (tuple(w.mutations[0].start_pos),
                                         w.mutations[0].operator_name,
                                         w.mutations[0].occurrence))
    if len(items) <= count:
        return {w.job_id for w in items}
    step = len(items) / count
    return {items[int(k * step)].job_id for k in range(count)}


def run_target(target: Target, code: Path, deadline: float) -> dict:
    """Init, filter to the target's functions and sample, execute; the outcome."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    session = code / f".{target.name.replace(' ', '_')}.sqlite"
    config = code / f".{target.name.replace(' ', '_')}.toml"
    config.write_text(config_text(target))  # scratch file, in the temporary copy
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(code), FAROL_PROGRESS="0")
    cosmic = str(Path(sys.executable).parent / "cosmic-ray")
    subprocess.run([cosmic, "init", str(config), str(session), "--force"], cwd=code, env=env,
                   check=True, capture_output=True)
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = [w for w in db.work_items
                 if w.mutations[0].definition_name in target.functions
                 and not any(x in w.mutations[0].operator_name for x in LEFT_OUT)]
        equivalents = sorted({f"{w.mutations[0].definition_name}: "
                              f"{w.mutations[0].operator_name.removeprefix('core/')} "
                              f"({equivalent(code, w.mutations[0])})"
                              for w in items if equivalent(code, w.mutations[0])})
        items = [w for w in items if not equivalent(code, w.mutations[0])]
        keep = sample(items, target.mutants)
        skip = [w.job_id for w in db.work_items if w.job_id not in keep]
        db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    start = time.perf_counter()
    if time.perf_counter() > deadline:
        raise TimeoutError(target.name)
    try:
        subprocess.run([cosmic, "exec", str(config), str(session)], cwd=code, env=env,
                       check=True, capture_output=True,
                       timeout=max(1.0, deadline - time.perf_counter()))
    except subprocess.TimeoutExpired:
        raise TimeoutError(target.name) from None
    seconds = time.perf_counter() - start
    killed, survived, survivors = 0, 0, []
    with use_db(str(session), WorkDB.Mode.open) as db:
        by_id = {w.job_id: w for w in db.work_items}
        for job_id, result in db.results:
            if job_id not in keep:
                continue
            if result.worker_outcome in (WorkerOutcome.SKIPPED, WorkerOutcome.NO_TEST):
                continue
            if result.is_killed:
                killed += 1
            else:
                survived += 1
                m = by_id[job_id].mutations[0]
                survivors.append(f"{target.module}:{m.start_pos[0]} {m.definition_name}: "
                                 f"{m.operator_name.removeprefix('core/')} #{m.occurrence}")
    tried = killed + survived
    return {"name": target.name, "module": target.module, "functions": list(target.functions),
            "tests": " ".join(target.tests), "candidates": len(items), "mutants": tried,
            "killed": killed, "survived": survived,
            "score": killed / tried if tried else None, "survivors": sorted(survivors),
            "equivalent_left_out": equivalents,
            "seconds": round(seconds, 1)}


def baseline(code: Path, targets: list[Target]) -> None:
    """The chosen tests pass on the unmutated copy (else every mutant 'dies')."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(code), FAROL_PROGRESS="0")
    for tests in dict.fromkeys(t.tests for t in targets):
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                               "no:cacheprovider", "-o", "addopts=", *tests], cwd=code, env=env,
                              capture_output=True, text=True)
        if done.returncode:
            tail = (done.stdout.strip().splitlines() or [""])[-1]
            raise SystemExit(f"mutation: the tests {' '.join(tests)} fail without mutants "
                             f"({tail})")


def lines_of(rows: list[dict], budget: float, seconds: float) -> list[str]:
    out = [f"machine: {results_file.machine()}",
           "tool: cosmic-ray (numba off); each target: a fixed sample of its mutants, the "
           "same every run; score = mutants its tests fail on / mutants tried",
           f"time: {seconds:.0f} s (budget {budget:.0f} s)"]
    for r in rows:
        score = "n/a" if r["score"] is None else f"{100 * r['score']:.1f}%"
        out.append(f"{r['name']:<20} {r['module']:<46} {r['killed']:>3} of {r['mutants']:>3} "
                   f"killed ({r['candidates']} candidates), score {score}, {r['seconds']:.0f} s")
        out += [f"  survived: {s}" for s in r["survivors"]]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write the results files")
    mode.add_argument("--check", action="store_true",
                      help="fail when a target's score falls below the committed one")
    parser.add_argument("--budget", type=float, default=720.0,
                        help="seconds the whole run may take (default 720)")
    parser.add_argument("--only", default="", help="targets to run, by name, comma-separated")
    parser.add_argument("--jobs", type=int, default=2,
                        help="targets run at once, each in its own copy (default 2)")
    args = results_file.parse_args(parser, argv)
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    targets = [t for t in TARGETS if not only or t.name in only]
    if only - {t.name for t in TARGETS}:
        raise SystemExit(f"mutation: unknown target {sorted(only - {t.name for t in TARGETS})}; "
                         f"choose from {', '.join(t.name for t in TARGETS)}")
    start = time.perf_counter()
    deadline = start + args.budget
    def lane(share: list[Target]) -> list[dict]:
        out = []
        with tempfile.TemporaryDirectory(prefix="farol-mutation-") as tmp:
            code = copy_of_the_code(Path(tmp))
            if args.check:  # the checkout's own code (with --allow-dirty: its changes too)
                for part in ("games", "analysis", "tests"):
                    shutil.rmtree(code / part)
                    shutil.copytree(REPO / part, code / part,
                                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi",
                                                                  "*.nbc"))
            baseline(code, share)
            for target in share:
                out.append(run_target(target, code, deadline))
                row = out[-1]
                print(f"{row['name']}: {row['killed']} of {row['mutants']} killed, "
                      f"{row['seconds']:.0f} s", flush=True)
        return out

    jobs = max(1, min(args.jobs, len(targets)))
    shares = [targets[k::jobs] for k in range(jobs)]
    try:
        with ThreadPoolExecutor(jobs) as pool:
            done = [row for rows_ in pool.map(lane, shares) for row in rows_]
    except TimeoutError as exc:
        print(f"mutation: over the budget of {args.budget:.0f} s at {exc}", file=sys.stderr)
        return 1
    order = [t.name for t in TARGETS]
    rows = sorted(done, key=lambda row: order.index(row["name"]))
    seconds = time.perf_counter() - start
    if args.write and only and (RESULTS / f"{STEM}.json").exists():
        # Some targets run again: the others keep their committed rows.
        kept = json.loads((RESULTS / f"{STEM}.json").read_text())["targets"]
        fresh = {row["name"] for row in rows}
        rows = sorted([row for row in kept if row["name"] not in fresh] + rows,
                      key=lambda row: order.index(row["name"]))
    text = lines_of(rows, args.budget, seconds)
    if args.write:
        print(*text, sep="\n")
        results_file.save(RESULTS, STEM, text, {"targets": rows, "seconds": seconds,
                                                "budget": args.budget, "lines": text},
                          seed=None)
        return 0
    committed = {r["name"]: r for r in json.loads((RESULTS / f"{STEM}.json").read_text())["targets"]}
    failed = []
    for r in rows:
        was = committed.get(r["name"])
        if was is None or r["score"] is None:
            continue
        if r["score"] < was["score"] - 1e-9:
            failed.append(f"{r['name']}: {100 * r['score']:.1f}% < {100 * was['score']:.1f}% "
                          f"committed; survived: {', '.join(r['survivors'])}")
    print(*text, sep="\n")
    for line in failed:
        print(f"mutation score fell: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
