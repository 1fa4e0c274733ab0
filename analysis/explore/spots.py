"""The spots the explorer shows and the advice at them, as JSON for the page.

A spot is either reached by play (a game's parameters, ``k=v,k=v``, each a ``--param``, and
the moves from its start by their OpenSpiel names, as for ``--history``) or built by
clicking (a ¡Cobardes! position of cards, courtiers, villains and score; a Coup position
of cards, lost cards and coins). The advice is the one ``farol advise cobardes|coup``
prints with ``--json``: the same functions compute it. Where advice cannot be given at a
spot, the page gets the line ``farol advise`` would print. Goat Lords has no equilibrium
to show: its "advice" is the move Farol's strongest agent (``best``) makes there.

What is the same for every game is here; what one game adds (its presets, the cards the
page offers, its advice) is its page's, :mod:`analysis.explore.games`, found through its
wing (:mod:`analysis.wings`).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from analysis.explore import answers
from analysis.explore.common import Game, Page, history_of, param_items
from analysis.explore.games import PAGES
from analysis.shared.params import load_game, parse_params
from games import catalog as game_catalog
from games.errors import InvalidParameterError
from games.history import replay

GAMES: dict[str, Game] = {key: page.game for key, page in PAGES.items()}
# Every chart any page may show (the app serves only these from the reports).
CHART_FILES = frozenset(c.file for page in PAGES.values() for c in page.charts)


def page_of(key: Any) -> Page:
    """The explorer's page of the game called ``key``."""
    if not isinstance(key, str) or key not in PAGES:
        raise InvalidParameterError(f"game must be one of {', '.join(PAGES)}")
    return PAGES[key]


def game_of(key: Any) -> Game:
    """The explorer's game called ``key``."""
    return page_of(key).game


def our_names() -> set[str]:
    """The explorer's own names (games, their parameters, cards): a message may quote
    them even where the user sent them too."""
    names = set(GAMES) | {g.name for g in GAMES.values()}
    for page in PAGES.values():
        names |= page.names()
        spec = next(t for t in pyspiel.registered_games() if t.short_name == page.game.name)
        names |= set(spec.parameter_specification)
    return names


def catalog() -> dict:
    """What the page offers: the games, their presets and the cards it shows to click."""
    out: dict = {
        "games": [{"key": g.key, "title": g.title, "name": g.name, "build": g.build,
                   "presets": [{"title": p.title, "params": p.params} for p in g.presets]}
                  for g in GAMES.values()],
    }
    for key, page in PAGES.items():
        offered = page.catalog()
        if offered:
            out[key] = offered
    return out


def charts_for(facts: answers.Facts) -> list[dict]:
    """The charts of the spot's game that describe the spot of ``facts``."""
    return answers.charts_for(page_of(facts.game).charts, facts)


def load(key: Any, params: Any) -> pyspiel.Game:
    """The game ``key`` with ``params`` written ``k=v,k=v`` (each a ``--param``)."""
    game = game_of(key)
    return load_game(game.name, parse_params(game.name, param_items(params)))


def spot(key: Any, params: Any, history: Any) -> pyspiel.State:
    """The state the moves ``history`` reach from the start of the game."""
    return replay(load(key, params), ";".join(history_of(history)), flag="moves played")


def seat_of(state: pyspiel.State) -> int:
    """Whose eyes the page shows ``state`` with: the player to move; at a chance move or
    the end, the last player who moved (player 0 before anyone has)."""
    if not state.is_terminal() and not state.is_chance_node():
        return int(state.current_player())
    walk, seat = state.get_game().new_initial_state(), 0
    for action in state.history():
        if walk.current_player() >= 0:
            seat = int(walk.current_player())
        walk.apply_action(action)
    return seat


def describe(state: pyspiel.State) -> dict:
    """A state for the page: its text as one player sees it (the game's own, as ``farol
    play`` shows it: the rival's hidden cards are not in it), whose move it is and the
    moves legal there by name (a chance node's outcomes with their probabilities), or
    the final returns."""
    seat = seat_of(state)
    render = game_catalog.entry(state.get_game().get_type().short_name).render
    out: dict = {"text": render(state, seat).rstrip(), "seat": seat,
                 "moves_played": len(state.history()),
                 "terminal": state.is_terminal(), "chance": state.is_chance_node(),
                 "player": int(state.current_player()), "moves": []}
    if state.is_terminal():
        out["returns"] = [float(r) for r in state.returns()]
    elif state.is_chance_node():
        out["moves"] = [{"name": state.action_to_string(pyspiel.PlayerId.CHANCE, a),
                         "probability": float(p)}
                        for a, p in state.chance_outcomes() if p > 0]
    elif not state.is_simultaneous_node():
        player = state.current_player()
        out["moves"] = [{"name": state.action_to_string(player, a)}
                        for a in state.legal_actions(player)]
    return out


def advice_at(key: Any, params: Any, history: Any, options: Any = None) -> dict:
    """``{"advice": ...}`` at the spot the moves reach, as ``farol advise KEY --param ...
    --history`` gives it, or ``{"unavailable": line}`` with its message where it gives
    none; ``command`` is that command line. Bad parameters or moves raise (they are not
    the spot's fault). For Goat Lords, the move of the ``best`` agent."""
    state = spot(key, params, history)
    return page_of(key).advice_at(state, params, history, options)


def advice_of_position(key: Any, fields: Any) -> dict:
    """``{"advice": ...}`` for a position built in the page (``farol advise KEY`` with
    the position's flags), or ``{"unavailable": line}`` where no advice is given."""
    page = page_of(key)
    if page.advice_of_position is None or not page.game.build:
        raise InvalidParameterError(f"{page.game.title}: a spot is reached by stepping "
                                    "through a game, not built")
    return page.advice_of_position(fields if isinstance(fields, dict) else {})
