"""Coaching in ``farol play``: a hint at the current spot, and a review of your decisions.

A game offers a coach by registering a factory (:func:`register_coach`): given the game it
returns a function that, at a state, gives each legal action of the player to move with
its equilibrium probability and its value for that player, or ``None`` where it has no
answer (a spot it cannot solve). The review grades each decision by the value it lost
against the best action, in the game's own points (:data:`GRADES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pyspiel

# (action, equilibrium probability, value for the player to move)
Advice = list[tuple[int, float, float]]
Coach = Callable[[pyspiel.State], Advice | None]
CoachFactory = Callable[[pyspiel.Game], Coach | None]

# A decision's grade by the value it lost against the best action (upper bounds).
GRADES = ((1e-6, "best"), (0.05, "fine"), (0.25, "mistake"), (math.inf, "blunder"))

_COACHES: dict[str, CoachFactory] = {}


def register_coach(game_name: str, factory: CoachFactory) -> None:
    """Let ``farol play`` coach ``game_name`` (``factory(game)`` may return ``None``
    when these parameters have no coach)."""
    _COACHES[game_name] = factory


def coach_for(game: pyspiel.Game) -> Coach | None:
    factory = _COACHES.get(game.get_type().short_name)
    return factory(game) if factory is not None else None


def grade(loss: float) -> str:
    return next(name for bound, name in GRADES if loss < bound)


def grades_text() -> str:
    """The grading rule in words, for the review's heading."""
    return (f"best: lost under {GRADES[0][0]:zg}; fine: under {GRADES[1][0]:zg}; mistake: "
            f"under {GRADES[2][0]:zg}; blunder: {GRADES[2][0]:zg} or more")


@dataclass(frozen=True)
class Decision:
    """One of your decisions, valued: what you played, the best action, the value lost."""

    move: int
    chosen: str
    best: str
    value: float
    loss: float

    @property
    def grade(self) -> str:
        return grade(self.loss)


def judge(state: pyspiel.State, seat: int, action: int, advice: Advice) -> Decision:
    """Your ``action`` at ``state`` against the coach's ``advice`` there."""
    values = {a: v for a, _, v in advice}
    best = max(values, key=values.get)
    name = state.action_to_string(seat, action)
    return Decision(len(state.history()) + 1, name, state.action_to_string(seat, best),
                    values[best], max(0.0, values[best] - values[action]))


def hint_lines(state: pyspiel.State, seat: int, advice: Advice | None,
               note: str | None = None, silent: str | None = None) -> list[str]:
    """The hint at ``state``; ``note`` (a coach's ``note`` attribute, when it has one)
    says where its numbers come from and how accurate they are, ``silent`` (its
    ``silent`` attribute) why it gives none where it gives none."""
    if advice is None:
        return [silent or "No hint at this spot: it cannot be solved here (a card is hidden "
                "from a player)."]
    lines = ["Hint: the equilibrium mix here, and each move's value for you:" if note is None
             else "Hint: the mix to play here, and each move's value for you:"]
    for a, p, v in sorted(advice, key=lambda r: (-r[1], -r[2])):
        lines.append(f"  {state.action_to_string(seat, a):<28} {100 * p:z6.2f}%  "
                     f"value {v:+z.4f}")
    if note is not None:
        lines.append(f"  ({note})")
    return lines


def review_lines(decisions: list[Decision]) -> list[str]:
    if not decisions:
        return []
    lines = [f"Review of your decisions (value lost against the best move; {grades_text()}):"]
    for d in decisions:
        better = "" if d.loss < GRADES[0][0] else f"; best was {d.best} ({d.value:+z.4f})"
        lines.append(f"  move {d.move}: {d.chosen}: lost {d.loss:z.4f}, {d.grade}{better}")
    total = sum(d.loss for d in decisions)
    count = f"{len(decisions)} decision" + ("s" if len(decisions) != 1 else "")
    lines.append(f"  in all: {total:z.4f} lost over {count}")
    return lines
