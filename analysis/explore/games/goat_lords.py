"""Goat Lords's page in the explorer: spots reached by play; Goat Lords is not solved,
so its "advice" is the move Farol's strongest agent (``best``) makes there.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from analysis.explore.answers import Facts, accuracy, charts_for
from analysis.explore.common import Game, Page, Preset
from analysis.goat_lords import agents as goat_bots

GAME = Game("goat_lords", "Goat Lords", "python_goat_lords", (
        Preset("2 players, one round", "players=2,scoring=single"),
        Preset("2 players, rounds to 1,000 points (the rulebook's game)", "players=2"),
        Preset("4 players, one round", "players=4,scoring=single"),
    ), build=False)

AGENT = "best"
AGENT_SEED = 0  # the agent searches with this seed: the same spot, the same move
NO_GOAT_VALUE = ("Goat Lords is not solved, so its spots have no value to show; the advice "
                 "is the move Farol's strongest agent picks by searching from what its "
                 "seat sees")


def agent_move(state: pyspiel.State) -> dict:
    """Goat Lords: the move Farol's strongest agent makes at ``state`` (it sees what its
    seat sees), among the legal moves, or ``{"unavailable": line}`` where nobody moves."""
    if state.is_terminal():
        return {"unavailable": "the game is over"}
    if state.is_chance_node():
        return {"unavailable": "chance moves next (a card drawn): pick its outcome first"}
    seat = int(state.current_player())
    agent = goat_bots.build_bot(AGENT, state.get_game(), seat, AGENT_SEED)
    choice = agent(state.clone())
    legal = [(state.action_to_string(seat, a), a == choice) for a in state.legal_actions(seat)]
    played = next(name for name, chosen in legal if chosen)
    agent_name = goat_bots.pinned(AGENT)
    actions = [{"action": name, "probability": 1.0 if chosen else 0.0, "value": None}
               for name, chosen in sorted(legal, key=lambda m: not m[1])]
    shown = accuracy_of({})
    return {"advice": {
        "game": "goat_lords", "player": seat, "value": None, "value_from": "",
        "no_value": NO_GOAT_VALUE, "actions": actions, "opponent_hand": {}, "agent": True,
        "source": f"Farol's strongest Goat Lords agent ({agent_name}: information-set "
                  f"search from what seat {seat} sees, seed {AGENT_SEED})",
        "limits": None, "accuracy": shown, "exploitability": None,
        "charts": charts_for(PAGE.charts, Facts("goat_lords")),
        "json": {"agent": agent_name, "seed": AGENT_SEED, "seat": seat, "move": played,
                 "legal": [name for name, _ in legal]}}}


def advice_at(state: pyspiel.State, params: Any, history: Any, options: Any) -> dict:
    return agent_move(state)


def accuracy_of(advice: dict) -> dict:
    return accuracy("not measured", "accuracy not measured (a search agent's move, not a "
                    "solved strategy)")


PAGE = Page(GAME, advice_at, accuracy=accuracy_of)
