"""Exact beliefs over the hidden cards in 2-player Coup, from everything the seat saw.

The seat's information is replayed through the rules themselves (the engine of
:mod:`games.coup.engine`): every step the seat does not see (a card dealt to the
opponent, a redraw, an exchange's draw and what the opponent kept, the opponent's
draft pick) is branched over its outcomes, weighted by the cards' odds and by a model
of the opponent's play (:class:`ClaimModel`); every step it sees is weighted by the
same odds and model, and a branch whose visible events differ from what the seat saw
is dropped. What is left is the posterior over the worlds the seat cannot tell apart
(Bayes' rule, computed exactly), merged by hidden position: exact whenever the
opponent model reads only the position (its own cards and the public state), as the
models here do. Card counting needs no rule of its own: a world that cannot produce
what was seen never survives.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key, public_key
from games.errors import InvalidPositionError

Policy = Callable[[E.Core, int], list[tuple[int, float]]]


@dataclass(frozen=True)
class ClaimModel:
    """A model of how a player's hidden cards shape their choices (for the beliefs).

    Each legal choice gets a score and the scores are normalised over the choices:
    a claim (an action or a block) of a character held scores ``truth``, a bluffed one
    ``bluff``; an action that claims nothing scores 1; passing on a block scores
    ``pass_holding`` when a blocking character is held and 1 otherwise. A challenge is
    made with chance ``challenge`` times (1 + ``copies_weight`` per copy of the claimed
    character the challenger holds), or almost surely when the challenger's own cards
    and the face-up ones prove the claim a lie. Which card to lose, show, keep, return
    or pick is chosen at random: the model says nothing it does not know. Every legal
    choice keeps some chance, so the world that really happened is never ruled out by
    the model, only by the cards.
    """

    truth: float = 2.0
    bluff: float = 0.3
    pass_holding: float = 0.25
    challenge: float = 0.15
    copies_weight: float = 1.5

    def __call__(self, core: E.Core, player: int) -> list[tuple[int, float]]:
        legal = core.legal_actions()
        hand = core.hands[player]
        code = core.queue[0][0]
        if code == E.S_ACTION:
            scores = [self._action_score(a, hand) for a in legal]
        elif code == E.S_BLOCK:
            held = any(a - C.A_BLOCK in hand for a in legal if a != C.A_NO_BLOCK)
            scores = [(self.pass_holding if held else 1.0) if a == C.A_NO_BLOCK
                      else (self.truth if a - C.A_BLOCK in hand else self.bluff) for a in legal]
        elif code == E.S_CHAL:
            p = self.challenge_chance(core, player)
            scores = [p if a == C.A_CHALLENGE else 1.0 - p for a in legal]
        else:
            scores = [1.0] * len(legal)
        total = sum(scores)
        return [(a, s / total) for a, s in zip(legal, scores, strict=True)]

    def _action_score(self, action: int, hand: tuple[int, ...]) -> float:
        kind, _ = C.decode_turn_action(action)
        claim = C.KIND_CLAIM[kind]
        if claim is None:
            return 1.0
        return self.truth if claim in hand else self.bluff

    def challenge_chance(self, core: E.Core, player: int) -> float:
        """The chance ``player`` challenges the pending claim."""
        claim = core.queue[0][2]
        mine = core.hands[player].count(claim)
        seen = mine + sum(r.count(claim) for r in core.revealed)
        if seen >= _most_in_play(core):
            return 0.97
        return min(0.9, self.challenge * (1.0 + self.copies_weight * mine))


def _most_in_play(core: E.Core) -> int:
    # The copies of a character that can be in play: the deck's, or in the draft at most
    # the dealt pile's one plus both picks.
    return 3 if core.cfg.setup == "draft" and core.cfg.position is None else core.cfg.copies


def visible_events(core: E.Core, seat: int) -> list[tuple]:
    """The events of ``core``'s log that ``seat`` saw, oldest first."""
    return new_visible(None, core.log, 1 << seat)


def new_visible(before, after, bit: int) -> list[tuple]:
    """The events the seat of ``bit`` (``1 << seat``) sees between two points of one log
    (``before`` an older node of ``after``), oldest first."""
    out, node = [], after
    while node is not before:
        node, event = node
        if event[0] & bit:
            out.append(event)
    out.reverse()
    return out


def _hidden_key(core: E.Core) -> tuple:
    # What tells two consistent worlds apart: all of the position the seat cannot see.
    return (core.hands, core.court, core.unused, core.drawn)


class Belief:
    """The seat's posterior over the worlds it cannot tell apart, kept up to date.

    ``worlds``: ``(probability, core)`` pairs, each core a whole position (every hidden
    card dealt) at the same point the seat sees, probabilities summing to 1. Call
    :meth:`update` with the real position whenever the seat is to decide (only what
    the seat saw of it is read); it continues from the events read before.
    """

    def __init__(self, game_or_config, seat: int, model: Policy | None = None):
        cfg = getattr(game_or_config, "config", game_or_config)
        if cfg.num_players != 2:
            raise InvalidPositionError("the exact beliefs are for 2-player Coup")
        self.seat = seat
        self.model = model if model is not None else ClaimModel()
        self._bit = 1 << seat
        self._seen = 0
        self.worlds: list[tuple[float, E.Core]] = [(1.0, E.Core(cfg))]
        self.log_evidence = 0.0  # log P(what the seat saw | the model), up to its own moves

    def update(self, core: E.Core) -> None:
        """Bring the beliefs up to ``core`` (the real position, read as the seat sees it).

        Raises
        ------
        InvalidPositionError
            When no world agrees with what the seat saw (another game's position).
        """
        events = self._new_events(None, core.log)
        if len(events) < self._seen:
            raise InvalidPositionError("this position does not continue the game the "
                                       "beliefs were following")
        target = self._target(core)
        done: dict[tuple, list] = {}
        stack = [(w, world, self._seen) for w, world in self.worlds]
        n = len(events)
        while stack:
            weight, world, k = stack.pop()
            if k == n and self._target(world) == target:
                key = _hidden_key(world)
                if key in done:
                    done[key][0] += weight
                else:
                    done[key] = [weight, world]
                continue
            if world.over:
                continue
            for action, prob in self._branches(world):
                child = world.copy()
                child.apply(action)
                seen = self._new_events(world.log, child.log)
                if seen and events[k:k + len(seen)] != seen:
                    continue
                stack.append((weight * prob, child, k + len(seen)))
        total = sum(w for w, _ in done.values())
        if not done or total <= 0.0:
            raise InvalidPositionError("no deal of the hidden cards agrees with what this "
                                       "seat saw")
        self.worlds = [(w / total, world) for w, world in done.values()]
        self.log_evidence += math.log(total)
        self._seen = n

    def _new_events(self, before, after) -> list[tuple]:
        # The events between two points of one log that the beliefs' viewer sees.
        return new_visible(before, after, self._bit)

    def _target(self, core: E.Core) -> tuple:
        # What the viewer knows of a position: worlds that differ in it are told apart.
        return infoset_key(core, self.seat)

    def _branches(self, world: E.Core) -> Iterable[tuple[int, float]]:
        if world.cur == E.CHANCE:
            return world.chance_outcomes()
        if world.cur == self.seat:
            return [(a, 1.0) for a in world.legal_actions()]  # the events say which
        return self.model(world, world.cur)

    # ---- reading the beliefs ------------------------------------------------------
    def hands(self, player: int | None = None) -> dict[tuple[int, ...], float]:
        """The chance of each face-down hand of ``player`` (the opponent by default)."""
        player = 1 - self.seat if player is None else player
        out: dict[tuple[int, ...], float] = {}
        for w, world in self.worlds:
            hand = world.hands[player]
            out[hand] = out.get(hand, 0.0) + w
        return out

    def holds(self, character: int, player: int | None = None) -> float:
        """The chance ``player`` (the opponent by default) holds ``character``."""
        return sum(w for hand, w in self.hands(player).items() if character in hand)


class PublicBelief(Belief):
    """The posterior over whole deals given only what both players saw (the public
    history): both players' hidden cards are unknown, and each player's choices are
    weighted by their own model (``models[p]``, called as ``model(core, p)``). It is
    the common ground from which a spot is re-solved: a player's range is this
    posterior's marginal over their hand."""

    def __init__(self, game_or_config, models: tuple[Policy, Policy]):
        super().__init__(game_or_config, 0, models[0])
        self.models = models
        self.seat = None

    def _new_events(self, before, after) -> list[tuple]:
        return new_public(before, after)

    def _target(self, core: E.Core) -> tuple:
        return public_key(core)

    def _branches(self, world: E.Core) -> Iterable[tuple[int, float]]:
        if world.cur == E.CHANCE:
            return world.chance_outcomes()
        return self.models[world.cur](world, world.cur)

    def joint(self) -> dict[tuple, float]:
        """The chance of each pair of face-down hands (player 0's, player 1's)."""
        out: dict[tuple, float] = {}
        for w, world in self.worlds:
            out[world.hands] = out.get(world.hands, 0.0) + w
        return out


def new_public(before, after) -> list[tuple]:
    """The events both players see between two points of one log, oldest first."""
    out, node = [], after
    while node is not before:
        node, event = node
        if event[0] & 3 == 3:
            out.append(event)
    out.reverse()
    return out


def deal_as(real: E.Core, world: E.Core) -> E.Core:
    """A copy of ``real`` holding ``world``'s hidden cards (hands, court, draft piles)."""
    out = real.copy()
    out.hands, out.court, out.unused, out.drawn = world.hands, world.court, world.unused, world.drawn
    return out
