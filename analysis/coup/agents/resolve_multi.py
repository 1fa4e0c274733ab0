"""``resolve-multi``: ``resolve-mixed`` whose re-solves end on multi-valued leaves (Brown,
Sandholm & Amos 2018): at each leaf the opponent picks, on what it sees there, among the
blueprint's continuation values (:mod:`analysis.coup.solvers.continuations`)."""

from __future__ import annotations

import pyspiel

from analysis.coup.agents.resolve_mixed import MixedResolveAgent, mixed_bot
from analysis.coup.model import GAME
from analysis.coup.solvers import continuations as K
from analysis.coup.solvers.belief_resolve import exchange_played, heuristic
from analysis.play.bots import BotSpec, register_bot
from games.errors import InvalidParameterError


def multi_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> MixedResolveAgent:
    """:func:`mixed_bot` whose re-solves end on multi-valued leaves: the opponent picks,
    on what it sees at each leaf, among the blueprint's continuation tables
    (:mod:`analysis.coup.solvers.continuations`: the blueprint, biased to challenging,
    to bluffing, to honest play, the keyed best response), built in the cache."""
    base = mixed_bot(game, seat, seed)
    params = game.get_parameters()
    deck, setup = params["deck"], params.get("two_player_setup", "basic")
    tables = None if game.config.numbers.changed() else K.stored(deck, setup)
    if tables is None or not tables.complete(tables.names):
        raise InvalidParameterError(
            f"resolve-multi: no continuation values for the {deck} deck's {setup} setup "
            f"in the cache: build them with `farol coup blueprint continuations --deck {deck} "
            f"--setups {setup}` (after `farol coup blueprint build`)")
    leaves = [exchange_played(leaf) for leaf in tables.leaves(1 - seat, heuristic)]
    return MixedResolveAgent(game, seat, seed, leaf=base.leaf, quiet=base.quiet,
                             leaf_name=f"{base.leaf_name}; continuations "
                                       f"{','.join(tables.names)} {tables.trained}",
                             continuations=leaves)


register_bot(BotSpec("resolve-multi", "2 players, dealt setups: resolve-mixed whose "
                     "re-solves end on multi-valued leaves (the opponent picks how play "
                     "goes on among a few continuations of the blueprint)",
                     multi_bot, games=(GAME,)))
