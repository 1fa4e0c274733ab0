"""What a Coup seat sees and the rules of thumb the rule agents play by.

:class:`View` is a seat's view of a decision, read from ``state.infoset_key(seat)`` (its
own cards, the cards it drew, every revealed card, coins, cards left per player and the
public pending step) and the game's parameters. The choices here are shared by the
panel's agents (:mod:`.honest`, :mod:`.bluffer`) and by the quick rule agent the search
agents play their roll-outs with (:mod:`.search`, compiled in :mod:`.rollout_sim`): the
turn action of a player claiming a given hand, the plain choices with no claim in them
(lose, keep, show, examine, pick), and the bluffing decisions at given rates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pyspiel

from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key

# What a card is worth keeping: the Duke makes 3 coins a turn, the Assassin and the
# Captain attack, the Contessa only defends, the exchange character only digs.
VALUE = {C.DUKE: 5, C.ASSASSIN: 4, C.CAPTAIN: 3, C.CONTESSA: 2, C.EXCHANGER: 1}
# Keeping two of one character claims fewer actions than two different ones.
_PAIR_PENALTY = 2


@dataclass(frozen=True)
class View:
    """What ``seat`` sees at a decision (built from ``state.infoset_key(seat)``)."""

    seat: int
    hand: tuple[int, ...]
    drawn: tuple[int, ...]
    coins: tuple[int, ...]
    revealed: tuple[tuple[int, ...], ...]
    cards: tuple[int, ...]  # face-down cards per player
    actor: int
    kind: int
    target: int
    step: tuple
    copies: int
    draft: bool

    @classmethod
    def of(cls, state: pyspiel.State, seat: int) -> View:
        return cls.of_core(state.core, seat)

    @classmethod
    def of_core(cls, core: E.Core, seat: int) -> View:
        """What ``seat`` sees at the engine position ``core`` (as :meth:`of` reads it)."""
        (_, hand, _, actor, kind, target, cards, revealed, coins, drawn,
         queue, _) = infoset_key(core, seat)
        cfg = core.cfg  # the game's parameters: public
        return cls(seat, hand, drawn if isinstance(drawn, tuple) else (), coins, revealed,
                   cards, actor, kind, target, queue[0] if queue else (), cfg.copies,
                   cfg.num_players == 2 and cfg.setup == "draft" and cfg.position is None)

    def opponents(self) -> list[int]:
        """Living opponents in turn order, starting at the seat's left."""
        n = len(self.cards)
        return [p for p in ((self.seat + k) % n for k in range(1, n)) if self.cards[p]]

    def visible(self, card: int) -> int:
        """Copies of ``card`` the seat can see: in its hand or turned face up."""
        return self.hand.count(card) + sum(r.count(card) for r in self.revealed)

    def most_in_play(self, card: int, my_pick: int | None) -> int:
        """The most copies of ``card`` that can be in the game.

        The deck has 3 copies (4 with 7-8 players). In the 2-player draft only one pile
        of one card each is dealt and used as court, plus one card each player picks
        from the other piles: 1 + the seat's own pick + the opponent's possible pick.
        """
        if not self.draft:
            return self.copies
        if my_pick is None:
            return 3
        return 2 + (my_pick == card)

    def proven_lie(self, claim: int, my_pick: int | None) -> bool:
        """Whether counting proves that nobody else can hold ``claim`` now."""
        return self.visible(claim) >= self.most_in_play(claim, my_pick)


# --------------------------------------------------------------------------- honest choices
def _targets(legal: Sequence[int], base: int) -> list[int]:
    return [a - base for a in legal if base <= a < base + C.MAX_PLAYERS]


def threat_order(view: View, candidates: Sequence[int]) -> list[int]:
    """``candidates`` from most to least threatening: most cards, then most coins, then
    nearest to the seat's left."""
    order = view.opponents()
    return sorted((p for p in order if p in candidates),
                  key=lambda p: (-view.cards[p], -view.coins[p], order.index(p)))


def turn_action(view: View, legal: Sequence[int], hand: Sequence[int],
                blockers: dict[int, set[int]] | None = None) -> int:
    """The turn action of a player claiming only the characters in ``hand``.

    In order: a Coup with 7 coins or more (forced at 10), on the most threatening
    opponent; an assassination with the Assassin and 3 coins, same target; Tax with the
    Duke; a steal with the Captain from the richest opponent holding 2 coins or more;
    Income at 6 coins (the 7th coin for sure: nobody can block it); an exchange with the
    Ambassador or Inquisitor and no Duke, Captain or Assassin to use; else Foreign Aid,
    or Income when a living player has blocked its Foreign Aid. ``blockers`` (action
    kind -> players) are those known to block that action: they are not assassinated or
    stolen from (so two honest Captains do not steal from each other for ever).
    Nobody is examined.
    """
    blockers = blockers or {}
    coins = view.coins[view.seat]
    coups = _targets(legal, C.A_COUP)
    if coups:
        return C.A_COUP + threat_order(view, coups)[0]
    kills = [p for p in _targets(legal, C.A_ASSASSINATE) if p not in blockers.get(C.ASSASSINATE, ())]
    if C.ASSASSIN in hand and kills:
        return C.A_ASSASSINATE + threat_order(view, kills)[0]
    if C.DUKE in hand and C.A_TAX in legal:
        return C.A_TAX
    steals = [p for p in _targets(legal, C.A_STEAL)
              if view.coins[p] >= 2 and p not in blockers.get(C.STEAL, ())]
    if C.CAPTAIN in hand and steals:
        order = view.opponents()
        return C.A_STEAL + min(steals, key=lambda p: (-view.coins[p], order.index(p)))
    if coins == C.COUP_COST - 1 and C.A_INCOME in legal:
        return C.A_INCOME
    attackers = {C.DUKE, C.CAPTAIN, C.ASSASSIN}
    if C.EXCHANGER in hand and not attackers & set(hand) and C.A_EXCHANGE in legal:
        return C.A_EXCHANGE
    if blockers.get(C.FOREIGN_AID) and C.A_INCOME in legal:
        return C.A_INCOME
    return C.A_FOREIGN_AID if C.A_FOREIGN_AID in legal else legal[0]


def worst(cards: Sequence[int]) -> int:
    """The card least worth keeping (lowest :data:`VALUE`)."""
    return min(cards, key=lambda c: (VALUE[c], c))


def keep_score(keep: Sequence[int]) -> float:
    """What a kept hand is worth: its cards' values, less a penalty for a pair."""
    dup = len(keep) == 2 and keep[0] == keep[1]
    return sum(VALUE[c] for c in keep) - (_PAIR_PENALTY if dup else 0)


def _without(cards: Sequence[int], card: int) -> tuple[int, ...]:
    rest = list(cards)
    rest.remove(card)
    return tuple(sorted(rest))


def plain_choice(view: View, legal: Sequence[int]) -> int:
    """The choices with no claim in them, made the same way by every panel agent.

    Lose the card least worth keeping; keep the best-scoring hand an exchange offers
    (:func:`keep_score`; the Inquisitor returns the card that leaves it); when examined, show the
    worst card; as the Inquisitor, force a swap of a Duke, Assassin or Captain shown
    and give anything else back; in the draft, pick the best character not yet held.
    """
    code = view.step[0]
    if code == E.S_LOSE:
        return C.A_LOSE + worst([a - C.A_LOSE for a in legal])
    if code == E.S_KEEP:
        return max(legal, key=lambda a: (keep_score(C.KEEP_OPTIONS[a - C.A_KEEP]), -a))
    if code == E.S_IRETURN:
        pool = view.hand + view.drawn
        return max(legal, key=lambda a: (keep_score(_without(pool, a - C.A_RETURN)), -a))
    if code == E.S_SHOW:
        return C.A_SHOW + worst([a - C.A_SHOW for a in legal])
    if code == E.S_IDECIDE:
        force = len(view.step) > 2 and VALUE[view.step[2]] >= VALUE[C.CAPTAIN]
        return C.A_EXAMINE_FORCE if force else C.A_EXAMINE_KEEP
    if code == E.S_PICK:
        picks = [a - C.A_PICK for a in legal]
        return C.A_PICK + max(picks, key=lambda c: (c not in view.hand, VALUE[c], -c))
    raise AssertionError(f"no plain choice at step {view.step}")


# --------------------------------------------------------------------------- bluffing
# The claim decisions of every bluffing player, the panel's and the search agent's
# roll-out players alike. ``rate`` is the chance after any caution; ``draw()`` gives a
# uniform number in [0, 1) and ``pick(k)`` an index below ``k``, from the caller's
# generator (a draw is made only for a rate above 0).
def acting_hand(hand: tuple[int, ...], coins: int, characters: Sequence[int], rate: float,
                draw: Callable[[], float], pick: Callable[[int], int]) -> tuple[int, ...]:
    """The hand a player acts from at its turn: its own, and with chance ``rate`` one
    character of ``characters`` it lacks as well (picked at random; the Assassin only
    with the coins to assassinate)."""
    lacking = [c for c in characters if c not in hand
               and (c != C.ASSASSIN or coins >= C.ASSASSINATE_COST)]
    if lacking and rate > 0 and draw() < rate:
        return hand + (lacking[pick(len(lacking))],)
    return hand


def challenges(proven: bool, rate: float, draw: Callable[[], float]) -> bool:
    """Whether a claim is challenged: always a lie counting proves, else with chance ``rate``."""
    return proven or (rate > 0 and draw() < rate)


def block_answer(legal: Sequence[int], hand: Sequence[int], rate: float,
                 draw: Callable[[], float], pick: Callable[[int], int]) -> int:
    """The answer to a block window: block with a character held; else with chance
    ``rate`` block with one it lacks (picked at random); else no block."""
    blocks = [a for a in legal if a != C.A_NO_BLOCK]
    held = [a for a in blocks if a - C.A_BLOCK in hand]
    if held:
        return held[0]
    if blocks and rate > 0 and draw() < rate:
        return blocks[pick(len(blocks))]
    return C.A_NO_BLOCK
