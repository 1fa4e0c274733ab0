"""Duplicate deals for Coup: every chance outcome of a game fixed by its deal's seed.

A duplicate deal is played once in each rotation of the seats (:mod:`analysis.play.match`);
:func:`deal_chance` gives the chooser of every chance outcome of one such game, so that
the rotations of a deal share their luck and differ only by who sits where:

- The deal: the whole deck is shuffled once per deal and dealt round the table to the
  *lineup positions* (the agents' order in the match); in rotation ``r`` seat ``s``
  holds the cards of position ``(s - r) % n``, which is where :func:`analysis.play.match.seating`
  puts that agent. So each agent holds the same cards in every rotation while the
  seats turn round it: every seat plays every hand of the deal once. The cards left
  over are the court, in the order the shuffle left them (the draft's three, likewise).
- The court: a draw takes the top of the court's order. While no card has gone back,
  the same cards come out in the same order whatever the players do. A card that goes
  back (a proven claim, an exchange) is shuffled in, as the rules say; the ``k``-th
  shuffle of a game gives every physical card of the court a random key fixed by the
  deal's seed, ``k`` and the card (character and copy), and sorts by it. So the
  rotations' ``k``-th shuffles agree on the order of every card their courts share.
- What "the same later draws" means: draws are matched by the order of the shuffles
  (and of the draws since the last one), not by the turn they happen in. Rotations
  that play differently may shuffle different courts, or more or fewer times; their
  draws then agree as far as their courts agree, and a shuffle that only some
  rotations reach uses keys the others never read. This keeps each game exactly a game
  of Coup: every shuffle is uniform and independent of what the players have seen.
- Who starts (``starting_player=-1``) is a seat, the same in every rotation; who is
  asked first (``challenge_order``/``block_order`` ``chance``) is the ``k``-th such
  choice of the game, from a uniform number fixed by ``k``.

Positions given as a parameter are not dealt, so they cannot be played as duplicate
deals (refused in one line).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel

from games.coup import cards as C
from games.coup import engine as E
from games.coup import rules as R
from games.errors import InvalidParameterError

_SHUFFLE, _START, _ORDER = 1, 2, 3
_MAX_COPIES = 8  # columns of a shuffle's key table: more than any court holds
_PAIR_INDEX = {pair: i for i, pair in enumerate(C.KEEP_OPTIONS)}


def shuffle_keys(seed: int, k: int) -> np.ndarray:
    """The keys of the ``k``-th shuffle of a deal (shuffle 0 is the deal itself): one per
    character and copy."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, _SHUFFLE, k]))
    return rng.random((C.NUM_CHARACTERS, _MAX_COPIES))


def shuffled(pile: tuple[int, ...], keys: np.ndarray) -> list[int]:
    """The cards of a pile of counts in the order of their keys (top first)."""
    cards = [(keys[c, i], c) for c in range(len(pile)) for i in range(pile[c])]
    return [c for _, c in sorted(cards)]


def _uniform(seed: int, tag: int, k: int) -> float:
    return float(np.random.default_rng(np.random.SeedSequence([seed, tag, k])).random())


class DealChance:
    """The chance outcomes of one game: rotation ``rotation`` of the deal seeded ``seed``.

    Called at each chance node of that game (in order), it returns the outcome; it keeps
    the court's order between calls, so one object serves one game.
    """

    def __init__(self, game: pyspiel.Game, seed: int, rotation: int):
        cfg = game.config
        if cfg.position is not None:
            raise InvalidParameterError("duplicate deals start from the deal; leave out "
                                        "the 'position' parameter")
        self.seed = int(seed)
        self.players = cfg.num_players
        self.rotation = int(rotation) % self.players
        self.hands: list[list[int]] | None = None  # each seat's cards, in dealing order
        self.order: list[int] | None = None  # the court, top first
        self.shuffles = 0
        self.orders = 0

    def __call__(self, state: pyspiel.State) -> int:
        core = state.core
        step = core.queue[0]
        code = step[0]
        if code == E.S_DEAL:
            if self.hands is None:
                self._deal(core)
            seat = step[1]
            return self.hands[seat][len(core.hands[seat])]
        if code == E.S_START:
            return int(_uniform(self.seed, _START, 0) * self.players)
        if code == E.S_ORDER:
            outcomes = state.chance_outcomes()
            u = _uniform(self.seed, _ORDER, self.orders)
            self.orders += 1
            return outcomes[int(u * len(outcomes))][0]
        if code in (E.S_REDRAW, E.S_IREDRAW):
            return self._draw(R.pile_add(core.court, step[2]), 1)[0]
        if code == E.S_XDRAW2:
            return _PAIR_INDEX[tuple(sorted(self._draw(core.court, 2)))]
        if code == E.S_XDRAW:
            return self._draw(core.court, 1)[0]
        raise AssertionError(f"no chance at step {step}")

    def _shuffle(self, pile: tuple[int, ...]) -> list[int]:
        order = shuffled(pile, shuffle_keys(self.seed, self.shuffles))
        self.shuffles += 1
        return order

    def _deal(self, core: E.Core) -> None:
        # The first deal step: every deal step is still queued, the pile untouched.
        n = self.players
        each = sum(1 for step in core.queue if step[0] == E.S_DEAL and step[1] == 0)
        order = self._shuffle(core.court)
        self.hands = [[order[(s - self.rotation) % n + n * t] for t in range(each)]
                      for s in range(n)]
        self.order = order[n * each:]

    def _draw(self, pile: tuple[int, ...], k: int) -> list[int]:
        """The top ``k`` cards of the court, shuffled first when it is not the court
        this object left (a card went back, or a draw was made without it)."""
        if self.order is None or Counter(self.order) != Counter(
                {c: m for c, m in enumerate(pile) if m}):
            self.order = self._shuffle(pile)
        drawn, self.order = self.order[:k], self.order[k:]
        return drawn


def deal_chance(game: pyspiel.Game, seed: int, rotation: int) -> DealChance:
    """The chance of one duplicate game (the ``deal`` of :func:`analysis.play.match.play_games`)."""
    return DealChance(game, seed, rotation)


def hand_probabilities(players: int, deck: str) -> dict[str, float]:
    """Every starting hand a seat can be dealt (names joined by ``+``, as
    :func:`analysis.coup.studies.seat_balance.hand_values` writes them) with its probability."""
    copies = C.copies_per_character(players)
    out: dict[str, float] = {}
    for pair, p in R.draw_pair_probabilities((copies,) * C.NUM_CHARACTERS):
        key = "+".join(sorted(C.card_name(c, deck) for c in pair))
        out[key] = out.get(key, 0.0) + p
    return out
