"""``greedy``: the greedy heuristic of Goat Lords, a score for every legal action read
from the seat's hand and the public table only, and the bot that plays its best move.

The greedy bot plays the best-scored action; the search agent (:mod:`.lord`) uses the
same scores to order the actions it widens to and plays the greedy choice in its
roll-outs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyspiel

from analysis.goat_lords import GAME
from analysis.play.bots import Bot, BotSpec, register_bot
from games.goat_lords import rules
from games.goat_lords.cards import IS_WILD, NUM_KINDS
from games.goat_lords.table import DUEL, Table


def action_score(table: Table, seat: int, action: int) -> float:
    """How much the heuristic likes a turn action (not a duel answer) for ``seat``.

    Duels swing points twice (the attacker gains the pile, the target loses it) and
    attackers win most of them, so duelling for a rich top pile scores highest, then
    banking a valuable pair; a discard costs the card's value. The weights were tuned on
    games against the random bot.
    """
    values = table.cfg.values
    if action < rules.ASSIST0:
        a, b = rules.BIRTH_PAIRS[action]
        return values[a] + values[b] - 10 * (IS_WILD[a] + IS_WILD[b])
    if action < rules.DUEL0:
        k = action - rules.ASSIST0
        return values[k] + values[table.discard[-1]] - 10 * IS_WILD[k] + 1
    if action < rules.ANSWER0:
        target, k = divmod(action - rules.DUEL0, NUM_KINDS)
        kind, pile = table.herds[target][-1]
        hand = table.hands[seat]
        matching = sum(hand[c] for c in range(NUM_KINDS) if rules.matches(c, kind))
        stake = sum(values[c] for c in pile)
        # A spare matching card improves the odds of outlasting the defender.
        return 5 * stake * (1.0 if matching > 1 else 0.6) - 10 * IS_WILD[k]
    return -values[action - rules.DISCARD0]


def answer_choice(table: Table, legal: Sequence[int]) -> int:
    """In a duel: answer while possible, goats before wilds, the cheapest wild last."""
    cards = [a - rules.ANSWER0 for a in legal if a != rules.YIELD]
    goats = [k for k in cards if not IS_WILD[k]]
    if goats:
        return rules.ANSWER0 + goats[0]
    if cards:
        # The winner keeps every duel card, so a wild risked is not a wild spent.
        return rules.ANSWER0 + min(cards, key=lambda k: table.cfg.values[k])
    return rules.YIELD


def greedy_choice(table: Table, seat: int, legal: Sequence[int]) -> int:
    """The greedy heuristic's action for ``seat``: the first best-scored legal action."""
    if table.phase == DUEL:
        return answer_choice(table, legal)
    best, best_score = legal[0], -math.inf
    for action in legal:
        score = action_score(table, seat, action)
        if score > best_score:
            best, best_score = action, score
    return best


def greedy_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The greedy heuristic bound to ``seat`` (deterministic: the seed is unused)."""

    def act(state: pyspiel.State) -> int:
        return greedy_choice(state.table, seat, state.legal_actions(seat))

    return act


register_bot(BotSpec("greedy", "heuristic: best pair, worthwhile duels, cheapest discard",
                     greedy_bot, games=(GAME,)))
