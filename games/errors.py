"""Errors raised by Farol's games for bad input.

Every error a user can cause (an unknown card, an illegal action, an impossible
position, a malformed parameter) is a :class:`FarolError` whose message names the
problem in one line. The CLI prints that line and exits non-zero.
"""

from __future__ import annotations


class FarolError(ValueError):
    """Base class of every user-facing error in Farol."""


class UnknownCardError(FarolError):
    """A card name that is not part of the game."""


class IllegalActionError(FarolError):
    """An action that is not legal in the current state."""


class InvalidPositionError(FarolError):
    """A starting position that cannot arise under the rules."""


class InvalidParameterError(FarolError):
    """A game parameter with an unknown name or an unusable value."""


class UnknownGameError(FarolError, KeyError):
    """A game or ruleset name that Farol does not know (also a ``KeyError``, for lookups)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownBotError(FarolError):
    """An opponent or agent name that no bot answers to for the game."""


class OutputError(FarolError):
    """A location Farol was asked to write to but cannot (not a folder, not writable)."""
