"""Benchmark: the Coup search agent (``search``, also ``best``): its speed, and how it does
against each agent of the reference panel at 2, 3, 4 and 6 players.

Speed: games of ``--speed-games`` 6-player tables of six search agents (the slowest
case the users' spec names: a game within 60 s, a move within 1 s), every move timed.

Strength: for each table size N and each panel agent X (``random``, ``honest``,
``bluffer``, ``bluffer-bold``), a match of the search agent in one seat against N-1
copies of X (``farol coup match --agents search,X,...``: seats rotate, so the agent sits
in every seat equally; ambassador deck; 2-player games use the basic setup). Each line
gives the agent's win rate with its 95% Wilson interval and whether the interval's lower
bound is above the fair share 1/N, and the same per seat. The agent's own moves are timed
in these games too. Every game is seeded from ``--seed``, so a run gives the same numbers.

Finished games are kept under the cache folder (``.farol_cache/coup_search_agent/``, one
folder per commit of the code), so a stopped run resumes; ``--fresh`` starts again.

Run: ``.venv/bin/python benchmarks/coup_search_agent.py [--games 200] [--seed 1]``;
writes ``benchmarks/results/coup_search_agent.{txt,json}`` (``--out`` another folder,
``--name`` another file name). The 8-player check was run as ``--players 8 --games 100
--speed-games 1 --name coup_search_agent_8p``, the 5- and 7-player one as ``--players 5,7
--games 100 --speed-games 1 --name coup_search_agent_5p_7p``.
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
from analysis.coup.agents.search import DEFAULT
from analysis.play.bots import sample_chance
from analysis.play.match import play_match
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"
PANEL = ("random", "honest", "bluffer", "bluffer-bold")
AGENT = "search"

# Every move of the search agent is timed: (seconds, had a choice) per move.
_TIMES: list[tuple[float, bool]] = []


def timed_build(name: str, game: pyspiel.Game, seat: int, seed: int):
    """The named bot; the search agent's moves are timed into :data:`_TIMES`."""
    bot = bots.build(name, game, seat, seed)
    if name != AGENT:
        return bot

    def act(state):
        several = len(state.legal_actions(seat)) > 1
        start = time.perf_counter()
        action = bot(state)
        _TIMES.append((time.perf_counter() - start, several))
        return action

    return act


def speed(games_n: int, seed: int) -> dict:
    """Six search agents at a 6-player table: seconds a game and a move."""
    game = pyspiel.load_game(GAME, {"players": 6})
    per_game, moves = [], []
    for i in range(games_n):
        agents = [bots.build(AGENT, game, s, seed + 10 * i + s) for s in range(6)]
        rng = np.random.default_rng(seed + i)
        state = game.new_initial_state()
        start = time.perf_counter()
        moves += timed_play(state, agents, lambda s, rng=rng: sample_chance(s, rng))
        per_game.append(time.perf_counter() - start)
    return {"games": games_n, "seconds_per_game": float(np.mean(per_game)),
            "slowest_game_seconds": float(max(per_game)), "moves": len(moves),
            "ms_per_move": 1000 * float(np.mean(moves)),
            "slowest_move_ms": 1000 * float(max(moves))}


def match_line(players: int, opponent: str, games_n: int, seed: int, folder: Path) -> dict:
    """The search agent against ``players - 1`` copies of ``opponent``."""
    params = {"players": players, "deck": "ambassador"}
    if players == 2:
        params["two_player_setup"] = "basic"
    agents = (AGENT,) + (opponent,) * (players - 1)
    del _TIMES[:]
    start = time.perf_counter()
    result = play_match(GAME, agents, games_n, seed, params, build=timed_build,
                        record=folder / f"{players}p_{opponent}.jsonl")
    seconds = time.perf_counter() - start
    fair = 1.0 / players
    total = next(r for r in result.totals() if r.agent == AGENT)
    seats = [r for r in result.seats if r.agent == AGENT]
    searched = [t for t, several in _TIMES if several]
    return {
        "players": players, "opponent": opponent, "games": games_n, "seed": seed,
        "fair_share": fair, "wins": total.wins, "win_rate": total.win_rate,
        "ci95": list(total.ci95), "above_fair": total.ci95[0] > fair,
        "seats": [{"seat": r.seat, "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
                   "ci95": list(r.ci95)} for r in seats],
        "seats_above_fair": sum(r.ci95[0] > fair for r in seats),
        "seats_rate_above_fair": sum(r.win_rate > fair for r in seats),
        # Moves timed in this run only (games kept from a stopped run are not replayed).
        "agent_moves_timed": len(_TIMES),
        "agent_ms_per_searched_move": 1000 * float(np.mean(searched)) if searched else None,
        "agent_slowest_move_ms": 1000 * max((t for t, _ in _TIMES), default=0.0),
        "seconds": seconds,
    }


def describe(line: dict) -> str:
    lo, hi = line["ci95"]
    verdict = "above" if line["above_fair"] else "NOT above"
    seats = " ".join(f"{s['win_rate']:.0%}" for s in line["seats"])
    return (f"{line['players']}p vs {line['opponent']:<12} {line['games']:>4} games  "
            f"{line['win_rate']:6.1%} [{lo:.1%}, {hi:.1%}]  fair {line['fair_share']:.1%}: "
            f"{verdict}; per seat {seats} ({line['seats_above_fair']}/{len(line['seats'])} "
            f"seats with the interval above)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per line (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--players", default="2,3,4,6", help="table sizes (default 2,3,4,6)")
    parser.add_argument("--speed-games", type=int, default=3,
                        help="6-player games of six search agents to time (default 3)")
    parser.add_argument("--fresh", action="store_true", help="forget the games of a stopped run")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--name", default="coup_search_agent",
                        help="the results' file name, without .txt/.json (default coup_search_agent)")
    args = results_file.parse_args(parser, argv)
    # Kept games belong to one version of the code: a new commit starts afresh.
    commit = code_commit().replace("+changes", "_changed")[:20]
    folder = store.cache("coup_search_agent",
                         f"{args.name}_seed{args.seed}_games{args.games}_{commit}")
    if args.fresh and folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    header = [
        f"machine: {machine(load=False)}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        f"agent: {AGENT} (= best), budget {DEFAULT.deals_action} deals a turn action, "
        f"{DEFAULT.deals_react} a challenge or block",
    ]
    print("\n".join(header), flush=True)
    fast = speed(args.speed_games, args.seed)
    speed_line = (f"speed, 6 players, six search agents: {fast['seconds_per_game']:.1f} s a game "
                  f"(slowest {fast['slowest_game_seconds']:.1f} s of {fast['games']}), "
                  f"{fast['ms_per_move']:.1f} ms a move, slowest move {fast['slowest_move_ms']:.0f} ms")
    print(speed_line, flush=True)
    lines = []
    for players in (int(p) for p in args.players.split(",")):
        for opponent in PANEL:
            line = match_line(players, opponent, args.games, args.seed, folder)
            lines.append(line)
            print(describe(line), flush=True)
    missed = [f"{x['players']}p vs {x['opponent']}" for x in lines if not x["above_fair"]]
    timed = [x for x in lines if x["agent_ms_per_searched_move"] is not None]
    summary = [
        "lines whose interval is not above the fair share: " + (", ".join(missed) or "none"),
        "the agent's moves in these matches: "
        + (f"{np.mean([x['agent_ms_per_searched_move'] for x in timed]):.1f} ms a move with a "
           f"choice (mean of the lines), slowest {max(x['agent_slowest_move_ms'] for x in timed):.0f} ms"
           if timed else "not timed (every game came from a stopped run)"),
    ]
    print("\n".join(summary))
    text = header + [speed_line, "matches (the agent in one seat, the panel agent in the "
                     "others, seats rotated; win rate [95% interval]):"]
    text += [describe(x) for x in lines] + summary
    stem = args.name
    record = {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
              "budget": {"deals_action": DEFAULT.deals_action, "deals_react": DEFAULT.deals_react,
                         "horizon": DEFAULT.horizon},
              "speed": fast, "matches": lines, "lines": text}
    save(args.out, stem, text, record)


if __name__ == "__main__":
    main()
