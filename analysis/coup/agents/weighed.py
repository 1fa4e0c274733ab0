"""``weighed``: the fast search agent (:mod:`.fast`) dealing its worlds from beliefs
weighed by every claim, block, declined block and reveal (:mod:`.hand_beliefs`), for 3
or more players.

Where ``fast`` deals each claimed character into the claimer's hand with the chance its
claims have been true, ``weighed`` draws its deals from the posterior over every other
player's hand (many prior deals of the unseen cards, each weighted by how likely each
player's moves were with that hand) and plays twice ``fast``'s deals at a turn action,
whose roll-outs are compiled. Facing a claim it splits its deals between worlds where
the claimer holds the card and worlds where it does not, each half weighted by the
posterior chance of that. It moves as ``fast`` does otherwise (the same candidates, the
same roll-out players). At 2 players it is ``fast``.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.coup.agents import hand_beliefs as H
from analysis.coup.agents import search as S
from analysis.coup.agents.fast import BUDGET as FAST_BUDGET
from analysis.coup.agents.fast import FastSearchAgent
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.model import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import engine as E

BUDGET = S.Budget(deals_action=2 * FAST_BUDGET.deals_action, deals_react=FAST_BUDGET.deals_react)
PRIOR = 4000  # prior deals weighed a decision


class WeighedAgent(FastSearchAgent):
    """The fast agent with deals drawn from the weighed beliefs; seeded."""

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0, budget: S.Budget = BUDGET):
        super().__init__(game, seat, seed, budget)
        self.np_rng = np.random.default_rng(seed)

    def deals(self, view: View, core: E.Core, count: int) -> list[tuple[float, E.Core]]:
        if view.draft:
            return super().deals(view, core, count)
        deals = H.weigh(view, self.memory, core, self.np_rng, PRIOR)
        if view.step[0] != E.S_CHAL:
            picks = H.sample(deals, count, self.np_rng)
            return [(1.0 / count, H.world(core, deals, int(d))) for d in picks]
        claimant, claim = view.step[1], view.step[2]
        has = H.holds(deals, claimant, claim) if claimant in deals.others else None
        if has is None:
            picks = H.sample(deals, count, self.np_rng)
            return [(1.0 / count, H.world(core, deals, int(d))) for d in picks]
        p = float(np.sum(deals.weights * has))
        half = max(1, count // 2)
        out = []
        for mask, share in ((~has, 1.0 - p), (has, p)):
            if share <= 0 or not mask.any():
                continue
            picks = H.sample(deals, half, self.np_rng, mask)
            out += [(share / half, H.world(core, deals, int(d))) for d in picks]
        return out


def weighed_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The weighed agent at its budget (:data:`BUDGET`); ``fast`` at 2 players."""
    if game.num_players() == 2:
        return FastSearchAgent(game, seat, seed, FAST_BUDGET)
    return WeighedAgent(game, seat, seed)


register_bot(BotSpec("weighed", "fast search dealing its worlds from beliefs weighed by "
                     "every claim and reveal, twice the deals at a turn action",
                     weighed_bot, games=(GAME,)))
