"""``farol advise GAME ...``: equilibrium advice for a position, one sub-command per game
(each game's module is imported only when asked)."""

from __future__ import annotations

import argparse

from analysis.cli.parser import add_command


def configure(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    add_command(games, "cobardes", "¡Cobardes!: equilibrium mix and value of a battle position",
                "analysis.cli.advise_cobardes")
    add_command(games, "coup", "Coup at 2-6 players: best's mix at 2 players, each move's "
                "chance of winning at 3-6", "analysis.cli.advise_coup")
