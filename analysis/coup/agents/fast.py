"""``fast``: the search agent (:mod:`analysis.coup.agents.search`) at a fraction of its cost.

It deals worlds the same way, models each player the same way, tries the same moves and
plays the same quick rule agent in its roll-outs; the roll-outs run faster, and at a turn
action it deals twice as many worlds (:data:`BUDGET`):

- At a turn action, every candidate is played in every deal by compiled code
  (:func:`analysis.coup.agents.rollout_sim.evaluate`): the same rules and the same rule
  agent at the same rates, from numba's generator instead of Python's.
- At a challenge or a block, roll-outs run on the engine as the search agent's do, but
  settle a whole challenge window at once: every asker's answer is drawn in turn order as
  the rule agent draws it, and only the first challenge (or the last pass) is played.
  The game is the same; only the passes' events are left out of the roll-out's log,
  which nobody reads.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from analysis.coup.agents import rollout_sim as sim
from analysis.coup.agents import search as S
from analysis.coup.agents.rules_of_thumb import View, challenges
from analysis.coup.model import GAME
from analysis.coup.solvers.strength import score
from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import cards as C
from games.coup import engine as E

# Its budget: twice the search agent's deals at a turn action (compiled roll-outs are
# cheap there), the same at a challenge or block.
BUDGET = S.Budget(deals_action=2 * S.DEFAULT.deals_action, deals_react=S.DEFAULT.deals_react)


def rollout(world: E.Core, seat: int, until_turn: int, rates: list, rng: random.Random) -> float:
    """:func:`analysis.coup.agents.search.rollout`, with each challenge window settled at
    once (the same draws in the same order, so the same game)."""
    rand = rng.random
    copies = world.cfg.copies
    while not world.over and world.turn < until_turn:
        if world.cur == E.CHANCE:
            outcomes = world.chance_outcomes()
            x = rand()
            action = outcomes[-1][0]
            for outcome, prob in outcomes:
                x -= prob
                if x < 0:
                    action = outcome
                    break
            world.apply(action)
            continue
        step = world.queue[0]
        if step[0] != E.S_CHAL:
            world.apply(S.quick_move(world, world.cur, rates, rng, seat))
            continue
        _, claimant, claim, askers, is_block = step
        up = sum(r.count(claim) for r in world.revealed)
        first = len(askers) - 1
        answer = C.A_NO_CHALLENGE
        for k, q in enumerate(askers):
            hand = world.hands[q]
            rate = rates[q][2] if claim == C.DUKE else rates[q][1]
            if q == seat and len(hand) == 1:
                rate *= 0.5
            if challenges(hand.count(claim) + up >= copies, rate, rand):
                first, answer = k, C.A_CHALLENGE
                break
        if first:
            world.queue = ((E.S_CHAL, claimant, claim, askers[first:], is_block),) + world.queue[1:]
        world.apply(answer)
    return score(world, seat)


class FastSearchAgent(S.SearchAgent):
    """The search agent with compiled roll-outs at its turn actions; seeded.

    ``compiled=False`` plays every roll-out on the engine (then it moves exactly as
    :class:`~analysis.coup.agents.search.SearchAgent` does).
    """

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0,
                 budget: S.Budget = S.DEFAULT, compiled: bool = True):
        super().__init__(game, seat, seed, budget)
        self.compiled = compiled
        self.rules = sim.rules_of(game.config, seat)

    def totals(self, view: View, core: E.Core, moves: list[int], worlds: list,
               seeds: list[float], rates: list, until: int) -> list[float]:
        """Turn actions' scores from the compiled roll-outs; the rest as search does."""
        if self.compiled and view.step[0] == E.S_ACTION and max(moves) < C.A_EXAMINE:
            return self.compiled_totals(core, moves, worlds, seeds, rates, until)
        return super().totals(view, core, moves, worlds, seeds, rates, until)

    def compiled_totals(self, core: E.Core, moves: list[int], worlds: list, seeds: list[float],
                        rates: list, until: int) -> list[float]:
        """Each turn action's weighted score over the deals, played by compiled code."""
        hands = np.full((len(worlds), len(core.hands), 2), -1, dtype=np.int64)
        courts = np.empty((len(worlds), C.NUM_CHARACTERS), dtype=np.int64)
        for w, (_, world) in enumerate(worlds):
            for p, hand in enumerate(world.hands):
                hands[w, p, :len(hand)] = hand
            courts[w] = world.court
        _, coins, _, up = sim.position(core)
        kinds, targets = zip(*(C.decode_turn_action(m) for m in moves), strict=True)
        scores = sim.evaluate(hands, courts, coins, up, np.array(rates, dtype=float), self.rules,
                              core.actor, core.turn, until, np.array(kinds, dtype=np.int64),
                              np.array(targets, dtype=np.int64),
                              (np.array(seeds) * 2**31).astype(np.int64))
        return list(scores @ np.array([weight for weight, _ in worlds]))


def fast_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The fast search agent at its budget (:data:`BUDGET`), bound to ``seat``."""
    return FastSearchAgent(game, seat, seed, BUDGET)


register_bot(BotSpec("fast", "information-set search as search plays it, its roll-outs "
                     "compiled: the same moves weighed at a fraction of the cost",
                     fast_bot, games=(GAME,)))
