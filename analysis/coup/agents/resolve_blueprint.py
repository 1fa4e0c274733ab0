"""``resolve-blueprint``: the re-solving agent (:mod:`.resolve`) whose re-solves stop on the
blueprint's values, for 2-player games in the dealt setups.

Where a re-solve stops, a position is worth the blueprint's mean value over the
positions where such a turn starts (:mod:`analysis.coup.solvers.leaf_table`, a small
table shipped for each deck), and its cards and coins where the table has no entry.
"""

from __future__ import annotations

import pyspiel

from analysis.coup.agents.resolve import ResolveAgent
from analysis.coup.model import GAME, printed_rules_only
from analysis.coup.solvers import leaf_table
from analysis.coup.solvers.belief_resolve import heuristic
from analysis.play.bots import BotSpec, register_bot
from games.errors import InvalidParameterError


def resolve_blueprint_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """The re-solving agent whose re-solves stop on the blueprint's values
    (:mod:`~analysis.coup.solvers.leaf_table`), in the dealt setups."""
    printed_rules_only(game.config.numbers, "resolve-blueprint (the blueprint's leaf values)",
                       "resolve, fast, search or honest")
    params = game.get_parameters()
    deck, setup = params["deck"], params.get("two_player_setup", "basic")
    table = leaf_table.stored_table(deck)
    if table is None or setup not in table.setups:
        have = ", ".join(table.setups) if table else "none"
        why = "; the draft has no table" if setup == "draft" else ""
        raise InvalidParameterError(
            f"resolve-blueprint: no blueprint leaf values for the {deck} deck's {setup} "
            f"setup (stored: {have}{why})")
    return ResolveAgent(game, seat, seed, leaf=table.leaf(setup, heuristic),
                        leaf_name=f"blueprint {deck} {setup} {table.trained[setup]}")


register_bot(BotSpec("resolve-blueprint", "2 players, dealt setups: the re-solving agent "
                     "with the blueprint's values where each re-solve stops (a shipped table)",
                     resolve_blueprint_bot, games=(GAME,)))
