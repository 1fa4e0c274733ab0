"""What the page shows of an answer, decided here (so it is tested without a browser).

- **The value** for the player to move, always a number where the answer has one: a
  solve's own value, or, where the answer gives each move's value but no value of the
  spot (the re-solve, the blueprint), the mix's value (each move's value weighed by how
  often the mix plays it). Where an answer has no value (a Goat Lords agent's move) it
  says why in words.
- **One source line**: what answered (and, apart, what its model leaves out) and how
  accurate it is, in words that claim no more than is measured: an exact solve says
  exact; an exploitability measured within an abstraction is a lower bound; a re-solve
  whose loss in the whole game is not measured says so, unless a lower bound is stored.
- **The charts** of ``farol report`` that describe the spot (each game's page lists its
  own, each with the spots it describes), chosen from the spot's :class:`Facts`.

What only one game adds (a Coup strategy's stored lower bound, a ¡Cobardes! battle's
charts) sits with that game's page, :mod:`analysis.explore.games`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Facts:
    """What the charts are chosen by: the game and the shape of the spot on screen.

    ¡Cobardes!: the battle's ``variant`` (warriors, courtiers, villains, all), its size
    (``warriors``, ``combats``), the ``courtiers`` by seat, whether a war ``score`` is
    given and whether a villain is ``hidden`` from a player. Coup: each player's number
    of ``face_down`` cards and the cards each has ``lost`` (none for a table of more than
    two players).
    """

    game: str
    variant: str = ""
    warriors: int = 0
    combats: int = 0
    courtiers: tuple[str, str] = ("", "")
    score: bool = False
    hidden: bool = False
    face_down: tuple[int, ...] = ()
    lost: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Chart:
    """A chart of ``farol report``: its file, title, the spots it describes (in words,
    its caption in the page) and the test of a spot's :class:`Facts` for them."""

    file: str
    title: str
    describes: str
    fits: Callable[[Facts], bool]

    def to_json(self) -> dict:
        return {"file": self.file, "title": self.title, "describes": self.describes}


def charts_for(charts: tuple[Chart, ...], facts: Facts) -> list[dict]:
    """The charts of ``charts`` (a game's) that describe the spot of ``facts``."""
    return [c.to_json() for c in charts if c.fits(facts)]


# ------------------------------------------------------------------ the value
def spot_value(advice: dict, actions: list[dict]) -> tuple[float | None, str]:
    """The value for the player to move and where it comes from: ``"solve"`` (the
    answer's own), ``"mix"`` (each move's value weighed by its probability) or ``""``
    (no value)."""
    value = advice.get("value")
    if number(value):
        return float(value), "solve"
    weighed = [(r["probability"], r["value"]) for r in actions]
    total = sum(p for p, _ in weighed)
    if weighed and all(number(v) for _, v in weighed) and total > 0:
        return sum(p * v for p, v in weighed) / total, "mix"
    return None, ""


def number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# ------------------------------------------------------------------ the source line
def gain(x: float) -> str:
    """An exploitability (or a gain) as the page says it."""
    return "0" if x == 0 else f"{x:z.2g}" if x < 0.001 else f"{x:z.3f}"


def source_of(advice: dict) -> str:
    """What answered, in one clause (no "Source:" of its own)."""
    return str(advice.get("source") or advice.get("solver") or "unknown").rstrip(".")


def limits_of(advice: dict) -> str | None:
    """What the answer's model leaves out or takes as given, when it says so (a Coup
    re-solve's truncation, a ¡Cobardes! re-solve's beliefs)."""
    text = advice.get("truncated") or advice.get("model")
    return str(text) if text else None


def accuracy_of(advice: dict) -> dict:
    """How accurate the answer is, from its exploitability (a game's page says it first
    where it knows more, :attr:`analysis.explore.common.Page.accuracy`): ``kind``
    (``exact``, ``measured``, ``lower bound`` or ``not measured``), ``text`` in words for
    the source line, and ``exploitability`` (what a best response gains against the
    answer's strategy where that is measured or bounded; ``None`` where it is not)."""
    x = advice.get("exploitability")
    if not number(x):
        return accuracy("not measured", "accuracy not measured")
    if advice.get("abstraction"):
        return accuracy("lower bound", f"exploitability at least {gain(x)} (measured "
                        "within the solve's abstraction: a lower bound on the true one)", x)
    if x == 0:
        return accuracy("exact", "exploitability 0, exact (no strategy gains against it)",
                        0.0)
    return accuracy("measured", f"exploitability {gain(x)}, measured exactly (the most "
                    "a best response gains)", x)


def accuracy(kind: str, text: str, exploitability: float | None = None) -> dict:
    """An answer's accuracy as the page shows it (:func:`accuracy_of`)."""
    return {"kind": kind, "text": text,
            "exploitability": None if exploitability is None else float(exploitability)}
