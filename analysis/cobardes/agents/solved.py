"""The ``solved`` bot: ¡Cobardes! battles played by their equilibrium strategy.

Without hidden villains it plays the exact solution of the position in front of it;
while a villain is hidden, the battle's stored solution (the one advice reads,
:mod:`analysis.cobardes.solvers.hidden_advice`): a full battle's is solved and stored before
play starts when missing (a couple of minutes, said first; later games read it at
once), a small one's trunk at its first such decision. Courtiers dealt at random make
the matchup known at the deal: its solution is read, or solved once and stored, then
(:func:`~analysis.cobardes.solvers.hidden_advice.as_matchup`). A battle whose solve takes longer
is refused before play starts, in one line saying what to do.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.hidden_advice import (
    ON_DEMAND_NODES,
    as_matchup,
    random_courtiers,
    solution_for,
    solve_cost,
    strategy_at,
    trunk_size,
    worth_the_wait,
)
from analysis.cobardes.solvers.trunk import solve_trunk, trunk_key
from analysis.cobardes.solvers.villains import strategy_lookup
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
    """About how many trunk positions a game's hidden-villain solve walks: one matchup's
    (:func:`analysis.cobardes.solvers.hidden_advice.trunk_size`; courtiers dealt at random are
    known at the deal, so only the dealt matchup is solved)."""
    return trunk_size(int(game.get_parameters().get("warriors", C.MAX_WARRIOR)))


def check_solvable(game: pyspiel.Game) -> None:
    """Refuse, before play starts, a battle whose hidden villains the bot could only play
    after a long solve (its solution not stored), naming what to run instead."""
    rules = game.rules
    if not rules.villains or (not random_courtiers(game)
                              and solution_for(game, solve_missing=False) is not None):
        return
    size = hidden_size(game)
    if worth_the_wait(size):
        return
    params = game.get_parameters()
    courts = [params.get(f"courtier{p}") for p in (0, 1)]
    at_once = "or play at once without villains (--param kinds=warriors+courtiers)"
    matchups = ("" if "random" in courts else f"--matchups '{courts[0]}/{courts[1]}' ")
    raise InvalidParameterError(
        f"the solved opponent needs this battle's hidden-villain solution, which is not "
        f"stored (about {size / 1e6:z,.0f} million trunk positions: {solve_cost(size)}); "
        f"store it once: farol cobardes sweep --kind hidden {matchups}--keep-solutions; or "
        f"play a smaller army, solved in a minute or two (--param warriors=4); {at_once}")


def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """A bot for ``seat`` playing the solved strategy of ``game`` (refused at once when
    that needs a long solve: :func:`check_solvable`)."""
    check_solvable(game)
    rng = np.random.default_rng(seed)
    rules = game.rules
    exact = FastExactSolver(rules.cfg, rules.pay)
    lookup: dict = {}
    large = rules.villains and hidden_size(game) > ON_DEMAND_NODES
    if large and not random_courtiers(game):
        # A full battle: solved (and stored) before play rather than at a hidden decision.
        lookup["stored"], lookup["game"] = solution_for(game, solve_large=True), str(game)

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        pos = state.position
        if not rules.villains or not any_villain_unknown(pos):
            return _sample(exact.strategy(pos), legal, rng)
        state = as_matchup(state)  # courtiers dealt at random: the matchup dealt
        matchup = state.get_game()
        if lookup.get("game") != str(matchup):
            lookup.clear()
            lookup["game"] = str(matchup)
            lookup["stored"] = solution_for(matchup, solve_large=large, solve_missing=large)
        if lookup["stored"] is not None:
            return _sample(strategy_at(lookup["stored"], state.history()), legal, rng)
        if "compiled" not in lookup:
            cut, solver, _ = solve_trunk(matchup, iterations=200)
            lookup["compiled"] = cut.compiled
            lookup["strategy"] = strategy_lookup(cut.compiled, solver.average_strategy())
        # Every reachable key of the trunk is in its tree or graph.
        key = trunk_key(lookup["compiled"], state, seat)
        return _sample(lookup["strategy"][key], legal, rng)

    return act


register_bot(BotSpec("solved", "the equilibrium strategy (exact without hidden villains, "
                     "state-keyed CFR+ with them)", solved_bot, games=(GAME,)))
