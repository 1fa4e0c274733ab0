"""The ``solved`` bot: ¡Cobardes! battles played by their equilibrium strategy.

Without hidden villains it plays the exact solution of the position in front of it;
while a villain is hidden, the battle's stored solution (the one advice reads,
:mod:`analysis.cobardes.hidden_advice`): a full battle's is solved and stored before
play starts when missing (a couple of minutes, said first; later games read it at
once), a small one's trunk at its first such decision. A battle whose solve takes longer
(courtiers dealt at random) is refused before play starts, in one line saying what to do.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.cobardes.fast_exact import FastExactSolver
from analysis.cobardes.hidden_advice import (
    ON_DEMAND_NODES,
    solution_for,
    solve_cost,
    strategy_at,
    trunk_size,
    worth_the_wait,
)
from analysis.cobardes.trunk import solve_trunk, trunk_key
from analysis.cobardes.villains import strategy_lookup
from analysis.play.bots import Bot, BotSpec, register_bot
from games.cobardes import cards as C
from games.cobardes.hidden import any_villain_unknown
from games.errors import InvalidParameterError

GAME = "python_cobardes_battle"


def _sample(probs: dict[int, float], legal: list[int], rng: np.random.Generator) -> int:
    actions = [a for a in legal if probs.get(a, 0.0) > 0]
    if not actions:
        return int(legal[rng.integers(len(legal))])
    p = np.array([probs[a] for a in actions])
    return int(actions[rng.choice(len(actions), p=p / p.sum())])


def hidden_size(game: pyspiel.Game) -> int:
    """About how many trunk positions ``game``'s hidden-villain solve walks: a matchup's
    (:func:`analysis.cobardes.hidden_advice.trunk_size`) times the courtiers dealt at
    random (nine each)."""
    params = game.get_parameters()
    size = trunk_size(int(params.get("warriors", C.MAX_WARRIOR)))
    if "courtiers" in str(params.get("kinds", "all")) or params.get("kinds") == "all":
        size *= 9 ** sum(params.get(f"courtier{p}") == "random" for p in (0, 1))
    return size


def check_solvable(game: pyspiel.Game) -> None:
    """Refuse, before play starts, a battle whose hidden villains the bot could only play
    after a long solve (its solution not stored), naming what to run instead."""
    rules = game.rules
    if not rules.villains or solution_for(game, solve_missing=False) is not None:
        return
    size = hidden_size(game)
    if worth_the_wait(size):
        return
    params = game.get_parameters()
    courts = [params.get(f"courtier{p}") for p in (0, 1)]
    at_once = "or play at once without villains (--param kinds=warriors+courtiers)"
    if "random" in courts:
        raise InvalidParameterError(
            "with hidden villains and courtiers dealt at random the solved opponent would "
            "need every matchup's hidden-villain solution (hours and hundreds of GB); name "
            "both courtiers (--param courtier0=Squire --param courtier1=Archer), then store "
            f"that battle's solution once or play a smaller army (--param warriors=4); {at_once}")
    raise InvalidParameterError(
        f"the solved opponent needs this battle's hidden-villain solution, which is not "
        f"stored (about {size / 1e6:,.0f} million trunk positions: {solve_cost(size)}); "
        "store it once: farol cobardes sweep --kind hidden "
        f"--matchups '{courts[0]}/{courts[1]}' --keep-solutions; or play a smaller army, "
        f"solved in a minute or two (--param warriors=4); {at_once}")


def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """A bot for ``seat`` playing the solved strategy of ``game`` (refused at once when
    that needs a long solve: :func:`check_solvable`)."""
    check_solvable(game)
    rng = np.random.default_rng(seed)
    rules = game.rules
    exact = FastExactSolver(rules.cfg, rules.pay)
    lookup: dict = {}
    if rules.villains and hidden_size(game) > ON_DEMAND_NODES:
        # A full battle: solved (and stored) before play rather than at a hidden decision.
        lookup["stored"] = solution_for(game, solve_large=True)

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        pos = state.position
        if not rules.villains or not any_villain_unknown(pos):
            return _sample(exact.strategy(pos), legal, rng)
        if "stored" not in lookup:
            lookup["stored"] = solution_for(game, solve_missing=False)
        if lookup["stored"] is not None:
            return _sample(strategy_at(lookup["stored"], state.history()), legal, rng)
        if "compiled" not in lookup:
            cut, solver, _ = solve_trunk(game, iterations=200)
            lookup["compiled"] = cut.compiled
            lookup["strategy"] = strategy_lookup(cut.compiled, solver.average_strategy())
        # Every reachable key of the trunk is in its tree or graph.
        key = trunk_key(lookup["compiled"], state, seat)
        return _sample(lookup["strategy"][key], legal, rng)

    return act


register_bot(BotSpec("solved", "the equilibrium strategy (exact without hidden villains, "
                     "state-keyed CFR+ with them)", solved_bot, games=(GAME,)))
register_bot(BotSpec("best", "the strongest ¡Cobardes! opponent: the solved strategy", solved_bot,
                     games=(GAME,)))
