"""Benchmark: what a local best response with exact mixes wins against Farol's 2-player
Coup agents: a lower bound on how much each agent's strategy loses to a best response.

For each agent that can give its mix for every hand at every spot (``blueprint``,
``resolve``, ``resolve-blueprint``: :data:`analysis.coup.agents.ORACLES`), the local
best response (:mod:`analysis.coup.studies.local_best_response`) plays ``--games``
games against it on duplicate deals (each deal from both seats; ambassador deck, basic
setup). Its win rate less 50%, with the 95% interval over deals, is what a best response
gains *at least*, in win probability averaged over the two seats: the units of
``benchmarks/coup_exploiter.py``. A lower bound, never an estimate of exploitability.
``search`` and ``belief`` cannot give their mixes (:data:`analysis.coup.agents.NO_ORACLE`
says why); their lines say so, and the exploiter's bounds stand for them.

Finished games are kept under the cache folder (one file per agent, seed and settings,
whatever the commit), so a stopped run resumes; a line is written when its games are
all played, and the lines of agents not asked for are kept from the last results
(each line says its settings, seed and commit). Run:
``nice -n 19 .venv/bin/python benchmarks/coup_local_best_response.py [--agents blueprint]``;
``--tally-only`` writes the lines of the games a stopped run finished, playing none.
Writes ``benchmarks/results/coup_local_best_response.{txt,json}`` and the bounds into
``reports/data/coup/lower_bounds.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import results_file
from results_file import machine, save

import games  # noqa: F401
from analysis.coup.agents import NO_ORACLE, ORACLES
from analysis.coup.studies import local_best_response as L
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version

RESULTS = Path(__file__).resolve().parent / "results"
STEM = "coup_local_best_response"
UNMEASURABLE = ("search", "belief")


def describe(b: dict) -> str:
    lo, hi = b["gain_ci95"]
    per = (f"{b['cpu_seconds'] / b['games']:.2f} s a game, {b['cpu_seconds'] / 3600:.2f} h "
           "in all" if b.get("cpu_seconds") else "time not clocked")
    settings = L.Settings(b["depth"], b["rollouts"], b["turns"], b.get("values", "own"))
    planned = b.get("planned", b["games"])
    stopped = f" (a stopped run: {b['games']:,} of {planned:,} games)" if b["games"] < planned else ""
    return (f"against {b['agent']:<17} {b['games']:>5,} games: gains at least "
            f"{b['gain']:+.3f} [95% interval {lo:+.3f}, {hi:+.3f}], wins {b['win_rate']:6.1%}"
            f"{stopped}\n"
            f"    {settings.text()}; CPU {per}; seed {b['provenance']['seed']}, commit "
            f"{b['provenance']['commit'][:12]}")


def kept_lines(path: Path, asked) -> list[dict]:
    """The last results' lines of agents not measured now (each says its settings, seed
    and commit)."""
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    return [x for x in old.get("lines", []) if x["agent"] not in asked]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games a line (default 1000)")
    parser.add_argument("--agents", default="blueprint,resolve,resolve-blueprint",
                        help="agents to measure, in order (default: every agent with a "
                             "mix oracle)")
    parser.add_argument("--depth", type=int, default=1,
                        help="the responder's own decisions searched (default 1)")
    parser.add_argument("--rollouts", type=int, default=0,
                        help="roll-outs a world past the search, under the agent's strategy "
                             "(default 0: its exact values where known, else cards and coins)")
    parser.add_argument("--turns", type=int, default=2, help="turns a roll-out plays (default 2)")
    parser.add_argument("--values", choices=L.VALUES, default="own",
                        help="without roll-outs, what a position past the search is worth: "
                             "own (the agent's exact values where known, else cards and "
                             "coins; default) or blueprint (the blueprint's values)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--tally-only", action="store_true",
                        help="play nothing: write the lines of the games finished so far "
                             "(a stopped run's whole deals)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    settings = L.Settings(args.depth, args.rollouts, args.turns, args.values)
    asked = args.agents.split(",")
    header = [
        f"machine: {machine(load=False)}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        "local best response with the agent's exact mixes (its range by Bayes' rule); 2 "
        "players, ambassador deck, basic setup; duplicate deals (each deal from both seats)",
        "gain: win rate - 50%, in win probability averaged over the seats, a lower bound on "
        "how much the agent's strategy loses to a best response (below 0 it bounds nothing)",
    ]
    print("\n".join(header), flush=True)
    lines = []
    for agent in asked:
        if agent in UNMEASURABLE:
            continue
        record = store.cache(STEM, f"seed{args.seed}_depth{args.depth}_rollouts{args.rollouts}"
                                   f"_turns{args.turns}_{args.values}_{agent}.jsonl")
        if args.tally_only:
            bound = L.finished(agent, args.seed, settings, record)
            if bound is None:
                print(f"{agent}: no deal finished yet", flush=True)
                continue
        else:
            bound = L.measure(agent, args.games, args.seed, settings, record=record,
                              progress=True)
        bound = dataclasses.replace(bound, planned=args.games)
        lines.append(bound.to_json())
        print(describe(lines[-1]), flush=True)
        L.save_bounds([bound])
    lines = kept_lines(args.out / f"{STEM}.json", asked) + lines
    missing = [f"{agent}: not measured yet (--agents {agent})" for agent in ORACLES
               if agent != "best" and not any(x["agent"] == agent for x in lines)]
    missing += [f"{agent}: not measured, it cannot give its mix for every hand "
                f"({NO_ORACLE[agent]}); see benchmarks/results/coup_exploiter.txt for the "
                "exploiter's bound" for agent in UNMEASURABLE]
    text = header + [describe(x) for x in lines] + missing
    print("\n".join(missing))
    record = {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
              "games": args.games, "lines": lines, "text": text}
    save(args.out, STEM, text, record)


if __name__ == "__main__":
    main()
