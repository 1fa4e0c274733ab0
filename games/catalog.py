"""The catalog of Farol's games: what the CLI, the reports and the tests iterate over.

Each ruleset package registers one :class:`GameFamily` (a report is written per
family) holding one :class:`GameEntry` per registered OpenSpiel game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.errors import UnknownGameError

Params = Mapping[str, Any]


@dataclass(frozen=True)
class GameEntry:
    """One registered OpenSpiel game.

    Attributes
    ----------
    name:
        The registered name, always ``python_`` plus the game's name.
    title:
        Human title, e.g. ``"¡Cobardes! — one battle"``.
    contract_params:
        Parameter sets the contract suite runs the game under (several
        player counts and variants). ``{}`` means the defaults.
    small_variants:
        ``(label, params)`` pairs small enough to walk exhaustively; the report
        prints their history and information-set counts.
    render:
        Optional ``render(state, seat) -> str`` that shows a seat what it may
        see, for ``farol play``. Defaults to the information-state string.
    events:
        Optional ``events(state, seat, start) -> (lines, next_start)``: what the seat
        saw happen since ``start``, in words, which ``farol play`` prints as it happens.
    parameter_help:
        One line per parameter saying what it does (``farol games`` prints it),
        kept by the module that declares the parameters.
    """

    name: str
    title: str
    contract_params: tuple[Params, ...] = ({},)
    small_variants: tuple[tuple[str, Params], ...] = ()
    render: Callable[[Any, int], str] | None = None
    events: Callable[[Any, int, int], tuple[list[str], int]] | None = None
    parameter_help: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameFamily:
    """A ruleset: one report, one rulings file, one or more games."""

    key: str
    title: str
    summary: str
    rules_doc: str
    games: tuple[GameEntry, ...] = field(default_factory=tuple)


_FAMILIES: dict[str, GameFamily] = {}


def register_family(family: GameFamily) -> None:
    """Add a ruleset to the catalog (idempotent for the same key)."""
    for entry in family.games:
        if not entry.name.startswith("python_"):
            raise ValueError(f"game name {entry.name!r} must start with 'python_'")
    _FAMILIES[family.key] = family


def families() -> list[GameFamily]:
    """Every registered ruleset, in registration order."""
    return list(_FAMILIES.values())


def family(key: str) -> GameFamily:
    """The ruleset called ``key``; raises :class:`KeyError` naming the known ones."""
    try:
        return _FAMILIES[key]
    except KeyError:
        known = ", ".join(_FAMILIES) or "none"
        raise UnknownGameError(f"unknown game family {key!r}; known: {known}") from None


def entries() -> list[GameEntry]:
    """Every registered game of the project."""
    return [entry for fam in _FAMILIES.values() for entry in fam.games]


def entry(name: str) -> GameEntry:
    """The game registered as ``name``."""
    for candidate in entries():
        if candidate.name == name:
            return candidate
    known = ", ".join(e.name for e in entries()) or "none"
    raise UnknownGameError(f"unknown game {name!r}; Farol's games: {known}")


def family_of(name: str) -> GameFamily:
    """The ruleset a registered game belongs to."""
    for fam in _FAMILIES.values():
        if any(e.name == name for e in fam.games):
            return fam
    raise UnknownGameError(f"unknown game {name!r}")
