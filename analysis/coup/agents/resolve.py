"""``resolve``: a 2-player Coup agent that re-solves every decision over both ranges.

It keeps the public beliefs (:class:`~analysis.coup.solvers.beliefs.PublicBelief`: every
deal the public history allows, with its chance), weighing the opponent's choices by a
model of a moderate bluffer and its own by the mixed strategies it actually computed (for
every hand it could have held, so its range stays the one its play implies). At each
decision it re-solves the rest of the turn over those deals
(:func:`~analysis.coup.solvers.belief_resolve.resolve`) and samples its move from the mix
it finds for the hand it holds: it bluffs and challenges at rates balanced across its
range, instead of always choosing the move that looks best, which is what an opponent who
learns its habits exploits. Where a re-solve stops, a position is worth its cards and
coins; ``resolve-blueprint`` (:mod:`.resolve_blueprint`) values it by the blueprint
instead.

A re-solve depends on nothing but the public history, the seat and the agent's settings:
the beliefs are a function of the public events, its own past mixes are its earlier
re-solves of that history, and CFR+ is deterministic. So each process keeps the spots it
solved (:data:`SOLVED`, the most recent few thousand) and reuses them when the same
public history comes again, as the openings do in every game: the moves are the same,
only sooner.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections import OrderedDict
from collections.abc import Sequence

import pyspiel

from analysis.coup.agents.rules_of_thumb import View, plain_choice
from analysis.coup.agents.search import SEARCHED, SearchAgent
from analysis.coup.model import GAME, two_card_hands_only
from analysis.coup.solvers.belief_resolve import (
    HORIZON,
    ITERATIONS,
    QUIET,
    TURNS,
    Leaf,
    Resolved,
    heuristic,
    resolve,
)
from analysis.coup.solvers.beliefs import ClaimModel, PublicBelief, new_public
from analysis.coup.solvers.mix_oracle import MixOracle, point
from analysis.play.bots import BotSpec, register_bot
from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key
from games.errors import InvalidParameterError

OPPONENT = ClaimModel(truth=2.0, bluff=0.3, challenge=0.2)
# Steps a player with two copies of a card passes without stopping (the engine settles
# them), so not every world of a public history stops there.
SKIPPED = (E.S_LOSE, E.S_SHOW)


class SolvedSpots:
    """The spots re-solved in this process, by public history, seat and settings; the
    least recently used are forgotten past ``size``."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self._spots: OrderedDict[tuple, Resolved] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key: tuple) -> Resolved | None:
        solved = self._spots.get(key)
        if solved is None:
            self.misses += 1
        else:
            self.hits += 1
            self._spots.move_to_end(key)
        return solved

    def put(self, key: tuple, solved: Resolved) -> None:
        self._spots[key] = solved
        if len(self._spots) > self.size:
            self._spots.popitem(last=False)

    def clear(self) -> None:
        self._spots.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._spots)


SOLVED = SolvedSpots()


class ResolveAgent(SearchAgent):
    """The re-solving agent bound to ``seat`` (seeded): the search agent's turn actions,
    challenges and blocks re-solved instead of searched. ``leaf`` values the positions
    where a re-solve stops (``leaf_name`` tells re-solves with different leaves apart)."""

    # Whether every decision is read from the re-solve (card choices and the draft pick
    # too), else only turn actions, challenges and blocks (the rest by the plain rules).
    every = False

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0, turns: int = TURNS,
                 horizon: int = HORIZON, iterations: int = ITERATIONS,
                 leaf: Leaf = heuristic, leaf_name: str = "cards and coins",
                 quiet: frozenset = QUIET, continuations: Sequence[Leaf] | None = None):
        if game.num_players() != 2:
            raise InvalidParameterError("the re-solving agent plays 2-player Coup; use "
                                        "search for more players")
        two_card_hands_only(game.config.numbers, "the re-solving agent")
        super().__init__(game, seat, seed)
        self.turns, self.horizon, self.iterations = turns, horizon, iterations
        self.leaf, self.leaf_name, self.quiet = leaf, leaf_name, quiet
        # multi-valued leaves (the opponent picks how play goes on; leaf_name names them)
        self.continuations = continuations
        self.measure = False  # whether its re-solves also measure their exploitability
        self.played: dict[tuple, dict[int, float]] = {}  # its mixes, by what it knew
        models = [OPPONENT, OPPONENT]
        models[seat] = self._own_model
        self.belief = PublicBelief(game, tuple(models))
        self.last = None  # the last re-solve (for advice and tests)

    def _own_model(self, core: E.Core, player: int) -> list[tuple[int, float]]:
        # Its own past choices, as it made them; a spot it never re-solved (a hand it
        # did not hold there, or a spot with one move) falls back to the opponent model.
        mix = self.played.get(infoset_key(core, player))
        if mix is None:
            return OPPONENT(core, player)
        legal = core.legal_actions()
        floor = 1e-9  # never rule the real world out by a rounding to zero
        weights = [mix.get(a, 0.0) + floor for a in legal]
        total = sum(weights)
        return [(a, w / total) for a, w in zip(legal, weights, strict=True)]

    def __call__(self, state: pyspiel.State) -> int:
        if not self.every:
            return super().__call__(state)
        legal = state.legal_actions(self.seat)
        if len(legal) == 1:
            return legal[0]
        return self.search(None, state.core, legal)

    def search(self, view, core: E.Core, legal: Sequence[int]) -> int:
        """The move sampled from the re-solved mix at the seat's hand."""
        mine = self.resolved(core).mixes[infoset_key(core, self.seat)]
        return self.rng.choices(list(mine), weights=list(mine.values()))[0]

    def resolved(self, core: E.Core) -> Resolved:
        """The spot at ``core`` re-solved (the beliefs brought up to it first; only its
        public history is read): the mix of every hand of the seat's range.

        A card to lose or show is a choice only with two different cards: a player with
        a pair loses or shows without stopping there. The beliefs at such a spot leave
        those worlds out, so they are read for the re-solve and not kept: the beliefs go
        on from the last spot every world reaches."""
        if core.queue[0][0] in SKIPPED:
            belief = copy.copy(self.belief)
            belief.update(core)
        else:
            self.belief.update(core)
            belief = self.belief
        key = (core.cfg, self.seat, self.turns, self.horizon, self.iterations, self.leaf_name,
               self.every, self.quiet, _public(core), _length(core))
        solved = SOLVED.get(key)
        if solved is None or (self.measure and math.isnan(solved.exploitability)):
            solved = resolve(belief.worlds, self.turns, self.horizon, self.iterations,
                             self.leaf, measure=self.measure, quiet=self.quiet,
                             continuations=self.continuations)
            SOLVED.put(key, solved)
        self.last = solved
        self.played.update(solved.mixes)
        return solved


@dataclasses.dataclass(frozen=True)
class _Spot:
    # The agent's state once it has re-solved a public history: its beliefs, its own
    # mixes so far and the re-solve.
    belief: PublicBelief
    played: dict
    solved: Resolved | None


class ResolveOracle(MixOracle):
    """The re-solving agent ``agent`` (bound to its seat, not yet played) as a mix
    oracle: its mix at any spot for every hand it could hold.

    A re-solve depends only on the public history, the seat and the settings (the
    module's docstring), so the agent's state at a public history is computed once,
    from its state at its last re-solve before (kept by public history), and one
    re-solve gives every hand's mix. An agent that re-solves every decision
    (:mod:`.resolve_mixed`) answers every choice from its re-solve; for the others, the
    choices they do not re-solve (which card to lose, keep or show, the draft pick) are
    the plain rules' (:func:`~.rules_of_thumb.plain_choice`): one move for each hand.
    Spots are asked in the order the game reaches them along any line of play (a range
    update, a search and a roll-out all do), so the state before a spot is always kept;
    spots of one public history are told apart by the events so far (a draft pick and
    the first turn share one).
    """

    name = "resolve"

    def __init__(self, agent: ResolveAgent):
        self.agent = agent
        self.seat = agent.seat
        self.start_spot = _Spot(agent.belief, dict(agent.played), None)
        # public history -> the number of events so far (private ones too: spots with
        # one public history, such as a draft pick and the first turn) -> the state there
        self.spots: dict[tuple, dict[int, _Spot]] = {}

    def mix(self, core: E.Core, player: int) -> list[tuple[int, float]]:
        if player != self.seat:
            raise ValueError(f"this {self.name} oracle answers for seat {self.seat}, "
                             f"not {player}")
        legal = core.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        if self.agent.every:
            mine = self.solved(core).mixes[infoset_key(core, player)]
            return [(a, mine.get(a, 0.0)) for a in legal]
        view = View.of_core(core, player)
        if view.step[0] == E.S_PICK or view.step[0] not in SEARCHED:
            return point(plain_choice(view, legal), legal)
        if view.step[0] == E.S_CHAL and not self.agent.concerned(view):
            lie = view.proven_lie(view.step[2], None)
            return point(C.A_CHALLENGE if lie else C.A_NO_CHALLENGE, legal)
        mine = self.solved(core).mixes[infoset_key(core, player)]
        return [(a, mine.get(a, 0.0)) for a in legal]

    def solved(self, core: E.Core) -> Resolved:
        """The agent's re-solve of the public history of ``core``."""
        return self._spot(core).solved

    def _spot(self, core: E.Core) -> _Spot:
        public, length = _public(core), _length(core)
        spot = self.spots.get(public, {}).get(length)
        if spot is not None:
            return spot
        base = self.start_spot
        for k in range(len(public), -1, -1):
            here = [n for n in self.spots.get(public[:k], ()) if n < length]
            if here:
                base = self.spots[public[:k]][max(here)]
                break
        agent = self.agent
        agent.belief, agent.played = copy.copy(base.belief), dict(base.played)
        solved = agent.resolved(core)
        spot = self.spots.setdefault(public, {})[length] = _Spot(agent.belief, agent.played,
                                                                 solved)
        return spot

    def belief_at(self, core: E.Core) -> PublicBelief:
        """The agent's public beliefs at ``core``'s spot, once it has re-solved there."""
        return self._spot(core).belief

    def prune(self, core: E.Core) -> None:
        public = _public(core)
        self.spots = {k: v for k, v in self.spots.items() if public[:len(k)] == k}


def _public(core: E.Core) -> tuple:
    # What a spot is kept by: its public history.
    return tuple(new_public(None, core.log))


def _length(core: E.Core) -> int:
    # The events so far, private ones too: the same in every world at one point of play.
    n, node = 0, core.log
    while node is not None:
        node = node[0]
        n += 1
    return n


def resolve_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """The re-solving agent at its default horizon (2 players only)."""
    return ResolveAgent(game, seat, seed)


register_bot(BotSpec("resolve", "2 players: re-solves the rest of each turn over both "
                     "players' possible hands and mixes its moves at the rates it finds",
                     resolve_bot, games=(GAME,)))
