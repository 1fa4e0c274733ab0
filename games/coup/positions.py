"""Endgame positions: Coup games that start from a described position.

A position is written as one string (it is the ``position`` game parameter, so
it avoids the characters ``,=()`` that OpenSpiel's parameter strings reserve)::

    "captain/duke/3; ?/assassin+contessa/0 ; move:0"

One entry per player, separated by ``;``, each ``hidden/revealed/coins``:

``hidden``
    the player's face-down cards joined by ``+``: a character name (English or
    Spanish, any case) when the builder fixes it, ``?`` for a card dealt by
    chance from the court (consistent with every card the position shows),
    ``-`` for none (the player is out).
``revealed``
    the player's face-up (lost) cards joined by ``+``, or ``-``.
``coins``
    the player's coins.

An optional last entry ``move:K`` says whose turn it is (default 0). Every
player holds two cards in all (face down plus face up); the court is every card
of the deck not written in the position; the treasury holds the rest of the
coins. :func:`endgame_game` loads such a game.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from games.coup import cards as C
from games.errors import InvalidParameterError, InvalidPositionError, UnknownCardError
from games.words import count as counted

UNKNOWN = -1
# «Duque, cobra impuestos y coge 3 monedas», the largest gain of a turn; «Con diez
# monedas o más estás obligado a dar un golpe de Estado»: so a player ends a turn with
# at most 9 + 3 coins, and nobody else's turn gives them any.
TAX_COINS = 3
MAX_COINS = C.FORCED_COUP_COINS - 1 + TAX_COINS


@dataclass(frozen=True)
class Position:
    """A parsed endgame position (``UNKNOWN`` marks a card dealt by chance)."""

    hidden: tuple[tuple[int, ...], ...]
    revealed: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    to_move: int

    @property
    def num_players(self) -> int:
        return len(self.coins)


def _cards(text: str, deck: str, allow_unknown: bool, where: str) -> tuple[int, ...]:
    text = text.strip()
    if text in ("-", ""):
        return ()
    out = []
    for part in text.split("+"):
        part = part.strip()
        if part == "?" and allow_unknown:
            out.append(UNKNOWN)
            continue
        try:
            out.append(C.parse_card(part, deck))
        except UnknownCardError as exc:
            raise UnknownCardError(f"position, {where}: {exc}") from None
    return tuple(out)


def parse_position(text: str, deck: str = "ambassador", total_coins: int = 50) -> Position:
    """Parse and validate a position string (see the module docstring).

    Raises
    ------
    UnknownCardError
        For a card name that is not in ``deck``.
    InvalidParameterError
        For a ``deck`` that is not one of :data:`games.coup.cards.DECKS`.
    InvalidPositionError
        For a malformed or impossible position: a player without two cards in
        all, more copies of a character than the deck has, negative coins, more
        coins than exist, more than :data:`MAX_COINS` coins in one hand, coins held
        by a player who is out, fewer than two players in the game, or a player who
        is out to move.
    """
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {deck!r}")
    entries = [e.strip() for e in text.split(";") if e.strip()]
    to_move = 0
    if entries and entries[-1].lower().startswith("move:"):
        value = entries.pop()[5:].strip()
        try:
            to_move = int(value)
        except ValueError:
            raise InvalidPositionError(f"position: {'move:' + value!r} needs a seat number") from None
    hidden, revealed, coins = [], [], []
    for seat, entry in enumerate(entries):
        parts = entry.split("/")
        if len(parts) != 3:
            raise InvalidPositionError(
                f"position: write player {seat} as hidden/revealed/coins (face-down cards, "
                f"lost cards, coins: e.g. duke+?/-/2), not {entry!r}"
            )
        hidden.append(_cards(parts[0], deck, True, f"player {seat} face-down"))
        revealed.append(_cards(parts[1], deck, False, f"player {seat} revealed"))
        try:
            coins.append(int(parts[2]))
        except ValueError:
            raise InvalidPositionError(
                f"position: player {seat} has coins {parts[2].strip()!r}; write a whole number"
            ) from None
    position = Position(tuple(hidden), tuple(revealed), tuple(coins), to_move)
    validate_position(position, deck, total_coins)
    return position


def validate_position(position: Position, deck: str, total_coins: int = 50) -> None:
    """Raise :class:`InvalidPositionError` if ``position`` cannot arise under the rules."""
    n = position.num_players
    if n not in C.PLAYER_COUNTS:
        raise InvalidPositionError(
            f"position has {counted(n, 'player')}; Coup takes {C.MIN_PLAYERS} to {C.MAX_PLAYERS}")
    copies = C.copies_per_character(n)
    used = [0] * C.NUM_CHARACTERS
    for seat in range(n):
        hidden, shown, coins = position.hidden[seat], position.revealed[seat], position.coins[seat]
        if len(hidden) + len(shown) != 2:
            raise InvalidPositionError(
                f"position: player {seat} has {len(hidden)} face-down and {len(shown)} revealed "
                "cards; every player has exactly two in all"
            )
        if coins < 0:
            raise InvalidPositionError(f"position: player {seat} has negative coins ({coins})")
        if not hidden and coins:
            raise InvalidPositionError(
                f"position: player {seat} is out but holds {coins} coins (they go to the treasury)"
            )
        for card in hidden + shown:
            if card != UNKNOWN:
                used[card] += 1
    for card, count in enumerate(used):
        if count > copies:
            raise InvalidPositionError(
                f"position shows {count} {C.card_name(card, deck)} cards; the deck has {copies}"
            )
    unknown = sum(h.count(UNKNOWN) for h in position.hidden)
    if unknown > copies * C.NUM_CHARACTERS - sum(used):
        raise InvalidPositionError("position: not enough cards left to deal the unknown ones")
    if sum(position.coins) > total_coins:
        raise InvalidPositionError(
            f"position: players hold {sum(position.coins)} coins, more than the {total_coins} in the game"
        )
    for seat, coins in enumerate(position.coins):
        if coins > MAX_COINS:
            raise InvalidPositionError(
                f"position: player {seat} has {coins} coins; nobody can hold more than {MAX_COINS} "
                f"(with {C.FORCED_COUP_COINS} or more a turn must be a Coup, and the largest "
                f"gain, Tax, is {TAX_COINS})"
            )
    living = [bool(h) for h in position.hidden]
    if sum(living) < 2:
        raise InvalidPositionError("position: fewer than two players have face-down cards; the game is over")
    if not 0 <= position.to_move < n:
        raise InvalidPositionError(f"position: seat {position.to_move} to move does not exist")
    if not living[position.to_move]:
        raise InvalidPositionError(f"position: player {position.to_move} is out and cannot move")


def format_position(position: Position, deck: str = "ambassador") -> str:
    """The position string of ``position`` (inverse of :func:`parse_position`)."""

    def cards(seq: tuple[int, ...]) -> str:
        if not seq:
            return "-"
        return "+".join("?" if c == UNKNOWN else C.card_name(c, deck).lower() for c in seq)

    entries = [
        f"{cards(h)}/{cards(r)}/{k}"
        for h, r, k in zip(position.hidden, position.revealed, position.coins, strict=True)
    ]
    return ";".join(entries + [f"move:{position.to_move}"])


def endgame_game(position: str | Position, **params) -> pyspiel.Game:
    """Load ``python_coup`` starting from ``position`` (a string or a :class:`Position`).

    Other game parameters (``deck``, ``turn_cap``, ...) are passed through;
    ``players`` is taken from the position.
    """
    deck = params.get("deck", "ambassador")
    if isinstance(position, Position):
        validate_position(position, deck, params.get("total_coins", 50))
        text = format_position(position, deck)
    else:
        text = format_position(parse_position(position, deck, params.get("total_coins", 50)), deck)
    n = len([e for e in text.split(";") if not e.startswith("move:")])
    if "cap_payoff" in params:  # OpenSpiel refuses an int for a float parameter
        params["cap_payoff"] = float(params["cap_payoff"])
    return pyspiel.load_game("python_coup", {**params, "players": n, "position": text})
