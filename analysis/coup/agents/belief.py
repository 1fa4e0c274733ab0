"""``belief``: a 2-player Coup agent that remembers who claimed what, exactly.

At every decision it updates its beliefs over the opponent's face-down cards by Bayes'
rule over the whole history (:mod:`analysis.coup.solvers.beliefs`), under a mixture of
models of the opponent's play (:data:`STYLES`: a nearly honest player, a moderate
bluffer, a heavy one, each weighted by how well it explains what the opponent has done
so far). It then chooses as the search agent does
(:class:`~analysis.coup.agents.search.SearchAgent`: every candidate move played forward
with roll-outs in each dealt world), but the worlds are dealt from those beliefs instead
of a rule of thumb; facing a claim it may challenge, the exact chance that the claim is
true splits the worlds into those where it is and those where it is not.
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from analysis.coup.agents.search import DEFAULT, Budget, SearchAgent
from analysis.coup.model import GAME, two_card_hands_only
from analysis.coup.solvers.beliefs import Belief, ClaimModel, deal_as
from analysis.play.bots import BotSpec, register_bot
from games.coup import engine as E
from games.errors import InvalidParameterError

# Models of the opponent's play, with their prior weights.
STYLES = (
    (0.4, ClaimModel(truth=2.0, bluff=0.05, challenge=0.1)),
    (0.4, ClaimModel(truth=2.0, bluff=0.3, challenge=0.2)),
    (0.2, ClaimModel(truth=1.5, bluff=1.0, challenge=0.4)),
)


class MixtureBelief:
    """Beliefs under each model of :data:`STYLES`, and how much each model is believed."""

    def __init__(self, game: pyspiel.Game, seat: int, styles=STYLES):
        self.priors = [p for p, _ in styles]
        self.parts = [Belief(game, seat, model) for _, model in styles]

    def update(self, core: E.Core) -> None:
        for part in self.parts:
            part.update(core)

    def style_weights(self) -> list[float]:
        """The posterior chance of each model of the opponent."""
        logs = [math.log(p) + b.log_evidence for p, b in zip(self.priors, self.parts, strict=True)]
        top = max(logs)
        raw = [math.exp(x - top) for x in logs]
        total = sum(raw)
        return [r / total for r in raw]

    def worlds(self) -> list[tuple[float, E.Core]]:
        """Every world with its chance under the mixture."""
        out = []
        for style, part in zip(self.style_weights(), self.parts, strict=True):
            out += [(style * w, world) for w, world in part.worlds]
        return out

    def holds(self, character: int) -> float:
        """The chance the opponent holds ``character``."""
        return sum(s * b.holds(character)
                   for s, b in zip(self.style_weights(), self.parts, strict=True))


class BeliefSearchAgent(SearchAgent):
    """The search agent with exact beliefs, for 2-player games (seeded)."""

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0, budget: Budget = DEFAULT):
        super().__init__(game, seat, seed, budget)
        self.belief = MixtureBelief(game, seat)
        self.np_rng = np.random.default_rng(seed)

    def __call__(self, state: pyspiel.State) -> int:
        legal = state.legal_actions(self.seat)
        if len(legal) > 1:
            self.belief.update(state.core)
        return super().__call__(state)

    def deals(self, view, core: E.Core, count: int) -> list[tuple[float, E.Core]]:
        """``count`` worlds from the beliefs, weights summing to 1; facing a claim, half
        where the claim is true and half where it is not, each half weighted by its
        exact chance."""
        worlds = self.belief.worlds()
        weights = np.array([w for w, _ in worlds])
        if view.step[0] != E.S_CHAL:
            picks = self.np_rng.choice(len(worlds), size=count, p=weights / weights.sum())
            return [(1.0 / count, deal_as(core, worlds[i][1])) for i in picks]
        claimant, claim = view.step[1], view.step[2]
        true = np.array([claim in world.hands[claimant] for _, world in worlds])
        p = float(weights[true].sum() / weights.sum())
        out = []
        half = max(1, count // 2)
        for side, chance in ((True, p), (False, 1.0 - p)):
            mask = true == side
            if chance <= 0.0 or not mask.any():
                continue
            sub = np.flatnonzero(mask)
            w = weights[sub] / weights[sub].sum()
            picks = self.np_rng.choice(sub, size=half, p=w)
            out += [(chance / half, deal_as(core, worlds[i][1])) for i in picks]
        return out


def belief_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """The belief agent at the search agent's default budget (2 players only)."""
    if game.num_players() != 2:
        raise InvalidParameterError("the belief agent plays 2-player Coup; use search for "
                                    "more players")
    two_card_hands_only(game.config.numbers, "the belief agent")
    return BeliefSearchAgent(game, seat, seed)


register_bot(BotSpec("belief", "2 players: remembers every claim, block and reveal, weighs the "
                     "opponent's possible hands by Bayes' rule, then searches like search",
                     belief_bot, games=(GAME,)))
