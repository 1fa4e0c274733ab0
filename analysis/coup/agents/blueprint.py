"""The blueprint as an agent: ``farol play python_coup --opponent blueprint`` and
``farol coup match --agents blueprint,...`` for 2-player games from the deal.

It samples its move from the blueprint's mix. Where the position is not in the
blueprint (someone declined a Coup that would have won at once, or a position set up by
hand), it plays that move as the honest agent would, and counts it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyspiel

from analysis.coup.agents.honest import HonestAgent
from analysis.coup.model import GAME
from analysis.coup.solvers.blueprint import Blueprint, load_blueprint
from analysis.coup.solvers.blueprint_resolve import ValueGraph, value_graph_for
from analysis.coup.solvers.mix_oracle import MixOracle
from analysis.play.bots import Bot, BotSpec, register_bot
from analysis.shared import store
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker
from games.errors import InvalidParameterError, InvalidPositionError


@lru_cache(maxsize=2)
def load_deck_blueprint(deck: str, cache_root: str) -> Blueprint:
    """``deck``'s blueprint, loaded once per deck, cache folder and process (seconds for
    a whole deck)."""
    return load_blueprint(deck)


class BlueprintAgent:
    """Bound to ``seat``; ``off_blueprint`` counts the moves the honest agent made."""

    def __init__(self, blueprint: Blueprint, seat: int, seed: int):
        self.blueprint = blueprint
        self.seat = seat
        self.rng = np.random.default_rng(seed)
        self.fallback = HonestAgent(seat)
        self.off_blueprint = 0

    def __call__(self, state: pyspiel.State) -> int:
        mix = self.blueprint.action_probabilities(state)
        if not mix:
            self.off_blueprint += 1
            return self.fallback(state)
        actions = list(mix)
        probs = np.array([mix[a] for a in actions])
        return int(actions[self.rng.choice(len(actions), p=probs / probs.sum())])


class BlueprintOracle(MixOracle):
    """The blueprint as a mix oracle for either seat: its table's mix at every spot.

    Each world is tagged with its node on the blueprint's graph (``values``: the graph's
    edges and player 0's value at every node when both play the blueprint, as
    ``farol coup blueprint build`` stores them), so :meth:`value` reads the exact value
    of both playing the blueprint on; without ``values`` it knows no values. A position
    off the blueprint (a winning Coup declined) is refused: there the agent plays the
    honest agent's move, which depends on its memory.
    """

    name = "blueprint"

    def __init__(self, blueprint: Blueprint, setup: str, values: ValueGraph | None = None):
        self.blueprint, self.setup, self.values = blueprint, setup, values
        self.own_values = values is not None
        self.walker = DecisiveCoupWalker(values.root_core.cfg) if values is not None else None

    def mix(self, core: E.Core, player: int) -> list[tuple[int, float]]:
        mix = self.blueprint.mix(core, player, self.setup)
        if mix is None:
            raise InvalidPositionError("a position off the blueprint (a winning Coup "
                                       "declined): its mixes are not known there")
        return list(zip(core.legal_actions(), (mix / mix.sum()).tolist(), strict=True))

    def start(self, core: E.Core) -> object:
        return None if self.values is None else self.values.root

    def advance(self, tag: object, core: E.Core, action: int) -> object:
        if tag is None:
            return None
        if core.cur == E.CHANCE:
            moves = [a for a, _ in core.chance_outcomes()]
        else:
            moves = self.walker.legal_actions(core)
        if action not in moves:
            return None  # off the graph: no value known from here
        return int(self.values.edge_child[int(self.values.edge_start[tag]) + moves.index(action)])

    def value(self, tag: object, core: E.Core) -> float | None:
        return None if tag is None else float(self.values.value[tag])


def blueprint_oracle(game: pyspiel.Game) -> BlueprintOracle:
    """The blueprint of ``game``'s deck and setup as a mix oracle, with its values when
    they are computed (2-player games from the deal only)."""
    params = game.get_parameters()
    if params["players"] != 2 or params.get("position"):
        raise InvalidParameterError("the blueprint plays 2-player Coup from the deal")
    bp = load_deck_blueprint(params["deck"], str(store.cache_root()))
    setup = params.get("two_player_setup", "basic")
    if setup not in bp.strategy:
        raise InvalidParameterError(f"the {bp.deck} blueprint has no {setup} setup built")
    return BlueprintOracle(bp, setup, value_graph_for(bp, setup))


def blueprint_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The blueprint of ``game``'s deck bound to ``seat`` (2 players only)."""
    params = game.get_parameters()
    if params["players"] != 2:
        raise InvalidParameterError(
            f"the blueprint plays 2-player Coup; this game has {params['players']} players")
    return BlueprintAgent(load_deck_blueprint(params["deck"], str(store.cache_root())), seat, seed)


register_bot(BotSpec("blueprint", "the 2-player blueprint: a strong strategy for the whole "
                     "game (farol coup blueprint build)", blueprint_bot, games=(GAME,)))
