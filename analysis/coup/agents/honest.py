"""``honest``: the Coup agent that never bluffs, for 2-8 players, both decks and every
2-player setup.

It challenges only a lie it can prove by counting cards and blocks only with the card.
What it knows: each decision reads only the seat's own view of the game
(:class:`~analysis.coup.agents.rules_of_thumb.View`), the game's parameters, and what it
remembers of its own decisions (its draft pick, who blocked it). It never looks at
another player's hidden cards or at the court. With the bluffers (:mod:`.bluffer`) and
``random`` (:func:`analysis.play.bots.uniform_random_bot`) it makes the reference panel
that ``farol coup match`` and ``farol coup balance`` seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel

from analysis.coup.agents.rules_of_thumb import (
    View,
    acting_hand,
    block_answer,
    challenges,
    plain_choice,
    turn_action,
)
from analysis.coup.model import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import cards as C
from games.coup import engine as E


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
        """The chance of the bluffing decision ``name`` (a field of
        :class:`~analysis.coup.agents.bluffer.BluffParams`)."""
        return 0.0

    def draw(self) -> float:
        raise AssertionError("the honest agent makes no random choice")

    def pick(self, k: int) -> int:
        raise AssertionError("the honest agent makes no random choice")

    def decide(self, view: View, legal: Sequence[int]) -> int:
        code = view.step[0]
        if code == E.S_ACTION:
            hand = acting_hand(view.hand, view.coins[self.seat], self.bluff_with,
                               self.rate(view, "bluff_rate"), self.draw, self.pick,
                               view.numbers.assassination_cost)
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


def honest_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The honest agent bound to ``seat`` (deterministic: the seed is unused)."""
    return HonestAgent(seat)


register_bot(BotSpec("honest", "never bluffs; challenges only lies proven by counting cards",
                     honest_bot, games=(GAME,)))
