"""Goat Lords's wing, as the layers above see it."""

from __future__ import annotations

from analysis.goat_lords import GAME, agents
from analysis.goat_lords.studies import whatif
from analysis.play.whatif import run_played_whatif
from analysis.wings.contract import Wing
from games.goat_lords import rules

WING = Wing(
    title="Goat Lords", key="goat_lords", command="goat-lords", whatif_game=GAME,
    whatif=lambda request: run_played_whatif(whatif.WHATIF, request),
    agents=agents, registers=(agents,),
    players=(rules.MIN_PLAYERS, rules.MAX_PLAYERS), default_players=whatif.WHATIF.players,
    whatif_agents=f"{whatif.TABLE_AGENT} in every seat; the strong agent {whatif.STRONG_AGENT}",
)
