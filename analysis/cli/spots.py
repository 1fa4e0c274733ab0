"""``--param K=V ... --history 'MOVE;...'``: a spot of a game given by the moves that lead
to it, for the commands that advise on a spot; and a Coup position starting with ``-``
kept from being read as an option."""

from __future__ import annotations

import argparse

import pyspiel

from analysis.cli.lists import add_param_argument
from analysis.shared.params import load_game, parse_params
from games.errors import InvalidParameterError
from games.history import replay


def add_spot_arguments(parser: argparse.ArgumentParser, params_example: tuple[str, ...],
                       history_help: str) -> None:
    """``--param`` (its example ``params_example``: each ``K=V`` given as its own
    ``--param``, as the command takes them) and ``--history``."""
    flags = " ".join(f"--param {item}" for item in params_example)
    add_param_argument(parser, f"a game parameter for --history, e.g. {flags}")
    parser.add_argument("--history", default=None, metavar="'MOVE;MOVE;...'",
                        help=history_help)


def spot_from_args(game_name: str, args: argparse.Namespace,
                   defaults: dict | None = None) -> pyspiel.State | None:
    """The state ``--history`` reaches in ``game_name`` with the ``--param`` values (over
    ``defaults``); ``None`` without ``--history``, when ``--param`` is refused."""
    if args.history is None:
        if args.param:
            raise InvalidParameterError("--param goes with --history")
        return None
    params = dict(defaults or {}) | parse_params(game_name, args.param)
    return replay(load_game(game_name, params), args.history)


def protect_position(argv: list[str]) -> list[str]:
    """``argv`` with a Coup position that starts with ``-`` (player 0 out, e.g.
    ``-/duke+captain/0;?/contessa/2;move:1``) moved after ``--``, so argparse reads it as
    the position rather than as an unknown option. Only ``advise coup`` is touched; a
    position is told from an option by its ``/`` (options hold none)."""
    for i in range(len(argv) - 1):
        if argv[i] == "advise" and argv[i + 1] == "coup":
            rest = argv[i + 2 :]
            if "--" in rest:
                return argv
            positions = [a for a in rest if a.startswith("-") and "/" in a and "=" not in a]
            if len(positions) != 1:
                return argv
            rest.remove(positions[0])
            return argv[: i + 2] + rest + ["--", positions[0]]
    return argv
