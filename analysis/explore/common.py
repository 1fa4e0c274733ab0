"""What the explorer's pages of every game share: a game's presets, the page's fields
read and checked (one line naming a bad one), the ``farol advise`` command line that
prints the same advice, and an answer summed up as every page shows it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyspiel

from analysis.explore import answers
from analysis.shared.lists import comma_list
from games.errors import InvalidParameterError

MAX_MOVES = 3000  # moves in one history (a Goat Lords game of rounds is long)


@dataclass(frozen=True)
class Preset:
    """Parameters to start a game from, offered in the page's list."""

    title: str
    params: str


@dataclass(frozen=True)
class Game:
    """A game the explorer shows: its OpenSpiel name and the parameters to start from."""

    key: str
    title: str
    name: str
    presets: tuple[Preset, ...]
    build: bool = True  # a spot can be built by clicking cards (else only stepped to)


@dataclass(frozen=True)
class Page:
    """A game's page in the explorer: the game and its presets, what the page offers to
    click (``catalog``), the names a message may quote (``names``), the advice at a spot
    reached by play (``advice_at(state, params, history, options)``) and at a position
    built by clicking (``advice_of_position(fields)``, ``None`` where a spot is only
    stepped to), the report's charts that describe its spots, and what the game adds to
    an answer's accuracy and source (``None`` where the common words say it)."""

    game: Game
    advice_at: Callable[[pyspiel.State, Any, Any, Any], dict]
    catalog: Callable[[], dict] = dict
    names: Callable[[], set[str]] = set
    advice_of_position: Callable[[dict], dict] | None = None
    charts: tuple[answers.Chart, ...] = ()
    accuracy: Callable[[dict], dict | None] = lambda advice: None
    source: Callable[[dict, str], str] = lambda advice, source: source


def text(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidParameterError(f"{field} must be text, not {type(value).__name__}")
    return value


def history_of(value: Any) -> list[str]:
    """The moves of ``value``: a list of move names or one ``;``-separated text."""
    if isinstance(value, str) or value is None:
        names = [n.strip() for n in text(value, "history").split(";") if n.strip()]
    elif isinstance(value, list) and all(isinstance(n, str) for n in value):
        names = [n.strip() for n in value if n.strip()]
    else:
        raise InvalidParameterError("history must be a list of move names")
    if len(names) > MAX_MOVES:
        raise InvalidParameterError(f"history: at most {MAX_MOVES} moves")
    if any(";" in n for n in names):
        raise InvalidParameterError("history: a move name holds no ';'")
    return names


def param_items(params: Any) -> list[str]:
    """The ``k=v`` items of the page's parameters ``k=v,k=v`` (empty ones left out)."""
    return list(comma_list("params", text(params, "params"), empty_ok=True))


def names(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidParameterError(f"{field} must be a list of card names")
    return value


def whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidParameterError(
            f"{field} must be a whole number from {low} to {high}")
    return value


def name_or_none(value: Any, field: str) -> str | None:
    return text(value, field).strip() or None


def flag(options: Any, name: str) -> bool:
    """A true-or-false option of the page's Advanced settings, checked."""
    options = options if isinstance(options, dict) else {}
    value = options.get(name, False)
    if not isinstance(value, bool):
        raise InvalidParameterError(f"{name} must be true or false")
    return value


def history_words(params: Any, history: Any) -> list[str]:
    """``farol advise``'s ``--param``s and ``--history`` for a spot reached by play."""
    return [*(w for item in param_items(params) for w in ("--param", item)),
            "--history", ";".join(history_of(history))]


def command(*words: str) -> str:
    """The ``farol advise`` command line that prints the same advice."""
    return " ".join(shlex.quote(w) for w in ("farol", "advise", *words))


def summary(page: Page, advice: dict, facts: answers.Facts) -> dict:
    """The advice's JSON with what every page shows alike: each action's probability and
    value (``None`` where the answer gives no value), sorted most played first; the value
    for the player to move (:func:`~analysis.explore.answers.spot_value`); one source and
    its accuracy; what the model leaves out; and the report charts that describe the
    spot (chosen by ``facts``)."""
    actions = advice.get("actions") or None
    if actions is None and "moves" in advice:  # the re-solve's advice
        actions = [{"action": m["move"], "probability": m["probability"], "value": m["value"]}
                   for m in advice["moves"]]
    if actions is None:
        mix = advice.get("strategy") or {m["action"]: m["probability"]
                                         for m in advice.get("mix", [])}
        actions = [{"action": a, "probability": p, "value": None} for a, p in mix.items()]
    actions = [{"action": r["action"], "probability": r["probability"], "value": r["value"]}
               for r in actions]
    actions.sort(key=lambda r: (-r["probability"],
                                -(r["value"] if r["value"] is not None else 0)))
    value, value_from = answers.spot_value(advice, actions)
    accuracy = page.accuracy(advice) or answers.accuracy_of(advice)
    return {"game": page.game.key, "player": advice.get("player"), "value": value,
            "value_from": value_from,
            "no_value": None if value is not None else
            "this answer gives no value for the spot, only its mix",
            "actions": actions,
            "opponent_hand": advice.get("opponent_hand", advice.get("opponent_hands", {})),
            "source": page.source(advice, answers.source_of(advice)),
            "limits": answers.limits_of(advice),
            "accuracy": accuracy, "exploitability": accuracy["exploitability"],
            "charts": answers.charts_for(page.charts, facts), "json": advice}


