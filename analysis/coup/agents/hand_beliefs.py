"""Beliefs over the cards a Coup seat cannot see, weighed by what each player claimed
and showed, for 3 or more players.

The prior is the deal itself: the cards the seat cannot see (the deck less its own
hand, its drawn cards and every card face up) shuffled and dealt to the other living
players, as many as each holds face down, the rest being the court. Each other player's
hand is then weighed by how likely its moves were with that hand, since its cards last
changed (an exchange, a redraw after a proven claim), as the search agent remembers
them (:class:`~analysis.coup.agents.search.Memory`):

- a character it claimed (an action or a block) and still may hold: 1 with it, ``lie``
  without it, where ``lie`` is its chance of a claim being a bluff as its challenged
  claims so far say (:meth:`~analysis.coup.agents.search.Memory.honesty`, 0.2 before any);
- a block it could have made and did not: :data:`DECLINED` with the blocker, 1 without;
- a character it was caught without: 0 with it (a hand that cannot be).

A card a player loses face up leaves the cards the seat cannot see and that player's
hand. The posterior is taken by importance sampling: many prior deals (vectorised), each
weighted by the product of the players' weights; :func:`sample` resamples deals in
proportion to their weights (what the challenger agent and the advice roll out),
:func:`marginals` gives each player's hands with their probabilities and a 95% interval
from the sample's effective size.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.search import Memory, unseen_counts
from games.coup import cards as C
from games.coup import engine as E
from games.errors import InvalidParameterError

DECLINED = 0.6  # a declined block with the blocker in hand, as the search agent weighs it
PRIOR_DEALS = 20000  # prior deals drawn to weigh
Z95 = 1.959963984540054


@dataclasses.dataclass(frozen=True)
class Deals:
    """Weighted prior deals: ``hands[d, p]`` (two slots, -1 where no card; the seat's
    own hand as it is), ``courts[d]`` counts per character, ``weights[d]`` (summing to 1)."""

    hands: np.ndarray
    courts: np.ndarray
    weights: np.ndarray
    others: tuple[int, ...]

    @property
    def effective(self) -> float:
        """The effective number of deals (Kish): 1 / sum of squared weights."""
        return float(1.0 / np.sum(self.weights ** 2))


def likelihoods(memory: Memory, p: int) -> list[tuple[int, float, float]]:
    """``p``'s evidence: (character, weight with it in hand, weight without)."""
    lie = 1.0 - memory.honesty(p)
    out = [(c, 1.0, lie) for c in sorted(memory.claims[p])]
    out += [(c, DECLINED, 1.0) for c in sorted(memory.declined[p])]
    out += [(c, 0.0, 1.0) for c in sorted(memory.lacks[p])]
    return out


def proven_pending(core: E.Core, player: int) -> list[int]:
    """The cards ``player`` has shown to prove a claim that are still in its hand: the
    redraw that shuffles each back into the court is still to come (a decision, such as
    the challenger's lost card, comes first). Every world must deal them to it."""
    return [step[2] for step in core.queue
            if step[0] in (E.S_REDRAW, E.S_IREDRAW) and step[1] == player]


def weigh(view: View, memory: Memory, core: E.Core, rng: np.random.Generator,
          count: int = PRIOR_DEALS) -> Deals:
    """``count`` prior deals of the cards ``view``'s seat cannot see, weighed by every
    other player's evidence (:func:`likelihoods`)."""
    if view.draft:
        raise InvalidParameterError("hand beliefs are for 3 or more players (no draft)")
    unseen = unseen_counts(view, None, None)
    if min(unseen) < 0:
        raise InvalidParameterError("the cards seen add up to more than the deck holds")
    pool = np.array([c for c in C.CHARACTERS for _ in range(unseen[c])], dtype=np.int64)
    n = len(core.hands)
    others = tuple(p for p in range(n) if p != view.seat and view.cards[p])
    need = sum(view.cards[p] for p in others)
    if need > len(pool):
        raise InvalidParameterError("more face-down cards than unseen cards")
    order = np.argsort(rng.random((count, len(pool))), axis=1)
    cards = pool[order]
    hands = np.full((count, n, 2), -1, dtype=np.int64)
    mine = core.hands[view.seat]
    hands[:, view.seat, :len(mine)] = mine
    weights = np.ones(count)
    at = 0
    for p in others:
        k = view.cards[p]
        hand = np.sort(cards[:, at:at + k], axis=1)
        hands[:, p, :k] = hand
        at += k
        for c, held, lacking in likelihoods(memory, p):
            has = (hand == c).any(axis=1)
            weights *= np.where(has, held, lacking)
        for c in proven_pending(core, p):  # shown to prove a claim, not yet shuffled back
            weights *= (hand == c).any(axis=1)
    courts = np.zeros((count, C.NUM_CHARACTERS), dtype=np.int64)
    for c in C.CHARACTERS:
        courts[:, c] = (cards[:, at:] == c).sum(axis=1)
    total = weights.sum()
    if total <= 0:  # nothing drawn fits the evidence: fall back to the prior
        weights = np.ones(count)
        total = float(count)
    return Deals(hands, courts, weights / total, others)


def sample(deals: Deals, count: int, rng: np.random.Generator,
           where: np.ndarray | None = None) -> np.ndarray:
    """``count`` deal indices drawn in proportion to their weights (within ``where``,
    a mask, when given)."""
    w = deals.weights if where is None else deals.weights * where
    if w.sum() <= 0:  # no weight left there: every deal of the mask alike
        w = np.ones(len(w)) if where is None else where.astype(float)
    return rng.choice(len(w), size=count, p=w / w.sum())


def holds(deals: Deals, player: int, card: int) -> np.ndarray:
    """Mask of the deals where ``player`` holds ``card``."""
    return (deals.hands[:, player, :] == card).any(axis=1)


def probability(deals: Deals, mask: np.ndarray) -> tuple[float, float, float]:
    """The weighted probability of ``mask`` and its 95% interval from the effective size."""
    p = float(np.sum(deals.weights * mask))
    half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / max(deals.effective, 1.0))
    return p, max(0.0, p - half), min(1.0, p + half)


def marginals(deals: Deals, player: int) -> list[tuple[tuple[int, ...], float, float, float]]:
    """``player``'s possible hands, likeliest first: (cards, probability, low, high)."""
    hands = deals.hands[:, player, :]
    keys = hands[:, 0] * 8 + hands[:, 1]
    out = []
    for key in np.unique(keys):
        mask = keys == key
        first = hands[np.argmax(mask)]
        p, lo, hi = probability(deals, mask)
        out.append((tuple(int(c) for c in first if c >= 0), p, lo, hi))
    out.sort(key=lambda x: -x[1])
    return out


def world(core: E.Core, deals: Deals, d: int) -> E.Core:
    """A copy of ``core`` with deal ``d``'s hands and court."""
    out = core.copy()
    out.hands = tuple(tuple(int(c) for c in deals.hands[d, p] if c >= 0)
                      if p in deals.others else core.hands[p] for p in range(len(core.hands)))
    out.court = tuple(int(x) for x in deals.courts[d])
    return out
