"""``farol advise GAME ...``: equilibrium advice for a position, one sub-parser per game.

Each game's advice module defines ``add_advise_parser(subparsers)``, adding its
sub-command (``farol advise cobardes ...``) with ``func`` set. Modules are listed in
``_GAME_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib

_GAME_MODULES = (
    "analysis.cobardes.advise",
    "analysis.coup.advise",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise", help="equilibrium advice for a position: the mix to play and its value")
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    for module in _GAME_MODULES:
        importlib.import_module(module).add_advise_parser(games)
