"""Multi-valued leaves in the 2-player Coup re-solve (:func:`analysis.coup.solvers.
belief_resolve.unroll`'s ``continuations``; Brown, Sandholm & Amos 2018): at each leaf
the player not moving at the spot picks, on what it sees there, among the values of a
few ways play may go on.

- One continuation is today's re-solve: the same mixes, values and game value, exactly.
- Two copies of one continuation are one continuation (the pick changes no payoff).
- A continuation better for the chooser everywhere by a constant is always picked: the
  re-solve is then the one-valued re-solve of the shifted values (checked within the
  re-solve's own measured gap).
"""

from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from analysis.coup.solvers.belief_resolve import heuristic, resolve, unroll
from analysis.coup.solvers.beliefs import ClaimModel, PublicBelief

SPOTS = ({}, {"position": "?/duke/3;?/captain/2;move:0"})
ITERATIONS = 100


def spot_worlds(params):
    game = pyspiel.load_game("python_coup", params)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    belief = PublicBelief(game, (ClaimModel(), ClaimModel()))
    belief.update(state.core)
    return belief.worlds


@pytest.mark.parametrize("params", SPOTS)
def test_one_continuation_is_todays_resolve(params):
    worlds = spot_worlds(params)
    today = resolve(worlds, iterations=ITERATIONS, leaf=heuristic, measure=True)
    one = resolve(worlds, iterations=ITERATIONS, continuations=[heuristic], measure=True)
    assert one.mixes.keys() == today.mixes.keys()
    for key, mix in today.mixes.items():
        assert one.mixes[key] == pytest.approx(mix, abs=1e-12)
        assert one.move_values[key] == pytest.approx(today.move_values[key], abs=1e-12)
    assert one.value == pytest.approx(today.value, abs=1e-12)
    assert one.exploitability == pytest.approx(today.exploitability, abs=1e-12)
    # the leaves are choices now: one more information set per leaf the chooser tells apart
    sub = unroll(worlds, continuations=[heuristic])
    assert any(seen[-1] == ("leaf",) for _, seen in sub.infosets)


@pytest.mark.parametrize("params", SPOTS)
def test_two_copies_of_a_continuation_are_one(params):
    worlds = spot_worlds(params)
    one = resolve(worlds, iterations=ITERATIONS, continuations=[heuristic])
    two = resolve(worlds, iterations=ITERATIONS, continuations=[heuristic, heuristic])
    for key, mix in one.mixes.items():
        assert two.mixes[key] == pytest.approx(mix, abs=1e-12)
    assert two.value == pytest.approx(one.value, abs=1e-12)


@pytest.mark.parametrize("params", SPOTS)
def test_a_continuation_better_for_the_chooser_everywhere_is_the_one_played(params):
    worlds = spot_worlds(params)
    chooser = 1 - worlds[0][1].cur
    shift = 0.25 if chooser == 0 else -0.25  # player 0's value, in the chooser's favour

    def shifted(core):
        return heuristic(core) + shift

    multi = resolve(worlds, iterations=ITERATIONS, continuations=[heuristic, shifted],
                    measure=True)
    single = resolve(worlds, iterations=ITERATIONS, leaf=shifted, measure=True)
    tolerance = 2 * max(multi.exploitability, single.exploitability) + 1e-3
    assert multi.value == pytest.approx(single.value, abs=tolerance)
    for key, mix in single.mixes.items():
        for action, p in mix.items():
            assert multi.mixes[key][action] == pytest.approx(p, abs=0.05)


def test_the_agent_with_one_continuation_plays_as_resolve_mixed(tmp_path, monkeypatch):
    """resolve-multi with the blueprint's leaf table as its one continuation re-solves
    its first decision exactly as resolve-mixed does."""
    from analysis.coup.agents.resolve_mixed import mixed_bot
    from analysis.coup.agents.resolve_multi import multi_bot
    from analysis.coup.solvers import continuations as K
    from analysis.coup.solvers import leaf_table
    from analysis.shared import store

    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))
    table = leaf_table.stored_table("ambassador")
    one = K.Continuations("ambassador", "basic", ("blueprint",),
                          {(c, "blueprint"): table.mean["basic"] for c in (0, 1)}, 50, {})
    one.save(K.tables_path("ambassador", "basic"))
    game = pyspiel.load_game("python_coup", {})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    multi, mixed = multi_bot(game, seat, 0), mixed_bot(game, seat, 0)
    for bot in (multi, mixed):
        bot.iterations = ITERATIONS
    a, b = multi.resolved(state.core), mixed.resolved(state.core)
    assert a.mixes.keys() == b.mixes.keys()
    for key, mix in b.mixes.items():
        assert a.mixes[key] == pytest.approx(mix, abs=1e-12)
