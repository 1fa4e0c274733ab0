"""The search agents are strong, not just legal: seeded matches that take seconds.

In a four-player game three ``honest`` agents and one other each win a quarter of the
games if the other is no better. ``fast`` (what ``best`` plays at 3+ players) and
``search``, on a small budget, must win at least 60 of 100 games (each seat 25 times);
an agent that ranked its moves backwards (its roll-out scores negated, say) wins almost
none. Measured on these seeds: ``fast`` at 8/6 deals 82 of 100 (its full budget: 91 of
100 on 16/12), ``search`` at 4/3 deals 74 of 100. With ``fast``'s compiled turn-action
scores negated it wins 1 of 100; with the engine roll-out's score negated ``search`` wins
0 and ``fast`` 7.
"""

from __future__ import annotations

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from analysis.coup.agents import fast as F
from analysis.coup.agents import search as S
from analysis.coup.model import GAME
from analysis.play.bots import make_bot
from analysis.play.match import play_games, tally

GAMES = 100
PARAMS = {"players": 4}
BUDGETS = {"fast": S.Budget(deals_action=8, deals_react=6),
           "search": S.Budget(deals_action=4, deals_react=3)}


def build(name, game, seat, seed):
    """The agents on the test's small budgets (module level: a match's bot builder)."""
    if name == "fast":
        return F.FastSearchAgent(game, seat, seed, BUDGETS["fast"])
    if name == "search":
        return S.SearchAgent(game, seat, seed, BUDGETS["search"])
    return make_bot(name, game, seat, seed)


def wins_against_honest(agent: str, seed: int = 7) -> float:
    lineup = (agent, "honest", "honest", "honest")
    rows = play_games(GAME, lineup, GAMES, seed, PARAMS, build=build)
    result = tally(GAME, PARAMS, lineup, GAMES, seed, rows)
    total = next(r for r in result.totals() if r.agent == agent)
    assert total.games == GAMES
    return total.wins


@pytest.mark.parametrize("agent", ["fast", "search"])
def test_search_agents_beat_three_honest_agents(agent):
    assert wins_against_honest(agent) >= 60


def test_best_at_four_players_is_the_fast_agent():
    """``best`` at 3+ players is ``fast`` at its own budget: the same moves, seed for seed."""
    game = pyspiel.load_game(GAME, PARAMS)
    state = game.new_initial_state()
    bots = {s: make_bot("best", game, s, 3) for s in range(4)}
    twins = {s: F.FastSearchAgent(game, s, 3, F.BUDGET) for s in range(4)}
    moves = 0
    while not state.is_terminal() and moves < 60:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[moves % len(outcomes)][0])
            continue
        p = state.current_player()
        a = bots[p](state)
        assert twins[p](state) == a
        state.apply_action(a)
        moves += 1
    assert moves >= 20
