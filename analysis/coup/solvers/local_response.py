"""A local best response to any agent that can say its mixes (Lisý & Bowling 2017).

The responder plays one seat of 2-player Coup against an agent given as a
:class:`~analysis.coup.solvers.mix_oracle.MixOracle`: at any spot, the agent's
probability of each move for every hand it could hold. It keeps

- **the agent's range**, by Bayes' rule (:class:`Range`): every world it cannot rule out
  (the agent's cards, the court), each weighted by the cards' odds and by the agent's
  own mixes along the way, from what the responder's seat saw;
- **a search** over its next ``depth`` decisions (:class:`Responder`): every world is
  played forward through chance and the agent's mixes, grouped by what the responder
  would see, and at each of its own decisions it takes the one move that is best
  across the group (a choice on what it sees, never on the hidden cards);
- **a continuation** past the search (:class:`Continuation`): what both players playing
  the agent's strategy on are worth, read exactly when the oracle knows it (the
  blueprint's table of values), else by roll-outs under the agent's strategy (its own
  seat played by ``own``), else by cards and coins.

With no depth limit it is the exact best response to the oracle's strategy. Whatever
its beliefs and search, it is a legal strategy of the real game, so what it gains
against the agent is a *lower bound* on how much the agent's strategy loses to a best
response, never an estimate of it. A winning Coup is always played (it pays the most
any move can), which also keeps the blueprint on its own graph.
"""

from __future__ import annotations

import random
from collections import defaultdict

from analysis.coup.solvers.beliefs import ClaimModel, new_visible
from analysis.coup.solvers.mix_oracle import MixOracle, Policy
from analysis.coup.solvers.strength import score
from games.coup import engine as E
from games.coup.view import infoset_key, returns
from games.coup.walker import decisive_coup
from games.errors import InvalidPositionError

DEPTH = 1  # the responder's own decisions searched in full games
MAX_STEPS = 5000  # moves a roll-out plays at most


def own_moves(core: E.Core) -> list[int]:
    """The responder's moves at ``core``: a winning Coup alone when there is one."""
    coup = decisive_coup(core)
    return [coup] if coup is not None else core.legal_actions()


def _hidden_key(core: E.Core) -> tuple:
    return (core.hands, core.court, core.unused, core.drawn)


class Range:
    """The worlds ``seat`` cannot tell apart, weighted by Bayes' rule under ``oracle``.

    ``worlds``: ``(probability, position, tag)``, the position whole (every hidden card
    dealt), probabilities summing to 1. :meth:`update` continues from what was read
    before, with the real position (only what ``seat`` saw of it is read).
    """

    def __init__(self, config: E.Config, seat: int, oracle: MixOracle):
        root = E.Core(config)
        self.seat, self.oracle = seat, oracle
        self._bit = 1 << seat
        self._seen = 0
        self.worlds: list[tuple[float, E.Core, object]] = [(1.0, root, oracle.start(root))]

    def update(self, core: E.Core) -> None:
        """Bring the range up to ``core``; ``InvalidPositionError`` when no world agrees
        with what the seat saw (the oracle never plays what the agent played)."""
        events = new_visible(None, core.log, self._bit)
        target = infoset_key(core, self.seat)
        done: dict[tuple, list] = {}
        stack = [(w, world, tag, self._seen) for w, world, tag in self.worlds]
        n = len(events)
        while stack:
            weight, world, tag, k = stack.pop()
            if k == n and infoset_key(world, self.seat) == target:
                key = _hidden_key(world)
                if key in done:
                    done[key][0] += weight
                else:
                    done[key] = [weight, world, tag]
                continue
            if world.over:
                continue
            for action, prob in self._branches(world):
                if prob <= 0.0:
                    continue
                child = world.copy()
                child.apply(action)
                seen = new_visible(world.log, child.log, self._bit)
                if seen and events[k:k + len(seen)] != seen:
                    continue
                stack.append((weight * prob, child, self.oracle.advance(tag, world, action),
                              k + len(seen)))
        total = sum(w for w, _, _ in done.values())
        if not done or total <= 0.0:
            raise InvalidPositionError("no world agrees with what this seat saw under the "
                                       f"{self.oracle.name} oracle's mixes")
        self.worlds = [(w / total, world, tag) for w, world, tag in done.values()]
        self._seen = n

    def _branches(self, world: E.Core):
        if world.cur == E.CHANCE:
            return world.chance_outcomes()
        if world.cur == self.seat:
            return [(a, 1.0) for a in world.legal_actions()]  # the events say which
        return self.oracle.mix(world, world.cur)

    def hands(self) -> dict[tuple[int, ...], float]:
        """The chance of each face-down hand of the agent."""
        out: dict[tuple[int, ...], float] = {}
        for w, world, _ in self.worlds:
            hand = world.hands[1 - self.seat]
            out[hand] = out.get(hand, 0.0) + w
        return out


class Continuation:
    """What a world past the search is worth to ``seat``: the oracle's value when it has
    one (the exact value of both playing the agent's strategy on, the blueprint's; or
    another strategy's, :class:`~.mix_oracle.WithValues`); else the mean of ``rollouts`` games
    under the agent's strategy (``own``: the policy of the responder's seat in them),
    each stopped after ``turns`` turns and scored by cards and coins; else (no
    roll-outs) cards and coins alone (:func:`~analysis.coup.solvers.strength.score`)."""

    def __init__(self, seat: int, oracle: MixOracle, rollouts: int = 0, turns: int = 2,
                 own: Policy | None = None, seed: int = 0):
        if rollouts < 0 or turns < 1:
            raise ValueError(f"roll-outs: 0 or more, not {rollouts}; turns: 1 or more, "
                             f"not {turns}")
        self.seat, self.oracle, self.rollouts, self.turns = seat, oracle, rollouts, turns
        self.own = own if own is not None else (oracle if oracle.seat is None else ClaimModel())
        self.rng = random.Random(seed)

    @property
    def anywhere(self) -> bool:
        """Whether it values positions right after the responder's move as well as at
        its next decision: roll-outs and the values of the agent's own strategy do
        (the agent's replies are in them); other values are read at the responder's
        next decision, once the agent's real replies are played."""
        return self.rollouts > 0 or self.oracle.own_values

    def __call__(self, world: E.Core, tag: object) -> float:
        if world.over:
            return returns(world)[self.seat]
        exact = self.oracle.value(tag, world)
        if exact is not None:
            return exact if self.seat == 0 else -exact
        if not self.rollouts:
            return 2.0 * score(world, self.seat) - 1.0
        return sum(self.rollout(world) for _ in range(self.rollouts)) / self.rollouts

    def rollout(self, world: E.Core) -> float:
        """One game from ``world`` under the agent's strategy, for ``turns`` turns."""
        core, until = world.copy(), world.turn + self.turns
        for _ in range(MAX_STEPS):
            if core.over:
                return returns(core)[self.seat]
            if core.turn >= until and core.cur != E.CHANCE and core.queue[0][0] == E.S_ACTION:
                break
            if core.cur == E.CHANCE:
                mix = core.chance_outcomes()
            elif core.cur == self.seat:
                coup = decisive_coup(core)
                mix = [(coup, 1.0)] if coup is not None else self.own(core, core.cur)
            else:
                mix = self.oracle.mix(core, core.cur)
            actions, probs = zip(*mix, strict=True)
            core.apply(self.rng.choices(actions, probs)[0])
        return 2.0 * score(core, self.seat) - 1.0


class Responder:
    """The best response for ``seat`` to ``oracle`` over a group of worlds, searching
    ``depth`` of its own decisions (``None``: to the end of the game), ``continuation``
    valuing the worlds past them (default: the oracle's values, else cards and coins)."""

    def __init__(self, seat: int, oracle: MixOracle, depth: int | None = DEPTH,
                 continuation: Continuation | None = None):
        if depth is not None and depth < 1:
            raise ValueError(f"depth: the responder searches at least its next decision, "
                             f"not {depth}")
        self.seat, self.oracle, self.depth = seat, oracle, depth
        self.continuation = continuation or Continuation(seat, oracle)
        self._bit = 1 << seat

    def expand(self, worlds):
        """Play ``worlds`` (weight, position, tag, what the seat saw) on to the seat's
        next decision or the end, through chance and the agent's mixes; grouped by
        what the seat sees on the way."""
        groups: dict[tuple, list] = defaultdict(list)
        stack = list(worlds)
        while stack:
            weight, world, tag, seen = stack.pop()
            if world.over or world.cur == self.seat:
                groups[seen].append((weight, world, tag))
                continue
            branches = (world.chance_outcomes() if world.cur == E.CHANCE
                        else self.oracle.mix(world, world.cur))
            for action, prob in branches:
                if prob <= 0.0:
                    continue
                child = world.copy()
                child.apply(action)
                new = new_visible(world.log, child.log, self._bit)
                stack.append((weight * prob, child, self.oracle.advance(tag, world, action),
                              seen + tuple(new)))
        return groups.values()

    def value(self, group, depth: int | None) -> float:
        """The weighted payoff (+1 a win) of a group of worlds the seat cannot tell
        apart, each at the seat's decision or over, under the best response."""
        total, live = 0.0, []
        for weight, world, tag in group:
            if world.over:
                total += weight * returns(world)[self.seat]
            else:
                live.append((weight, world, tag))
        if not live:
            return total
        if depth is not None and depth <= 0:
            return total + sum(w * self.continuation(world, tag) for w, world, tag in live)
        return total + max(self.action_values(live, depth).values())

    def action_values(self, group, depth: int | None) -> dict[int, float]:
        """Each of the seat's moves' weighted payoff over ``group`` (worlds at its
        decision, weights unnormalised), searching ``depth`` decisions."""
        moves = own_moves(group[0][1])
        forced = len(moves) == 1
        nxt = depth if (depth is None or forced) else depth - 1
        out = {}
        for action in moves:
            children = []
            for weight, world, tag in group:
                child = world.copy()
                child.apply(action)
                children.append((weight, child, self.oracle.advance(tag, world, action),
                                 tuple(new_visible(world.log, child.log, self._bit))))
            if nxt is not None and nxt <= 0 and self.continuation.anywhere:
                out[action] = sum(w * self.continuation(c, t) for w, c, t, _ in children)
            else:
                out[action] = sum(self.value(g, nxt) for g in self.expand(children))
        return out

    def game_value(self, game) -> float:
        """The response's expected payoff from the start of ``game`` (an OpenSpiel game
        or an engine config)."""
        root = E.Core(getattr(game, "config", game))
        start = [(1.0, root, self.oracle.start(root), ())]
        return sum(self.value(g, self.depth) for g in self.expand(start))


class LocalBestResponseAgent:
    """The local best response as a bot bound to ``seat`` of a 2-player Coup game
    (``config``: its engine config), against ``oracle``: the range by Bayes' rule, then
    the move with the best value over it (ties to the lowest action id)."""

    def __init__(self, config: E.Config, seat: int, oracle: MixOracle,
                 depth: int | None = DEPTH, continuation: Continuation | None = None):
        if config.num_players != 2:
            raise ValueError(f"the local best response plays 2-player Coup, not "
                             f"{config.num_players} players")
        self.seat = seat
        self.oracle = oracle
        self.range = Range(config, seat, oracle)
        self.responder = Responder(seat, oracle, depth, continuation)
        self.decisions = 0

    def __call__(self, state) -> int:
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        core = state.core
        self.oracle.prune(core)
        self.range.update(core)
        values = self.responder.action_values(self.range.worlds, self.responder.depth)
        self.decisions += 1
        return max(values, key=lambda a: (values[a], -a))
