"""``farol goat-lords``: run one Goat Lords tournament and print its answers;
``farol goat-lords match`` plays seeded games between bots and prints their win rates."""

from __future__ import annotations

import argparse
import hashlib
import json
import re

import pyspiel

from analysis.cli.lists import comma_list
from analysis.cli.matches import (
    add_common_arguments,
    behind,
    parse_agents,
    print_result,
    show_progress,
)
from analysis.cli.numbers import int_in, parse_counts
from analysis.cli.outputs import check_output_dir
from analysis.cli.parser import add_examples
from analysis.goat_lords import GAME
from analysis.goat_lords.agents import build_bot, pinned
from analysis.goat_lords.studies import habits as H
from analysis.goat_lords.studies.balance import BalanceTables
from analysis.goat_lords.studies.plan import load_strong, run_strong, strong_plan
from analysis.goat_lords.studies.statistics import (
    bot_win_rates,
    duel_success,
    game_length,
    pct,
    seat_win_rates,
)
from analysis.goat_lords.studies.tournament import Experiment, csv_folder, csv_path, run_experiment
from analysis.play.match import play_match
from analysis.report.context import quick_mode
from analysis.shared import store
from analysis.shared.params import parse_params
from analysis.shared.store import atomic_write_text
from games.errors import InvalidParameterError
from games.goat_lords.rules import MAX_PLAYERS, MIN_PLAYERS

GROUPS = ("seats", "extra_wild", "sensitivity")
HABIT_RUNS = H.RUNS


def configure(parser: argparse.ArgumentParser) -> None:
    """``farol goat-lords``: run one tournament and print its answers (seat win rates, duels,
    wilds); ``match`` and ``balance`` below (bots register on import)."""
    parser.add_argument("--players", type=int_in(MIN_PLAYERS, MAX_PLAYERS), default=MIN_PLAYERS,
                        help=f"players at the table ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--bots", default="greedy",
                        help="comma-separated bot per seat, or one bot for all (best, lord, greedy, random, "
                             "lord:N, mcts:N, ismcts:N)")
    parser.add_argument("--games", type=int_in(1), default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int_in(0, 2**31 - 1), default=20261130, help="experiment seed")
    parser.add_argument("--rotate", action="store_true", help="rotate the seating every game")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="game parameter")
    parser.add_argument("--out", default=None, help="folder of the resumable CSV (default: the data folder)")
    parser.add_argument("--workers", type=int_in(1), default=None, help="processes (default 2)")
    parser.set_defaults(func=_run_command)
    add_examples(parser, "farol goat-lords --players 3 --games 30 --rotate")
    sub = parser.add_subparsers(dest="goat_lords_command", metavar="WHAT")
    match = sub.add_parser("match", help="seeded games between bots: each seat's win rate")
    add_common_arguments(match, f"one bot per seat, {MIN_PLAYERS} to {MAX_PLAYERS} (best, lord, "
                                "greedy, random, mcts, ismcts, lord:N, mcts:N, ismcts:N)")
    match.add_argument("--param", action="append", default=[], metavar="K=V",
                       help="game parameter (players is the number of agents)")
    match.add_argument("--save", default=None, metavar="NAME",
                       help="keep every finished game in the data folder "
                            "(goat_lords/matches/NAME.games.jsonl) so a stopped match resumes "
                            "when run again, and store the result as NAME.json")
    match.set_defaults(func=run_match)
    add_examples(match, "farol goat-lords match --agents lord,greedy --games 100 --seed 1",
                 "farol goat-lords match --agents greedy,greedy,random --games 60 --json")
    balance = sub.add_parser(
        "balance", help="balance measured with the strong agent in every seat (resumable)",
        description="Play the games that measure Goat Lords' balance with lord in every "
                    "seat: seat win rates and duels for 2-6 players in both scorings, one "
                    "more wild (paired games), and other point values. Games already played "
                    "are kept; run it again to go on.")
    balance.add_argument("--only", default=",".join(GROUPS),
                         help=f"questions, comma-separated (default {','.join(GROUPS)})")
    balance.add_argument("--players", default="2-6",
                         help="player counts: a range like 2-6 or a list like 2,4 (default 2-6)")
    balance.add_argument("--workers", type=int_in(1), default=None,
                         help="processes (default 2)")
    balance.add_argument("--scheduler", default=None,
                         help="play on a Dask cluster: the scheduler's address (tcp://host:8786)")
    balance.add_argument("--status", action="store_true",
                         help="only print how many games each question has so far and how wide its 95%% "
                              "interval is against the aim")
    balance.set_defaults(func=run_balance)
    add_examples(balance, "farol goat-lords balance --status",
                 "farol goat-lords balance --only seats --players 2,4")
    habits = sub.add_parser(
        "habits", help="how the strongest agent plays: its games kept move by move (resumable)",
        description="Play the rulebook's game with best in every seat and keep every move, "
                    "so the guide can say when strong play duels, spends a wild and what it "
                    "keeps. Games already played are kept; run it again to go on.")
    habits.add_argument("--players", default=",".join(str(r.players) for r in HABIT_RUNS),
                        help="player counts among "
                             f"{','.join(str(r.players) for r in HABIT_RUNS)} (default all)")
    habits.add_argument("--workers", type=int_in(1), default=None, help="processes (default 1)")
    habits.add_argument("--status", action="store_true",
                        help="only print how many games each run has so far")
    habits.set_defaults(func=run_habits)
    add_examples(habits, "farol goat-lords habits --status")


def run_match(args) -> int:
    """``farol goat-lords match``: one player per agent named; prints each seat's win rate."""
    agents = parse_agents(args.agents)
    if args.save is not None:  # a stored match names the budget that played
        agents = tuple(pinned(a) for a in agents)
    if not MIN_PLAYERS <= len(agents) <= MAX_PLAYERS:
        raise InvalidParameterError(
            f"--agents names {len(agents)} bots: Goat Lords seats {MIN_PLAYERS} to {MAX_PLAYERS} "
            "players, one per bot named")
    params = parse_params(GAME, args.param)
    if "players" in params:
        raise InvalidParameterError("--param players: the number of players is the number of "
                                    "--agents")
    params = {"players": len(agents), **params}
    record = None
    if args.save is not None:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", args.save) or args.save.startswith("."):
            raise InvalidParameterError(f"--save {args.save!r}: a name of letters, digits, "
                                        "'_', '-' and '.'")
        record = store.data("goat_lords", "matches", f"{args.save}.games.jsonl")
    result = play_match(GAME, agents, args.games, args.seed, params, workers=args.workers,
                        progress=show_progress(), build=build_bot, record=record)
    print_result(result, args.json, *behind(agents, pyspiel.load_game(GAME, params)))
    if record is not None:
        path = store.data("goat_lords", "matches", f"{args.save}.json")
        atomic_write_text(path, json.dumps(result.to_json(), indent=1) + "\n")
        if not args.json:
            print(f"  result stored in {store.shown(path)}; games in {store.shown(record)}")
    return 0


def run_balance(args) -> int:
    """``farol goat-lords balance``: play (or only count) the strong-agent balance games."""
    groups = comma_list("--only", args.only, empty_ok=True)
    unknown = [g for g in groups if g not in GROUPS]
    if unknown or not groups:
        raise InvalidParameterError(f"--only {args.only!r}: choose among {', '.join(GROUPS)}")
    players = set(parse_counts(args.players, MIN_PLAYERS, MAX_PLAYERS, "Goat Lords"))
    chosen = {(g, e.name) for g, exps in strong_plan(quick_mode()).items() if g in groups
              for e in exps if e.players in players}

    def only(exp) -> bool:
        return any(name == exp.name for _, name in chosen)

    if not args.status:
        run_strong(quick_mode(), args.workers, args.scheduler, only)
    res = load_strong(quick_mode())
    tables = BalanceTables.from_results(res).tables()
    for group, done in res.items():
        for (exp, df), row in zip(done, tables[group].itertuples(), strict=True):
            if (group, exp.name) in chosen:
                half = max(row.half, getattr(row, "attacker_half", 0.0))
                width = "" if df.empty else (f"  ±{100 * half:z.2f} pp (aim ±{100 * row.aim:zg})"
                                             + ("" if row.meets_aim else " wider"))
                print(f"  {group:<12} {exp.players}p {exp.label:<12} {len(df):>5} of "
                      f"{exp.games} games{width}")
    return 0


def _run_command(args) -> int:
    bots = comma_list("--bots", args.bots, empty_ok=True)
    if len(bots) == 1:
        bots = bots * args.players
    for bot in bots:
        count = bot.partition(":")[2]
        if count.isdigit() and int(count) < 1:
            raise InvalidParameterError(f"--bots: {bot} needs at least 1 simulation per move")
    if len(bots) != args.players:
        raise InvalidParameterError(f"--bots names {len(bots)} bots for {args.players} players")
    params = parse_params(GAME, args.param)
    params.pop("players", None)
    game = pyspiel.load_game(GAME, {"players": args.players, **params})
    for seat, name in enumerate(bots):
        build_bot(name, game, seat, 0)  # fails early, naming the choices
    name = "cli_" + hashlib.sha1(repr((args.players, bots, sorted(params.items()), args.seed,
                                        args.rotate)).encode()).hexdigest()[:8]
    exp = Experiment(name, args.players, bots, args.games, seed=args.seed,
                     params=tuple(sorted(params.items())), rotate=args.rotate)
    out = check_output_dir(args.out or csv_folder(), "--out")
    df = run_experiment(exp, out, workers=args.workers)
    print(f"{len(df)} games of {GAME} ({', '.join(bots)}), seed {args.seed}; rows in {store.shown(csv_path(exp, out))}")
    for row in seat_win_rates(df).itertuples():
        print(f"  seat {row.seat}: win rate {pct(row.win_rate, row.lo, row.hi)} (fair {100 * row.fair:z.1f}%)")
    if args.rotate:
        for row in bot_win_rates(df).itertuples():
            print(f"  {row.bot}: win rate {pct(row.win_rate, row.lo, row.hi)}")
    d = duel_success(df)
    print(f"  duels: {d['duels']}, attacker wins {pct(d['attacker_rate'], d['lo'], d['hi'])}")
    g = game_length(df)
    print(f"  turns per round: {g['turns']:z.1f} [{g['lo']:z.1f}, {g['hi']:z.1f}]")
    return 0


def run_habits(args) -> int:
    """``farol goat-lords habits``: play (or only count) the strongest agent's kept games."""
    counts = set(parse_counts(args.players, MIN_PLAYERS, MAX_PLAYERS, "Goat Lords"))
    runs = [r for r in HABIT_RUNS if r.players in counts]
    if not runs:
        raise InvalidParameterError(f"--players {args.players!r}: the runs are at "
                                    f"{', '.join(str(r.players) for r in HABIT_RUNS)} players")
    for run in runs:
        if not args.status:
            H.play(run, workers=args.workers or 1, progress=show_progress())
        done = H.stored(run)
        print(f"  {run.name}: {len(done)} of {run.games} games in "
              f"{store.shown(H.games_path(run))}")
    return 0
