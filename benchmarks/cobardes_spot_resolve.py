"""Benchmark: how long ``farol advise cobardes --history`` takes at a later spot of a full
battle with hidden villains (from the second combat on), where the rest of the battle is
re-solved, against solving the whole battle (``--solve``, the only way before).

Spots: for each matchup and combat asked, ``--spots`` decisions of that combat reached by
seeded random play (redrawn until the battle reaches it with a villain hidden). Each is asked as
a user asks it: ``farol advise cobardes --param ... --history ... --json`` in a fresh
process with an empty cache (Python's start and imports included); its wall and CPU
seconds, and the exploitability the answer states (within the abstraction, a lower bound
on the true one). Beside it, in the same run, the reference: the same command with
``--solve`` (the whole battle solved) at ``--reference`` of the spots. Aim: 30 s a spot.

Run: ``.venv/bin/python benchmarks/cobardes_spot_resolve.py``; writes
``benchmarks/results/cobardes_spot_resolve.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

import pyspiel
import results_file
from results_file import machine, run_farol, save

import games  # noqa: F401
from analysis.cobardes.advice.advise import _hidden_from_a_player
from analysis.cobardes.model import hidden_params
from analysis.shared.provenance import provenance
from games.history import history_text

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "cobardes_spot_resolve"
AIM = 30.0
MATCHUPS = (("Squire", "Archer"), ("Wolf", "Maiden"), ("Procuress", "Sentinel"))


def spot(pairing: tuple[str, str], combat: int, rng: random.Random) -> pyspiel.State:
    """A decision of ``combat`` with a villain hidden, reached by random play."""
    game = pyspiel.load_game("python_cobardes_battle", hidden_params(pairing))
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
                continue
            if state.position.combat == combat and _hidden_from_a_player(state.position):
                return state
            if state.position.combat > combat:
                break
            state.apply_action(rng.choice(state.legal_actions()))


def timed(pairing: tuple[str, str], history: str, solve: bool) -> dict:
    """Wall and CPU seconds, exit status, answer of ``farol advise cobardes`` at the spot,
    in a fresh process with an empty cache."""
    params = [w for k, v in hidden_params(pairing).items() for w in ("--param", f"{k}={v}")]
    with tempfile.TemporaryDirectory() as cache:
        done = run_farol(["advise", "cobardes", *params, "--history", history, "--json",
                          *(["--solve"] if solve else [])], cache)
    answer = json.loads(done.stdout) if done.status == 0 else {}
    return {"seconds": done.seconds, "cpu_seconds": done.cpu_seconds, "status": done.status,
            "error": done.last_error if done.status else "",
            "exploitability": answer.get("exploitability"), "source": answer.get("source"),
            "solver": answer.get("solver")}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combats", default="2,3", help="combats asked (default 2,3)")
    parser.add_argument("--spots", type=int, default=4,
                        help="spots a matchup and combat (default 4)")
    parser.add_argument("--reference", type=int, default=1,
                        help="spots also answered by solving the whole battle (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = results_file.parse_args(parser, argv)
    header = machine()
    rng = random.Random(args.seed)
    rows = []
    for pairing in MATCHUPS:
        for combat in [int(c) for c in args.combats.split(",") for _ in range(args.spots)]:
            history = history_text(spot(pairing, combat, rng))
            row = {"pairing": list(pairing), "combat": combat, "history": history,
                   **timed(pairing, history, solve=False)}
            rows.append(row)
            print(f"{'/'.join(pairing)}, combat {combat}: {row['seconds']:.1f} s "
                  f"({row['cpu_seconds']:.1f} CPU s), exit {row['status']}, exploitability "
                  f"{row['exploitability']}", flush=True)
    reference = []
    # The reference where the re-solve took longest: the largest rest of a battle.
    for row in sorted(rows, key=lambda r: -r["seconds"])[:args.reference]:
        whole = timed(tuple(row["pairing"]), row["history"], solve=True)
        reference.append({"pairing": row["pairing"], "combat": row["combat"], **whole,
                          "resolve_seconds": row["seconds"]})
        print(f"reference, whole battle: {whole['seconds']:.0f} s", flush=True)
    ok = [r for r in rows if r["status"] == 0]
    times = sorted(r["seconds"] for r in rows)
    p = provenance(args.seed)
    lines = [f"machine: {header}", f"farol {p['version']}, commit {p['commit']}, seed {args.seed}",
             f"spots: {args.spots} decisions of each combat asked in each matchup, with a "
             "villain hidden, "
             "reached by seeded random play; each asked as farol advise cobardes --history "
             "... in a fresh process with an empty cache (start and imports included)",
             f"answered: {len(ok)} of {len(rows)}; median {times[len(times) // 2]:.1f} s, "
             f"slowest {times[-1]:.1f} s; within {AIM:.0f} s: "
             f"{sum(t <= AIM for t in times)} of {len(times)}"]
    for r in rows:
        x = r["exploitability"]
        lines.append(f"  {'/'.join(r['pairing'])}, combat {r['combat']}: {r['seconds']:.1f} s "
                     f"({r['cpu_seconds']:.1f} CPU s); exploitability within the abstraction "
                     + (f"{x:.4f} (a lower bound on the true one)" if x is not None
                        else f"not given (exit {r['status']}: {r['error']})"))
    for ref in reference:
        lines.append(f"reference, the whole battle solved (--solve) at the "
                     f"{'/'.join(ref['pairing'])} combat-{ref['combat']} spot: "
                     f"{ref['seconds']:.0f} s ({ref['cpu_seconds']:.0f} CPU s), exit "
                     f"{ref['status']}; the re-solve there {ref['resolve_seconds']:.1f} s")
    print(*lines, sep="\n")
    save(args.out, STEM, lines, {"rows": rows, "reference": reference, "provenance": p,
                                 "machine": header, "lines": lines})


if __name__ == "__main__":
    main()
