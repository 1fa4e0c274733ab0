"""A reference panel of Coup agents for 2-8 players, both decks and every 2-player setup.

``farol play python_coup --opponent NAME`` and ``farol coup match --agents ...`` use them:

- ``random``: uniform over the legal actions (:func:`analysis.play.bots.uniform_random_bot`).
- ``honest``: never bluffs and challenges only a lie it can prove by counting cards.
- ``bluffer``: bluffs, block-bluffs and challenges at moderate rates; never challenges
  a Duke (a common table habit). ``bluffer-bold``: high rates, challenges anything.

What an agent knows: each decision reads only the seat's own view of the game,
``state.infoset_key(seat)`` (its own cards, the cards it drew, every revealed card,
coins, cards left per player and the public pending step), the game's parameters, and
what the agent remembers of its own choices (its draft pick). It never looks at another
player's hidden cards or at the court.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import cards as C
from games.coup import engine as E
from games.errors import InvalidParameterError

GAME = "python_coup"

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
        (_, hand, _, actor, kind, target, cards, revealed, coins, drawn,
         queue, _) = state.infoset_key(seat)
        cfg = state.core.cfg  # the game's parameters: public
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


# --------------------------------------------------------------------------- agents
class HonestAgent:
    """Never bluffs; challenges only a lie proven by counting; blocks only with the card.

    Turn actions: :func:`turn_action` with its own hand. Blocks: with a card it holds
    that blocks the action (the Duke against any Foreign Aid, the Contessa against an
    assassination of itself, the Captain before the Ambassador/Inquisitor against a
    steal from itself). Challenges: only when every copy of the claimed character that
    can be in the game is in its hand or face up (:meth:`View.proven_lie`). Other
    choices: :func:`plain_choice`. Deterministic.

    It remembers what it saw at its own decisions: its draft pick, and who blocked its
    Foreign Aid, assassinations and steals (asked whether to challenge a block of its
    own action, it sees the blocker); a player who has lost a card since is forgotten.
    """

    def __init__(self, seat: int):
        self.seat = seat
        self.my_pick: int | None = None
        # (action kind, blocker) -> the blocker's face-down cards when it blocked.
        self.blocked: dict[tuple[int, int], int] = {}

    def __call__(self, state: pyspiel.State) -> int:
        legal = state.legal_actions(self.seat)
        view = View.of(state, self.seat)
        self.remember(view)
        action = self.decide(view, legal)
        if view.step[0] == E.S_PICK:
            self.my_pick = action - C.A_PICK
        return action

    def remember(self, view: View) -> None:
        step = view.step
        if step[0] == E.S_CHAL and step[4] and view.actor == self.seat:
            self.blocked[view.kind, step[1]] = view.cards[step[1]]

    def blockers(self, view: View) -> dict[int, set[int]]:
        """Action kind -> the players known to block it (still with the same cards)."""
        out: dict[int, set[int]] = {}
        for (kind, p), cards in self.blocked.items():
            if view.cards[p] == cards:
                out.setdefault(kind, set()).add(p)
        return out

    # The claims it makes and challenges (:func:`acting_hand`, :func:`challenges`,
    # :func:`block_answer`): the honest agent's rates are all 0, so it draws nothing.
    bluff_with: tuple[int, ...] = ()
    never_challenge: tuple[int, ...] = ()

    def rate(self, view: View, name: str) -> float:
        """The chance of the bluffing decision ``name`` (a field of :class:`BluffParams`)."""
        return 0.0

    def draw(self) -> float:
        raise AssertionError("the honest agent makes no random choice")

    def pick(self, k: int) -> int:
        raise AssertionError("the honest agent makes no random choice")

    def decide(self, view: View, legal: Sequence[int]) -> int:
        code = view.step[0]
        if code == E.S_ACTION:
            hand = acting_hand(view.hand, view.coins[self.seat], self.bluff_with,
                               self.rate(view, "bluff_rate"), self.draw, self.pick)
            return turn_action(view, legal, hand, self.blockers(view))
        if code == E.S_CHAL:
            return C.A_CHALLENGE if self.challenge(view) else C.A_NO_CHALLENGE
        if code == E.S_BLOCK:
            return block_answer(legal, view.hand, self.rate(view, "block_bluff_rate"),
                                self.draw, self.pick)
        return plain_choice(view, legal)

    def challenge(self, view: View) -> bool:
        claim = view.step[2]
        if claim in self.never_challenge:
            return False
        return challenges(view.proven_lie(claim, self.my_pick),
                          self.rate(view, "challenge_rate"), self.draw)


@dataclass(frozen=True)
class BluffParams:
    """The knobs of a bluffer (rates are probabilities per decision).

    ``bluff_rate``: on its turn, the chance of acting as if it also held one character
    of ``bluff_with`` it lacks (picked at random; the Assassin only with 3 coins).
    ``challenge_rate``: the chance of challenging a claim it cannot disprove (a proven
    lie is always challenged). ``block_bluff_rate``: the chance of blocking with a
    character it lacks when it holds no blocker. ``never_challenge``: characters whose
    claims (actions and blocks) it never challenges, proven or not. ``caution``: with
    one card left every rate is multiplied by it.
    """

    bluff_rate: float = 0.25
    challenge_rate: float = 0.2
    block_bluff_rate: float = 0.15
    never_challenge: tuple[int, ...] = (C.DUKE,)
    bluff_with: tuple[int, ...] = (C.DUKE, C.CAPTAIN, C.ASSASSIN)
    caution: float = 0.5

    def __post_init__(self) -> None:
        for name in ("bluff_rate", "challenge_rate", "block_bluff_rate", "caution"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidParameterError(f"{name} must be between 0 and 1, not {value}")


BOLD = BluffParams(bluff_rate=0.6, challenge_rate=0.35, block_bluff_rate=0.4,
                   never_challenge=(), caution=0.75)


class BluffingAgent(HonestAgent):
    """Plays as :class:`HonestAgent` but bluffs, block-bluffs and challenges at the rates
    of its :class:`BluffParams`, drawn from a numpy generator seeded by the bot's seed."""

    def __init__(self, seat: int, seed: int, params: BluffParams):
        super().__init__(seat)
        self.params = params
        self.bluff_with = params.bluff_with
        self.never_challenge = params.never_challenge
        self.rng = np.random.default_rng(seed)

    def rate(self, view: View, name: str) -> float:
        value = getattr(self.params, name)
        return value * self.params.caution if view.cards[self.seat] == 1 else value

    def draw(self) -> float:
        return self.rng.random()

    def pick(self, k: int) -> int:
        return int(self.rng.integers(k))


def honest_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The honest agent bound to ``seat`` (deterministic: the seed is unused)."""
    return HonestAgent(seat)


def bluffer_bot(game: pyspiel.Game, seat: int, seed: int = 0,
                params: BluffParams = BluffParams()) -> Bot:
    """A bluffer with ``params`` bound to ``seat``, seeded by ``seed``."""
    return BluffingAgent(seat, seed, params)


def bold_bluffer_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The bold bluffer (:data:`BOLD`)."""
    return BluffingAgent(seat, seed, BOLD)


register_bot(BotSpec("honest", "never bluffs; challenges only lies proven by counting cards",
                     honest_bot, games=(GAME,)))
register_bot(BotSpec("bluffer", "bluffs 25%, challenges 20% (never a Duke), block-bluffs 15%",
                     bluffer_bot, games=(GAME,)))
register_bot(BotSpec("bluffer-bold", "bluffs 60%, challenges 35% (any claim), block-bluffs 40%",
                     bold_bluffer_bot, games=(GAME,)))
