"""Coup's wing, as the layers above see it."""

from __future__ import annotations

from analysis.coup import agents
from analysis.coup.advice import multiplayer as table_advice
from analysis.coup.advice import resolve as best_advice
from analysis.coup.model import GAME
from analysis.coup.studies import whatif
from analysis.play.whatif import run_played_whatif
from analysis.wings.contract import Wing
from games.coup import cards

WING = Wing(
    title="Coup", key="coup", command="coup", whatif_game=GAME,
    whatif=lambda request: run_played_whatif(whatif.WHATIF, request),
    agents=agents, registers=(agents, best_advice, table_advice),
    players=(cards.MIN_PLAYERS, cards.MAX_PLAYERS), default_players=whatif.WHATIF.players,
    whatif_agents=f"{whatif.TABLE_AGENT} in every seat; the strong agent {whatif.TABLE_AGENT}",
)
