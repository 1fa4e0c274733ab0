"""Benchmark: the Coup agents' strength ladder at 3, 4 and 6 players.

At each table every lineup of different agents of the ladder (``fast``, ``search``,
``honest``, ``bluffer``, ``bluffer-bold``, ``random``) plays duplicate deals, enough
that each agent's line holds ``--line`` deals (:mod:`analysis.coup.studies.ladder`). Each
line is the agent's win rate with its 95% interval over deals, beside the fair share
1/n; head to head, each pair's mean share difference over the deals where both sit.
With ``--challenger NAME`` every lineup holding ``fast`` is played again with NAME in its
place (the same deals and seeds), and NAME is compared with ``fast`` deal by deal: it
is kept as ``best`` at a table only if it tops that ladder and no paired margin over
``fast`` lies wholly below 0.

Finished games are kept in the cache (``coup/ladder/``), so a stopped run resumes:
run the same command again. The base round robins of every table are played first,
then the challenger's lineups.

Run: ``nice -n 10 .venv/bin/python benchmarks/coup_ladder.py [--order 3,4,4+,3+,6,6+]
[--line 1000] [--lines 6=500] [--seed 20261207] [--challenger weighed --tag v1]``; writes
``benchmarks/results/coup_ladder.{txt,json}`` (after every table, so a partial run shows
what is done) and each table's record under ``reports/data/coup/ladder/``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import results_file
from results_file import machine, save

from analysis.cli import bots
from analysis.coup.studies import ladder as L
from analysis.shared.provenance import code_commit, farol_version

RESULTS = Path(__file__).resolve().parent / "results"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table_lines(r: L.LadderRecord) -> list[str]:
    out = [f"{r.players} players: {len(L.lineups(r.players, r.agents))} lineups x "
           f"{r.deals_per_lineup} deals (fair share {pct(r.fair_share)}); "
           f"{'' if r.cpu_seconds is None else f'{r.cpu_seconds / 60:.0f} min of processor time'}"]
    for x in r.lines:
        lo, hi = x.ci95
        out.append(f"  {x.agent:13s} {pct(x.win_rate):>6s} [{pct(lo)}, {pct(hi)}]  "
                   f"{x.deals:,} deals, {x.games:,} games")
    top = r.lines[0].agent
    out.append(f"  head to head, {top} less each (mean share difference over shared deals):")
    for m in r.head_to_head:
        if m.agent == top:
            out.append(f"    vs {m.other:13s} {100 * m.margin:+.1f} points "
                       f"[{100 * m.ci95[0]:+.1f}, {100 * m.ci95[1]:+.1f}], {m.deals:,} deals")
    if r.challenger_lines:
        out.append(f"  with {r.challenger} in fast's place:")
        for x in r.challenger_lines:
            lo, hi = x.ci95
            out.append(f"    {x.agent:13s} {pct(x.win_rate):>6s} [{pct(lo)}, {pct(hi)}]")
        out.append(f"  {r.challenger} less fast in the same deals:")
        for m in r.over_fast:
            out.append(f"    {'overall' if m.other == 'all' else 'with ' + m.other:18s} "
                       f"{100 * m.margin:+.1f} points [{100 * m.ci95[0]:+.1f}, "
                       f"{100 * m.ci95[1]:+.1f}], {m.deals:,} deals")
        out.append(f"  {r.challenger} is {'kept' if r.challenger_kept() else 'not kept'} as "
                   f"best at {r.players} players")
    return out


def write(records: dict[int, L.LadderRecord], args, started: float) -> None:
    text = [f"machine: {machine()}",
            f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}, "
            f"lines of at least {args.line:,} duplicate deals" + (f" ({args.lines})" if args.lines else "") + "",
            "No equilibrium is meaningful at 3 or more players: strength is measured by play."]
    for n in sorted(records):
        text += table_lines(records[n])
    text.append(f"wall time of this run: {(time.time() - started) / 60:.0f} min")
    save(RESULTS, "coup_ladder", text,
         {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
          "line": args.line, "tables": [records[n].to_json() for n in sorted(records)],
          "lines": text})
    print(*text, sep="\n", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--order", default="3,4,6",
                        help="the tables in the order played; N+ plays the challenger's "
                        "lineups at N players (after N's round robin)")
    parser.add_argument("--line", type=int, default=L.LINE)
    parser.add_argument("--lines", default="",
                        help="a table's own line, e.g. 6=500 (deals an agent's line holds)")
    parser.add_argument("--seed", type=int, default=L.SEED)
    parser.add_argument("--challenger", default=None)
    parser.add_argument("--tag", default="", help="the challenger's version in its game files")
    args = results_file.parse_args(parser, argv)
    own = {int(k): int(v) for k, v in (x.split("=") for x in args.lines.split(",") if x)}
    started = time.time()
    records: dict[int, L.LadderRecord] = {}
    for item in args.order.split(","):
        n, challenger = int(item.rstrip("+")), item.endswith("+")
        if challenger and not args.challenger:
            raise SystemExit(f"{item}: give --challenger")
        records[n] = L.run_ladder(n, line=own.get(n, args.line), seed=args.seed,
                                  challenger=args.challenger if challenger else None,
                                  tag=args.tag, build=bots.build, progress=True)
        write(records, args, started)


if __name__ == "__main__":
    main()
