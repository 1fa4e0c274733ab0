"""``farol coup balance``: seat win rates at 2-8 players, both decks and every 2-player
setup, played by a strong agent in self-play and against tables of panel agents, with
the value of each starting hand. Resumable: games already played are
kept (in the cache) and only the missing ones are played. ``--duplicate`` plays duplicate
deals (every deal once in each rotation of the seats), kept apart from plain games.
"""

from __future__ import annotations

import argparse
import json

from analysis.cli import bots
from analysis.cli.lists import comma_list
from analysis.cli.matches import parse_agents, show_progress
from analysis.cli.numbers import int_in, parse_counts
from analysis.cli.outputs import with_schema
from analysis.cli.parser import add_examples
from analysis.coup.agents.best import about_kind, agent_name
from analysis.coup.studies import seat_balance as SB
from analysis.coup.studies.seat_balance import TableRecord
from analysis.shared import store
from games.coup import cards


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("balance", help="seat win rates at 2-8 players with strong agents "
                                            "(resumable)")
    parser.add_argument("--players", default="2-8",
                        help="player counts: a range like 2-8 or a list like 2,4,6 (default 2-8)")
    parser.add_argument("--decks", default=",".join(cards.DECKS),
                        help="decks, comma-separated (default ambassador,inquisitor)")
    parser.add_argument("--setups", default=",".join(cards.SETUPS),
                        help="2-player setups, comma-separated (default basic,standard,draft)")
    parser.add_argument("--agent", default="best",
                        help="the agent in every seat of the self-play games (default best)")
    parser.add_argument("--panel", default=",".join(SB.PANEL),
                        help="agents it also meets, one table of each (default "
                             f"{','.join(SB.PANEL)}; 'none' for none)")
    parser.add_argument("--games", type=int_in(1), default=1000,
                        help="self-play games per table (default 1000)")
    parser.add_argument("--robustness-games", type=int_in(1), default=None,
                        help="games against each panel table (default: --games)")
    parser.add_argument("--seed", type=int_in(0), default=20261202, help="the seed (default 20261202)")
    parser.add_argument("--workers", type=int_in(1), default=1, help="worker processes (default 1)")
    parser.add_argument("--scheduler", default=None,
                        help="play on a Dask cluster: the scheduler's address (tcp://host:8786)")
    parser.add_argument("--duplicate", action="store_true",
                        help="duplicate deals: play each shuffled deal once in every rotation "
                             "of the seats (same cards, same court), so the luck of the deal "
                             "falls on every seat alike; games are rounded up to whole deals, "
                             "intervals are over deals, and the games and records are kept "
                             "apart from plain ones")
    parser.add_argument("--json", action="store_true", help="print the records as JSON")
    parser.set_defaults(func=run_balance)
    add_examples(parser, "farol coup balance --players 3 --decks ambassador --games 100")


def parse_players(text: str) -> tuple[int, ...]:
    """``"2-8"`` or ``"2,4,6"`` as player counts (one-line error otherwise)."""
    return parse_counts(text, cards.MIN_PLAYERS, cards.MAX_PLAYERS, "Coup")


def run_balance(args: argparse.Namespace) -> int:
    chosen = SB.tables(parse_players(args.players),
                       comma_list("--decks", args.decks, choices=cards.DECKS),
                       comma_list("--setups", args.setups, choices=cards.SETUPS))
    panel = () if args.panel.strip() == "none" else parse_agents(args.panel)
    records = SB.run_balance(chosen, args.agent, args.games, args.seed, panel,
                             args.robustness_games, args.workers, args.scheduler,
                             show_progress(), bots.build, args.duplicate)
    if args.json:
        print(json.dumps([with_schema("coup-balance", r.to_json() | (
            {f"{r.agent}_is": about_kind(r.plays)} if r.plays else {})) for r in records],
            indent=1))
    else:
        for record in records:
            print_record(record)
    return 0


def percent(rate: float, ci: tuple[float, float]) -> str:
    return f"{100 * rate:z5.1f}% [{100 * ci[0]:z.1f}, {100 * ci[1]:z.1f}]"


def print_record(record: TableRecord) -> None:
    """A table's answer in a few lines: seats, robustness, best and worst hands."""
    table, n = record.table, record.table.players
    print(f"{table.title} ({store.shown(SB.record_path(table, record.duplicate))})")
    games = record.self_play.games
    dealt = (f" as {record.self_play.deals} duplicate deals, intervals over deals"
             if record.duplicate else "")
    played = f" (here: {agent_name(record.plays)})" if record.plays else ""
    if record.plays:
        about = about_kind(record.plays)
        print(f"  {about['agent']}: it {about['plays']}; strength: {about['strength']} "
              f"({about['strength_measured_in']})")
    print(f"  {record.agent}{played} in every seat, {games} games{dealt} "
          f"(fair share {100 / n:z.1f}%):")
    for seat in record.self_play.seats:
        print(f"    seat {seat.seat + 1}: {percent(seat.win_rate, seat.ci95)}")
    for match in record.robustness:
        mine = next(t for t in match.totals() if t.agent == record.agent)
        rival = match.seats[-1].agent
        print(f"  {record.agent} against {n - 1} {rival}, {mine.games} games: "
              f"{percent(mine.win_rate, mine.ci95)}")
    if record.hands:
        # Ranked by what the interval proves: the best by its lower end, the worst by
        # its upper end (a hand dealt twice proves little).
        best = max(record.hands, key=lambda h: h.ci95[0])
        worst = min(record.hands, key=lambda h: h.ci95[1])
        for label, h in (("best", best), ("worst", worst)):
            print(f"  {label} starting hand: {h.hand} wins {percent(h.win_rate, h.ci95)} "
                  f"of {h.games}")
    if record.cpu_seconds is not None:
        print(f"  compute: {record.cpu_seconds / 60:z,.1f} CPU-minutes for its games")
