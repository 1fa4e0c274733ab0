"""The weighed agent (analysis/coup/agents/weighed.py): its deals come from the weighed
beliefs (a hand a reveal rules out is never dealt; facing a claim, its deals are split by
the posterior chance the claimer holds the card), and it plays whole games."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from analysis.coup.agents import hand_beliefs as H
from analysis.coup.agents.fast import FastSearchAgent
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.weighed import WeighedAgent, weighed_bot
from analysis.play.match import play_games
from games.coup import cards as C
from games.history import replay

DEAL = "Draw Captain;Draw Contessa;Draw Duke;Draw Contessa;Draw Assassin;Draw Captain"


def _state(history: str) -> pyspiel.State:
    return replay(pyspiel.load_game("python_coup", {"players": 3}), history)


def test_a_hand_a_caught_bluff_rules_out_is_never_dealt():
    state = _state(DEAL + ";Income;Tax (claims Duke);Challenge;Lose Assassin")
    agent = WeighedAgent(state.get_game(), 0, seed=3)
    agent.memory.read(state.core)
    worlds = agent.deals(View.of(state, 0), state.core, 64)
    assert sum(w for w, _ in worlds) == pytest.approx(1.0)
    assert all(C.DUKE not in world.hands[1] and len(world.hands[1]) == 1 for _, world in worlds)
    # Every deal keeps the seat's own cards and the cards face up.
    assert all(world.hands[0] == state.core.hands[0] for _, world in worlds)


def test_facing_a_claim_the_deals_are_split_by_the_posterior_chance():
    state = _state(DEAL + ";Income;Tax (claims Duke)")  # P2 is asked first
    core = state.core
    seat = core.cur
    agent = WeighedAgent(state.get_game(), seat, seed=5)
    agent.memory.read(core)
    view = View.of(state, seat)
    worlds = agent.deals(view, core, 12)
    holding = sum(w for w, world in worlds if C.DUKE in world.hands[1])
    beliefs = H.weigh(view, agent.memory, core, np.random.default_rng(0), 200000)
    p, lo, hi = H.probability(beliefs, H.holds(beliefs, 1, C.DUKE))
    # The split uses the agent's own 4,000 weighed deals: within their sampling error.
    assert abs(holding - p) < 0.05
    assert len([1 for _, w in worlds if C.DUKE in w.hands[1]]) == 6


def test_it_plays_whole_games_and_is_fast_at_two_players():
    game2 = pyspiel.load_game("python_coup", {})
    assert type(weighed_bot(game2, 0, 1)) is FastSearchAgent
    rows = play_games("python_coup", ("weighed", "honest", "bluffer"), 3, 7, {"players": 3})
    assert all(sum(r["shares"]) == pytest.approx(1.0) for r in rows.values())
