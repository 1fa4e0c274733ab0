"""The battle's solver keys: a position without the order of past events.

``state_key`` is the whole position; ``infoset_key`` keeps what one player sees (the
rival's hidden villains counted, a card prepared face down masked). The OpenSpiel state,
the walkers and the deal-lifted compile all read positions through these.
"""

from __future__ import annotations

from games.cobardes import cards as C
from games.cobardes import engine as E


def _unharmed(s: E.Pos) -> int:
    """The Troubadour flags, or 0 when no villain is left in a hand or to be dealt.

    Dropping the flags when no Troubadour can be played merges transpositions
    (warriors-only battles). The rule reads only fields of the key itself (hands,
    pending deals), never the battlefield: so positions with equal keys have children
    with equal keys (the graph a walk builds does not depend on which of them it
    walked first), and the rule does not depend on which hidden villain is where (the
    deal-lifted compile, :mod:`games.cobardes.hidden`, relies on both).
    """
    if not s.unh:
        return 0
    return s.unh if (s.h[0] | s.h[1]) & C.VILLAIN_MASK or s.pending else 0


def state_key(s: E.Pos) -> tuple:
    return (s.h, s.court, s.used, _unharmed(s), s.combat, s.phase, s.actor, s.queue, s.bonus, s.priv,
            s.forced, s.first, s.open, s.cards, s.exch, s.fw, s.mods, s.vil, s.aux,
            (s.kv[0] & s.h[1], s.kv[1] & s.h[0]), s.outcome, s.pending, s.quick)


def infoset_key(s: E.Pos, player: int) -> tuple:
    r = 1 - player
    rival = s.h[r]
    cards = s.cards
    if s.phase == E.COMMIT and not s.open and cards[r] >= 0 and r == s.first:
        cards = (cards[0], -2) if r == 1 else (-2, cards[1])
    aux = s.aux if (s.phase != E.PROC_GIVE or player == s.actor) else -3
    return (player, s.h[player], rival & C.WARRIOR_MASK, bin(rival & C.VILLAIN_MASK).count("1"),
            s.kv[player] & rival, s.court, s.used, _unharmed(s), s.combat, s.phase, s.actor, s.queue,
            s.bonus, s.priv, s.forced, s.first, s.open, cards, s.exch, s.fw, s.mods, s.vil, aux,
            s.outcome, s.pending, s.quick)


def rival_order(s: E.Pos, player: int) -> tuple:
    """The rival's cards on the battlefield in the order they were played, while a
    villain of the rival's is hidden from ``player`` (in hand unknown to it, or still to
    be dealt); empty once every villain of theirs is known or gone. It is what the
    coarse keys forget and a player who remembers could use: which of the rival's plays
    came before a villain could have been shown or swapped (the Procuress)."""
    r = 1 - player
    hidden = s.h[r] & C.VILLAIN_MASK & ~s.kv[player]
    if not hidden and not any(kind == "villain" and who == r for kind, who in s.pending):
        return ()
    return tuple(card for who, card in s.field if who == r)


def ordered_state_key(s: E.Pos) -> tuple:
    """:func:`state_key` refined with each player's :func:`rival_order`."""
    return state_key(s), rival_order(s, 0), rival_order(s, 1)


def ordered_infoset_key(s: E.Pos, player: int) -> tuple:
    """:func:`infoset_key` refined with :func:`rival_order`: the coarse key comes first,
    so each refined information set lies inside one coarse one."""
    return infoset_key(s, player), rival_order(s, player)
