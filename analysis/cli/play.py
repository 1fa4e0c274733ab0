"""``farol play``: a person plays a game in the terminal against bots."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from analysis.cli import bots  # noqa: F401  (registers every bot before a game is played)
from analysis.cli.numbers import int_in
from analysis.cli.parser import add_examples
from analysis.play.bots import stands_behind_line, what_stands_behind
from analysis.play.session import play_game
from analysis.shared.params import load_game, parse_params
from games.errors import InvalidParameterError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered game name, e.g. python_coup")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="game parameter")
    parser.add_argument("--players", type=int_in(1), default=None,
                        help="players at the table, for games that take a 'players' parameter "
                        "(the same as --param players=N); Coup coaches 2-6 players: type hint")
    parser.add_argument("--seat", type=int_in(0), default=0, help="your seat (default 0)")
    parser.add_argument("--opponent", default="random", help="bot for the other seats (default random)")
    parser.add_argument("--seed", type=int_in(0, 2**31 - 1), default=None, help="random seed (default: fresh)")
    parser.set_defaults(func=run)
    add_examples(parser, "farol play python_coup --opponent best",
                 "farol play python_goat_lords --param players=3 --opponent greedy --seed 7")


def run(args: argparse.Namespace) -> int:
    params = parse_params(args.game, args.param)
    if args.players is not None:
        if "players" in params:
            raise InvalidParameterError("--players or --param players=: give one of the two")
        params["players"] = args.players
    game = load_game(args.game, params)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    about = what_stands_behind(args.opponent, game)
    if about is not None:
        print("Your opponent: " + stands_behind_line(args.opponent, about))
    play_game(game, args.seat, args.opponent, seed, read=input, write=print)
    sys.stdout.flush()
    return 0
