"""Exact best response with perfect recall, walked over the responder's information states.

A state-keyed solve (graph mode) gives a strategy whose own best response, within the
abstraction, forgets what the responder saw: a lower bound on the true exploitability.
Here the responder remembers everything it observed. The walk follows the responder's
information states from the root: each carries every full state (a *world*) the
responder cannot tell apart, weighted by chance and the opponent's reach, the way poker
solvers carry a range. A world's children are grouped by what the responder observes
on the move (:meth:`games.keys.Walker.new_observations`), so a group is exactly one
perfect-recall information state, and the responder picks one action per group.

Nothing is compiled or stored: memory is the depth of the game, and the cost is the
number of (information state, world) pairs walked, which grows with the responder's
information states, not with the worlds per state.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from analysis.shared.progress import bar as progress_bar
from analysis.solve.compiled import CompiledGame
from analysis.solve.digest import key_text
from analysis.solve.errors import GameTooLargeError, SolveError

TERMINAL = -4
CHANCE = -1

# ``policy(state, player)``: the opponent's mix at ``state`` as (action, probability) pairs.
Policy = Callable[[object, int], Sequence[tuple[int, float]]]


@dataclass(frozen=True)
class WalkedBestResponse:
    """One player's perfect-recall best response to a fixed opponent.

    ``value`` is the responder's expected utility; ``information_states`` counts the
    responder's decision points walked, ``worlds`` the full states visited and
    ``max_worlds`` the most worlds one information state held.
    """

    player: int
    value: float
    information_states: int
    worlds: int
    max_worlds: int
    seconds: float


class _Walk:
    def __init__(self, walker, player: int, policy: Policy, max_worlds: int | None):
        self.w = walker
        self.p = player
        self.policy = policy
        self.budget = max_worlds if max_worlds is not None else math.inf
        self.infostates = 0
        self.worlds = 0
        self.widest = 0

    def value(self, group: list[tuple[object, float]]) -> float:
        """The responder's best value from ``group`` (worlds it cannot tell apart, with
        their reach weights): terminal worlds pay, the rest move together."""
        w, p = self.w, self.p
        self.worlds += len(group)
        if self.worlds > self.budget:
            raise GameTooLargeError(f"the best-response walk passed {self.budget:,} worlds")
        total = 0.0
        live = []
        for s, weight in group:
            actor = w.actor(s)
            if actor == TERMINAL:
                total += weight * w.returns(s)[p]
            else:
                live.append((s, weight, actor))
        if not live:
            return total
        own = [actor == p for _, _, actor in live]
        if any(own):
            if not all(own):
                raise SolveError("the responder cannot tell whether it is to move: the game's "
                                 "turn is not public")
            return total + self._decide(live)
        return total + sum(self.value(g) for g in self._split(live, None))

    def _decide(self, live) -> float:
        self.infostates += 1
        self.widest = max(self.widest, len(live))
        legal = self.w.legal_actions(live[0][0])
        best = -math.inf
        for action in legal:
            best = max(best, sum(self.value(g) for g in self._split(live, action)))
        return best

    def _split(self, live, action: int | None) -> list[list[tuple[object, float]]]:
        """The worlds after one move, grouped by what the responder observes on it.
        ``action``: the responder's own move; ``None``: chance's or the opponent's."""
        w, p = self.w, self.p
        groups: dict[Hashable, list[tuple[object, float]]] = {}
        for s, weight, actor in live:
            if action is not None:
                moves = ((action, 1.0),)
            elif actor == CHANCE:
                moves = w.chance_outcomes(s)
            else:
                moves = self.policy(s, actor)
            for a, prob in moves:
                if prob <= 0.0:
                    continue
                child = w.child(s, a)
                groups.setdefault(w.new_observations(s, child, p), []).append(
                    (child, weight * prob))
        return list(groups.values())


def walked_best_response(walker, player: int, policy: Policy, max_worlds: int | None = None,
                         progress: bool = False) -> WalkedBestResponse:
    """Player ``player``'s exact best-response value against ``policy`` (the opponent's
    mix at each of its states), with perfect recall.

    ``walker`` follows :class:`games.keys.Walker` and must keep the observations
    (``history=True``); positions it reports as terminal pay ``returns`` (a walker may
    cut subgames off there, valued exactly). ``max_worlds`` bounds the walk.

    Raises
    ------
    GameTooLargeError
        The walk passed ``max_worlds`` worlds.
    SolveError
        The responder's turn is not public (the walk needs it to be).
    """
    tick = time.perf_counter()
    walk = _Walk(walker, player, policy, max_worlds)
    root = [(walker.root(), 1.0)]
    value = _with_progress(walk, root) if progress else walk.value(root)
    return WalkedBestResponse(player, float(value), walk.infostates, walk.worlds, walk.widest,
                              time.perf_counter() - tick)


def _with_progress(walk: _Walk, root) -> float:
    """The root's value with a bar over the first branching (its groups walked one by
    one: the bar's time left assumes they cost alike)."""
    group, total = root, 0.0
    # Descend while the walk has a single group (deals the responder does not see).
    while True:
        live = [(s, w, walk.w.actor(s)) for s, w in group if walk.w.actor(s) != TERMINAL]
        if len(live) != len(group) or not live:
            return total + walk.value(group)
        if any(actor == walk.p for _, _, actor in live):
            return total + walk.value(group)
        walk.worlds += len(group)
        groups = walk._split(live, None)
        if len(groups) > 1:
            break
        group = groups[0]
    with progress_bar(total=len(groups), desc=f"best response of player {walk.p}", unit=" branches",
              mininterval=0.5) as bar:
        for g in groups:
            total += walk.value(g)
            bar.update()
    return total


def graph_policy(compiled: CompiledGame, strategy: np.ndarray, infoset_key) -> Policy:
    """A compiled graph's ``strategy`` as a :data:`Policy`: ``infoset_key(state, player)``
    gives the state-keyed key the graph was compiled with.

    Raises
    ------
    SolveError
        The graph has no key names, or a walked state's key is not in it.
    """
    if len(compiled.infoset_keys) != compiled.num_infosets:
        raise SolveError("the graph needs its information-set keys (compile it with "
                         "key_names=True)")
    index = {key: i for i, key in enumerate(compiled.infoset_keys)}
    offset, actions = compiled.infoset_offset, compiled.infoset_actions
    rows: dict[int, tuple[tuple[int, float], ...]] = {}

    def policy(state, player: int):
        key = key_text(infoset_key(state, player))
        i = index.get(key)
        if i is None:
            raise SolveError(f"{compiled.game}: no information set {key!r} in the solved graph")
        row = rows.get(i)
        if row is None:
            lo, hi = offset[i], offset[i + 1]
            row = tuple(zip(actions[lo:hi].tolist(), strategy[lo:hi].tolist(), strict=True))
            rows[i] = row
        return row

    return policy
