"""How much the blueprint can be beaten: lower bounds on its true exploitability.

A *local best response* (Lisý & Bowling 2017) plays one seat against the blueprint in
the real game (perfect recall, no abstraction). At each of its decisions it weighs every
world it cannot rule out (the blueprint player's cards, the court) by Bayes' rule under
the blueprint, and picks the action with the best expected value if both then played
the blueprint. Whatever its beliefs, it is a legal strategy of the real game, so its
measured gain over the blueprint's own result is a lower bound on how much the best
response gains: a lower bound on exploitability, never an estimate of it. Games are
simulated and the gain reported with a 95% interval. With a ``depth`` above 1 it looks
further: an exact best response over its next ``depth`` decisions (each taken on what
it has seen, never on the hidden cards), the blueprint playing on past them.

Worlds are followed as nodes of the blueprint's graph (:mod:`analysis.coup.solvers.blueprint`),
so the values and the blueprint's mixes are array lookups.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random

import numpy as np

from analysis.coup.solvers.blueprint import (
    Blueprint,
    DeckGraph,
    deck_games,
    deck_graph,
    history_roots,
    part_of,
    read_summary,
    update_summary,
)
from analysis.coup.solvers.blueprint_resolve import advance_worlds, blueprint_values
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import provenance
from analysis.solve.cyclic import CyclicCFR
from analysis.statistics.intervals import Z95
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker

MAX_STEPS = 5000


@dataclasses.dataclass(frozen=True)
class ResponseBound:
    """The local best response's result in one seat against the blueprint.

    ``gain`` is its mean payoff (+1 a win, -1 a loss) minus the blueprint's value for
    that seat, with ``ci95``; in win probability both are halved (:attr:`win_gain`).
    """

    start: str
    seat: int
    games: int
    mean_payoff: float
    blueprint_value: float
    gain: float
    ci95: tuple[float, float]
    provenance: dict
    depth: int = 1

    @property
    def win_gain(self) -> tuple[float, float, float]:
        """The gain in win probability and its 95% interval."""
        return self.gain / 2, self.ci95[0] / 2, self.ci95[1] / 2

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> ResponseBound:
        return cls(**(dict(d) | {"ci95": tuple(d["ci95"])}))


class LocalBestResponse:
    """The local best response for ``seat`` on ``dg``'s graph against ``strategies``
    (a probability per slot for each player), with node values ``value`` (player 0's
    payoff under the blueprint's self-play); ``depth``: how many of its own decisions
    it plans exactly before the blueprint takes over (1: the classic local response)."""

    def __init__(self, dg: DeckGraph, config: E.Config, strategies, value: np.ndarray,
                 seat: int, depth: int = 1):
        if depth < 1:
            raise ValueError("a best response plans at least its next decision")
        self.g = dg.graph
        self.walker = DecisiveCoupWalker(config, history=True)
        self.strategies = strategies
        self.value = value
        self.seat = seat
        self.depth = depth
        self.sign = 1.0 if seat == 0 else -1.0
        self.lost = 0  # moves after which the beliefs had ruled out the true world

    def _moves(self, core: E.Core, node: int) -> list[tuple[int, int, float]]:
        """``(action, child node, probability)`` of every move at ``core`` (``node``);
        the responder's own moves carry probability 1."""
        g = self.g
        lo = int(g.edge_start[node])
        if core.cur == E.CHANCE:
            outcomes = core.chance_outcomes()
            return [(a, int(g.edge_child[lo + j]), p) for j, (a, p) in enumerate(outcomes)]
        actions = self.walker.legal_actions(core)
        if core.cur == self.seat:
            return [(a, int(g.edge_child[lo + j]), 1.0) for j, a in enumerate(actions)]
        mix = self.strategies[core.cur][g.edge_slot[lo:lo + len(actions)]]
        return [(a, int(g.edge_child[lo + j]), float(mix[j])) for j, a in enumerate(actions)]

    def choose(self, worlds: dict) -> int:
        """The responder's action at ``worlds``: the best expected value of its plan over
        its next ``depth`` decisions, the blueprint's values past them."""
        if self.depth == 1:
            return self.choose_local(worlds)
        return self.plan(worlds, self.depth)[1]

    def plan(self, worlds: dict, depth: int) -> tuple[float, int | None]:
        """The responder's best expected payoff from ``worlds`` (weights unnormalized)
        planning its next ``depth`` decisions with more than one choice, and the action
        it takes here (its only one when forced; ``None`` when another player or chance
        moves)."""
        core = next(iter(worlds.values()))[0]
        if core.over or depth == 0:
            return sum(w * self.sign * self.value[n] for n, (_, w) in worlds.items()), None
        legal = self.walker.legal_actions(core) if core.cur == self.seat else []
        if len(legal) > 1:
            best, best_q = None, -math.inf
            for a in legal:
                q = sum(self.plan(group, depth - 1)[0]
                        for group in self._branches(worlds, a).values())
                if q > best_q + 1e-12:
                    best, best_q = a, q
            return best_q, best
        return (sum(self.plan(group, depth)[0] for group in self._branches(worlds).values()),
                legal[0] if legal else None)

    def _branches(self, worlds: dict, own: int | None = None) -> dict:
        """The worlds after the next move, grouped by what the responder sees of it (its
        own moves: only ``own``), with their probability along the way."""
        out: dict = {}
        for node, (core, weight) in worlds.items():
            for a, c, p in self._moves(core, node):
                if p <= 0.0 or (own is not None and a != own):
                    continue
                child = self.walker.child(core, a)
                seen = self.walker.new_observations(core, child, self.seat)
                group = out.setdefault((a, seen) if core.cur == self.seat else seen, {})
                old = group.get(c)
                group[c] = (child, weight * p + (old[1] if old else 0.0))
        return out

    def choose_local(self, worlds: dict) -> int:
        """The responder's action: the best expected blueprint value over ``worlds``."""
        g = self.g
        best, best_q = None, -math.inf
        total = None
        for node, (core, weight) in worlds.items():
            lo = int(g.edge_start[node])
            actions = self.walker.legal_actions(core)
            q = weight * self.sign * self.value[g.edge_child[lo:lo + len(actions)]]
            total = q if total is None else total + q
            best_actions = actions
        for j, a in enumerate(best_actions):
            if total[j] > best_q + 1e-12:
                best, best_q = a, total[j]
        return best

    def play(self, root: E.Core, root_node: int, rng: random.Random) -> float:
        """One game from ``root`` against the blueprint; the responder's payoff."""
        true_core, true_node = root, root_node
        worlds = {root_node: (root, 1.0)}
        for _ in range(MAX_STEPS):
            if true_core.over:
                return self.sign * (1.0 if true_core.winner == 0 else
                                    -1.0 if true_core.winner == 1 else 0.0)
            moves = self._moves(true_core, true_node)
            if true_core.cur == self.seat:
                action = self.choose(worlds)
            else:
                action = rng.choices([m[0] for m in moves], [m[2] for m in moves])[0]
            child = self.walker.child(true_core, action)
            seen = self.walker.new_observations(true_core, child, self.seat)
            worlds = self._filter(worlds, true_core.cur, action, seen)
            true_node = next(c for a, c, _ in moves if a == action)
            true_core = child
            if true_node not in worlds:  # beliefs that ruled out the true world
                self.lost += 1
                worlds = {true_node: (true_core, 1.0)}
        return 0.0  # play that never ends pays 0

    def _filter(self, worlds: dict, actor: int, action: int, seen: tuple) -> dict:
        """The worlds after a move the responder saw as ``seen``, reweighted."""
        own = action if actor == self.seat else None
        return advance_worlds(worlds, self._moves, self.walker, self.seat, seen, actor, own)


def response_bound(dg: DeckGraph, config: E.Config, root: E.Core, start: str, strategies,
                   value: np.ndarray, seat: int, games: int, seed: int,
                   progress: bool = False, depth: int = 1) -> ResponseBound:
    """Play ``games`` games of the local best response (planning ``depth`` decisions)
    in ``seat`` from ``root`` (the node ``dg.roots[start]``) against the blueprint; its
    gain with a 95% interval."""
    lbr = LocalBestResponse(dg, config, strategies, value, seat, depth)
    rng = random.Random(seed)
    node = dg.roots[start]
    payoffs = []
    for _ in progress_bar(range(games), desc=f"best response over {depth} decisions, seat {seat}",
                  unit=" games", progress=progress):
        payoffs.append(lbr.play(root, node, rng))
    mean = float(np.mean(payoffs))
    half = Z95 * float(np.std(payoffs, ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    base = float(value[node]) * (1.0 if seat == 0 else -1.0)
    gain = mean - base
    return ResponseBound(start, seat, games, mean, base, gain, (gain - half, gain + half),
                         provenance(seed), depth)


@dataclasses.dataclass(frozen=True)
class KeyedResponse:
    """The best response found among strategies keyed like the blueprint's (own cards
    and the public position) for ``seat``: CFR+ against the fixed blueprint. Its
    payoff against the blueprint, ``value_lower``, is computed on the whole game's
    graph, not simulated, and is a lower bound (value iteration from the worst payoff),
    so it is a rigorous lower bound on what the best response gets."""

    start: str
    seat: int
    iterations: int
    value_lower: float
    sweeps: int
    provenance: dict

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> KeyedResponse:
        return cls(**d)


def keyed_response(dg: DeckGraph, start: str, strategies, seat: int, iterations: int,
                   sweeps: int = 2000, progress: bool = False) -> KeyedResponse:
    """Train ``seat``'s keyed response to the blueprint ``strategies`` for
    ``iterations`` and bound its payoff from below (``sweeps`` value sweeps)."""
    other = 1 - seat
    solver = CyclicCFR(dg.graph, dg.root_vector(start), fixed={other: strategies[other]})
    solver.run(iterations, progress, desc=f"keyed best response, seat {seat}")
    root = dg.roots[start]
    best = -math.inf
    for mine in (solver.average_strategy(seat), solver.sigma[seat]):
        pair = (mine, strategies[other]) if seat == 0 else (strategies[other], mine)
        best = max(best, float(solver.guaranteed_value(seat, pair, sweeps)[root]))
    return KeyedResponse(start, seat, iterations, best, sweeps, provenance(None))


def exploitability_lower_bound(responses) -> float:
    """A lower bound on the blueprint's exploitability in win probability from the two
    seats' responses (the mean over seats of how much more often a best response wins
    than the blueprint in its place; with payoffs +1/-1 that is a quarter of the sum
    of the best responses' payoffs). Never below 0, as exploitability is not."""
    by_seat = {r.seat: r.value_lower for r in responses}
    if set(by_seat) != {0, 1}:
        raise ValueError("a bound needs a response in each seat")
    return max(0.0, (by_seat[0] + by_seat[1]) / 4)


def measure_bounds(bp: Blueprint, setups, iterations: int, progress: bool = False,
                   dg: DeckGraph | None = None, local_games: int = 0, seed: int = 0,
                   sweeps: int = 2000, local_depth: int = 1) -> dict:
    """Keyed best responses in both seats for each of ``setups`` of ``bp`` (and, with
    ``local_games``, that many games of the local best response in each seat, planning
    ``local_depth`` decisions): the lower
    bounds on its exploitability, written into the deck's summary and returned (``dg``:
    the deck's graph when already loaded)."""
    bounds = read_summary(bp.deck).get("bounds", {})
    for setup in setups:
        if dg is None or setup not in dg.roots:
            dg = deck_graph(bp.deck, part_of(setup), progress)
        strategies = tuple(np.asarray(s, float) for s in bp.strategy[setup])
        entry = bounds.get(setup, {})
        if iterations:
            responses = [keyed_response(dg, setup, strategies, seat, iterations, sweeps,
                                        progress) for seat in (0, 1)]
            entry |= {"responses": [r.to_json() for r in responses],
                      "exploitability_lower_bound": exploitability_lower_bound(responses)}
        if local_games:
            starts = deck_games(bp.deck, part_of(setup))
            local = local_bounds(dg, starts, setup, strategies, local_games, seed, progress,
                                 local_depth, blueprint_values(bp, setup, dg))
            kept = [r for r in entry.get("local_best_response", [])
                    if r.get("depth", 1) != local_depth]
            entry |= {"local_best_response": kept + [r.to_json() for r in local]}
        bounds[setup] = entry
        update_summary(bp.deck, functools.partial(_measured, setup, entry))
    return bounds


def _measured(setup: str, entry: dict, summary: dict) -> None:
    summary.setdefault("bounds", {})[setup] = entry


def local_bounds(dg: DeckGraph, starts: dict, setup: str, strategies, games: int, seed: int,
                 progress: bool = False, depth: int = 1,
                 value: np.ndarray | None = None) -> list[ResponseBound]:
    """``games`` games of the local best response (planning ``depth`` decisions) in each
    seat from ``setup``'s start (``starts``: the games ``dg`` was walked from, by name;
    ``value``: the blueprint's value at every node, computed when not given)."""
    config, roots = history_roots({setup: starts[setup]})
    if value is None:
        value = CyclicCFR(dg.graph, dg.root_vector(setup)).evaluate(strategies)
    return [response_bound(dg, config, roots[setup], setup, strategies, value, seat, games,
                           seed + seat, progress, depth) for seat in (0, 1)]
