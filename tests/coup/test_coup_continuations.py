"""Continuation values for the multi-valued leaves (:mod:`analysis.coup.solvers.
continuations`), on the 1v1 endgames' whole graph (the blueprint fixture):

- a move's kind, against the rules by hand: a challenge; a claim or block of a character
  not held is a bluff, of one held is not;
- the biased strategies: no factor leaves the blueprint as it is; a factor above 1 on
  challenges raises every challenge's chance that is neither 0 nor 1, as Bayes' odds
  say (p -> 4p / (4p + 1 - p));
- the blueprint continuation's values are the blueprint's own values; the keyed best
  response is worth at least as much to its player as every biased continuation.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers import continuations as K
from analysis.solve.cyclic import CyclicCFR
from games.coup import cards as C
from games.coup import engine as E

START = "1v1"


def graph_start(dg):
    walker, roots = B.graph_starts({START: Endgame(2, 2).game()})
    return walker, [(roots[START], dg.roots[START])]


def test_move_kinds_by_the_rules():
    game = Endgame(2, 2).game()
    core = game.new_initial_state().core
    while core.cur == E.CHANCE:
        core.apply(core.chance_outcomes()[0][0])
    p = core.cur
    hand = core.hands[p]
    for action in core.legal_actions():
        kind, _ = C.decode_turn_action(action)
        claim = C.KIND_CLAIM[kind]
        expected = K.BLUFF if claim is not None and claim not in hand else K.NEUTRAL
        assert K.move_kind(core, p, action) == expected
    core.apply(C.A_TAX)
    while core.cur == E.CHANCE:
        core.apply(core.chance_outcomes()[0][0])
    assert core.queue[0][0] == E.S_CHAL
    assert K.move_kind(core, core.cur, C.A_CHALLENGE) == K.CHALLENGE
    assert K.move_kind(core, core.cur, C.A_NO_CHALLENGE) == K.NEUTRAL


def test_slot_kinds_and_biases(endgames):
    dg, _, strategies, _, _ = endgames
    walker, starts = graph_start(dg)
    kinds = K.slot_kinds(dg.graph, starts, walker)
    for p in (0, 1):
        assert (kinds[p] == K.CHALLENGE).any() and (kinds[p] == K.BLUFF).any()
        same = K.biased(strategies[p], kinds[p], dg.graph.slot_key[p], {})
        np.testing.assert_allclose(same, strategies[p], atol=1e-12)
        more = K.biased(strategies[p], kinds[p], dg.graph.slot_key[p], {K.CHALLENGE: 4.0})
        at = kinds[p] == K.CHALLENGE
        q = strategies[p][at]
        np.testing.assert_allclose(more[at], 4 * q / (4 * q + 1 - q), atol=1e-9)


@pytest.mark.slow
def test_continuation_values(endgames):
    dg, _, strategies, _, _ = endgames
    walker, starts = graph_start(dg)
    kinds = K.slot_kinds(dg.graph, starts, walker)
    solver = CyclicCFR(dg.graph, dg.root_vector(START))
    own = solver.evaluate(strategies)
    root = dg.roots[START]
    for chooser in (0, 1):
        pairs = K.continuation_strategies(dg, START, strategies, kinds,
                                          (*K.BIASES, K.RESPONSE), chooser,
                                          response_iterations=200)
        values = {name: solver.evaluate(pair) for name, pair in pairs.items()}
        np.testing.assert_allclose(values["blueprint"], own, atol=1e-9)
        sign = 1.0 if chooser == 0 else -1.0
        best = sign * values[K.RESPONSE][root]
        for name in K.BIASES:
            assert best >= sign * values[name][root] - 0.01, name
        # the blueprint is not a best response to itself here: the response gains
        assert best > sign * own[root] + 1e-3
    with pytest.raises(KeyError):
        K.continuation_strategies(dg, START, strategies, kinds, ("no such way",), 0)
