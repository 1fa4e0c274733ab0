"""``bluffer`` and ``bluffer-bold``: Coup agents that bluff, block-bluff and challenge at
fixed rates, for 2-8 players, both decks and every 2-player setup.

They play as the honest agent (:mod:`.honest`) does, but bluff, block-bluff and challenge
at the rates of their :class:`BluffParams`: ``bluffer`` at moderate rates, never
challenging a Duke (a common table habit); ``bluffer-bold`` (:data:`BOLD`) at high
rates, challenging anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.coup.agents.honest import HonestAgent
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.model import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import cards as C
from games.errors import InvalidParameterError


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


def bluffer_bot(game: pyspiel.Game, seat: int, seed: int = 0,
                params: BluffParams = BluffParams()) -> Bot:
    """A bluffer with ``params`` bound to ``seat``, seeded by ``seed``."""
    return BluffingAgent(seat, seed, params)


def bold_bluffer_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The bold bluffer (:data:`BOLD`)."""
    return BluffingAgent(seat, seed, BOLD)


register_bot(BotSpec("bluffer", "bluffs 25%, challenges 20% (never a Duke), block-bluffs 15%",
                     bluffer_bot, games=(GAME,)))
register_bot(BotSpec("bluffer-bold", "bluffs 60%, challenges 35% (any claim), block-bluffs 40%",
                     bold_bluffer_bot, games=(GAME,)))
