"""¡Cobardes! cards as data, and each card's effect as a pure function.

Card ids
--------
Hand cards share one id space so a hand is a bit mask:

* ``0``..``6``: warriors (``0`` is the prince, strength 0); each player owns a
  set of its own, so warrior ids repeat across the two armies.
* ``7``..``15``: the nine villains, unique in the game.

Courtiers have their own ids ``0``..``9``: the five vanguard courtiers, then the
five rearguard courtiers.

Every effect function quotes the rulebook sentence it implements and returns a
small code the engine (:mod:`games.cobardes.engine`) acts on.
"""

from __future__ import annotations

import re

from games.errors import UnknownCardError

PRINCE = 0
NUM_WARRIORS = 7
# A battle's sizes: the rulebook's armies are the warriors 0 (the prince) to 6, and "a
# battle is up to 7 combats". The game takes smaller battles too (parameters
# ``warriors`` and ``combats``, checked in options.py); the compiled solver's own
# ceiling, for longer study battles, is ``games.cobardes.packed.MAX_PACKED_COMBATS``.
MAX_WARRIOR = NUM_WARRIORS - 1
MAX_COMBATS = 7
MARGIN = 2  # "exceeds it by 2 points of strength or more"

ASSASSIN, KINGS_GHOST, FRIAR, THUG, BEGGAR, SHEEP, SEDUCTRESS, TROUBADOUR, EXECUTIONER = range(7, 16)
VILLAINS = (ASSASSIN, KINGS_GHOST, FRIAR, THUG, BEGGAR, SHEEP, SEDUCTRESS, TROUBADOUR, EXECUTIONER)
NUM_CARDS = 16
WARRIOR_MASK = (1 << NUM_WARRIORS) - 1
VILLAIN_MASK = ((1 << NUM_CARDS) - 1) ^ WARRIOR_MASK

CARD_NAMES = (
    "Prince", "1", "2", "3", "4", "5", "6",
    "Assassin", "King's Ghost", "Friar", "Thug", "Beggar", "Sheep", "Seductress",
    "Troubadour", "Executioner",
)
_SPANISH = {
    ASSASSIN: "Asesina", KINGS_GHOST: "Fantasma del Rey", FRIAR: "Fraile", THUG: "Matón",
    BEGGAR: "Mendigo", SHEEP: "Oveja", SEDUCTRESS: "Seductora", TROUBADOUR: "Trovador",
    EXECUTIONER: "Verdugo",
}

(FORTUNE_TELLER, PROCURESS, STANDARD_BEARER, MAIDEN, INQUISITOR,
 ARCHER, SENTINEL, SQUIRE, ROYAL_GUARD, WOLF) = range(10)
COURTIERS = tuple(range(10))
VANGUARD = (FORTUNE_TELLER, PROCURESS, STANDARD_BEARER, MAIDEN, INQUISITOR)
REARGUARD = (ARCHER, SENTINEL, SQUIRE, ROYAL_GUARD, WOLF)
COURTIER_NAMES = (
    "Fortune-Teller", "Procuress", "Standard-Bearer", "Maiden", "Inquisitor",
    "Archer", "Sentinel", "Squire", "Royal Guard", "Wolf",
)
_COURTIER_SPANISH = ("Adivina", "Alcahueta", "Alférez", "Doncella", "Inquisidor",
                     "Arquero", "Centinela", "Escudero", "Guardia Real", "Lobo")


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9ñóé]", "", name.strip().lower())


_CARD_LOOKUP = {_norm(n): i for i, n in enumerate(CARD_NAMES)}
_CARD_LOOKUP.update({_norm(n): i for i, n in _SPANISH.items()})
_CARD_LOOKUP.update({"0": PRINCE, "princess": PRINCE, "prince": PRINCE, "princesa": PRINCE,
                     "principe": PRINCE, "príncipe": PRINCE})
_COURTIER_LOOKUP = {_norm(n): i for i, n in enumerate(COURTIER_NAMES)}
_COURTIER_LOOKUP.update({_norm(n): i for i, n in enumerate(_COURTIER_SPANISH)})


def card_id(name: str) -> int:
    """The id of a hand card named ``name`` (``"4"``, ``"Prince"``, ``"Beggar"``, ``"Mendigo"``)."""
    key = _norm(str(name))
    if key not in _CARD_LOOKUP:
        raise UnknownCardError(f"unknown ¡Cobardes! card {name!r}; warriors are 0-6, villains: "
                               + ", ".join(CARD_NAMES[v] for v in VILLAINS))
    return _CARD_LOOKUP[key]


def villain_id(name: str) -> int:
    """The id of the villain named ``name``; a warrior name is an error."""
    card = card_id(name)
    if not is_villain(card):
        raise UnknownCardError(f"{name!r} is not a villain; villains: "
                               + ", ".join(CARD_NAMES[v] for v in VILLAINS))
    return card


def courtier_id(name: str) -> int:
    """The id of the courtier named ``name`` (English or Spanish)."""
    key = _norm(str(name))
    if key not in _COURTIER_LOOKUP:
        raise UnknownCardError(f"unknown ¡Cobardes! courtier {name!r}; courtiers: "
                               + ", ".join(COURTIER_NAMES))
    return _COURTIER_LOOKUP[key]


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def courtier_name(courtier: int) -> str:
    return COURTIER_NAMES[courtier]


def is_villain(card: int) -> bool:
    return card >= NUM_WARRIORS


def is_vanguard(courtier: int) -> bool:
    return 0 <= courtier < 5


def is_rearguard(courtier: int) -> bool:
    return courtier >= 5


# --------------------------------------------------------------------------- warriors

def strength(card: int) -> int:
    """Base strength of a fighting card.

    "Remember that the princes are also warriors, of strength 0." A warrior's
    strength is its number; the Sheep "becomes a warrior and fights with strength 1".
    """
    return 1 if card == SHEEP else card


def combat_winner(strength0: int, strength1: int) -> int:
    """The player who wins a warrior combat, or -1.

    "If one of them exceeds the other by 2 or more points of strength, it wins the
    combat and gives its prince the Victory in the battle." "Only 1 point of
    difference is not enough to win."
    """
    if strength0 - strength1 >= MARGIN:
        return 0
    if strength1 - strength0 >= MARGIN:
        return 1
    return -1


# --------------------------------------------------------------------------- villains
# What a villain facing an enemy warrior does ("Villainy").
CROWN = "crown"        # the villain's owner wins the war and the Crown
VICTORY = "victory"    # the villain's owner wins the battle and a Victory token
PEACE = "peace"        # the battle stops, nobody wins
FOLLOW_UP = "follow"   # the villain's owner may play the warrior they want
GHOST = "ghost"        # the enemy warrior flees; rival replaces it; then follow-up
FIGHT = "fight"        # the villain fights as a warrior (the Sheep)


def assassin(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Assassin (Asesina).

    "If the Assassin faces the enemy prince, she fulfils her mission. You win the
    war and the Crown token. If, however, she faces another enemy warrior, then
    you may play the warrior you want from your hand."
    """
    return CROWN if enemy_warrior == PRINCE else FOLLOW_UP


def kings_ghost(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """King's Ghost (Fantasma del Rey).

    "The enemy warrior flees to your rival's hand, frightened by the spectre of the
    King. Your rival must replace it with a new warrior from their hand.
    Afterwards, you may play the warrior you want from your hand."
    """
    return GHOST


def friar(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Friar (Fraile).

    "Let there be peace! Stop the battle. Nobody takes the Victory. Both players
    collect and renew their armies to begin a new battle."
    """
    return PEACE


def thug(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Thug (Matón).

    "Pay your debts! If the Thug faces the enemy Warrior 4, you win the battle and
    a Victory token. If, however, he faces another enemy warrior, then you may
    play the warrior you want from your hand."
    """
    return VICTORY if enemy_warrior == 4 else FOLLOW_UP


def beggar(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Beggar (Mendigo).

    "Spy on your rival by pretending to be blind and discover their intentions.
    Once you have seen their card, if it is a warrior, then you may play the
    warrior you prefer from your hand."
    """
    return FOLLOW_UP


def sheep(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Sheep (Oveja).

    "If, however, she faces an enemy warrior, she becomes a warrior and fights with
    strength 1."
    """
    return FIGHT


def seductress(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Seductress (Seductora), against a warrior.

    "If, however, she faces an enemy warrior, then you may play the warrior you
    prefer from your hand."
    """
    return FOLLOW_UP


def troubadour(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Troubadour (Trovador).

    "If you manage to get your prince out of a combat unharmed and, in a later one,
    you play the Troubadour, he will exaggerate his bravery and you will win a
    Victory token. If you play the Troubadour before your prince, then you may
    afterwards play the warrior you want from your hand, but it will no longer
    give you the Victory."
    """
    return VICTORY if prince_unharmed else FOLLOW_UP


def executioner(enemy_warrior: int, prince_unharmed: bool = False) -> str:
    """Executioner (Verdugo), against a warrior.

    "If, however, he faces an enemy warrior, then you may play the warrior you
    prefer from your hand."
    """
    return FOLLOW_UP


VILLAINY = {
    ASSASSIN: assassin, KINGS_GHOST: kings_ghost, FRIAR: friar, THUG: thug, BEGGAR: beggar,
    SHEEP: sheep, SEDUCTRESS: seductress, TROUBADOUR: troubadour, EXECUTIONER: executioner,
}


def villainy(villain: int, enemy_warrior: int, prince_unharmed: bool) -> str:
    """What ``villain`` does when it faces ``enemy_warrior``.

    "Villainy. When a villain faces a warrior, it carries out its special action,
    and the courtiers cannot prevent it."
    """
    return VILLAINY[villain](enemy_warrior, prince_unharmed)


# What two villains facing each other do.
EXECUTE = "execute"    # the Executioner's owner wins the battle
CAPTURE = "capture"    # the Seductress takes the enemy villain to her owner's hand
EXCHANGE = "exchange"  # each player takes the villain the rival played
WITHDRAW = "withdraw"  # both go under the Villain deck (repeated exchange)


def villains_meet(villain0: int, villain1: int, exchanges: int, exchange_limit: int
                  ) -> tuple[str, int]:
    """Resolve two villains facing each other; returns ``(kind, player)``.

    ``player`` is the one whose villain acts (``-1`` for an exchange or withdrawal).

    * Executioner: "If the Executioner faces the enemy villain, you win the battle
      and a Victory token. Note, the Executioner does not hesitate: his ability
      takes precedence over that of any other villain."
    * Seductress: "If she faces the enemy villain, she takes it to your hand. The
      Seductress stays on the battlefield. Next, both players prepare new cards to
      repeat the confrontation." Her special action prevails over the Sheep's
      reminder of the general rule ("When a character's action seems to go against
      the general rules, the character's action prevails").
    * Otherwise: "When two villains face each other, both desert and change sides
      without carrying out their special action." — up to ``exchange_limit``
      exchanges in a combat; after that "If you insist on exchanging villains,
      withdraw them under the Villain deck."
    """
    if villain0 == EXECUTIONER:
        return EXECUTE, 0
    if villain1 == EXECUTIONER:
        return EXECUTE, 1
    if villain0 == SEDUCTRESS:
        return CAPTURE, 0
    if villain1 == SEDUCTRESS:
        return CAPTURE, 1
    if exchanges < exchange_limit:
        return EXCHANGE, -1
    return WITHDRAW, -1


# --------------------------------------------------------------------------- courtiers
# Vanguard effects, as flags the engine keeps for the current combat.
def fortune_teller() -> dict:
    """Fortune-Teller (Adivina).

    "Advance the Fortune-Teller to the battlefield to consult her crystal ball: your
    rival must play a card from their hand before you. Afterwards, you may play the
    card you prefer from your hand."
    """
    return {"rival_first": True, "rival_forced": False, "bonus": 0}


def standard_bearer() -> dict:
    """Standard-Bearer (Alférez).

    "Advance the Standard-Bearer to the battlefield to raise the morale of the
    warrior who is going to fight this combat. That warrior adds 1 more point to
    its strength."
    """
    return {"rival_first": False, "rival_forced": False, "bonus": 1}


def maiden() -> dict:
    """Maiden (Doncella).

    "Advance the Maiden to the battlefield to enamour the enemy. Your rival must play
    the strongest warrior in their hand. Afterwards, you may play the card you want
    from your hand."
    """
    return {"rival_first": True, "rival_forced": True, "bonus": 0}


def strongest_warrior(hand: int) -> int:
    """The strongest warrior in a hand bit mask, or -1 (what the Maiden forces)."""
    warriors = hand & WARRIOR_MASK
    return warriors.bit_length() - 1 if warriors else -1


def procuress(rival_villains: tuple[int, ...], own_villains: tuple[int, ...]) -> list:
    """Procuress (Alcahueta): the swaps her owner may choose, ``(take, give)`` pairs.

    "Advance the Procuress to the battlefield to watch over the villains. Your rival
    must show you their villain. Once revealed, if you wish, you may swap it for
    yours. Finally, the villains return to being hidden in each player's hand."
    """
    return [(take, give) for take in rival_villains for give in own_villains]


def inquisitor(drawn_card: int) -> bool:
    """Inquisitor (Inquisidor): True when the random card drawn wins the battle.

    "Take a card at random from your rival's hand and reveal it. If it is the
    Warrior 2, you win the battle and a Victory token. If it is not, return it to
    your rival's hand."
    """
    return drawn_card == 2


VANGUARD_EFFECTS = {FORTUNE_TELLER: fortune_teller, STANDARD_BEARER: standard_bearer,
                    MAIDEN: maiden}

# Rearguard effects: what sending the courtier does to a combat the owner is losing.
ADD = "add"              # the owner's warrior adds points
NO_WINNER = "no_winner"  # the combat ends with no winner
RIVAL_CHANGES = "rival_changes"
OWN_CHANGES = "own_changes"


def archer(own_warrior: int, own_hand: int, rival_hand: int) -> tuple[str, int] | None:
    """Archer (Arquero): ``(RIVAL_CHANGES, 0)`` when the rival has another warrior.

    "If one of your warriors is going to lose the combat, send the Archer to the
    battlefield. His arrows force your rival to change their warrior for another
    warrior from their hand."
    """
    return (RIVAL_CHANGES, 0) if rival_hand & WARRIOR_MASK else None


def sentinel(own_warrior: int, own_hand: int, rival_hand: int) -> tuple[str, int] | None:
    """Sentinel (Centinela): ``(OWN_CHANGES, 0)`` when the owner has another warrior.

    "If one of your warriors is going to lose the combat, send the Sentinel to the
    battlefield. He will warn your warrior so that you can change it for another
    warrior from your hand."
    """
    return (OWN_CHANGES, 0) if own_hand & WARRIOR_MASK else None


def squire(own_warrior: int, own_hand: int, rival_hand: int) -> tuple[str, int] | None:
    """Squire (Escudero): ``(ADD, 1)``.

    "If one of your warriors is going to lose the combat, send the Squire to the
    battlefield. Your warrior adds 1 more point to its strength."
    """
    return (ADD, 1)


def royal_guard(own_warrior: int, own_hand: int, rival_hand: int) -> tuple[str, int] | None:
    """Royal Guard (Guardia Real): ``(ADD, 2)`` for the prince only.

    "If your prince is going to lose the combat, send the Royal Guard to the
    battlefield. Your prince adds 2 more points to its strength."
    """
    return (ADD, 2) if own_warrior == PRINCE else None


def wolf(own_warrior: int, own_hand: int, rival_hand: int) -> tuple[str, int] | None:
    """Wolf (Lobo): ``(NO_WINNER, 0)`` for the Warrior 3 only.

    "If your Warrior 3 (the girl) is going to lose the combat, send the Wolf to the
    battlefield to defend its mistress. This combat ends with no winner. The battle
    continues."
    """
    return (NO_WINNER, 0) if own_warrior == 3 else None


REARGUARD_EFFECTS = {ARCHER: archer, SENTINEL: sentinel, SQUIRE: squire,
                     ROYAL_GUARD: royal_guard, WOLF: wolf}


def rearguard(courtier: int, own_warrior: int, own_hand: int, rival_hand: int
              ) -> tuple[str, int] | None:
    """What sending rearguard ``courtier`` would do now, or ``None`` if it cannot act."""
    return REARGUARD_EFFECTS[courtier](own_warrior, own_hand, rival_hand)
