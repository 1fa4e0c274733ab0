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
from analysis.coup.agents import best
# isort: on
from analysis.play import bots as every_game

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
    "best": best,
}
