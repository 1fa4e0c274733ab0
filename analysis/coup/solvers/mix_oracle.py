"""A *mix oracle*: an agent that can say, at any spot, how it would mix for every hand.

A local best response (:mod:`analysis.coup.solvers.local_response`) needs more of the
agent it plays against than its moves: at every decision the agent made, or may make,
it needs the agent's probability of each legal move *for every hand the agent could
hold there*, so that it can weigh the agent's possible hands by Bayes' rule and look
ahead under the agent's real strategy. An agent whose move at a spot depends only on
the public history, its seat, its own cards and its settings can answer that exactly:
the blueprint from its table, the re-solving agent from one re-solve of the public
history (which gives every hand's mix at once). An agent whose move also depends on a
private random stream or memory cannot, and is not an oracle (see
:data:`analysis.coup.agents.NO_ORACLE`).

The oracle is asked with a whole position (every hidden card dealt): only the player's
own cards and the public history may matter to the answer. It may also carry a *tag*
along each world it is asked about (the blueprint: the node of its graph, so that its
exact value there can be read), and say what both players playing its strategy on
from a world are worth (:meth:`MixOracle.value`, ``None`` when it does not know).

This module is a solver: it imports no agent. The agents' oracles live with the agents.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from games.coup import engine as E

Mix = list[tuple[int, float]]
Policy = Callable[[E.Core, int], Mix]
TOLERANCE = 1e-6  # how far a mix's probabilities may sum from 1


class MixOracle:
    """The interface, with the defaults of an oracle that needs no tags and knows no
    values. ``seat``: the seat it answers for (``None``: either seat)."""

    name = "oracle"
    seat: int | None = None
    # Whether :meth:`value` is the value of the oracle's own strategy (both players
    # playing it on), so that a position can be valued anywhere, even mid-turn.
    own_values = False

    def mix(self, core: E.Core, player: int) -> Mix:
        """``player``'s probability of each of ``core.legal_actions()`` at ``core``
        (``core`` holds ``player``'s cards; nothing else hidden may matter)."""
        raise NotImplementedError

    def start(self, core: E.Core) -> object:
        """The tag of the game's first position ``core``."""
        return None

    def advance(self, tag: object, core: E.Core, action: int) -> object:
        """The tag after ``action`` at ``core`` (tagged ``tag``)."""
        return None

    def value(self, tag: object, core: E.Core) -> float | None:
        """Player 0's expected payoff (+1 a win, -1 a loss) at ``core`` when both players
        play the oracle's strategy on, or ``None`` when the oracle does not know it."""
        return None

    def prune(self, core: E.Core) -> None:
        """Forget what was computed off the public history of ``core`` (the real game's
        position now): a memory bound, never a change of answer."""

    def __call__(self, core: E.Core, player: int) -> Mix:
        return self.mix(core, player)


class PolicyOracle(MixOracle):
    """A fixed strategy given as a function of the position (:data:`Policy`) that reads
    only the player's own cards and the public position: an oracle for either seat."""

    def __init__(self, policy: Policy, name: str = "policy"):
        self.policy, self.name = policy, name

    def mix(self, core: E.Core, player: int) -> Mix:
        return checked(self.policy(core, player), core.legal_actions(), self.name)


class WithValues(MixOracle):
    """The mixes of ``mixes`` with the tags and values of ``values`` (another oracle's:
    the blueprint's values of a position, say, beside the re-solving agent's mixes).
    The values are then a guess at what the position is worth, not the value of the
    mixes' own strategy: a local best response valuing its leaves by them is still a
    legal strategy, its gain still a lower bound."""

    def __init__(self, mixes: MixOracle, values: MixOracle):
        self.mixes, self.values = mixes, values
        self.seat = mixes.seat
        self.name = f"{mixes.name} (values: {values.name})"

    def mix(self, core: E.Core, player: int) -> Mix:
        return self.mixes.mix(core, player)

    def start(self, core: E.Core) -> object:
        return self.values.start(core)

    def advance(self, tag: object, core: E.Core, action: int) -> object:
        return self.values.advance(tag, core, action)

    def value(self, tag: object, core: E.Core) -> float | None:
        return self.values.value(tag, core)

    def prune(self, core: E.Core) -> None:
        self.mixes.prune(core)
        self.values.prune(core)


def checked(mix: Mix, legal, name: str) -> Mix:
    """``mix`` when it is a probability over ``legal``, else a one-line ``ValueError``."""
    actions = [a for a, _ in mix]
    if sorted(actions) != sorted(legal):
        raise ValueError(f"{name}: a mix over {sorted(actions)}, but the legal moves are "
                         f"{sorted(legal)}")
    probs = [p for _, p in mix]
    if any(not math.isfinite(p) or p < 0.0 for p in probs):
        raise ValueError(f"{name}: a mix with a negative or non-finite probability {probs}")
    total = sum(probs)
    if abs(total - 1.0) > TOLERANCE:
        raise ValueError(f"{name}: a mix whose probabilities sum to {total:z.6g}, not 1")
    return mix


def point(action: int, legal) -> Mix:
    """The mix that always plays ``action`` (over ``legal``)."""
    return [(a, 1.0 if a == action else 0.0) for a in legal]
