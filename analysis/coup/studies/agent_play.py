"""How a strong 2-player agent plays, counted over its games against itself: how
often it claims, bluffs, challenges and blocks, by character, cards left and coins, its
turn by the hand it holds, and how all that changes with what the opponent has shown
(caught bluffing before or not; a character claimed before or not).

The tables have the blueprint's form (:class:`~analysis.coup.blueprint_bluffs.BluffTable`)
so the guide reads either; each names the agent that played. A rate is a ratio of counts
over the games, with a 95% jackknife interval over batches of games.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyspiel

from analysis.coup import blueprint_bluffs
from analysis.coup.agents import best  # noqa: F401  (registers best, belief and resolve)
from analysis.coup.blueprint_bluffs import BluffTable, tally_play
from analysis.coup.panel import GAME
from analysis.play.bots import make_bot
from analysis.shared import store

# The agent whose games the stored tables count. ``best`` at 2 players is now the
# re-solving agent; its tables (about 20 CPU-hours for the six decks and setups) are not
# played yet, so the guide's tables stay the belief agent's and say so.
AGENT = "belief"
AGENTS = ("belief", "resolve")  # the 2-player agents whose tables the guide can read
GAMES = 2000
SEED = 20261204


def play_tables(deck: str, setup: str, games: int = GAMES, seed: int = SEED,
                agent: str = AGENT, progress: bool = False) -> BluffTable:
    """``games`` seeded games of ``agent`` against itself, tallied (with contexts)."""
    game = pyspiel.load_game(GAME, {"players": 2, "deck": deck, "two_player_setup": setup})
    seeds = np.random.SeedSequence([seed, 1]).generate_state(games)

    def mixes(i: int):
        players = [make_bot(agent, game, s, int(seeds[i]) + s) for s in range(2)]
        return lambda state: {int(players[state.current_player()](state)): 1.0}

    return tally_play(game, games, seed, mixes, f"{agent} play {deck} {setup}", progress,
                      agent=agent, contexts=True)


def table_path(deck: str, setup: str) -> Path:
    return store.data("coup", "agent", f"{deck}-{setup}-play.json")


def save_table(table: BluffTable) -> None:
    blueprint_bluffs.save_table(table, table_path)


def load_tables(deck: str, setups: Iterable[str]) -> dict[str, BluffTable]:
    """The stored tables of ``deck`` for those of ``setups`` played."""
    return blueprint_bluffs.load_tables(deck, setups, table_path)
