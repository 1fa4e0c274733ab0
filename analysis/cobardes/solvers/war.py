"""The war: battle solutions composed over the score states.

A war state is the score (Victory tokens 0-2 each). A battle's terminal payoffs are the
values of the states it leads to (a drawn battle repeats the score), so each score's
value is a one-variable fixed point ``V = f(V)``, solved by Newton steps from the last
score back to 0-0. Each player keeps one courtier type for the whole war (the renewal
war, :mod:`analysis.cobardes.studies.renewal`, drops that approximation); no villains.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from analysis.cobardes.model import (
    DRAW,
    OUTCOME_NAMES,
    SCORES,
    TOKENS_TO_WIN,
    BattleSpec,
    initial_position,
    score_order,
)
from analysis.cobardes.solvers.graph import BattleGraph, opening_actions
from games.cobardes import cards as C


@dataclass
class ScoreSolution:
    """The solved battle at one score: the war value and how it was found."""

    score: tuple[int, int]
    value: float
    battle_payoffs: tuple[float, float, float, float, float]
    outcome_probs: dict[str, float]
    opening0: dict[str, float]
    opening1: dict[str, float]
    solves: int
    residual: float


@dataclass(frozen=True)
class WarSolution:
    """War values for every score of one courtier pairing (frozen: built whole by
    :func:`solve_war` or :meth:`from_json`)."""

    courtiers: tuple[str | None, str | None]
    warriors: int
    combats: int
    scores: dict[tuple[int, int], ScoreSolution] = field(default_factory=dict)
    positions: int = 0
    matrix_games: int = 0
    seconds: float = 0.0

    @property
    def value(self) -> float:
        return self.scores[(0, 0)].value

    @property
    def win_probability(self) -> float:
        return (1.0 + self.value) / 2.0

    def to_json(self) -> dict:
        return {
            "courtiers": list(self.courtiers), "warriors": self.warriors,
            "combats": self.combats, "positions": self.positions,
            "matrix_games": self.matrix_games, "seconds": self.seconds,
            "scores": {f"{a}-{b}": {
                "value": s.value, "battle_payoffs": list(s.battle_payoffs),
                "outcome_probs": s.outcome_probs, "opening0": s.opening0,
                "opening1": s.opening1, "solves": s.solves, "residual": s.residual}
                for (a, b), s in self.scores.items()},
        }

    @classmethod
    def from_json(cls, data: dict) -> WarSolution:
        scores = {}
        for text, s in data["scores"].items():
            a, b = (int(t) for t in text.split("-"))
            scores[(a, b)] = ScoreSolution((a, b), s["value"], tuple(s["battle_payoffs"]),
                                           s["outcome_probs"], s["opening0"], s["opening1"],
                                           s["solves"], s["residual"])
        return cls(tuple(data["courtiers"]), data["warriors"], data["combats"], scores,
                   positions=data["positions"], matrix_games=data["matrix_games"],
                   seconds=data["seconds"])


def continuation(values: dict[tuple[int, int], float], score: tuple[int, int],
                 victories: int = TOKENS_TO_WIN) -> tuple[float, float]:
    """Player 0's value after winning / losing the battle at ``score``."""
    a, b = score
    win = 1.0 if a + 1 >= victories else values[(a + 1, b)]
    loss = -1.0 if b + 1 >= victories else values[(a, b + 1)]
    return win, loss


def fixed_point(graph: BattleGraph, win: float, loss: float, tol: float = 1e-10,
                max_solves: int = 60, guess: float = 0.0):
    """Solve ``x = f(x)`` (the battle's value with draw payoff ``x``) by Newton steps
    from ``guess``; returns ``(x, last solution, solves, residual)``.

    From a guess other than 0 the iteration may land on another fixed point only when
    ``f(x) = x`` on a whole interval (a battle drawn for sure); the caller checks that
    case from 0 (see :func:`solve_war`)."""
    x = float(guess)
    sol = None
    for solves in range(1, max_solves + 1):
        sol = graph.solve((win, loss, 1.0, -1.0, x))
        residual = abs(sol.value - x)
        if residual <= tol:
            return x, sol, solves, residual
        d = float(sol.outcome_probs[DRAW])
        x = (sol.value - d * x) / (1.0 - d) if d < 1.0 - 1e-12 else sol.value
    return x, sol, max_solves, abs(sol.value - x)


def capped_limit(graph: BattleGraph, win: float, loss: float, x: float, sol,
                 residual: float, tol: float = 1e-10):
    """The fixed point the capped war tends to, given a fixed point ``x`` of ``f``.

    ``g(y) = f(y) - y`` is non-increasing (``f`` is 1-Lipschitz), so the fixed points
    form an interval; value iteration from 0 (the war capped at more and more battles,
    worth 0 at the cap) tends to the point of that interval nearest to 0. It is an
    interval of more than one point only when the battle is drawn for sure there (slope
    1). A probe just beside ``x`` on the side of 0 tells whether ``x`` is isolated
    there; if not, bisection between 0 and ``x`` finds the interval's end (to 1e-11).
    Returns ``(x, solution at x, battle solves used, residual)``."""
    if abs(x) <= tol:
        return x, sol, 0, residual
    step = 1e-6 * max(abs(x), 1e-3)
    probe = x - np.sign(x) * min(step, abs(x))
    near = graph.solve((win, loss, 1.0, -1.0, probe))
    solves = 1
    if abs(near.value - probe) > 10 * tol:
        return x, sol, solves, residual     # isolated on 0's side
    zero = graph.solve((win, loss, 1.0, -1.0, 0.0))
    solves += 1
    if abs(zero.value) <= tol:
        return 0.0, zero, solves, abs(zero.value)
    outside, inside, best = 0.0, probe, near
    while abs(inside - outside) > 1e-11:
        mid = (inside + outside) / 2
        trial = graph.solve((win, loss, 1.0, -1.0, mid))
        solves += 1
        if abs(trial.value - mid) <= tol:
            inside, best = mid, trial
        else:
            outside = mid
    return inside, best, solves, abs(best.value - inside)


def card_mix(actions, probs) -> dict[str, float]:
    """A mix over cards by name (rounded to 1e-6, near-zero entries left out)."""
    return {C.CARD_NAMES[a]: round(float(p), 6) for a, p in zip(actions, probs, strict=True)
            if p > 1e-9}


def solve_war(courtiers: tuple[str | None, str | None] = (None, None), warriors: int = C.MAX_WARRIOR,
              combats: int = C.MAX_COMBATS, graph: BattleGraph | None = None) -> WarSolution:
    """War values from every score for one courtier pairing (fixed for the whole war).

    Scores are solved from 2-2 down to 0-0 (:func:`score_order`), each by
    :func:`fixed_point`; when a battle is drawn for sure, ``f(x) = x`` on an interval
    and :func:`capped_limit` takes the limit of the war capped in battles (the fixed
    point nearest 0). Values are player 0's ``P(win) - P(lose)``."""
    start = time.perf_counter()
    if graph is None:
        cfg, pos, _ = initial_position(BattleSpec(warriors, combats, courtiers).params())
        graph = BattleGraph(cfg, pos)
    scores: dict[tuple[int, int], ScoreSolution] = {}
    values: dict[tuple[int, int], float] = {}
    probs = None
    for score in score_order():
        win, loss = continuation(values, score)
        guess = 0.0
        if probs is not None and probs[DRAW] < 1.0 - 1e-9:
            # How the previous score's battle ended, as if it ended the same way here:
            # a good first guess saves about two battle solves per score.
            guess = (probs[0] * win + probs[1] * loss + probs[2] - probs[3]) / (1 - probs[DRAW])
        x, sol, solves, residual = fixed_point(graph, win, loss, guess=guess)
        x, sol, more, residual = capped_limit(graph, win, loss, x, sol, residual)
        solves += more
        probs = sol.outcome_probs
        values[score] = x
        a0, a1 = opening_actions(graph)
        scores[score] = ScoreSolution(
            score, x, (win, loss, 1.0, -1.0, x),
            {name: float(p) for name, p in zip(OUTCOME_NAMES, sol.outcome_probs, strict=True)},
            card_mix(a0, sol.root_row) if len(sol.root_row) else {},
            card_mix(a1, sol.root_col) if len(sol.root_col) else {}, solves, residual)
    return WarSolution(tuple(courtiers), warriors, combats, scores,
                       positions=graph.num_positions, matrix_games=graph.num_matrix_games,
                       seconds=time.perf_counter() - start)


def capped_war_value(graph: BattleGraph, max_battles: int,
                     tokens: tuple[int, int] | None = (0, 0)):
    """The value of the war limited to ``max_battles`` battles (0 at the cap), by
    backward induction over (battles left, score): the model of
    ``python_cobardes_war`` with ``max_battles``, for checking the composition.
    ``tokens=None`` returns every score's value (a dict)."""
    prev = {s: 0.0 for s in SCORES}
    for _ in range(max_battles):
        cur = {}
        for score in SCORES:
            win, loss = continuation(prev, score)
            cur[score] = graph.solve((win, loss, 1.0, -1.0, prev[score])).value
        prev = cur
    return prev if tokens is None else prev[tokens]


def composed_values(outcome_probs: dict) -> dict[tuple[int, int], float]:
    """Every score's war value when each battle ends as ``outcome_probs`` says: one
    mapping of :data:`OUTCOME_NAMES` to probabilities for every score (one battle
    solution played whatever the score), or a mapping score -> such a mapping.

    A battle at ``(a, b)`` is worth ``p_win V(a+1, b) + p_loss V(a, b+1) + p_crown -
    p_crown_loss + p_draw V(a, b)`` (a draw repeats the score), so ``V(a, b)`` is that
    sum without the draw, over ``1 - p_draw``; a score whose battle is drawn for sure is
    worth 0 (the war capped in battles tends to 0 there). With each score's own solved
    probabilities it gives :func:`solve_war`'s values back."""
    values: dict[tuple[int, int], float] = {}
    for score in score_order():
        q = outcome_probs.get(score, outcome_probs)
        win, loss = continuation(values, score)
        rest = 1.0 - q["draw"]
        values[score] = ((q["win"] * win + q["loss"] * loss + q["crown"] - q["crown_loss"])
                         / rest if rest > 1e-12 else 0.0)
    return values


def value_table(war: WarSolution) -> np.ndarray:
    """3 x 3 array of war values, rows = player 0's tokens, columns = player 1's."""
    table = np.zeros((TOKENS_TO_WIN, TOKENS_TO_WIN))
    for (a, b), s in war.scores.items():
        table[a, b] = s.value
    return table
