"""Bots that can sit at a table in ``farol play`` and in tournaments.

A bot is a callable ``bot(state) -> action`` bound to one seat. Factories are
registered by name; analysis modules add theirs (greedy, MCTS, solved strategy).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyspiel

from games.errors import UnknownBotError

Bot = Callable[[pyspiel.State], int]
BotFactory = Callable[[pyspiel.Game, int, int], Bot]


@dataclass(frozen=True)
class BotSpec:
    """A named bot and the games it can play (``None``: every game)."""

    name: str
    description: str
    factory: BotFactory
    games: tuple[str, ...] | None = None
    # For a name that stands for another agent (``best``): what it is at a table, as a
    # dict with "agent", "plays", "data", "strength" and "strength_measured_in".
    about: Callable[[pyspiel.Game], dict] | None = None

    def plays(self, game_name: str) -> bool:
        return self.games is None or game_name in self.games


# Keyed by (name, games): two rulesets may each offer a bot of the same name ("solved").
_BOTS: dict[tuple[str, tuple[str, ...] | None], BotSpec] = {}


def register_bot(spec: BotSpec) -> None:
    """Make a bot available to ``farol play --opponent NAME``."""
    _BOTS[(spec.name, spec.games)] = spec


def bots_for(game_name: str) -> list[BotSpec]:
    """The bots that can play ``game_name``."""
    return [spec for spec in _BOTS.values() if spec.plays(game_name)]


def make_bot(name: str, game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """Build the bot called ``name`` for ``seat``; raises UnknownBotError naming the choices."""
    game_name = game.get_type().short_name
    spec = next((s for s in bots_for(game_name) if s.name == name), None)
    if spec is None:
        choices = ", ".join(s.name for s in bots_for(game_name))
        raise UnknownBotError(f"no bot {name!r} for {game_name}; choose from: {choices}")
    return spec.factory(game, seat, seed)


def uniform_random_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """A bot that picks uniformly among the legal actions of its seat."""
    rng = np.random.default_rng(seed)

    def act(state: pyspiel.State) -> int:
        legal = state.legal_actions(seat)
        return int(legal[rng.integers(len(legal))])

    return act


def sample_chance(state: pyspiel.State, rng: np.random.Generator) -> int:
    """Sample a chance outcome with the probabilities the game declares."""
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    probs = np.array([p for _, p in outcomes], dtype=float)
    return int(actions[rng.choice(len(actions), p=probs / probs.sum())])


register_bot(BotSpec("random", "uniformly random legal actions", uniform_random_bot))


def what_stands_behind(name: str, game: pyspiel.Game) -> dict | None:
    """What the agent called ``name`` really is at ``game``'s table, where the name stands
    for another (``best``); ``None`` for an agent that is what its name says."""
    for spec in bots_for(game.get_type().short_name):
        if spec.name == name and spec.about is not None:
            return spec.about(game)
    return None


def stands_behind_line(name: str, about: dict) -> str:
    """:func:`what_stands_behind` in one line."""
    return (f"{name} here is {about['agent']}: it {about['plays']}; data: {about['data']}; "
            f"strength: {about['strength']} ({about['strength_measured_in']})")
