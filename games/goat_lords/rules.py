"""Goat Lords' rules as pure functions over plain data.

A hand is a count per kind (a list of ``NUM_KINDS`` ints). A herd is a tuple of
piles, oldest first; a pile is ``(kind, cards)`` where ``kind`` is the goat the
pile is made of (``WILD_PILE`` for two wilds) and ``cards`` the kinds of its
cards. The last pile is the top pile, the first one is protected forever.

These functions decide what is legal and what an action does; the mutable
table (:mod:`games.goat_lords.table`) and the OpenSpiel state call them. Rule
sentences quoted below are from the Spanish rules text (simple version); the
rulings are in ``docs/rules/goat_lords.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.goat_lords.cards import IS_WILD, NUM_KINDS, WILD_PILE

Pile = tuple[int, tuple[int, ...]]
Herd = tuple[Pile, ...]

MAX_PLAYERS = 6
MIN_PLAYERS = 2
RESHUFFLE_MIN = 5  # "5 o más cartas de cabra"

# --- Action encoding -------------------------------------------------------------
# Birth pairs: two identical cards, or one wild with any card (two wilds included).
BIRTH_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b)
    for a in range(NUM_KINDS)
    for b in range(a, NUM_KINDS)
    if a == b or IS_WILD[a] or IS_WILD[b]
)
BIRTH_ID = {pair: i for i, pair in enumerate(BIRTH_PAIRS)}
ASSIST0 = len(BIRTH_PAIRS)  # assisted birth with hand card k: ASSIST0 + k
DUEL0 = ASSIST0 + NUM_KINDS  # attack seat t with card k: DUEL0 + t * NUM_KINDS + k
ANSWER0 = DUEL0 + MAX_PLAYERS * NUM_KINDS  # play card k in a running duel
YIELD = ANSWER0 + NUM_KINDS  # stop playing in a running duel
DISCARD0 = YIELD + 1  # discard card k
NUM_ACTIONS = DISCARD0 + NUM_KINDS


def hand_size_for(players: int) -> int:
    """Cards dealt per player: "4 cartas a cada jugador (5 si juega con 2-3 jugadores)"."""
    return 5 if players <= 3 else 4


# --- Matching ---------------------------------------------------------------------
def pair_kind(a: int, b: int) -> int:
    """The goat a pair stands for: the goat in it, or ``WILD_PILE`` for two wilds."""
    if not IS_WILD[a]:
        return a
    if not IS_WILD[b]:
        return b
    return WILD_PILE


def is_pair(a: int, b: int) -> bool:
    """"dos cartas idénticas (o una salvaje)": identical cards, or any card with a wild."""
    return a == b or IS_WILD[a] or IS_WILD[b]


def matches(card: int, kind: int) -> bool:
    """Whether ``card`` matches the goat ``kind`` of a pile: the same goat, or a wild.

    A pile of two wilds (``WILD_PILE``) is matched by wilds only.
    """
    return IS_WILD[card] or card == kind


# --- Options ----------------------------------------------------------------------
def birth_options(hand: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs in ``hand`` that can be born (action 1, ¡Nacimiento!)."""
    held = [k for k in range(NUM_KINDS) if hand[k]]
    options = []
    for i, a in enumerate(held):
        if hand[a] >= 2:
            options.append((a, a))
        for b in held[i + 1 :]:
            if IS_WILD[a] or IS_WILD[b]:
                options.append((a, b))
    return options


def assisted_options(hand: Sequence[int], top: int | None) -> list[int]:
    """Hand cards that pair with the discard pile's top card (action 2, ¡Parto asistido!)."""
    if top is None:
        return []
    return [k for k in range(NUM_KINDS) if hand[k] and is_pair(k, top)]


def can_duel(herd: Herd) -> bool:
    """Duel rule 1: "Debes tener al menos una pareja de nacimiento frente a ti"."""
    return len(herd) >= 1


def can_be_attacked(herd: Herd) -> bool:
    """Duel rule 2: at least two pairs in the target's herd; the first birth is protected."""
    return len(herd) >= 2


def top_pile(herd: Herd) -> Pile:
    """Duel rule 4: only the top pile can be attacked."""
    return herd[-1]


def duel_options(hand: Sequence[int], herds: Sequence[Herd], me: int) -> list[tuple[int, int]]:
    """``(target, card)`` attacks open to seat ``me`` (action 3, ¡Duelo!).

    Duel rule 3: the attacker needs "una carta de cabra en su mano que coincida con
    las cabras en la pila superior del oponente, o un comodín".
    """
    if not can_duel(herds[me]):
        return []
    options = []
    for target, herd in enumerate(herds):
        if target == me or not can_be_attacked(herd):
            continue
        kind = top_pile(herd)[0]
        options += [(target, k) for k in range(NUM_KINDS) if hand[k] and matches(k, kind)]
    return options


def answer_options(hand: Sequence[int], duel_kind: int, last_card: int, mode: str) -> list[int]:
    """Cards that may answer in a running duel.

    ``mode="pile"`` (default ruling): every card of a duel matches the duelled
    pile's goat (a wild counts as that goat). ``mode="last"``: each card must be
    identical to the card just played, or a wild (after a wild, only wilds).
    """
    target = duel_kind if mode == "pile" else (WILD_PILE if IS_WILD[last_card] else last_card)
    return [k for k in range(NUM_KINDS) if hand[k] and matches(k, target)]


def must_discard(births: list, assisted: list, duels: list) -> bool:
    """Action 4, ¡Descarte!: "Si no se puede hacer nada de lo anterior"."""
    return not births and not assisted and not duels


# --- Resolution -------------------------------------------------------------------
def birth(herd: Herd, a: int, b: int) -> Herd:
    """The herd after a birth of the pair ``(a, b)``: a new top pile."""
    return herd + ((pair_kind(a, b), (a, b)),)


def resolve_duel(
    attacker_herd: Herd, defender_herd: Herd, duel_cards: Sequence[int], attacker_won: bool
) -> tuple[Herd, Herd]:
    """The two herds after a duel over the defender's top pile.

    "Si el atacante gana, recoge todas las cartas en duelo, incluida la pila superior
    del oponente, y las añade como una pila a su cabrero." "Si el defensor gana,
    recoge las cartas utilizadas en el duelo y las añade a la pila superior".
    The pile keeps the goat it is made of.
    """
    kind, cards = defender_herd[-1]
    merged = (kind, cards + tuple(duel_cards))
    if attacker_won:
        return attacker_herd + (merged,), defender_herd[:-1]
    return attacker_herd, defender_herd[:-1] + (merged,)


def herd_points(herd: Herd, values: Sequence[int]) -> int:
    """Points of a herd: each card at its own value (a wild scores as a wild)."""
    return sum(values[c] for _, cards in herd for c in cards)


def winners(scores: Sequence[int]) -> list[int]:
    """Seats with the highest score (ties share the win)."""
    best = max(scores)
    return [p for p, s in enumerate(scores) if s == best]


def returns_for(winning: Sequence[int], players: int) -> list[float]:
    """Zero-sum returns: the win (1 split among tied winners) minus its even share.

    A sole winner gets +1, every other seat -1/(n-1).
    """
    share = [0.0] * players
    for p in winning:
        share[p] = 1.0 / len(winning)
    return [(players * s - 1.0) / (players - 1) for s in share]


def refill_order(turn_player: int, players: int) -> list[int]:
    """Who draws first at the end of a turn: "El jugador que completó el turno elige primero"."""
    return [(turn_player + i) % players for i in range(players)]
