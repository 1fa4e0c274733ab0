"""Which battle positions legal play can reach: the cards each player has spent.

A position at the start of combat ``c + 1`` has ``c`` finished combats behind it. The
rulebook's phase machine (:mod:`games.cobardes.engine`) fixes how many cards those
combats took from each hand:

* "Both players prepare a card from their hand ... When two warriors face each other"
  — a finished combat leaves exactly one warrior of each player on the battlefield.
  The King's Ghost ("The enemy warrior flees to your rival's hand ... must replace
  it"), the Archer and the Sentinel ("change their warrior for another warrior") send
  a warrior back and another comes out: still one. So a combat takes **at most one**
  warrior from a hand.
* A player keeps all their warriors in a combat only by playing a villain against a
  warrior and not following up ("you may play the warrior you want"), or by the
  Sheep fighting ("she becomes a warrior and fights with strength 1"); that villain
  stays on the battlefield. A player is dealt one villain ("one Villain taken at
  random from the Villain deck"); exchanges ("Each player takes into their hand the
  villain played by their rival"), the Seductress's capture (she stays on the
  battlefield) and the Procuress's swap only trade villains, so a hand **never holds
  more than one villain**, and a player who spent theirs against a warrior holds none.
  Hence at most one combat without a warrior spent, and none while a villain is
  still in hand.
* A prince that is not in hand at the start of a combat was on the battlefield when
  an earlier combat ended without a winner: it left that combat unharmed.
* A courtier is used during a combat, so none is used before combat 1; the Wolf
  ends the combat with "Your Warrior 3" on the battlefield, so once the Wolf is used
  that warrior is out of its owner's hand.

:func:`hands_problem` and :func:`position_problem` state these as one-line reasons.
"""

from __future__ import annotations

from games.cobardes import cards as C


def _count(mask: int) -> int:
    return bin(mask).count("1")


def hands_problem(warriors: int, combat: int, hands: tuple[int, int], villains: tuple[int, int],
                  villains_in_play: bool, names: tuple[str, str] = ("player 0", "player 1")
                  ) -> str | None:
    """Why two hands cannot both be held at the start of ``combat``, or ``None``.

    ``hands`` are the warriors in each hand (bit masks over ``0..warriors``), ``villains``
    the number of villains each holds (named or dealt at random), ``names`` how the
    reason names the players (``"--mine"`` for the advice command).
    """
    done = combat - 1
    for p in (0, 1):
        gone = (warriors + 1) - _count(hands[p] & ((1 << (warriors + 1)) - 1))
        who = names[p]
        if villains[p] > 1:
            return (f"{who} holds {villains[p]} villains; a hand holds at most one (each player "
                    "is dealt one, and exchanges and captures only trade them)")
        if gone > done:
            return (f"{who} has {gone} warrior{'s' * (gone != 1)} out of hand before combat "
                    f"{combat}, but each "
                    f"combat takes at most one warrior from a hand ({done} finished)")
        # One combat may pass without a warrior: the one in which the player's only
        # villain faced a warrior and the follow-up was declined.
        spare = 1 - villains[p] if villains_in_play else 0
        if gone < done - spare:
            why = (", except one in which the player's only villain faced a warrior" if spare
                   else " (a villain still in hand was never played)" if villains_in_play
                   else "")
            return (f"{who} cannot have fought {done} combat{'s' * (done != 1)} with only "
                    f"{gone} warrior{'s' * (gone != 1)} played: "
                    f"each combat takes a warrior from each hand{why}")
    return None


def position_problem(warriors: int, combat: int, hands: tuple[int, int],
                     villains: tuple[int, int], villains_in_play: bool, unharmed: int,
                     courts: tuple[int, int], used: int) -> str | None:
    """:func:`hands_problem` plus the prince, the courtiers used and the Wolf."""
    problem = hands_problem(warriors, combat, hands, villains, villains_in_play)
    if problem:
        return problem
    for p in (0, 1):
        if not hands[p] & 1 and not unharmed >> p & 1:
            return (f"player {p}'s prince is out of hand, so it left an earlier combat "
                    f"unharmed: add unharmed:{p}")
        if used >> p & 1 and courts[p] >= 0:
            name = C.COURTIER_NAMES[courts[p]]
            if combat == 1:
                return f"court{p}: the {name} cannot have been used before combat 1"
            if courts[p] == C.WOLF and hands[p] >> 3 & 1:
                return (f"court{p}: the Wolf was used, so player {p}'s warrior 3 stayed on the "
                        "battlefield and cannot be in hand")
    return None


def combats_possible(warriors: int, hands: tuple[int, int], villains: tuple[int, int],
                     villains_in_play: bool, combats: int = C.MAX_COMBATS) -> list[int]:
    """The combats (1 to ``combats``) at whose start two hands can both be held: the
    rule of :func:`hands_problem` read backwards (each finished combat took one warrior
    from each hand, but for one in which a player's only villain faced a warrior)."""
    return [c for c in range(1, combats + 1)
            if hands_problem(warriors, c, hands, villains, villains_in_play) is None]


def infer_combat(warriors: int, hands: tuple[int, int], villains: tuple[int, int],
                 villains_in_play: bool, combats: int = C.MAX_COMBATS,
                 names: tuple[str, str] = ("player 0", "player 1")) -> tuple[int | None, str]:
    """The combat about to start, from the warriors still in each hand: ``(combat, "")``
    when the hands fix it, else ``(None, reason)``: no combat fits (the reason of
    :func:`hands_problem` at the likeliest one) or more than one does (they are named)."""
    found = combats_possible(warriors, hands, villains, villains_in_play, combats)
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, (f"the hands fit combats {', '.join(map(str, found))}: "
                      "say which with --combat")
    gone = max((warriors + 1) - _count(h & ((1 << (warriors + 1)) - 1)) for h in hands)
    combat = min(max(gone + 1, 1), combats)
    return None, hands_problem(warriors, combat, hands, villains, villains_in_play, names) or \
        f"no combat of {combats} starts with these hands"
