"""Benchmark: first-combat spots of a full battle with hidden villains, and the first move
of ``farol play --opponent best``, each in a fresh process with an empty cache.

Spots: in each matchup, by seeded random play, the first seat's first decision, the
second seat's first decision, and a later first-combat decision of each seat (one the
stored opening does not keep, when it has no later decisions), plus the Wolf–Maiden spot
where the second player lays its first card. Each is asked as a user asks it: ``farol
advise cobardes --param ... --history ... --json`` (no ``--solve``): its wall and CPU
seconds, whether it answered, and the method its answer names. ``play``: the seconds
from the command's start to its first prompt, the person in the first seat and in the
second (the bot then moves first). Aims: 30 s a spot, 10 s to the first prompt.

Run it on the code before and after a change (``--label before`` with ``PYTHONPATH`` on
the older tree): writes ``benchmarks/results/cobardes_first_combat_<label>.{txt,json}``.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import random
import resource
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyspiel
import results_file
from results_file import machine, run_farol, save

import games  # noqa: F401
from analysis.cobardes.model import hidden_params
from analysis.shared.provenance import provenance
from games.cobardes.hidden import any_villain_unknown
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
AIM, PLAY_AIM = 30.0, 10.0
MATCHUPS = (("Wolf", "Maiden"), ("Squire", "Archer"), ("Procuress", "Sentinel"))
ISSUE_SPOT = (("Wolf", "Maiden"), "draw Thug;draw Troubadour;pass;play warrior 5")


def first_combat_spots(pairing, rng: random.Random, tries: int = 200) -> dict[str, str]:
    """Histories of first-combat decisions by kind: each seat's first, and a later one."""
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(pairing))
    found: dict[str, str] = {}
    for _ in range(tries):
        state, made = game.new_initial_state(), [0, 0]
        while not state.is_terminal() and state.position.combat == 1:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
                continue
            seat = state.current_player()
            if any_villain_unknown(state.position):
                kind = f"seat {seat} {'first' if made[seat] == 0 else 'later'}"
                found.setdefault(kind, history_text(state))
            made[seat] += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if len(found) == 4:
            break
    return found


def ask(pairing, history: str) -> dict:
    params = [w for k, v in hidden_params(pairing).items() for w in ("--param", f"{k}={v}")]
    with tempfile.TemporaryDirectory() as cache:
        done = run_farol(["advise", "cobardes", *params, "--history", history, "--json"],
                         cache)
    answer = json.loads(done.stdout) if done.status == 0 else {}
    return {"seconds": done.seconds, "cpu_seconds": done.cpu_seconds, "status": done.status,
            "error": done.last_error if done.status else "",
            "exploitability": answer.get("exploitability"),
            "source": answer.get("source"), "solver": answer.get("solver")}


def first_prompt(seat: int, seed: int, limit: float) -> tuple[float | None, float]:
    """Seconds from ``farol play python_cobardes_battle --opponent best`` starting to its
    first prompt (``None`` past ``limit``), and the processor seconds the command used
    until then."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, FAROL_CACHE_DIR=cache, FAROL_PROGRESS="0")
        farol = str(Path(sys.executable).parent / "farol")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.Popen([farol, "play", "python_cobardes_battle", "--opponent",
                                 "best", "--seat", str(seat), "--seed", str(seed)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env)
        fd = proc.stdout.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        out, seconds = b"", None
        while time.perf_counter() - start < limit and proc.poll() is None:
            if select.select([fd], [], [], 0.5)[0]:
                out += os.read(fd, 1 << 16)
                if b"Your move" in out:
                    seconds = time.perf_counter() - start
                    break
        proc.kill()
        proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="after")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play-limit", type=float, default=900.0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    header = machine()
    rng = random.Random(args.seed)
    rows = []
    spots = [(ISSUE_SPOT[0], "seat 1 first card (Wolf–Maiden)", ISSUE_SPOT[1])]
    for pairing in MATCHUPS:
        spots += [(pairing, kind, h) for kind, h in sorted(first_combat_spots(pairing, rng).items())]
    for pairing, kind, history in spots:
        row = {"pairing": list(pairing), "kind": kind, "history": history,
               **ask(pairing, history)}
        rows.append(row)
        print(f"{'/'.join(pairing)}, {kind}: {row['seconds']:.1f} s, exit {row['status']} "
              f"{row['error'] or row['source']}", flush=True)
    play = {}
    for seat in (0, 1):
        play[seat] = first_prompt(seat, args.seed, args.play_limit)
        print(f"play, person in seat {seat}: first prompt after {play[seat][0]} s "
              f"({play[seat][1]:.1f} CPU s)", flush=True)
    p = provenance(args.seed)
    times = sorted(r["seconds"] for r in rows if r["status"] == 0)
    lines = [f"machine: {header}", f"farol {p['version']}, commit {p['commit']}, seed "
             f"{args.seed}, code: {args.label}",
             "first-combat spots of full battles with hidden villains, each asked as farol "
             "advise cobardes --history ... --json (no --solve) in a fresh process with an "
             "empty cache (start and imports included)",
             f"answered: {len(times)} of {len(rows)}"
             + (f"; slowest answer {times[-1]:.1f} s" if times else "")
             + f"; within {AIM:.0f} s: {sum(t <= AIM for t in times)} of {len(rows)}"]
    for r in rows:
        x = r["exploitability"]
        what = (f"answered from {r['source']}; exploitability within the abstraction "
                f"{x:.4f} (a lower bound on the true one); method: {r['solver'][:60]}"
                if r["status"] == 0 else f"refused (exit {r['status']}): {r['error'][:110]}")
        lines.append(f"  {'/'.join(r['pairing'])}, {r['kind']}: {r['seconds']:.1f} s "
                     f"({r['cpu_seconds']:.1f} CPU s); {what}")
    for seat in (0, 1):
        got, cpu = play[seat]
        lines.append(f"farol play python_cobardes_battle --opponent best --seat {seat}: first "
                     "prompt after " + (f"{got:.1f} s" if got is not None else
                                        f"more than {args.play_limit:.0f} s")
                     + f" ({cpu:.1f} CPU s; aim {PLAY_AIM:.0f} s)")
    print(*lines, sep="\n")
    save(args.out, f"cobardes_first_combat_{args.label}", lines,
         {"rows": rows, "play": play, "provenance": p, "machine": header, "lines": lines})


if __name__ == "__main__":
    main()
