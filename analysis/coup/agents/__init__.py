"""The Coup agents: one module per bot, named after the bot, and the table from a bot's
name to its module (:data:`BOTS`).

Each bot's module registers it with :func:`analysis.play.bots.register_bot` when it is
imported, and importing this package imports every one of them, in the order of the
table: the order ``farol coup match --help`` and ``farol games`` list them in, whatever
module a program imports first. ``random`` is every game's
(:func:`analysis.play.bots.uniform_random_bot`). Beside the bots: the rules of thumb the
rule agents share (:mod:`.rules_of_thumb`), the search agent's compiled roll-outs
(:mod:`.rollout_sim`) and an exploiter for lower bounds on an agent's exploitability
(:mod:`.exploiter`, not offered at a table). The agents build on the solvers
(:mod:`analysis.coup.solvers`); no solver imports an agent.

:data:`ORACLES` names the agents that can say their mix for every hand they could hold
at a spot (a :class:`~analysis.coup.solvers.mix_oracle.MixOracle`, what a local best
response needs); :data:`NO_ORACLE` says why each other 2-player agent cannot.
"""

from __future__ import annotations

# In the order of the table: each import registers its bots.
# isort: off
from analysis.coup.agents import solved
from analysis.coup.agents import honest
from analysis.coup.agents import bluffer
from analysis.coup.agents import blueprint
from analysis.coup.agents import search
from analysis.coup.agents import belief
from analysis.coup.agents import fast
from analysis.coup.agents import resolve
from analysis.coup.agents import resolve_blueprint
from analysis.coup.agents import weighed
from analysis.coup.agents import resolve_mixed
from analysis.coup.agents import resolve_multi
from analysis.coup.agents import best
# isort: on
from analysis.play import bots as every_game
from games.errors import InvalidParameterError

# Every name ``farol coup match --agents`` takes -> the module that holds that bot.
BOTS = {
    "random": every_game,
    "solved": solved,
    "honest": honest,
    "bluffer": bluffer,
    "bluffer-bold": bluffer,
    "blueprint": blueprint,
    "search": search,
    "belief": belief,
    "fast": fast,
    "resolve": resolve,
    "resolve-blueprint": resolve_blueprint,
    "weighed": weighed,
    "resolve-mixed": resolve_mixed,
    "resolve-multi": resolve_multi,
    "best": best,
}


def _resolve_oracle(game, seat: int):
    return resolve.ResolveOracle(resolve.resolve_bot(game, seat, 0))


def _resolve_blueprint_oracle(game, seat: int):
    return resolve.ResolveOracle(resolve_blueprint.resolve_blueprint_bot(game, seat, 0))


def _resolve_mixed_oracle(game, seat: int):
    return resolve.ResolveOracle(resolve_mixed.mixed_bot(game, seat, 0))


def _resolve_multi_oracle(game, seat: int):
    return resolve.ResolveOracle(resolve_multi.multi_bot(game, seat, 0))


def _blueprint_oracle(game, seat: int):
    return blueprint.blueprint_oracle(game)


# Agent name -> (game, the agent's seat) -> its mix oracle.
ORACLES = {
    "resolve": _resolve_oracle,
    "resolve-blueprint": _resolve_blueprint_oracle,
    "resolve-mixed": _resolve_mixed_oracle,
    "resolve-multi": _resolve_multi_oracle,
    "blueprint": _blueprint_oracle,
}
ORACLES["best"] = ORACLES["resolve"]  # what best is at 2 players

_SEEDED = ("its move at a spot is the best of roll-outs drawn from a random stream that "
           "every earlier decision of its own advanced, and from its private memory: its "
           "mix for a hand it did not hold would need the whole game replayed with that "
           "hand under every seed, conditioned on the moves it made")
NO_ORACLE = {
    "search": _SEEDED,
    "belief": _SEEDED,
    "fast": _SEEDED,
    "weighed": _SEEDED,
    "honest": "no oracle is built for it yet: it remembers who blocked it, so its oracle "
              "would replay that memory",
    "bluffer": "it draws its bluffs from a random stream its earlier decisions advanced",
    "bluffer-bold": "it draws its bluffs from a random stream its earlier decisions advanced",
    "solved": "it plays 1v1 endgames only",
    "random": "uniform over the legal moves: an oracle, but not worth a bound",
}


def mix_oracle(name: str, game, seat: int):
    """The mix oracle of the agent ``name`` in ``seat`` of ``game`` (one-line
    ``InvalidParameterError`` for an agent that cannot be one, saying why)."""
    if name in ORACLES:
        return ORACLES[name](game, seat)
    why = NO_ORACLE.get(name)
    if why is None:
        raise InvalidParameterError(f"unknown agent {name!r}; agents with mix oracles: "
                                    f"{', '.join(ORACLES)}")
    raise InvalidParameterError(f"{name} cannot give its mix for every hand: {why}")
