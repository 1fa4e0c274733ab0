"""``farol advise GAME ...``: equilibrium advice for a position, one sub-command per game."""

from __future__ import annotations

import argparse

from analysis.cli import advise_cobardes, advise_coup


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise", help="equilibrium advice for a position: the mix to play and its value")
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    advise_cobardes.add_advise_parser(games)
    advise_coup.add_advise_parser(games)
