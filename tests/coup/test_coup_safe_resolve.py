"""The Resolve gadget of safe re-solving (:func:`analysis.coup.solvers.belief_resolve.
unroll`'s ``gadget``), on small Coup endgames, by OpenSpiel's exact best response.

A rough strategy for the whole endgame (a few CFR iterations: it can be beaten) plays
to a spot; there the player to move re-solves the rest of the game with the gadget: the
opponent may take, for each hand it could hold, what a best response to the rough
strategy gets with that hand from the spot on (its counterfactual best-response value),
or enter. The worlds are weighed by the cards' odds alone: no model of the opponent. The re-solved strategy, played from the spot on in place of
the rough one, is no more exploitable than the rough strategy it starts from: the best
response's value against it (OpenSpiel's, over the whole game) is at most the best
response's value against the rough strategy (to CFR+'s precision in the small game).
Without the gadget the same re-solve can be worse than the rough strategy: on the first
endgame, at one of the spots, a best response gains more against it than against the
rough strategy (0.440 against 0.410 when measured), so the test tells the two apart.
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as osp
from open_spiel.python.algorithms import best_response, cfr

import games  # noqa: F401  (registers the games)
from analysis.coup.solvers.belief_resolve import unroll
from analysis.coup.solvers.beliefs import visible_events
from analysis.solve.cyclic import CyclicCFR
from games.coup.view import infoset_key

SMALL = ("?/duke/3;?/captain/2;move:0", "?/assassin/3;?/contessa/0;move:1")
ROUGH = 2  # CFR iterations of the strategy refined: rough on purpose


class Combined(osp.Policy):
    """The rough strategy everywhere, but the re-solved one for ``seat`` from the spot
    on (states whose first decision was ``move``)."""

    def __init__(self, game, rough, sub, strategies, seat, move, spots):
        super().__init__(game, [0, 1])
        self.rough, self.sub, self.strategies = rough, sub, strategies
        self.seat, self.move, self.spots = seat, move, spots

    def action_probabilities(self, state, player_id=None):
        p = state.current_player()
        spot = self.spots(state)
        if p != self.seat or spot is None:
            return self.rough.action_probabilities(state, p)
        core = state.core
        legal = core.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        since = visible_events(core, p)[len(visible_events(spot, p)):]
        seen = (infoset_key(spot, p),) + tuple(since)
        _, first, width = self.sub.infosets[(p, seen)]
        return dict(zip(self.sub.moves[(p, seen)],
                        self.strategies[p][first:first + width].tolist(), strict=True))


def spot_after(game, state, move):
    """The spot the game reaches from ``state`` (a deal) when the first decision plays
    ``move``: the next decision's state (``None`` when the game ends first)."""
    s = state.clone()
    s.apply_action(move)
    if s.is_terminal() or s.is_chance_node():
        return None  # over, or a card to draw first: not a spot of this test
    return s


def _spot_of(spots, n, move, state):
    # The spot a state is under: the deal's, when its first decision played ``move``.
    history = state.history()
    return spots.get(tuple(history[:n])) if len(history) > n and history[n] == move else None


def deals(game):
    """Every deal of the endgame: (chance, the first decision's state)."""
    out = []
    stack = [(1.0, game.new_initial_state())]
    while stack:
        p, s = stack.pop()
        if s.is_chance_node():
            for a, q in s.chance_outcomes():
                child = s.clone()
                child.apply_action(a)
                stack.append((p * q, child))
        else:
            out.append((p, s))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("position", SMALL)
def test_the_gadget_resolve_is_no_more_exploitable_than_the_rough_strategy(position):
    game = pyspiel.load_game("python_coup", {"position": position, "turn_cap": 2})
    solver = cfr.CFRSolver(game)
    for _ in range(ROUGH):
        solver.evaluate_and_update_policy()
    rough = solver.average_policy()
    dealt = deals(game)
    mover = dealt[0][1].current_player()
    # the spot: after the first decision's likeliest move, the other player to decide
    totals: dict[int, float] = {}
    for p, s in dealt:
        for a, q in rough.action_probabilities(s, mover).items():
            totals[a] = totals.get(a, 0.0) + p * q
    checked, unsafe = 0, []
    response = best_response.BestResponsePolicy(game, mover, rough)
    against_rough = response.value(game.new_initial_state())
    for move in sorted(totals, key=lambda a: -totals[a])[:3]:
        worlds, values, spots = [], {}, {}
        for p, s in dealt:
            spot = spot_after(game, s, move)
            if spot is None or spot.current_player() == mover:
                continue
            worlds.append((p, spot.core))
            spots[tuple(s.history())] = spot.core
            v = response.value(spot) * (1.0 if mover == 0 else -1.0)  # player 0's
            key = infoset_key(spot.core, mover)
            row = values.setdefault(key, [0.0, 0.0])
            row[0] += p * v
            row[1] += p
        if len({infoset_key(c, 1 - mover) for _, c in worlds}) < 2:
            continue  # nothing to re-solve over
        gadget = {key: total / mass for key, (total, mass) in values.items()}
        spot_of = functools.partial(_spot_of, spots, len(dealt[0][1].history()), move)
        safe = response_to_resolve(game, rough, worlds, gadget, move, spot_of, mover)
        assert safe <= against_rough + 2e-3, (move, against_rough, safe)
        unsafe.append(response_to_resolve(game, rough, worlds, None, move, spot_of, mover))
        checked += 1
    assert checked
    if position == SMALL[0]:
        # without the gadget, the same re-solve (the cards' odds alone) can do worse
        # than the rough strategy: the test tells the two apart
        assert max(unsafe) > against_rough + 0.01, (against_rough, unsafe)


def response_to_resolve(game, rough, worlds, gadget, move, spot_of, mover):
    """What a best response for ``mover`` gets against the rough strategy re-solved from
    the spot (``gadget``: the opponent's alternatives, or none)."""
    sub = unroll(worlds, turns=None, horizon=None, gadget=gadget)
    root = np.zeros(sub.graph.num_nodes)
    root[0] = 1.0
    cfr_sub = CyclicCFR(sub.graph, root)
    cfr_sub.run(3000)
    strategies = (cfr_sub.average_strategy(0), cfr_sub.average_strategy(1))
    combined = Combined(game, rough, sub, strategies, 1 - mover, move, spot_of)
    return best_response.BestResponsePolicy(game, mover, combined).value(
        game.new_initial_state())
