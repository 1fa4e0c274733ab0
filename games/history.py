"""A game's spot from the moves that lead to it, named as OpenSpiel names them.

``--history 'Draw Duke;Draw Contessa;...;Income'`` lists, from the start of the game, every
move (chance outcomes included) by its ``state.action_to_string`` name. Names match
exactly, else ignoring case and runs of spaces when that leaves one move.
"""

from __future__ import annotations

import pyspiel

from games.errors import InvalidPositionError

SHOWN = 12  # legal moves named in an error


def history_names(text: str) -> list[str]:
    """The move names of ``text`` (separated by ``;``, blanks around them dropped)."""
    return [name.strip() for name in str(text).split(";") if name.strip()]


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _moves(state: pyspiel.State) -> list[int]:
    if state.is_chance_node():
        return [a for a, p in state.chance_outcomes() if p > 0]
    return list(state.legal_actions())


def history_text(state: pyspiel.State) -> str:
    """The moves that led to ``state``, by name, as :func:`replay` reads them."""
    walk = state.get_game().new_initial_state()
    names = []
    for action in state.history():
        names.append(walk.action_to_string(walk.current_player(), action))
        walk.apply_action(action)
    return ";".join(names)


def replay(game: pyspiel.Game, text: str, flag: str = "--history") -> pyspiel.State:
    """The state after the moves ``text`` names, from the start of ``game``.

    Raises
    ------
    InvalidPositionError
        One line naming the first move that is not legal where it is played (with the
        legal ones), or the move played after the game is over.
    """
    state = game.new_initial_state()
    names = history_names(text)
    for i, name in enumerate(names, start=1):
        if state.is_terminal():
            raise InvalidPositionError(
                f"{flag}: the game is over after move {i - 1}; move {i} {name!r} cannot "
                "be played")
        if state.is_simultaneous_node():
            raise InvalidPositionError(f"{flag}: move {i} is simultaneous; this game cannot "
                                       "be replayed from names")
        player = state.current_player()
        moves = {state.action_to_string(player, a): a for a in _moves(state)}
        action = moves.get(name)
        if action is None:
            folded = [a for text_, a in moves.items() if _fold(text_) == _fold(name)]
            if len(folded) != 1:
                legal = list(moves)
                shown = ", ".join(legal[:SHOWN]) + (", ..." if len(legal) > SHOWN else "")
                raise InvalidPositionError(
                    f"{flag}: move {i} {name!r} is not legal here; legal: {shown}")
            action = folded[0]
        state.apply_action(action)
    return state
