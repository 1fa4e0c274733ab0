"""The optional protocol a Farol game state offers to the solvers for transpositions.

OpenSpiel identifies a node by its history; many histories reach the same
position (¡Cobardes! cards played in another order, Coup coins reached by other
moves). A state that implements :class:`KeyedState` lets the solver engine merge
them into a graph (``analysis.solve``):

``state_key()``
    Identifies the whole position, every player's private cards included, up to
    the order of past events: two states with equal keys have the same future
    (same legal actions, same chance outcomes, same returns for the same
    continuation). Must include the player to move and the phase.
``infoset_key(player)``
    What ``player`` knows of the position, as a compact key: their private cards
    plus the public position. Without hidden information this is exact; with it,
    keying information sets this way forgets the order of past events and is an
    imperfect-recall abstraction (the engine says so in its result).

Both are hashable (``str``/``bytes``/``tuple``) and cheap to compute.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, runtime_checkable


@runtime_checkable
class KeyedState(Protocol):
    def state_key(self) -> Hashable: ...

    def infoset_key(self, player: int) -> Hashable: ...
