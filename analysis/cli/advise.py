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
    add_command(games, "coup", "2-player Coup: the mix and value of the player to move",
                "analysis.cli.advise_coup")
