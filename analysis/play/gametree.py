"""Exhaustive counts of a game's tree: histories, terminals and information sets."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pyspiel


class TreeTooLargeError(RuntimeError):
    """The walk passed its node limit."""


@dataclass(frozen=True)
class TreeSize:
    """Counts of one game tree.

    ``histories`` counts every node (chance, decision and terminal); simultaneous
    nodes count once, and their joint actions are expanded.
    """

    histories: int
    terminals: int
    chance_nodes: int
    decision_nodes: int
    infosets: tuple[int, ...]


def count_tree(game: pyspiel.Game, max_nodes: int = 2_000_000) -> TreeSize:
    """Walk the whole tree once and count it.

    Raises
    ------
    TreeTooLargeError
        When the tree has more than ``max_nodes`` nodes.
    """
    n = game.num_players()
    has_infostate = game.get_type().provides_information_state_string
    infosets: list[set[str]] = [set() for _ in range(n)]
    histories = terminals = chance = decision = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if histories > max_nodes:
            raise TreeTooLargeError(f"{game} has more than {max_nodes:,} nodes")
        if state.is_terminal():
            terminals += 1
            continue
        if state.is_chance_node():
            chance += 1
            for action, _ in state.chance_outcomes():
                stack.append(state.child(action))
            continue
        decision += 1
        if state.is_simultaneous_node():
            legal = [state.legal_actions(p) for p in range(n)]
            for p in range(n):
                if has_infostate and len(legal[p]) > 1:
                    infosets[p].add(state.information_state_string(p))
            for joint in itertools.product(*[acts or [0] for acts in legal]):
                child = state.clone()
                child.apply_actions(list(joint))
                stack.append(child)
            continue
        player = state.current_player()
        if has_infostate:
            infosets[player].add(state.information_state_string(player))
        for action in state.legal_actions():
            stack.append(state.child(action))
    return TreeSize(histories, terminals, chance, decision, tuple(len(s) for s in infosets))
