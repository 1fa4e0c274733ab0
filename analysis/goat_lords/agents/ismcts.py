"""``ismcts``: OpenSpiel's ISMCTS for Goat Lords, searching worlds resampled from the
seat's own information state (fair).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from analysis.goat_lords import GAME
from analysis.goat_lords.agents.mcts import OPENSPIEL_SIMULATIONS, TableRolloutEvaluator
from analysis.play.bots import Bot, BotSpec, register_bot


def ismcts_bot(game: pyspiel.Game, seat: int, seed: int = 0,
               simulations: int = OPENSPIEL_SIMULATIONS) -> Bot:
    """OpenSpiel's ISMCTS, searching worlds resampled from the seat's information state.

    The worlds are dealt from ``seed`` too (OpenSpiel's default sampler seeds itself
    afresh), so a stored game replays exactly."""
    bot = ismcts.ISMCTSBot(
        game, evaluator=TableRolloutEvaluator(1, seed), uct_c=2.0,
        max_simulations=simulations, random_state=np.random.RandomState(seed),
        use_observation_string=False,
    )
    worlds = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot.step


register_bot(BotSpec("ismcts", f"OpenSpiel ISMCTS, {OPENSPIEL_SIMULATIONS} simulations, random "
                     "roll-outs (fair)",
                     ismcts_bot, games=(GAME,)))
