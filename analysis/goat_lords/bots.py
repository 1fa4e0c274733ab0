"""Goat Lords bots, registered for ``farol play python_goat_lords --opponent NAME`` on import.

``greedy`` sees only its hand and the public table; ``mcts`` is OpenSpiel's MCTS on the
full state (it sees every hand: a cheating yardstick); ``ismcts`` is OpenSpiel's ISMCTS,
searching worlds resampled from its own information state (fair); ``lord`` is Farol's own
information-set search (:mod:`analysis.goat_lords.search`) and ``best`` names the strongest
agent. ``random`` comes from :mod:`analysis.play.bots`.
"""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import games  # noqa: F401  (registers the games)
from analysis.goat_lords import GAME
from analysis.goat_lords.heuristic import greedy_choice
from analysis.goat_lords.search import DEFAULT, lord_choice
from analysis.play.bots import Bot, BotSpec, make_bot, register_bot
from analysis.shared import store
from analysis.statistics.intervals import wilson
from games.errors import UnknownBotError
from games.goat_lords import rules
from games.goat_lords.table import OVER


def greedy_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The greedy heuristic bound to ``seat`` (deterministic: the seed is unused)."""

    def act(state: pyspiel.State) -> int:
        return greedy_choice(state.table, seat, state.legal_actions(seat))

    return act


class TableRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's random roll-out evaluation, played on the rules table without the wrapper.

    Same semantics as ``mcts.RandomRolloutEvaluator`` (uniform legal actions,
    chance by its probabilities, average terminal returns), without the state wrapper.
    """

    def __init__(self, n_rollouts: int = 1, seed: int = 0):
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state):
        n = state.table.cfg.players
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            t = state.table.copy(record=False)
            rng = self._rng
            while t.phase != OVER:
                if t.to_move < 0:
                    kinds, probs = zip(*t.chance_outcomes(), strict=True)
                    t.apply_chance(rng.choices(kinds, probs)[0])
                else:
                    legal = t.legal_actions()
                    t.apply_action(legal[rng.randrange(len(legal))])
            total += rules.returns_for(t.winning, n)
        return total / self.n_rollouts

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


OPENSPIEL_SIMULATIONS = 100  # OpenSpiel's MCTS and ISMCTS bots, per move


def mcts_bot(game: pyspiel.Game, seat: int, seed: int = 0,
             simulations: int = OPENSPIEL_SIMULATIONS) -> Bot:
    """OpenSpiel's MCTS on the full state (it sees every hand: a cheating yardstick)."""
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations,
        evaluator=TableRolloutEvaluator(1, seed), solve=False,
        random_state=np.random.RandomState(seed),
    )
    return bot.step


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


def lord_bot(game: pyspiel.Game, seat: int, seed: int = 0,
             simulations: int = DEFAULT.simulations) -> Bot:
    """The information-set search agent (:mod:`analysis.goat_lords.search`): fair, seeded."""
    rng = random.Random(seed)
    settings = dataclasses.replace(DEFAULT, simulations=simulations)

    def act(state: pyspiel.State) -> int:
        return lord_choice(state, seat, rng, settings)

    return act


# The strongest Goat Lords agent; ``best`` always plays it.
STRONGEST = "lord"


def best_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """Whatever agent :data:`STRONGEST` names, at its default budget."""
    return make_bot(STRONGEST, game, seat, seed)


def behind_best(game: pyspiel.Game) -> dict:
    """What ``best`` is: :data:`STRONGEST`, how it plays, the data it reads and where its
    strength is measured."""
    return {"agent": STRONGEST,
            "plays": f"searches {DEFAULT.simulations} simulations a move over worlds that "
                     "agree with play, with greedy roll-outs",
            "data": "none (it computes as it plays)",
            "strength": strength_summary(),
            "strength_measured_in": f"{store.shown(store.data('goat_lords', 'matches'))} "
                                    "(the guide's strongest agent answer)"}


def strength_summary() -> str:
    """The stored 2-player match of the default agent against greedy, in a few words."""
    pinned_name = pinned(STRONGEST)  # the stored match names the budget that played
    budget = pinned_name.replace(":", "")
    path = store.data("goat_lords", "matches", f"{budget}_vs_greedy_2p.json")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return "not measured in this copy of Farol"
    mine = [r for r in data["seats"] if r["agent"] == pinned_name]
    played = sum(r["games"] for r in mine)
    if not played:
        return "not measured in this copy of Farol"
    rate, lo, hi = wilson(sum(r["wins"] for r in mine), played)
    return (f"wins {100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] against greedy at 2 "
            f"players ({played:,} games)")


register_bot(BotSpec("greedy", "heuristic: best pair, worthwhile duels, cheapest discard",
                     greedy_bot, games=(GAME,)))
register_bot(BotSpec("mcts", f"OpenSpiel MCTS, {OPENSPIEL_SIMULATIONS} simulations, random roll-outs; "
                     "sees all hands (cheats)",
                     mcts_bot, games=(GAME,)))
register_bot(BotSpec("ismcts", f"OpenSpiel ISMCTS, {OPENSPIEL_SIMULATIONS} simulations, random "
                     "roll-outs (fair)",
                     ismcts_bot, games=(GAME,)))

register_bot(BotSpec("lord", f"information-set search, {DEFAULT.simulations} simulations, worlds "
                     "that agree with play, greedy roll-outs (fair)", lord_bot, games=(GAME,)))
register_bot(BotSpec("best", f"the strongest Goat Lords agent (now {STRONGEST})", best_bot,
                     games=(GAME,), about=behind_best))


SEARCH_BOTS = {"mcts": mcts_bot, "ismcts": ismcts_bot, "lord": lord_bot}


def build_bot(name: str, game: pyspiel.Game, seat: int, seed: int) -> Bot:
    """A bot by name; ``mcts:N`` / ``ismcts:N`` set the simulations per move."""
    if ":" in name:
        kind, sims = name.split(":", 1)
        if kind not in SEARCH_BOTS or not sims.isdigit():
            raise UnknownBotError(f"no bot {name!r} for {GAME}; with simulations choose mcts:N, ismcts:N or lord:N")
        if int(sims) < 1:
            raise UnknownBotError(f"bot {name!r}: {kind} needs at least 1 simulation per move")
        return SEARCH_BOTS[kind](game, seat, seed, simulations=int(sims))
    return make_bot(name, game, seat, seed)


def pinned(name: str) -> str:
    """``name`` with the budget it plays at today: ``lord`` -> ``lord:<default>``, and
    ``best`` -> whatever :data:`STRONGEST` is, pinned; stored matches say what played,
    whatever the defaults become."""
    if name == "best":
        return pinned(STRONGEST)
    if name in SEARCH_BOTS:
        return f"{name}:{DEFAULT.simulations if name == 'lord' else OPENSPIEL_SIMULATIONS}"
    return name
