"""The battle's hidden villains, as the solver's deal-lifted compile needs them.

:class:`LiftedBattleWalker` lets :func:`analysis.solve.lifted.compile_lifted` walk each
position once for every villain deal the public cannot tell apart: a position stands for
all deals that differ only in the villains still hidden, and the compiler expands the
walk to the full graph. Nothing here is a rule: it adds which villains are still hidden
(:func:`still_hidden`), the keys with those ids masked, and moving a position to another
deal (:func:`games.cobardes.engine.transpose`). A villain stays hidden until its owner's
rival sees it. The Procuress's show is such a reveal: the rival is shown the villain, and
its owner knows it already, so both know it from then on, as after any other reveal.
"""

from __future__ import annotations

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import keys as K
from games.cobardes.walker import BattleWalker

# Masked ids: bits of the hand mask no card uses, and card values no card has.
_HAND_MASK_BIT = (1 << C.NUM_CARDS, 1 << (C.NUM_CARDS + 1))
_CARD_MASK_ID = (-10, -11)


def still_hidden(pos: E.Pos, player: int, card: int) -> bool:
    """Whether ``player``'s villain ``card``, hidden before the last move, still is."""
    if not pos.h[player] >> card & 1:
        return False  # played (or swapped away)
    if pos.kv[1 - player] >> card & 1:
        return False  # drawn by an Inquisitor in front of both players
    return not (pos.cards[player] == card and pos.open)  # played face up


def _replace_card(hand: int, cards: tuple, player: int, old: tuple[int, int],
                  new: tuple[int, int]) -> tuple[int, tuple]:
    """``player``'s hand mask and the prepared cards with one card replaced: ``old`` and
    ``new`` are (hand bit, card id) pairs (a villain's, or the mask's marks)."""
    hand = (hand & ~old[0]) | new[0]
    if cards[player] == old[1]:
        cards = (new[1], cards[1]) if player == 0 else (cards[0], new[1])
    return hand, cards


def _mark(player: int) -> tuple[int, int]:
    return _HAND_MASK_BIT[player], _CARD_MASK_ID[player]


def masked_state_key(pos: E.Pos, hidden: tuple[int, int]) -> tuple:
    """The state key with the hidden villains' ids replaced by one mark per player.

    The Troubadour flags are read before masking: whether villains are left in hand
    is public, which villain is not.
    """
    key = K.state_key(pos)
    if hidden[0] < 0 and hidden[1] < 0:
        return key
    hands, cards = list(pos.h), pos.cards
    for p, x in enumerate(hidden):
        if x >= 0:
            hands[p], cards = _replace_card(hands[p], cards, p, (1 << x, x), _mark(p))
    return (tuple(hands),) + key[1:13] + (cards,) + key[14:]


def _replace_in_infoset_key(key: tuple, player: int, old: tuple[int, int],
                            new: tuple[int, int]) -> tuple:
    own, cards = _replace_card(key[1], key[17], player, old, new)
    return key[:1] + (own,) + key[2:17] + (cards,) + key[18:]


def masked_infoset_key(pos: E.Pos, player: int, hidden: tuple[int, int]) -> tuple:
    """``player``'s information-set key with their own hidden villain's id masked (the
    rival's hidden villain is never in it: the key counts the rival's villains)."""
    key = K.infoset_key(pos, player)
    x = hidden[player]
    if x < 0:
        return key
    return _replace_in_infoset_key(key, player, (1 << x, x), _mark(player))


def infoset_key_aliases(key: tuple, player: int) -> list[tuple[int, tuple]]:
    """The masked keys ``key`` equals once a villain is put back: ``(card, masked)`` for
    each villain in ``player``'s own hand.

    The information-set key says which villains a player holds, not whether the rival
    knows them: a villain received in an exchange (public) and a dealt one (hidden)
    give equal keys, one information set of the abstraction.
    """
    return [(card, _replace_in_infoset_key(key, player, (1 << card, card), _mark(player)))
            for card in E.bits(key[1] & C.VILLAIN_MASK)]


def unmask_infoset_key(key: tuple, player: int, card: int) -> tuple:
    """The information-set key :func:`masked_infoset_key` masked, with ``player``'s own
    hidden villain ``card`` put back (``card < 0``: nothing was masked)."""
    if card < 0:
        return key
    return _replace_in_infoset_key(key, player, _mark(player), (1 << card, card))


class LiftedBattleWalker(BattleWalker):
    """:class:`BattleWalker` plus what the deal-lifted compile needs (graph walks only).

    ``private_cards`` are the villain ids a player can be dealt; ``hidden`` pairs hold
    each player's hidden villain id in the walked position (``-1``: none hidden).
    """

    def __init__(self, rules):
        super().__init__(rules, history=False)
        self.private_cards = tuple(E.bits(rules.cfg.villain_deck))

    def lifts(self) -> bool:
        """Whether the lifted walk applies and pays: villains are dealt hidden."""
        return any(kind == "villain" for kind, _ in self._root.pending)

    def conceals(self, s: E.Pos) -> int:
        """The player a chance node deals a hidden villain to, else -1."""
        if s.phase == E.DEAL and s.pending and s.pending[0][0] == "villain":
            return s.pending[0][1]
        return -1

    def deal_pool(self, s: E.Pos) -> int:
        """The bit mask of villains the dealing chance node ``s`` can give."""
        return E.deal_pool(self._cfg, s, "villain")

    def still_hidden(self, s: E.Pos, player: int, card: int) -> bool:
        return still_hidden(s, player, card)

    def hidden_state_key(self, s: E.Pos, hidden: tuple[int, int]):
        return masked_state_key(s, hidden)

    def hidden_infoset_key(self, s: E.Pos, player: int, hidden: tuple[int, int]):
        return masked_infoset_key(s, player, hidden)

    def infoset_key_aliases(self, key: tuple, player: int) -> list[tuple[int, tuple]]:
        return infoset_key_aliases(key, player)

    def unmask_infoset_key(self, key: tuple, player: int, card: int) -> tuple:
        return unmask_infoset_key(key, player, card)

    def transpose(self, s: E.Pos, a: int, b: int) -> E.Pos:
        return E.transpose(s, a, b)



def is_public(pos: E.Pos) -> bool:
    """Whether nothing about ``pos`` is private: the game from here is a public subgame.

    True when no deal is pending, every villain in a hand is known to the rival
    (``kv``: shown by an exchange, an Inquisitor or named in the position), no card is
    prepared face down and no Procuress swap is under way. Every past move is then
    known to both players too (cards played are revealed, villains shown), so the
    position roots a proper subgame: its value does not depend on beliefs, and
    backward induction (:class:`analysis.cobardes.solvers.exact.ExactSolver`) solves it exactly.
    """
    if pos.outcome is not None or pos.pending or pos.phase in _PRIVATE_PHASES:
        return False
    if pos.phase == E.COMMIT and not pos.open and pos.cards[pos.first] >= 0:
        return False  # the first card is prepared face down
    return not any_villain_unknown(pos)


def any_villain_unknown(pos: E.Pos) -> bool:
    """Whether either player holds a villain the other does not know (``kv``)."""
    h, kv = pos.h, pos.kv
    return bool(h[0] & C.VILLAIN_MASK & ~kv[1] or h[1] & C.VILLAIN_MASK & ~kv[0])


_PRIVATE_PHASES = (E.DEAL, E.PROC_TAKE, E.PROC_GIVE)
