"""Benchmark: the fast search agent (``fast``) against the search agent (``search``) it
replaces at 3 to 8 players: its speed, and its strength at a table of search agents.

Speed, measured side by side in one run: ``--speed-games`` 6-player games of six
``search`` agents and as many of six ``fast`` agents, alternating (game ``i`` of each
with the same chance seed and the same agents' seeds), every move timed. The fast
agent's compiled code is loaded (and compiled, the first time) before any game is timed;
that load is reported on its own.

Strength: ``--games`` 5-player games with one ``fast`` agent among four ``search``
agents (``farol coup match --agents fast,search,search,search,search --players 5
--duplicate``): duplicate deals, each deal played in every rotation of the seats, so the
fast agent sits in every seat with the same cards as the agents it replaces there.
Its fair share is 1/5. The line gives its win rate with the 95% interval over deals
(Student t, the match's own interval for duplicate deals) and, beside it, the Wilson
interval over games (which takes the games as independent); and its rate in each seat.

Finished strength games are kept under the cache folder (``.farol_cache/coup_fast_agent/``,
one folder per commit of the code), so a stopped run resumes; ``--fresh`` starts again.

Run: ``.venv/bin/python benchmarks/coup_fast_agent.py [--games 750] [--speed-games 6]
[--seed 1] [--workers 1]``; writes ``benchmarks/results/coup_fast_agent.{txt,json}``. With
``--pool coup_fast_agent,coup_fast_agent_seed2,...`` it plays nothing and pools the strength
runs of those results files (independent seeds) into ``coup_fast_agent_pooled.{txt,json}``.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import numpy as np
import pyspiel
import results_file
from results_file import machine, save, timed_play

import games  # noqa: F401
from analysis.cli import bots
from analysis.coup.agents import rollout_sim
from analysis.coup.agents.fast import BUDGET
from analysis.coup.agents.search import DEFAULT
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.bots import sample_chance
from analysis.play.match import play_match
from analysis.shared import store
from analysis.shared.lists import comma_list
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import read_json
from analysis.statistics.intervals import pooled, wilson

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"
OLD, NEW = "search", "fast"


def warm_up() -> float:
    """Seconds to load (or compile) the fast agent's compiled roll-outs."""
    start = time.perf_counter()
    game = pyspiel.load_game(GAME, {"players": 3})
    core = game.new_initial_state().core
    while core.cur == -1:
        core.apply(core.chance_outcomes()[0][0])
    hands, coins, court, up = rollout_sim.position(core)
    rollout_sim.evaluate(hands[None], court[None], coins, up, np.full((3, 4), 0.2),
                         rollout_sim.rules_of(core.cfg, 0), core.actor, core.turn, core.turn + 3,
                         np.array([0]), np.array([-1]), np.array([1]))
    return time.perf_counter() - start


def one_game(agent: str, players: int, seed: int) -> dict:
    """A game of ``players`` copies of ``agent``: its seconds, turns and every move's time."""
    game = pyspiel.load_game(GAME, {"players": players})
    seeds = np.random.SeedSequence([seed]).generate_state(players + 1)
    agents = [bots.build(agent, game, s, int(seeds[s + 1])) for s in range(players)]
    rng = np.random.default_rng(int(seeds[0]))
    state = game.new_initial_state()
    start = time.perf_counter()
    moves = timed_play(state, agents, lambda s: sample_chance(s, rng))
    return {"seconds": time.perf_counter() - start, "turns": state.core.turn, "moves": moves}


def speed(games_n: int, seed: int) -> dict:
    """Six old and six new agents at 6-player tables, game by game in turn."""
    runs: dict[str, list[dict]] = {OLD: [], NEW: []}
    for i in range(games_n):
        for agent in ((OLD, NEW) if i % 2 == 0 else (NEW, OLD)):
            runs[agent].append(one_game(agent, 6, seed * 1000 + i))
    out = {"games": games_n}
    for agent, games_played in runs.items():
        moves = [m for g in games_played for m in g["moves"]]
        out[agent] = {
            "seconds_per_game": float(np.mean([g["seconds"] for g in games_played])),
            "slowest_game_seconds": float(max(g["seconds"] for g in games_played)),
            "turns_per_game": float(np.mean([g["turns"] for g in games_played])),
            "ms_per_move": 1000 * float(np.mean(moves)),
            "slowest_move_ms": 1000 * float(max(moves)),
            "game_seconds": [g["seconds"] for g in games_played],
        }
    out["speedup"] = out[OLD]["seconds_per_game"] / out[NEW]["seconds_per_game"]
    return out


def strength(games_n: int, seed: int, workers: int, folder: Path) -> dict:
    """One new agent among four old ones at 5 players, duplicate deals."""
    agents = (NEW,) + (OLD,) * 4
    start = time.perf_counter()
    result = play_match(GAME, agents, games_n, seed, {"players": 5}, workers=workers,
                        progress=True, build=bots.build, record=folder / "5p.jsonl",
                        deal=deal_chance)
    total = next(r for r in result.totals() if r.agent == NEW)
    _, lo, hi = wilson(total.wins, total.games)
    seats = [r for r in result.seats if r.agent == NEW]
    return {
        "players": 5, "agents": list(agents), "games": result.games, "deals": result.deals,
        "seed": seed, "fair_share": 0.2, "wins": total.wins, "win_rate": total.win_rate,
        "ci95_over_deals": list(total.ci95), "wilson_ci95_over_games": [lo, hi],
        "at_least_fair_share": total.ci95[0] >= 0.2, "interval_holds_fair_share":
        total.ci95[0] <= 0.2 <= total.ci95[1], "not_below_fair_share": total.ci95[1] >= 0.2,
        "seats": [{"seat": r.seat, "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
                   "ci95_over_deals": list(r.ci95)} for r in seats],
        "seconds": time.perf_counter() - start,
    }


def judge(lo: float, hi: float, fair: float = 0.2) -> str:
    """What a 95% interval says of the fair share."""
    if lo >= fair:
        return "at least the fair share at 95%"
    if hi >= fair:
        return "the interval holds the fair share: not below it, not shown above it"
    return "BELOW the fair share at 95%"


def pool(out: Path, names: list[str]) -> None:
    """Every strength run named (independent seeds) as one estimate, written to
    ``coup_fast_agent_pooled.{txt,json}``: each run's line, then the pooled one."""
    runs = [read_json(out / f"{name}.json") for name in names]
    lines = [f"farol {farol_version()}, commit {code_commit()}; pools runs already made "
             f"(plays nothing)", f"strength, 5 players, {NEW} among four {OLD} agents, "
             "win rate [95% interval over deals], by run:"]
    for name, run in zip(names, runs, strict=True):
        x = run["strength"]
        lo, hi = x["ci95_over_deals"]
        lines.append(f"  {name} (seed {x['seed']}, commit {run['commit'][:12]}): "
                     f"{x['games']} games, {x['deals']} deals, {x['win_rate']:.1%} "
                     f"[{lo:.1%}, {hi:.1%}]: {judge(lo, hi)}")
    mean, lo, hi = pooled((r["strength"]["deals"], r["strength"]["win_rate"],
                           tuple(r["strength"]["ci95_over_deals"])) for r in runs)
    games_n = sum(r["strength"]["games"] for r in runs)
    deals = sum(r["strength"]["deals"] for r in runs)
    lines.append(f"pooled: {games_n} games, {deals} deals, {NEW} wins {mean:.1%} "
                 f"[{lo:.1%}, {hi:.1%}]; fair share 20.0%: {judge(lo, hi)}")
    print("\n".join(lines))
    first = runs[0]["strength"]
    save(out, "coup_fast_agent_pooled", lines,
         {"version": farol_version(), "commit": code_commit(), "seed": None, "runs": names,
          "seeds": [r["strength"]["seed"] for r in runs],
          "strength": {"players": first["players"], "agents": first["agents"],
                       "fair_share": first["fair_share"], "games": games_n, "deals": deals,
                       "win_rate": mean, "ci95_over_deals": [lo, hi],
                       "at_least_fair_share": lo >= first["fair_share"]},
          "lines": lines})


def describe(fast: dict, warm: float, line: dict) -> list[str]:
    old, new = fast[OLD], fast[NEW]
    lo, hi = line["ci95_over_deals"]
    wlo, whi = line["wilson_ci95_over_games"]
    verdict = judge(lo, hi)
    return [
        f"speed, 6 players, six agents of one kind, {fast['games']} games each, in turn "
        f"(same seeds):",
        f"  {OLD:<6} {old['seconds_per_game']:.2f} s a game (slowest {old['slowest_game_seconds']:.2f} s, "
        f"{old['turns_per_game']:.0f} turns), {old['ms_per_move']:.1f} ms a move, slowest move "
        f"{old['slowest_move_ms']:.0f} ms",
        f"  {NEW:<6} {new['seconds_per_game']:.2f} s a game (slowest {new['slowest_game_seconds']:.2f} s, "
        f"{new['turns_per_game']:.0f} turns), {new['ms_per_move']:.1f} ms a move, slowest move "
        f"{new['slowest_move_ms']:.0f} ms",
        f"  {fast['speedup']:.1f} times faster; loading the compiled roll-outs took "
        f"{warm:.1f} s once, before the timed games",
        f"strength, 5 players, {NEW} among four {OLD} agents, {line['games']} games "
        f"({line['deals']} duplicate deals, {line['seconds'] / 60:.0f} min):",
        f"  {NEW} wins {line['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] over deals "
        f"(Wilson over games [{wlo:.1%}, {whi:.1%}]); fair share 20.0%: {verdict}",
        "  per seat: " + "  ".join(f"{s['seat'] + 1}: {s['win_rate']:.1%}" for s in line["seats"]),
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=750,
                        help="5-player strength games, whole deals of 5 (default 750)")
    parser.add_argument("--speed-games", type=int, default=6,
                        help="6-player games timed for each agent (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes for the strength games")
    parser.add_argument("--fresh", action="store_true", help="forget the games of a stopped run")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--name", default="coup_fast_agent", help="results' file name")
    parser.add_argument("--pool", type=lambda text: comma_list("--pool", text), metavar="NAMES",
                        help="instead of playing: pool these results files' strength runs "
                             "(comma list of names, e.g. coup_fast_agent,coup_fast_agent_seed2)")
    args = results_file.parse_args(parser, argv)
    if args.pool:
        pool(args.out, args.pool)
        return
    commit = code_commit().replace("+changes", "_changed")[:20]
    folder = store.cache("coup_fast_agent", f"{args.name}_seed{args.seed}_games{args.games}_{commit}")
    if args.fresh and folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    header = [
        f"machine: {machine()}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        f"agents: {OLD} ({DEFAULT.deals_action} deals a turn action, {DEFAULT.deals_react} a "
        f"challenge or block, roll-outs on the engine); {NEW} ({BUDGET.deals_action} deals a "
        f"turn action with compiled roll-outs, {BUDGET.deals_react} a challenge or block)",
    ]
    print("\n".join(header), flush=True)
    warm = warm_up()
    fast = speed(args.speed_games, args.seed)
    print(f"speed: {OLD} {fast[OLD]['seconds_per_game']:.2f} s a game, {NEW} "
          f"{fast[NEW]['seconds_per_game']:.2f} s a game", flush=True)
    line = strength(args.games, args.seed, args.workers, folder)
    text = header + describe(fast, warm, line)
    print("\n".join(text[len(header):]))
    record = {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
              "machine": header[0], "warm_up_seconds": warm, "speed": fast, "strength": line,
              "budgets": {OLD: vars(DEFAULT), NEW: vars(BUDGET)}, "lines": text}
    save(args.out, args.name, text, record)


if __name__ == "__main__":
    main()
