"""Coaching in ``farol play``: a hint at the current spot, and a review of your decisions.

A game offers a coach by registering a factory (:func:`register_coach`): given the game it
returns a function that, at a state, gives each legal action of the player to move with
its equilibrium probability and its value for that player (a list: an exact solution), or
a :class:`SpotAdvice` that also carries the solution's measured error there; ``None``
where it has no answer (a spot it cannot solve).

The review grades each decision by the value it lost against the best action, in the
game's own points (:data:`GRADES`), and respects the solution's accuracy: a move inside
the equilibrium mix (:data:`IN_MIX` or more), or whose value is within the error of the
best value, is a tie for best, never a mistake; beyond that a decision is graded by the
loss the solution vouches for (its loss less the error). Values are printed to the
decimals the error supports (:func:`analysis.shared.numbers.decimals_for`). A coach whose
values are estimates gives each with its 95% interval (a fourth field, ``(low, high)``):
then a decision whose interval overlaps the best action's is a tie, and only one whose
interval lies wholly below the best's is graded a mistake (or a blunder, :data:`GRADES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel

from analysis.shared.numbers import decimals_for, signed

# (action, equilibrium probability, value for the player to move[, its 95% interval])
Advice = list[tuple]


@dataclass(frozen=True)
class SpotAdvice:
    """A coach's answer at a spot: ``moves`` as :data:`Advice`, and ``error``, the
    solution's measured error in value there (its exploitability; 0 when exact), said in
    ``error_words``."""

    moves: tuple[tuple, ...]
    error: float = 0.0
    error_words: str = ""


Coach = Callable[[pyspiel.State], Advice | SpotAdvice | None]
CoachFactory = Callable[[pyspiel.Game], Coach | None]

# A decision's grade by the value it lost against the best action beyond the solution's
# error (upper bounds).
GRADES = ((1e-6, "best"), (0.05, "fine"), (0.25, "mistake"), (math.inf, "blunder"))
# A move played at least this often by the equilibrium mix is in the mix: never a mistake.
IN_MIX = 0.01
_TIE = 1e-9  # exact values this close are equal

_COACHES: dict[str, CoachFactory] = {}


def register_coach(game_name: str, factory: CoachFactory) -> None:
    """Let ``farol play`` coach ``game_name`` (``factory(game)`` may return ``None``
    when these parameters have no coach)."""
    _COACHES[game_name] = factory


def coach_for(game: pyspiel.Game) -> Coach | None:
    factory = _COACHES.get(game.get_type().short_name)
    return factory(game) if factory is not None else None


def as_spot(advice: Advice | SpotAdvice | None) -> SpotAdvice | None:
    """A coach's answer as a :class:`SpotAdvice` (a plain list is exact: error 0)."""
    if advice is None or isinstance(advice, SpotAdvice):
        return advice
    return SpotAdvice(tuple(advice))


def grade(loss: float) -> str:
    return next(name for bound, name in GRADES if loss < bound)


def grades_text() -> str:
    """The grading rule in words, for the review's heading."""
    return (f"best: in the equilibrium mix (played {IN_MIX:z.0%} or more) or within the "
            f"solution's error of the best value; beyond that error, fine: under "
            f"{GRADES[1][0]:zg}; mistake: under {GRADES[2][0]:zg}; blunder: {GRADES[2][0]:zg} "
            "or more")


def ties(spot: SpotAdvice) -> set[int]:
    """The moves whose value is within the solution's error of the best value."""
    best = max(row[2] for row in spot.moves)
    return {row[0] for row in spot.moves if row[2] >= best - spot.error - _TIE}


@dataclass(frozen=True)
class Decision:
    """One of your decisions, valued: what you played, the best action, the value lost,
    the solution's error there and whether your move is in the equilibrium mix."""

    move: int
    chosen: str
    best: str
    value: float
    loss: float
    error: float = 0.0
    in_mix: bool = False
    separated: bool | None = None  # with intervals: wholly below the best's interval

    @property
    def tied(self) -> bool:
        """In the mix, or within the solution's error of the best value (with intervals:
        its interval overlaps the best's)."""
        if self.separated is not None:
            return not self.separated
        return self.in_mix or self.loss <= self.error + _TIE

    @property
    def grade(self) -> str:
        if self.separated is not None:
            if self.loss < GRADES[0][0]:
                return "best"
            if not self.separated:
                return "tie"
            return "blunder" if self.loss >= GRADES[2][0] else "mistake"
        return "best" if self.tied else grade(self.loss - self.error)


def judge(state: pyspiel.State, seat: int, action: int,
          advice: Advice | SpotAdvice) -> Decision:
    """Your ``action`` at ``state`` against the coach's ``advice`` there."""
    spot = as_spot(advice)
    values = {row[0]: row[2] for row in spot.moves}
    mix = {row[0]: row[1] for row in spot.moves}
    best = max(values, key=values.get)
    name = state.action_to_string(seat, action)
    separated = None
    if with_intervals(spot):
        ci = {row[0]: row[3] for row in spot.moves}
        separated = ci[action][1] < ci[best][0]
    return Decision(len(state.history()) + 1, name, state.action_to_string(seat, best),
                    values[best], max(0.0, values[best] - values[action]), spot.error,
                    mix.get(action, 0.0) >= IN_MIX, separated)


def with_intervals(spot: SpotAdvice) -> bool:
    """Whether every move's value comes with its 95% interval (an estimate)."""
    return bool(spot.moves) and all(len(row) > 3 for row in spot.moves)


def hint_lines(state: pyspiel.State, seat: int, advice: Advice | SpotAdvice | None,
               note: str | None = None, silent: str | None = None) -> list[str]:
    """The hint at ``state``; ``note`` (a coach's ``note`` attribute, when it has one)
    says where its numbers come from and how accurate they are, ``silent`` (its
    ``silent`` attribute) why it gives none where it gives none. The moves tied for best
    within the solution's error are marked, and values shown to the decimals the error
    supports."""
    spot = as_spot(advice)
    if spot is None:
        return [silent or "No hint at this spot: it cannot be solved here (a card is hidden "
                "from a player)."]
    if with_intervals(spot):
        return interval_hint(state, seat, list(spot.moves), note)
    lines = ["Hint: the equilibrium mix here, and each move's value for you:" if note is None
             else "Hint: the mix to play here, and each move's value for you:"]
    digits = decimals_for(spot.error)
    tied = ties(spot)
    mark = "best" if spot.error <= 0 else "tie for best"
    for a, p, v in sorted(spot.moves, key=lambda r: (-r[1], -r[2])):
        lines.append(f"  {state.action_to_string(seat, a):<28} {100 * p:z6.2f}%  "
                     f"value {signed(v, digits)}" + (f"  {mark}" if a in tied else ""))
    if spot.error > 0:
        words = f": {spot.error_words}" if spot.error_words else ""
        lines.append(f"  (values within {spot.error:z.2g} of the best are ties, the "
                     f"solution's error here{words})")
    if note is not None:
        lines.append(f"  ({note})")
    return lines


def interval_hint(state: pyspiel.State, seat: int, advice: Advice,
                  note: str | None) -> list[str]:
    """The hint of a coach whose values carry 95% intervals: best first, ties marked."""
    rows = sorted(advice, key=lambda r: -r[2])
    top_low = rows[0][3][0]
    lines = ["Hint: each move's chance of winning for you [95% interval]:"]
    for a, _, v, (lo, hi) in rows:
        tie = "  tie with the best" if hi >= top_low and a != rows[0][0] else ""
        lines.append(f"  {state.action_to_string(seat, a):<34} {100 * v:z5.1f}% "
                     f"[{100 * lo:z.1f}, {100 * hi:z.1f}]{tie}")
    if note is not None:
        lines.append(f"  ({note})")
    return lines


INTERVAL_GRADES = ("tie: its interval overlaps the best move's; mistake: wholly below it; "
                   f"blunder: below it and {GRADES[2][0]:zg} or more lost")


def review_lines(decisions: list[Decision]) -> list[str]:
    if not decisions:
        return []
    rule = INTERVAL_GRADES if any(d.separated is not None for d in decisions) else grades_text()
    lines = [f"Review of your decisions (value lost against the best move; {rule}):"]
    for d in decisions:
        digits = decimals_for(d.error)
        loss = f"{d.loss:z.{digits}f}".replace("-", "")
        within = ""
        if d.separated is not None:
            pass
        elif d.tied and d.loss > _TIE:
            within = (" (in the equilibrium mix)" if d.in_mix else
                      f" (within the solution's error, {d.error:z.2g})")
        elif d.error > 0 and not d.tied:
            within = f" (at least {d.loss - d.error:z.{digits}f} beyond the error {d.error:z.2g})"
        better = ("" if d.loss <= _TIE or d.tied
                  else f"; best was {d.best} ({signed(d.value, digits)})")
        lines.append(f"  move {d.move}: {d.chosen}: lost {loss}{within}, {d.grade}{better}")
    total = sum(d.loss for d in decisions)
    digits = decimals_for(max(d.error for d in decisions))
    count = f"{len(decisions)} decision" + ("s" if len(decisions) != 1 else "")
    lines.append(f"  in all: {total:z.{digits}f} lost over {count}")
    return lines
