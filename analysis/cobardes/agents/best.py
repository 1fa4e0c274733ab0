"""``best``: the strongest ¡Cobardes! opponent, the solved strategy answered at the table
(``farol play``) without solving the whole battle first; ``farol play``'s hint at a spot
with a hidden villain reads the same answers (:class:`HiddenAnswers`).

A full battle's hidden-villain solution takes minutes and GB to make
(:mod:`analysis.cobardes.solvers.hidden_solution`). At play the spots are answered, in
this order, from: the battle's stored solution, when there is one; the matchup's stored
opening at the first-combat decisions it keeps (:func:`analysis.cobardes.solvers.openings.answer_at`);
from the second combat on, the rest of the battle re-solved from the start of the
spot's combat over the beliefs its history implies
(:mod:`analysis.cobardes.solvers.spot_resolve`; one re-solve serves every spot of that
combat). A first-combat decision the opening does not keep needs the whole battle: the
bot solves it then (said first), the hint says it has none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.cobardes.agents import solved
from analysis.cobardes.solvers import openings
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.hidden_advice import (
    ON_DEMAND_NODES,
    advise_hidden,
    as_matchup,
    solution_for,
    trunk_size,
)
from analysis.cobardes.solvers.spot_resolve import (
    Resolved,
    combat_start,
    resolve_rest,
    rest_of_battle,
)
from analysis.play.bots import BotSpec, register_bot
from games.cobardes.hidden import any_villain_unknown

GAME = solved.GAME
# Where a hint is missing at a first-combat spot, why.
NO_HINT = ("No hint at this spot: this decision of the first combat needs the whole "
           "battle with hidden villains solved (minutes and GB); the first decisions and "
           "every spot from the second combat on are answered at once")


@dataclass(frozen=True)
class TableSpot:
    """The answer at a hidden spot: the mover's ``mix`` and each move's ``values`` (by
    OpenSpiel action; values for the mover), the solution's ``error`` there (its
    exploitability within the abstraction) and where it came from (``source``)."""

    mix: dict[int, float]
    values: dict[int, float]
    error: float
    source: str


def full_battle(game: pyspiel.Game) -> bool:
    """Whether ``game``'s hidden-villain solve is too large to make at a decision."""
    return trunk_size(game.rules.warriors) > ON_DEMAND_NODES


# The re-solves made at the table, by battle and history up to the combat's start (the
# bot and the hint of one game share them); the oldest dropped beyond KEPT.
_RESTS: dict[tuple, Resolved] = {}
KEPT = 4


class HiddenAnswers:
    """Answers at the hidden spots of the games being played, each combat start's re-solve
    made once (shared by the bot and the hint)."""

    def answer(self, state: pyspiel.State, solve_large: bool = False) -> TableSpot | None:
        """The answer at ``state`` (a decision where a villain is hidden, in the matchup's
        game), or ``None`` where only the whole battle's solve answers and not
        ``solve_large``."""
        game = state.get_game()
        stored = solution_for(game, solve_missing=False)
        if stored is None and not full_battle(game):
            stored = solution_for(game)
        if stored is not None:
            return _from_solution(state, stored, "the battle's stored solution")
        found = openings.answer_at(state)
        if found is not None:
            table, _, answer = found
            names = {state.action_to_string(a): a for a in state.legal_actions()}
            return TableSpot({int(a): p for a, p in answer["mix"]},
                             {names[n]: v for n, _, v in answer["actions"]},
                             table.exploitability, "the matchup's stored opening")
        if state.position.combat >= 2:
            return self._rest(state)
        if not solve_large:
            return None
        return _from_solution(state, solution_for(game, solve_large=True),
                              "the battle's solution")

    def _rest(self, state: pyspiel.State) -> TableSpot:
        start, _ = combat_start(state)
        key = (str(state.get_game()), tuple(state.history()[:start]))
        if key not in _RESTS:
            while len(_RESTS) >= KEPT:
                _RESTS.pop(next(iter(_RESTS)))
            _RESTS[key] = resolve_rest(state, progress=False)
        resolved = _RESTS[key]
        spot = rest_of_battle(state).state  # the spot in the re-solved rest
        return _from_solution(spot, resolved.solution,
                              f"the rest of the battle re-solved from combat "
                              f"{resolved.rest.combat}")


def _from_solution(state: pyspiel.State, solution, source: str) -> TableSpot:
    spot = advise_hidden(state, solution)
    return TableSpot(dict(spot.mix), dict(spot.action_values), spot.exploitability, source)


def best_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """The ``best`` bot: the solved strategy (:func:`analysis.cobardes.agents.solved.solved_bot`),
    in a full battle with hidden villains played from the answers at the table
    (:class:`HiddenAnswers`) rather than from a whole-battle solve made before play."""
    rules = game.rules
    if not rules.villains or not full_battle(game):
        return solved.solved_bot(game, seat, seed)
    rng = np.random.default_rng(seed)
    exact = FastExactSolver(rules.cfg, rules.pay)
    answers = HiddenAnswers()

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        if not any_villain_unknown(state.position):
            return solved._sample(exact.strategy(state.position), legal, rng)
        matchup = as_matchup(state)
        spot = answers.answer(matchup, solve_large=True)
        return solved._sample(spot.mix, legal, rng)

    return act


register_bot(BotSpec("best", "the strongest ¡Cobardes! opponent: the solved strategy, "
                     "answered at the table (stored opening, the rest re-solved from the "
                     "second combat)", best_bot, games=(GAME,)))
