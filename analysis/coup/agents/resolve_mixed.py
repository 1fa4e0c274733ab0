"""``resolve-mixed``: the re-solving agent (:mod:`.resolve`) with every decision read from
its re-solve, for 2-player games (``best`` at 2 players).

``resolve`` re-solves its turn actions, challenges and blocks, and plays the rest by the
plain rules: which card to lose, which cards to keep after an exchange, which to show,
and the draft pick. A fixed rule there tells an opponent who knows it which cards are
left, while the agent's own range treats those choices as even. This agent re-solves
those decisions too, samples its move from the mix found for the hand it holds, and
keeps that mix for every hand of its range, so the range it reasons with is the one its
play implies.

Where a re-solve stops, a position is worth the blueprint's values of such a turn's
start (:mod:`analysis.coup.solvers.leaf_table`, a small shipped table) in the dealt
setups, and its cards and coins in the draft (which has no table) or where the table has
no entry. With the table, an exchange cut by the end of the re-solve is worth its draw
with the exchanger keeping the cards the table values most
(:func:`~analysis.coup.solvers.belief_resolve.exchange_played`; the table tells hands
apart, so an exchange is not worth the cards it started with).
"""

from __future__ import annotations

import pyspiel

from analysis.coup.agents.resolve import ResolveAgent
from analysis.coup.model import GAME, two_card_hands_only
from analysis.coup.solvers import leaf_table
from analysis.coup.solvers.belief_resolve import exchange_played, heuristic
from analysis.play.bots import BotSpec, register_bot


class MixedResolveAgent(ResolveAgent):
    """The re-solving agent that reads every decision from its re-solve."""

    every = True


def mixed_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> MixedResolveAgent:
    """The agent in ``seat``: the blueprint's leaf values where the deck's shipped table
    has the setup (printed rules only: the table was solved for them), else cards and
    coins."""
    two_card_hands_only(game.config.numbers, "the re-solving agent")
    params = game.get_parameters()
    deck, setup = params["deck"], params.get("two_player_setup", "basic")
    table = None if game.config.numbers.changed() else leaf_table.stored_table(deck)
    if table is not None and setup in table.setups:
        return MixedResolveAgent(game, seat, seed,
                                 leaf=exchange_played(table.leaf(setup, heuristic)),
                                 leaf_name=f"blueprint {deck} {setup} {table.trained[setup]}, "
                                           "exchanges played")
    return MixedResolveAgent(game, seat, seed)


register_bot(BotSpec("resolve-mixed", "2 players: re-solves every decision (card choices "
                     "and the draft pick too) over both players' possible hands, with the "
                     "blueprint's values where each re-solve stops",
                     mixed_bot, games=(GAME,)))
