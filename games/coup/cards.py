"""Coup's characters, actions and blocks as plain data.

Characters are small integers so that hands, the court and the revealed piles
are tuples of counts indexed by character. Slot 3 is the exchange character:
the Ambassador in the ``ambassador`` deck, the Inquisitor in the ``inquisitor``
deck (the rules use one or the other, never both).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import combinations_with_replacement
from typing import Literal, get_args

from games.errors import UnknownCardError

DUKE, ASSASSIN, CAPTAIN, EXCHANGER, CONTESSA = range(5)
NUM_CHARACTERS = 5
CHARACTERS = (DUKE, ASSASSIN, CAPTAIN, EXCHANGER, CONTESSA)

# --- The game's parameter values (every other module and the command line read them here)
Deck = Literal["ambassador", "inquisitor"]
# The two decks differ in the exchange character only (slot 3 above).
DECKS: tuple[Deck, ...] = get_args(Deck)
Setup = Literal["basic", "standard", "draft"]
# How a 2-player game starts (parameter ``two_player_setup``): ``basic``, the starting
# player takes 1 coin; ``standard``, 2 coins each; ``draft``, hands are drafted. More
# players always start as ``standard``.
SETUPS: tuple[Setup, ...] = get_args(Setup)
# The setups whose hands are dealt at random (all but the draft).
DEALT_SETUPS: tuple[Setup, ...] = tuple(s for s in SETUPS if s != "draft")

_NAMES = {
    "ambassador": ("Duke", "Assassin", "Captain", "Ambassador", "Contessa"),
    "inquisitor": ("Duke", "Assassin", "Captain", "Inquisitor", "Contessa"),
}

# Spanish names from the rules texts are accepted too (``Duquesa`` is the
# 2–8 player text's name for the Duke).
_ALIASES = {
    "duke": DUKE, "duque": DUKE, "duquesa": DUKE,
    "assassin": ASSASSIN, "asesino": ASSASSIN,
    "captain": CAPTAIN, "capitan": CAPTAIN, "capitán": CAPTAIN,
    "contessa": CONTESSA, "condesa": CONTESSA,
}
_EXCHANGER_ALIASES = {
    "ambassador": ("ambassador", "embajador"),
    "inquisitor": ("inquisitor", "inquisidor"),
}


def copies_per_character(num_players: int) -> int:
    """Copies of each character in the deck: 3, or 4 with 7–8 players."""
    return 4 if num_players >= 7 else 3


def card_name(card: int, deck: str = "ambassador") -> str:
    """The English name of ``card`` in ``deck``."""
    return _NAMES[deck][card]


def parse_card(text: str, deck: str = "ambassador") -> int:
    """The character called ``text`` (English or Spanish, any case) in ``deck``.

    Raises
    ------
    UnknownCardError
        For a name that is not one of the deck's five characters.
    """
    key = text.strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    if key in _EXCHANGER_ALIASES[deck]:
        return EXCHANGER
    other = "inquisitor" if deck == "ambassador" else "ambassador"
    if key in _EXCHANGER_ALIASES[other]:
        raise UnknownCardError(f"card {text!r} is not in the {deck} deck")
    known = ", ".join(_NAMES[deck])
    raise UnknownCardError(f"unknown card {text!r}; the {deck} deck has {known}")


# --- Turn actions -----------------------------------------------------------
# Kinds of turn action. ``claim`` is the character the action claims (None: a
# general action nobody can challenge); ``targeted`` actions name another player.
INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE, EXAMINE = range(8)
NUM_KINDS = 8

KIND_NAMES = (
    "Income", "Foreign Aid", "Coup", "Tax", "Assassinate", "Steal", "Exchange", "Examine",
)
KIND_CLAIM = (None, None, None, DUKE, ASSASSIN, CAPTAIN, EXCHANGER, EXCHANGER)
KIND_TARGETED = (False, False, True, False, True, True, False, True)

# Blocks: which characters block which action, and who may block it.
# ``"anyone"``: any living player except the actor; ``"target"``: the target only.
BLOCKERS = {
    FOREIGN_AID: ((DUKE,), "anyone"),
    ASSASSINATE: ((CONTESSA,), "target"),
    STEAL: ((CAPTAIN, EXCHANGER), "target"),
}



@dataclass(frozen=True)
class Numbers:
    """The numbers of the rules a designer may change, each a game parameter of the same
    name; the defaults are the printed rules' (``coup_rules_es_basic.txt``): «Golpe de
    Estado (pagas 7 monedas...)», «Asesino, paga 3 monedas», «Con diez monedas o más estás
    obligado a dar un golpe de Estado», «Ingreso (coges 1 moneda...)», «Ayuda exterior
    (coges 2 monedas...)», «cobra impuestos y coge 3 monedas», «quita 2 monedas», «Cada
    persona coge dos monedas», «Separad tres cartas de cada uno de los cinco personajes»,
    «Repartid dos cartas boca abajo a cada persona».

    ``copies`` 0 stands for the rules' count (3 of each character, 4 with 7-8 players,
    :func:`copies_per_character`). Hands hold 1 or 2 cards: the exchange's moves
    (:data:`KEEP_OPTIONS`) cover hands of at most 2.
    """

    coup_cost: int = 7
    assassination_cost: int = 3
    forced_coup_coins: int = 10
    income: int = 1
    foreign_aid: int = 2
    tax: int = 3
    steal: int = 2
    starting_coins: int = 2
    copies: int = 0
    hand_size: int = 2

    def gain(self, kind: int) -> int:
        """Coins an Income, Foreign Aid or Tax of ``kind`` takes from the treasury."""
        return {INCOME: self.income, FOREIGN_AID: self.foreign_aid, TAX: self.tax}[kind]

    def cost(self, kind: int) -> int:
        """Coins the actor pays when declaring an action of ``kind``."""
        return {COUP: self.coup_cost, ASSASSINATE: self.assassination_cost}.get(kind, 0)

    def changed(self) -> tuple[str, ...]:
        """The names of the numbers that differ from the printed rules, in order."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) != getattr(PRINTED, f.name))


PRINTED = Numbers()
NUMBER_PARAMS: tuple[str, ...] = tuple(f.name for f in fields(Numbers))
# What each number means, one line each (``farol games``).
NUMBER_HELP = {
    "coup_cost": "coins a Coup costs (printed: 7)",
    "assassination_cost": "coins an Assassination costs (printed: 3)",
    "forced_coup_coins": "a player starting a turn with this many coins must Coup (printed: 10)",
    "income": "coins Income takes (printed: 1)",
    "foreign_aid": "coins Foreign Aid takes (printed: 2)",
    "tax": "coins the Duke's Tax takes (printed: 3)",
    "steal": "the most coins the Captain steals (printed: 2)",
    "starting_coins": "coins each player starts with (printed: 2; basic 2-player setup: the "
                      "starting player gets one less)",
    "copies": "copies of each character in the deck; 0: the rules' 3 (4 with 7-8 players)",
    "hand_size": "cards dealt to each player, 1 or 2 (printed: 2)",
}
MAX_HAND = 2  # the exchange's keep moves cover hands of 1 or 2 cards
MAX_COPIES = 8

COUP_COST = PRINTED.coup_cost
ASSASSINATE_COST = PRINTED.assassination_cost
FORCED_COUP_COINS = PRINTED.forced_coup_coins
STEAL_MAX = PRINTED.steal
AMBASSADOR_DRAW = 2
INQUISITOR_DRAW = 1

# --- Action ids (OpenSpiel's distinct actions) -------------------------------
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # the 2-8 player rules; 7-8 players add a copy of each card
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
A_INCOME = 0
A_FOREIGN_AID = 1
A_TAX = 2
A_EXCHANGE = 3
A_COUP = 4  # + target seat
A_ASSASSINATE = A_COUP + MAX_PLAYERS
A_STEAL = A_ASSASSINATE + MAX_PLAYERS
A_EXAMINE = A_STEAL + MAX_PLAYERS
A_CHALLENGE = A_EXAMINE + MAX_PLAYERS
A_NO_CHALLENGE = A_CHALLENGE + 1
A_BLOCK = A_NO_CHALLENGE + 1  # + character
A_NO_BLOCK = A_BLOCK + NUM_CHARACTERS
A_LOSE = A_NO_BLOCK + 1  # + character
A_KEEP = A_LOSE + NUM_CHARACTERS  # + index into KEEP_OPTIONS
# The hands an Ambassador may keep: every multiset of one or two characters.
KEEP_OPTIONS = tuple(
    combo for size in (1, 2) for combo in combinations_with_replacement(CHARACTERS, size)
)
A_RETURN = A_KEEP + len(KEEP_OPTIONS)  # + character (Inquisitor exchange)
A_SHOW = A_RETURN + NUM_CHARACTERS  # + character (examined player)
A_EXAMINE_KEEP = A_SHOW + NUM_CHARACTERS
A_EXAMINE_FORCE = A_EXAMINE_KEEP + 1
A_PICK = A_EXAMINE_FORCE + 1  # + character (2-player draft)
NUM_ACTIONS = A_PICK + NUM_CHARACTERS

# Targeted action ids by kind.
TARGET_BASE = {COUP: A_COUP, ASSASSINATE: A_ASSASSINATE, STEAL: A_STEAL, EXAMINE: A_EXAMINE}
UNTARGETED_ID = {INCOME: A_INCOME, FOREIGN_AID: A_FOREIGN_AID, TAX: A_TAX, EXCHANGE: A_EXCHANGE}


def decode_turn_action(action: int) -> tuple[int, int]:
    """``(kind, target)`` of a turn action id (target -1 when untargeted)."""
    if action < A_COUP:
        return (INCOME, FOREIGN_AID, TAX, EXCHANGE)[action], -1
    offset = action - A_COUP
    kind = (COUP, ASSASSINATE, STEAL, EXAMINE)[offset // MAX_PLAYERS]
    return kind, offset % MAX_PLAYERS


def encode_turn_action(kind: int, target: int = -1) -> int:
    """The action id of a turn action of ``kind`` against ``target``."""
    if KIND_TARGETED[kind]:
        return TARGET_BASE[kind] + target
    return UNTARGETED_ID[kind]
