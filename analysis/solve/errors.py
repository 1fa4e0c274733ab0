"""Errors of the solver engine, each a one-line :class:`games.errors.FarolError`."""

from __future__ import annotations

from games.errors import FarolError


class SolveError(FarolError):
    """Base class of the solver engine's user-facing errors."""


class UnsupportedGameError(SolveError):
    """The game is not a two-player zero-sum game the engine can compile."""


class GameTooLargeError(SolveError):
    """The compiled game would not fit in the memory budget (refused before allocating)."""
