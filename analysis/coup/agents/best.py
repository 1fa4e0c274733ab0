"""``best``: the strongest Coup agent for the table.

At 2 players it is the belief agent (:mod:`.belief_search`), which beats the search
agent head to head (``benchmarks/results/coup_belief_agent.txt``), as the search agent
beats the blueprint (``benchmarks/results/coup_targets.txt``); at 3 to 8 players it is
the search agent. The name it stood for is kept with every result played by ``best``.
"""

from __future__ import annotations

import pyspiel

from analysis.bots import Bot, BotSpec, register_bot
from analysis.coup.agents.belief_search import BeliefSearchAgent
from analysis.coup.panel import GAME
from analysis.coup.search_agent import SearchAgent

# What ``best`` stands for, in a user's words, by the kind of agent.
DESCRIPTIONS = {
    "BeliefSearchAgent": "belief: remembers every claim and weighs the opponent's hands by "
                         "Bayes' rule, then searches",
    "SearchAgent": "search: information-set search with short roll-outs",
}


def best_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The belief agent at 2 players, the search agent at 3 to 8."""
    if game.num_players() == 2:
        return BeliefSearchAgent(game, seat, seed)
    return SearchAgent(game, seat, seed)


def stands_for(game: pyspiel.Game) -> str:
    """The agent ``best`` is at this table, in a user's words."""
    return DESCRIPTIONS[type(best_bot(game, 0, 0)).__name__]


register_bot(BotSpec("best", "the strongest Coup agent: belief at 2 players, search at 3-8",
                     best_bot, games=(GAME,)))
