"""Goat Lords bots, registered for ``farol play python_goat_lords --opponent NAME`` on import.

``greedy`` sees only its hand and the public table; ``mcts`` is OpenSpiel's MCTS on the
full state (it sees every hand: a cheating yardstick); ``ismcts`` is OpenSpiel's ISMCTS,
searching worlds resampled from its own information state (fair). ``random`` comes
from :mod:`analysis.bots`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import games  # noqa: F401  (registers the games)
from analysis.bots import Bot, BotSpec, make_bot, register_bot
from analysis.goat_lords import GAME
from games.errors import UnknownBotError
from games.goat_lords import rules
from games.goat_lords.cards import IS_WILD, NUM_KINDS
from games.goat_lords.table import DUEL, OVER, Table


def greedy_choice(table: Table, seat: int, legal: Sequence[int]) -> int:
    """The greedy heuristic's action for ``seat`` (it reads only its hand and public cards).

    Duels swing points twice (the attacker gains the pile, the target loses it) and
    attackers win most of them, so the heuristic duels for the richest top pile it
    can attack, then banks its most valuable pair; in a duel it answers while it
    can, goats before wilds. Its weights were tuned on games against the random bot.
    """
    values = table.cfg.values
    hand = table.hands[seat]
    if table.phase == DUEL:
        cards = [a - rules.ANSWER0 for a in legal if a != rules.YIELD]
        goats = [k for k in cards if not IS_WILD[k]]
        if goats:
            return rules.ANSWER0 + goats[0]
        if cards:
            # The winner keeps every duel card, so a wild risked is not a wild spent.
            return rules.ANSWER0 + min(cards, key=lambda k: values[k])
        return rules.YIELD
    best, best_score = legal[0], -math.inf
    for action in legal:
        if action < rules.ASSIST0:
            a, b = rules.BIRTH_PAIRS[action]
            score = values[a] + values[b] - 10 * (IS_WILD[a] + IS_WILD[b])
        elif action < rules.DUEL0:
            k = action - rules.ASSIST0
            score = values[k] + values[table.discard[-1]] - 10 * IS_WILD[k] + 1
        elif action < rules.ANSWER0:
            target, k = divmod(action - rules.DUEL0, NUM_KINDS)
            kind, pile = table.herds[target][-1]
            matching = sum(hand[c] for c in range(NUM_KINDS) if rules.matches(c, kind))
            stake = sum(values[c] for c in pile)
            # A spare matching card improves the odds of outlasting the defender.
            score = 5 * stake * (1.0 if matching > 1 else 0.6) - 10 * IS_WILD[k]
        else:
            score = -values[action - rules.DISCARD0]
        if score > best_score:
            best, best_score = action, score
    return best


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


def mcts_bot(game: pyspiel.Game, seat: int, seed: int = 0, simulations: int = 100) -> Bot:
    """OpenSpiel's MCTS on the full state (it sees every hand: a cheating yardstick)."""
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations,
        evaluator=TableRolloutEvaluator(1, seed), solve=False,
        random_state=np.random.RandomState(seed),
    )
    return bot.step


def ismcts_bot(game: pyspiel.Game, seat: int, seed: int = 0, simulations: int = 100) -> Bot:
    """OpenSpiel's ISMCTS, searching worlds resampled from the seat's information state."""
    bot = ismcts.ISMCTSBot(
        game, evaluator=TableRolloutEvaluator(1, seed), uct_c=2.0,
        max_simulations=simulations, random_state=np.random.RandomState(seed),
        use_observation_string=False,
    )
    return bot.step


register_bot(BotSpec("greedy", "heuristic: best pair, worthwhile duels, cheapest discard",
                     greedy_bot, games=(GAME,)))
register_bot(BotSpec("mcts", "OpenSpiel MCTS, 100 simulations, random roll-outs; sees all hands (cheats)",
                     mcts_bot, games=(GAME,)))
register_bot(BotSpec("ismcts", "OpenSpiel ISMCTS, 100 simulations, random roll-outs (fair)",
                     ismcts_bot, games=(GAME,)))


SEARCH_BOTS = {"mcts": mcts_bot, "ismcts": ismcts_bot}


def build_bot(name: str, game: pyspiel.Game, seat: int, seed: int) -> Bot:
    """A bot by name; ``mcts:N`` / ``ismcts:N`` set the simulations per move."""
    if ":" in name:
        kind, sims = name.split(":", 1)
        if kind not in SEARCH_BOTS or not sims.isdigit():
            raise UnknownBotError(f"no bot {name!r} for {GAME}; with simulations choose mcts:N or ismcts:N")
        if int(sims) < 1:
            raise UnknownBotError(f"bot {name!r}: {kind} needs at least 1 simulation per move")
        return SEARCH_BOTS[kind](game, seat, seed, simulations=int(sims))
    return make_bot(name, game, seat, seed)

