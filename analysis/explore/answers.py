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
- **The charts** of ``farol report`` that describe the spot (:data:`CHARTS`, each with
  the spots it describes), chosen from the spot's :class:`Facts`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analysis.coup.studies.local_best_response import stored_bound
from games.cobardes import cards as BC
from games.coup.cards import CONTESSA

FULL = (BC.MAX_WARRIOR, BC.MAX_COMBATS)  # the report's battles: warriors 0-6, 7 combats


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

    @property
    def full(self) -> bool:
        return (self.warriors, self.combats) == FULL


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


def _one_card_each(f: Facts) -> bool:
    """The report's endgames: one face-down card each, both players having lost a Contessa."""
    return f.face_down == (1, 1) and all(lost == (CONTESSA,) for lost in f.lost)


_ENDGAMES = ("2-player endgames with one face-down card each (both lost a Contessa), "
             "coins 0-9, capped at 2 turns")
# The full battle with hidden villains the report charts (benchmarks/cobardes_full_battle.py).
FULL_BATTLE_COURTIERS = ("Squire", "Archer")

CHARTS = {
    "cobardes": (
        Chart("cobardes_warriors_mix.png", "Opening mix and play by combat",
              "the warriors-only battle, warriors 0-6, 7 combats",
              lambda f: f.variant == "warriors" and f.full and not f.score),
        Chart("cobardes_card_importance.png", "Card importance by combat",
              "the warriors-only battle, warriors 0-6, 7 combats",
              lambda f: f.variant == "warriors" and f.full and not f.score),
        Chart("cobardes_courtier_battle.png", "Courtier battle matchups",
              "battles with courtiers, every pairing, warriors 0-6, 7 combats",
              lambda f: f.variant == "courtiers" and f.full and not f.score),
        Chart("cobardes_courtier_war.png", "Courtier war matchups",
              "wars with courtiers from 0-0, every pairing, warriors 0-6, 7 combats",
              lambda f: f.variant == "courtiers" and f.full),
        Chart("cobardes_war_by_score.png", "War win probability by score",
              "wars without villains, by score, warriors 0-6, 7 combats",
              lambda f: f.score and f.variant in ("warriors", "courtiers") and f.full),
        Chart("cobardes_villain_matchups.png", "Villain matchups",
              "battles of warriors and villains, both villains known, warriors 0-6, "
              "7 combats",
              lambda f: f.variant == "villains" and not f.hidden and f.full),
        Chart("cobardes_hidden_villains.png", "Hidden villain deals",
              "battles of warriors and villains dealt face down, warriors 0-3, 3 combats",
              lambda f: f.variant == "villains" and f.hidden
              and (f.warriors, f.combats) == (3, 3)),
        Chart("cobardes_full_battle_villains.png", "Full battle, hidden villain deals",
              "the full battle, Squire against Archer, villains dealt face down",
              lambda f: f.variant == "all" and f.hidden and f.full
              and f.courtiers == FULL_BATTLE_COURTIERS),
    ),
    "coup": (
        Chart("coup_endgame_value.png", "Mover's value in 1v1 endgames", _ENDGAMES,
              _one_card_each),
        Chart("coup_endgame_draw.png", "Draw probability at the cap", _ENDGAMES,
              _one_card_each),
        Chart("coup_bluff_rates.png", "Bluff and challenge rates", _ENDGAMES,
              _one_card_each),
        Chart("coup_bluff_by_coins.png", "Bluff rates by coins", _ENDGAMES, _one_card_each),
        Chart("coup_priced_bluff_rates.png", "Bluff rates with the cap priced",
              "the same endgames, the cap priced by Markov guarantees", _one_card_each),
    ),
    "goat_lords": (),
}
CHART_FILES = frozenset(c.file for charts in CHARTS.values() for c in charts)


def charts_for(facts: Facts) -> list[dict]:
    """The charts that describe the spot of ``facts``."""
    return [c.to_json() for c in CHARTS.get(facts.game, ()) if c.fits(facts)]


# ------------------------------------------------------------------ the value
def spot_value(advice: dict, actions: list[dict]) -> tuple[float | None, str]:
    """The value for the player to move and where it comes from: ``"solve"`` (the
    answer's own), ``"mix"`` (each move's value weighed by its probability) or ``""``
    (no value)."""
    value = advice.get("value")
    if _number(value):
        return float(value), "solve"
    weighed = [(r["probability"], r["value"]) for r in actions]
    total = sum(p for p, _ in weighed)
    if weighed and all(_number(v) for _, v in weighed) and total > 0:
        return sum(p * v for p, v in weighed) / total, "mix"
    return None, ""


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


# ------------------------------------------------------------------ the source line
def _gain(x: float) -> str:
    """An exploitability (or a gain) as the page says it."""
    return "0" if x == 0 else f"{x:.2g}" if x < 0.001 else f"{x:.3f}"


def source_of(key: str, advice: dict) -> str:
    """What answered, in one clause (no "Source:" of its own)."""
    source = str(advice.get("source") or advice.get("solver") or "unknown").rstrip(".")
    if key == "coup" and "turn_cap" in advice:  # the exact endgame solve, or the opening's
        source += (", the cap priced by Markov guarantees" if advice.get("cap_pricing")
                   == "markov" else ", a game reaching the cap counted as a draw")
        if advice.get("stored"):
            source += f"; solved once and stored in {advice['stored']}"
    return source


def limits_of(advice: dict) -> str | None:
    """What the answer's model leaves out or takes as given, when it says so (a Coup
    re-solve's truncation, a ¡Cobardes! re-solve's beliefs)."""
    text = advice.get("truncated") or advice.get("model")
    return str(text) if text else None


def accuracy_of(key: str, advice: dict) -> dict:
    """How accurate the answer is: ``kind`` (``exact``, ``measured``, ``lower bound`` or
    ``not measured``), ``text`` in words for the source line, and ``exploitability``
    (what a best response gains against the answer's strategy where that is measured or
    bounded; ``None`` where it is not)."""
    if key == "goat_lords":
        return _accuracy("not measured", "accuracy not measured (a search agent's move, "
                         "not a solved strategy)")
    if "exploitability_in_turn" in advice or advice.get("agent") == "best":  # best's re-solve
        inside = (f"; inside the re-solved turn a best response gains at most "
                  f"{_gain(advice['exploitability_in_turn'] / 2)} in win probability"
                  if _number(advice.get("exploitability_in_turn")) else "")
        return _whole_game("resolve", advice, inside)
    if key == "coup" and "exploitability_kind" in advice:  # the blueprint, or its re-solve
        if "resolve" in advice:  # the re-solve of the next decisions from the blueprint
            r = advice["resolve"] if isinstance(advice["resolve"], dict) else {}
            inside = (f"; inside the re-solved decisions a best response gains at most "
                      f"{_gain(r['exploitability'])}"
                      if _number(r.get("exploitability")) else "")
            return _whole_game("resolve-blueprint", advice, inside)
        return _whole_game("blueprint", advice, "")
    x = advice.get("exploitability")
    if not _number(x):
        return _accuracy("not measured", "accuracy not measured")
    if advice.get("abstraction"):
        return _accuracy("lower bound", f"exploitability at least {_gain(x)} (measured "
                         "within the solve's abstraction: a lower bound on the true one)", x)
    if x == 0:
        return _accuracy("exact", "exploitability 0, exact (no strategy gains against it)",
                         0.0)
    if key == "coup" and "turn_cap" in advice:
        cap = advice["turn_cap"]
        turns = "1 turn" if cap == 1 else f"{cap} turns"
        return _accuracy("measured", f"exploitability {_gain(x)}, measured exactly in the "
                         f"game capped at {turns} (the most a best response gains there)", x)
    return _accuracy("measured", f"exploitability {_gain(x)}, measured exactly (the most "
                     "a best response gains)", x)


def _accuracy(kind: str, text: str, exploitability: float | None = None) -> dict:
    return {"kind": kind, "text": text,
            "exploitability": None if exploitability is None else float(exploitability)}


def _whole_game(agent: str, advice: dict, inside: str) -> dict:
    """The accuracy of a Coup strategy played from the deal (``agent``, as ``farol coup
    match`` names it): its stored lower bound where one is measured, else that its loss
    is not measured (a re-solve's own small gap, ``inside``, bounds nothing outside it)."""
    bound = stored_bound(agent, advice.get("deck"), advice.get("setup"))
    if bound is not None and bound["shown"]:
        return _accuracy("lower bound", bound["text"] + inside, bound["gain"])
    unmeasured = "its loss to a best response in the whole game is not measured"
    if bound is not None:  # a run whose interval holds 0 bounds nothing
        unmeasured += ": " + bound["text"]
    return _accuracy("not measured", unmeasured + inside)
