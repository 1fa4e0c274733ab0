"""The safe agent (analysis.coup.agents.safe): the re-solving agent that plays the search
agent's punishing move only where the opponent's gifts so far pay for its risk."""

from __future__ import annotations

import random

import pyspiel
import pytest

import games  # noqa: F401
from analysis.coup.agents import safe
from analysis.coup.agents.search import SearchAgent
from analysis.coup.solvers.belief_resolve import Resolved
from analysis.play.bots import make_bot

GAME = pyspiel.load_game("python_coup", {})


def _dealt(seed):
    """The game once its cards are dealt (seeded)."""
    state = GAME.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


def _play(agents, seed):
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        state.apply_action(agents[state.current_player()](state))
    return state


def test_the_risk_of_a_move_is_what_it_gives_up_against_the_mix():
    mix, values = {1: 0.5, 2: 0.5}, {1: 0.2, 2: 0.4, 3: -0.1}
    assert safe._risk(mix, values, 2) == 0.0  # better than the mix: nothing given up
    assert safe._risk(mix, values, 3) == pytest.approx(0.3 + 0.1)
    assert safe._risk(mix, values, 4) is None


@pytest.mark.parametrize("seat", [0, 1])
def test_it_never_risks_more_than_the_opponents_gifts(seat):
    agents = [None, None]
    agents[seat] = me = safe.SafeAgent(GAME, seat, seed=seat)
    agents[1 - seat] = make_bot("honest", GAME, 1 - seat, seed=7)
    _play(agents, seed=11 + seat)
    assert me.gifts > 0  # the honest agent never bluffs, which the re-solved mix does
    assert 0.0 <= me.risked <= me.gifts + 1e-12
    assert me.allowance == pytest.approx(me.gifts - me.risked)
    assert me.exploits > 0


def test_without_gifts_a_risky_punishing_move_gives_way_to_the_re_solved_mix(monkeypatch):
    """With nothing won yet, a move the mix never plays and that loses value is refused;
    with enough won, it is played and its risk comes off the allowance."""
    me = safe.SafeAgent(GAME, 0, seed=3)
    state = _dealt(0)
    key_mix: dict = {}

    def resolved(core):
        real = safe.ResolveAgent.resolved(me, core)
        key = safe.infoset_key(core, 0)
        key_mix.update(real.mixes[key])
        worst = min(real.move_values[key], key=real.move_values[key].get)
        key_mix["worst"] = worst
        return real

    monkeypatch.setattr(me, "resolved", resolved)
    monkeypatch.setattr(SearchAgent, "search", lambda self, view, core, legal: key_mix["worst"])
    played = {me(state.clone()) for _ in range(20)}
    worst = key_mix["worst"]
    mix = {a: p for a, p in key_mix.items() if a != "worst"}
    risk = safe._risk(mix, me.last.move_values[safe.infoset_key(state.core, 0)], worst)
    assert risk > 0 and me.risked == 0.0
    assert played <= {a for a, p in mix.items() if p > 0}
    me.allowance = 2 * risk
    assert me(state.clone()) == worst
    assert me.allowance == pytest.approx(risk) and me.risked == pytest.approx(risk)


def test_a_gift_is_what_the_opponents_move_gives_up_over_the_hands_it_may_hold():
    me = safe.SafeAgent(GAME, 1, seed=0)
    state = _dealt(2)
    core = state.core
    solved: Resolved = me._opponent_resolved(core)
    worlds = me.belief.worlds
    keys = {safe.infoset_key(w, 0) for _, w in worlds}
    assert keys <= set(solved.mixes)
    for move in core.legal_actions():
        expected = sum(p * max(0.0, safe._risk(solved.mixes[safe.infoset_key(w, 0)],
                                                solved.move_values[safe.infoset_key(w, 0)],
                                                move) or 0.0) for p, w in worlds)
        before = me.gifts
        me._gift(core, move)
        assert me.gifts - before == pytest.approx(expected / sum(p for p, _ in worlds))
    # A move every hand's mix plays often gives up (almost) nothing.
    common = max(core.legal_actions(), key=lambda a: min(
        solved.mixes[k].get(a, 0.0) for k in keys))
    if min(solved.mixes[k].get(common, 0.0) for k in keys) > 0.05:
        before = me.gifts
        me._gift(core, common)
        assert me.gifts - before < 0.02
