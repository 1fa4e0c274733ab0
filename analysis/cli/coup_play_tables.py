"""``farol coup play-tables``: how a strong 2-player agent plays (``belief`` unless
``--agent resolve``, the one ``best`` stands for), counted over its games against
itself (claims, bluffs, challenges, blocks, its turn by the hand held, and how they
change with what the opponent has shown), for the guide and the notebook.
A table already stored is kept unless ``--again``. The games are played in chunks kept
in the cache as they finish, on ``--workers`` processes, so a stopped run resumes.
With ``--players 3,4,6``: how ``best`` plays at those tables instead (its bluffs,
challenges by what the claimer has shown and whom the claim is aimed at, blocks,
targets and Coups, :mod:`analysis.coup.studies.table_play`), one process, resumable.
"""

from __future__ import annotations

import argparse

from analysis.cli.lists import comma_list
from analysis.cli.matches import show_progress
from analysis.cli.numbers import int_in
from analysis.cli.parser import add_examples
from analysis.coup.studies import agent_play as A
from analysis.coup.studies import blueprint_bluffs as BB
from analysis.coup.studies import table_play as TP
from analysis.shared import store
from games.coup import cards
from games.errors import InvalidParameterError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play-tables", help="how a strong 2-player agent bluffs, "
                                                "challenges and blocks (its self-play)")
    parser.add_argument("--agent", default=A.AGENT, choices=A.AGENTS,
                        help=f"the agent that plays itself (default {A.AGENT}; resolve is "
                             "best at 2 players and takes several times longer)")
    parser.add_argument("--decks", default=",".join(cards.DECKS),
                        help="decks, comma-separated (default ambassador,inquisitor)")
    parser.add_argument("--setups", default=",".join(cards.SETUPS),
                        help="2-player setups, comma-separated (default basic,standard,draft)")
    parser.add_argument("--games", type=int_in(BB.BATCHES), default=None,
                        help=f"games per deck and setup, a multiple of {BB.BATCHES} "
                             f"(default {A.GAMES}); with --players, games a table "
                             f"(default {', '.join(f'{v:,} at {k}' for k, v in TP.GAMES.items())})")
    parser.add_argument("--players", default=None, metavar="N,N",
                        help="tables of 3-6 players where best plays itself instead, e.g. "
                             "3,4,6 (its own seed unless --seed)")
    parser.add_argument("--seed", type=int_in(0), default=None,
                        help=f"the seed (default {A.SEED})")
    parser.add_argument("--workers", type=int_in(1), default=1,
                        help="processes playing games side by side (default 1)")
    parser.add_argument("--again", action="store_true", help="play stored tables again")
    parser.set_defaults(func=run)
    add_examples(parser, "farol coup play-tables --decks ambassador --setups basic --games 2000",
                 "farol coup play-tables --players 3,4,6")


def run(args: argparse.Namespace) -> int:
    if args.players is not None:
        return run_tables(args)
    args.games = A.GAMES if args.games is None else args.games
    args.seed = A.SEED if args.seed is None else args.seed
    if args.games % BB.BATCHES:
        raise InvalidParameterError(f"--games must be a multiple of {BB.BATCHES}")
    decks = comma_list("--decks", args.decks, choices=cards.DECKS)
    setups = comma_list("--setups", args.setups, choices=cards.SETUPS)
    for deck in decks:
        for setup in setups:
            path = A.table_path(deck, setup)
            if path.exists() and not args.again:
                print(f"{deck} {setup}: kept {store.shown(path)} (--again plays it again)")
                continue
            table = A.play_tables(deck, setup, args.games, args.seed, args.agent,
                                  progress=show_progress(), workers=args.workers)
            A.save_table(table)
            print(f"{deck} {setup}: {table.games:,} games of {table.agent} against itself "
                  f"-> {store.shown(path)}")
    return 0


def run_tables(args: argparse.Namespace) -> int:
    """``--players``: best against itself at each table of 3-6 players."""
    counts = [int(x) for x in comma_list("--players", args.players,
                                         choices=[str(n) for n in range(3, 7)])]
    for n in counts:
        path = TP.record_path(n)
        if path.exists() and not args.again:
            print(f"{n} players: kept {store.shown(path)} (--again plays it again)")
            continue
        record = TP.run_table(n, args.games, TP.SEED if args.seed is None else args.seed,
                              progress=show_progress())
        print(f"{n} players: {record.games:,} games of best ({record.plays}) against itself "
              f"-> {store.shown(path)}")
    return 0
