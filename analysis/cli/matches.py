"""What ``farol coup match`` and ``farol goat-lords match`` share: their common options,
the ``--agents`` list and the printed answer (a table, or the result's JSON)."""

from __future__ import annotations

import argparse
import json

from analysis.cli.lists import comma_list
from analysis.cli.numbers import int_in
from analysis.cli.outputs import with_schema
from analysis.play.bots import stands_behind_line, what_stands_behind
from analysis.play.match import MatchResult
from analysis.shared import progress


def add_common_arguments(parser: argparse.ArgumentParser, seats_text: str) -> None:
    """``--agents``, ``--games``, ``--seed``, ``--workers`` and ``--json``."""
    parser.add_argument("--agents", required=True, metavar="A,B,...", help=seats_text)
    parser.add_argument("--games", type=int_in(1), default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int_in(0), default=0,
                        help="match seed (default 0); game i is seeded from the seed and i alone")
    parser.add_argument("--workers", type=int_in(1), default=1,
                        help="processes playing games in parallel (default 1; the result is the "
                             "same for any number)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (seats, game, params, games, seed, "
                             "version, commit)")


def parse_agents(text: str) -> tuple[str, ...]:
    """``"honest,bluffer"`` as agent names (one-line error for an empty name)."""
    return comma_list("--agents", text,
                      hint="write agent names separated by commas, e.g. honest,bluffer")


def show_progress() -> bool:
    """Progress on standard error, a bar on a terminal and plain lines otherwise, unless
    ``FAROL_PROGRESS=0`` (:mod:`analysis.shared.progress`)."""
    return progress.shown()


def behind(agents, game) -> tuple[dict | None, tuple[str, ...]]:
    """What each name that stands for another agent (``best``) was at this table: the
    JSON to add and the lines to print (:func:`print_result`'s ``about`` and ``lines``)."""
    about = {name: what_stands_behind(name, game) for name in dict.fromkeys(agents)}
    about = {name: a for name, a in about.items() if a is not None}
    if not about:
        return None, ()
    return ({f"{name}_is": a for name, a in about.items()},
            tuple(stands_behind_line(name, a) for name, a in about.items()))


def print_result(result: MatchResult, as_json: bool, about: dict | None = None,
                 lines: tuple[str, ...] = ()) -> None:
    """The result as JSON, or as a table of each agent's win rate in each seat;
    ``about`` (e.g. what ``best`` stood for) joins the JSON, ``lines`` follow the table."""
    if as_json:
        print(json.dumps(with_schema("match", result.to_json() | (about or {})), indent=2))
        return
    players = 1 + max(r.seat for r in result.seats)
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    print(f"{result.games} games of {result.game} ({params}), seed {result.seed}; "
          f"seats rotate every game; a fair share is {100 / players:z.1f}%")
    if result.duplicate:
        print(f"duplicate deals: {result.deals} deals, each played once in every rotation of "
              "the seats; the intervals are over deals")
    width = max(len("agent"), *(len(r.agent) for r in result.seats))
    print(f"  {'seat':>4}  {'agent':<{width}}  {'games':>6}  {'wins':>7}  {'win rate':>8}  95% interval")
    for r in result.seats:
        lo, hi = r.ci95
        print(f"  {r.seat:>4}  {r.agent:<{width}}  {r.games:>6}  {r.wins:>z7.6g}  "
              f"{100 * r.win_rate:>z7.1f}%  [{100 * lo:z.1f}, {100 * hi:z.1f}]")
    totals = result.totals()
    if len(totals) > 1:
        print("  all seats:")
        for r in totals:
            lo, hi = r.ci95
            print(f"  {'':>4}  {r.agent:<{width}}  {r.games:>6}  {r.wins:>z7.6g}  "
                  f"{100 * r.win_rate:>z7.1f}%  [{100 * lo:z.1f}, {100 * hi:z.1f}]")
    for line in lines:
        print(line)
