"""Goat Lords' cards as data: the published deck of 110 goat cards.

Cards of one kind are identical, so the game tracks kinds, never card ids: a hand
or a pile of cards is a count per kind. Point values are not published in our
sources; the defaults below are an assumption (goats 5–20, wilds 25–50, the
published ranges), every one of them a game parameter (``value_<key>``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.errors import UnknownCardError


@dataclass(frozen=True)
class GoatKind:
    """One kind of goat card.

    Attributes
    ----------
    key:
        Short identifier, used in parameter names (``value_<key>``) and tokens.
    name:
        The printed name.
    copies:
        Copies in the published deck.
    wild:
        Wilds match any goat.
    default_value:
        Assumed points per card (a parameter).
    """

    key: str
    name: str
    copies: int
    wild: bool
    default_value: int


# Wilds first; rarer kinds are assumed to be worth more.
KINDS: tuple[GoatKind, ...] = (
    GoatKind("goat_lord", "Goat Lord", 4, True, 50),
    GoatKind("goatini", "Magical Goatini", 8, True, 25),
    GoatKind("goatacorn", "Flying Goat-a-Corn", 8, False, 20),
    GoatKind("dragon", "Fire Breathing Dragon Goat", 10, False, 15),
    GoatKind("kraken", "Krakengoat", 10, False, 15),
    GoatKind("ninja", "Goat Ninja", 10, False, 15),
    GoatKind("tgoat", "Friendly T-Goat", 10, False, 10),
    GoatKind("fairy", "Fairy Goat Mother", 10, False, 10),
    GoatKind("ghoast", "Gleeful Ghoast", 10, False, 10),
    GoatKind("ladypug", "Ladypug", 10, False, 5),
    GoatKind("foodie", "Foodie Goat", 10, False, 5),
    GoatKind("fainting", "Fainting Baby Goat", 10, False, 5),
)

NUM_KINDS = len(KINDS)
# The "kind" of a pile made of two wilds: only a wild matches it.
WILD_PILE = NUM_KINDS
IS_WILD: tuple[bool, ...] = tuple(k.wild for k in KINDS)
WILDS: tuple[int, ...] = tuple(i for i, k in enumerate(KINDS) if k.wild)
GOATS: tuple[int, ...] = tuple(i for i, k in enumerate(KINDS) if not k.wild)
DECK_COUNTS: tuple[int, ...] = tuple(k.copies for k in KINDS)
DECK_SIZE = sum(DECK_COUNTS)
DEFAULT_VALUES: tuple[int, ...] = tuple(k.default_value for k in KINDS)
GOAT_VALUE_RANGE = (5, 20)
WILD_VALUE_RANGE = (25, 50)

_BY_KEY = {k.key: i for i, k in enumerate(KINDS)}
_BY_NAME = {k.name.lower(): i for i, k in enumerate(KINDS)}

assert DECK_SIZE == 110 and sum(DECK_COUNTS[i] for i in WILDS) == 12


def kind_index(name: str) -> int:
    """The index of a kind given its key or printed name (case-insensitive).

    Raises
    ------
    UnknownCardError
        For a name that is not a Goat Lords card.
    """
    text = name.strip().lower()
    if text in _BY_KEY:
        return _BY_KEY[text]
    if text in _BY_NAME:
        return _BY_NAME[text]
    known = ", ".join(k.key for k in KINDS)
    raise UnknownCardError(f"unknown Goat Lords card {name!r}; cards: {known}")


def kind_name(kind: int) -> str:
    """Printed name of a kind, or ``"wild pair"`` for the kind of a two-wild pile."""
    return "wild pair" if kind == WILD_PILE else KINDS[kind].name


def counts_of(kinds: list[int] | tuple[int, ...]) -> list[int]:
    """Count vector (one entry per kind) of a list of card kinds."""
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts
