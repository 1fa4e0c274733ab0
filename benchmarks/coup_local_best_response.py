"""Benchmark: what a local best response with exact mixes wins against Farol's 2-player
Coup agents: a lower bound on how much each agent's strategy loses to a best response.

For each agent that can give its mix for every hand at every spot (``blueprint``,
``resolve``, ``resolve-blueprint``, ``resolve-mixed``, which ``best`` plays at 2
players: :data:`analysis.coup.agents.ORACLES`), the local best response
(:mod:`analysis.coup.studies.local_best_response`) plays ``--games`` games against it
on duplicate deals (each deal from both seats; ambassador deck, basic setup). Its win
rate less 50%, with the 95% interval over deals, is what a best response gains *at
least*, in win probability averaged over the two seats: the units of
``benchmarks/coup_exploiter.py``. A lower bound, never an estimate of exploitability.
``search`` and ``belief`` cannot give their mixes (:data:`analysis.coup.agents.NO_ORACLE`
says why); their lines say so, and the exploiter's bounds stand for them.

Each measured agent is played by every response of ``--variants`` (depth, roll-outs,
turns, values; by default the blueprint's values, cards and coins, roll-outs with both
seats playing the agent's strategy, and a search of two of its own decisions), and its
figure is the largest gain over them. Every run repeats the controls (``--controls``): responses whose
gain against a strategy with a known gap is known (at least 0.15 against the blueprint,
at least 0.28 against ``resolve``); a run whose controls fall short says so, and its
figures bound nothing better than they do. ``--rounds`` plays every line up to that many
games, then every line up to twice as many, and so on to ``--games``, so a stopped run
has an interval on every line.

Finished games are kept under the cache folder (one file per agent, seed, settings and
``--tag``, whatever the commit: give a new tag when an agent's play changes), so a
stopped run resumes; a line's bound is stored (``reports/data/coup/lower_bounds.json``)
when all its games are played. Run:
``nice -n 19 .venv/bin/python benchmarks/coup_local_best_response.py [--agents resolve-mixed]``;
``--tally-only`` writes the lines of the games a stopped run finished, playing none.
Writes ``benchmarks/results/coup_local_best_response.{txt,json}``.
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
VARIANTS = "1:0:2:blueprint,1:0:2:own,1:2:2:own,2:0:2:blueprint"
# agent=variant>=least gain: responses whose gain is known, repeated in every run
CONTROLS = "blueprint=1:0:2:own>=0.15,resolve=1:0:2:blueprint>=0.28"


def variant(text: str) -> L.Settings:
    """``depth:rollouts:turns:values`` as settings."""
    try:
        depth, rollouts, turns, values = text.split(":")
        return L.Settings(int(depth), int(rollouts), int(turns), values)
    except ValueError:
        raise SystemExit(f"a variant is depth:rollouts:turns:values, not {text!r}") from None


def capped(text: str, planned: int) -> tuple[L.Settings, int]:
    """A variant with its games: ``depth:rollouts:turns:values[@games]`` (at most
    ``planned``; a costly response can be played on fewer)."""
    head, _, cap = text.partition("@")
    try:
        return variant(head), min(planned, int(cap)) if cap else planned
    except ValueError:
        raise SystemExit(f"a variant's cap is a number of games, not {cap!r}") from None


def control(text: str) -> tuple[str, L.Settings, float]:
    """``agent=depth:rollouts:turns:values>=gain`` as its parts."""
    try:
        agent, rest = text.split("=", 1)
        settings, least = rest.split(">=")
        return agent, variant(settings), float(least)
    except ValueError:
        raise SystemExit(f"a control is agent=depth:rollouts:turns:values>=gain, not "
                         f"{text!r}") from None


def describe(b: dict) -> str:
    lo, hi = b["gain_ci95"]
    per = (f"{b['cpu_seconds'] / b['games']:.2f} s a game, {b['cpu_seconds'] / 3600:.2f} h "
           "in all" if b.get("cpu_seconds") else "time not clocked")
    settings = L.Settings(b["depth"], b["rollouts"], b["turns"], b.get("values", "own"))
    planned = b.get("planned", b["games"])
    stopped = f" (a stopped run: {b['games']:,} of {planned:,} games)" if b["games"] < planned else ""
    role = b.get("role", "")
    return (f"{role + ' ' if role else ''}against {b['agent']:<17} {b['games']:>5,} games: "
            f"gains at least {b['gain']:+.3f} [95% interval {lo:+.3f}, {hi:+.3f}], wins "
            f"{b['win_rate']:6.1%}{stopped}\n"
            f"    {settings.text()}; CPU {per}; seed {b['provenance']['seed']}, commit "
            f"{b['provenance']['commit'][:12]}{', tag ' + b['tag'] if b.get('tag') else ''}")


def summary(agent: str, lines: list[dict]) -> str:
    """The largest gain over an agent's variants, with its interval (the one to judge
    by is the upper end)."""
    mine = [x for x in lines if x["agent"] == agent and x.get("role") != "control"]
    if not mine:
        return f"{agent}: no variant measured yet"
    top = max(mine, key=lambda x: x["gain"])
    lo, hi = top["gain_ci95"]
    settings = L.Settings(top["depth"], top["rollouts"], top["turns"], top.get("values", "own"))
    variants = f"{len(mine)} variant{'s' if len(mine) > 1 else ''}"
    return (f"{agent}: largest gain over {variants} {top['gain']:+.3f} [95% "
            f"interval {lo:+.3f}, {hi:+.3f}] ({top['games']:,} games; {settings.text()})")


def control_words(line: dict, least: float) -> str:
    ok = line["gain"] >= least
    return (f"control against {line['agent']}: {line['gain']:+.3f} "
            f"{'>=' if ok else '<'} {least:.2f}: "
            f"{'reproduces' if ok else 'DOES NOT reproduce: this run bounds nothing'}")


def line_key(x: dict) -> tuple:
    """What a line measures: the agent, the response's settings and the tag."""
    return (x["agent"], x["depth"], x["rollouts"], x["turns"], x.get("values", "own"),
            x.get("tag", ""))


def kept_lines(path: Path, measured) -> list[dict]:
    """The last results' lines of other agents, responses or tags than those measured
    now (each says its settings, seed and commit)."""
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    return [x for x in old.get("lines", []) if line_key(x) not in measured]


def record_path(agent: str, settings: L.Settings, seed: int, tag: str) -> Path:
    return store.cache(STEM, f"seed{seed}_depth{settings.depth}_rollouts{settings.rollouts}"
                             f"_turns{settings.turns}_{settings.values}_{agent}"
                             f"{'_' + tag if tag else ''}.jsonl")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games a line (default 2000)")
    parser.add_argument("--agents", default="resolve-mixed",
                        help="agents to measure by every variant, in order (default: "
                             "resolve-mixed, what best plays at 2 players)")
    parser.add_argument("--variants", default=VARIANTS,
                        help="responses, each depth:rollouts:turns:values[@games] (values: "
                             f"own or blueprint; @games: play it on fewer); default {VARIANTS}")
    parser.add_argument("--controls", default=CONTROLS,
                        help=f"controls repeated in the run, each agent=variant>=gain "
                             f"(default {CONTROLS}; 'none': no controls)")
    parser.add_argument("--rounds", type=int, default=100,
                        help="play every line to this many games, then twice as many, ... "
                             "(default 100)")
    parser.add_argument("--tag", default="",
                        help="kept in the record files' names: a new tag when the measured "
                             "agents' play changes")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--tally-only", action="store_true",
                        help="play nothing: write the lines of the games finished so far "
                             "(a stopped run's whole deals)")
    parser.add_argument("--note", default="",
                        help="a line added under the header (say, the commit the games of a "
                             "tally were played at)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = results_file.parse_args(parser, argv)
    asked = [a for a in args.agents.split(",") if a]
    variants = [capped(v, args.games) for v in args.variants.split(",")]
    controls = [] if args.controls == "none" else [control(c) for c in args.controls.split(",")]
    plan = [("control", agent, settings, least, "", args.games)
            for agent, settings, least in controls]
    plan += [("", agent, settings, None, args.tag, most) for agent in asked
             for settings, most in variants if agent not in UNMEASURABLE]
    header = [
        f"machine: {machine(load=False)}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        "local best response with the agent's exact mixes (its range by Bayes' rule); 2 "
        "players, ambassador deck, basic setup; duplicate deals (each deal from both seats)",
        "gain: win rate - 50%, in win probability averaged over the seats, a lower bound on "
        "how much the agent's strategy loses to a best response (below 0 it bounds nothing)",
    ] + ([args.note] if args.note else [])
    print("\n".join(header), flush=True)
    results: dict[int, L.LowerBound] = {}
    target = min(args.rounds, args.games) if not args.tally_only else args.games
    while True:
        for i, (role, agent, settings, _, tag, most) in enumerate(plan):
            record = record_path(agent, settings, args.seed, tag)
            if args.tally_only:
                bound = L.finished(agent, args.seed, settings, record)
            else:
                bound = L.measure(agent, min(target, most), args.seed, settings,
                                  record=record, progress=True)
            if bound is None:
                print(f"{agent} ({settings.text()}): no deal finished yet", flush=True)
                continue
            results[i] = dataclasses.replace(bound, planned=most)
            print(describe(_line(results[i], role, tag)), flush=True)
        if args.tally_only or target >= args.games:
            break
        target = min(args.games, target * 2)
    lines = [_line(results[i], plan[i][0], plan[i][4]) for i in sorted(results)]
    for i in sorted(results):
        if results[i].complete:
            L.save_bounds([results[i]])
    verdicts = [control_words(_line(results[i], "control", ""), plan[i][3])
                for i in sorted(results) if plan[i][0] == "control"]
    summaries = [summary(agent, lines) for agent in asked if agent not in UNMEASURABLE]
    lines = kept_lines(args.out / f"{STEM}.json", {line_key(x) for x in lines}) + lines
    missing = [f"{agent}: not measured, it cannot give its mix for every hand "
               f"({NO_ORACLE[agent]}); see benchmarks/results/coup_exploiter.txt for the "
               "exploiter's bound" for agent in UNMEASURABLE]
    text = header + [describe(x) for x in lines] + verdicts + summaries + missing
    print("\n".join(verdicts + summaries), flush=True)
    out = {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
           "games": args.games, "lines": lines, "text": text,
           "oracles": sorted(ORACLES)}
    save(args.out, STEM, text, out)


def _line(bound: L.LowerBound, role: str, tag: str) -> dict:
    return bound.to_json() | {"role": role, "tag": tag}


if __name__ == "__main__":
    main()
