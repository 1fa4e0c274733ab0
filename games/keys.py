"""The optional protocols a Farol game offers the solver engine: keyed states (to merge
transpositions into a graph) and walkers (pure rule functions, for a fast walk)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, runtime_checkable


@runtime_checkable
class KeyedState(Protocol):
    """A state that names its position, so the engine can merge transpositions.

    OpenSpiel identifies a node by its history; many histories reach the same position
    (¡Cobardes! cards played in another order, Coup coins reached by other moves).

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

    def state_key(self) -> Hashable: ...

    def infoset_key(self, player: int) -> Hashable: ...


@runtime_checkable
class Walker(Protocol):
    """A game's pure rule functions, offered to the compiler for a fast walk.

    Walking a game through OpenSpiel's Python ``State`` API costs a C++ round trip,
    a state object and a deep copy per node. A game whose rules are plain functions
    over an immutable position can hand those functions to the compiler instead
    (``game.solver_walker(history=...)``); the compiler then walks positions
    directly. Nothing here is a second copy of the rules: every method calls the
    same functions the game's ``State`` calls, and the tests check that a walk
    through the walker compiles to exactly the arrays the ``State`` walk gives.

    Positions are opaque to the compiler and never mutated after ``child``
    returns them. Player ids follow OpenSpiel (``pyspiel.PlayerId``): 0 or 1 to
    move, -1 chance, -4 terminal. With ``history=False`` a walker may drop the
    event log its positions carry (graph mode needs only the keys), and
    :meth:`new_observations` / :meth:`information_state_string` may then be
    unavailable.
    """

    def root(self) -> object: ...

    def actor(self, s: object) -> int: ...

    def legal_actions(self, s: object) -> list[int]: ...

    def chance_outcomes(self, s: object) -> list[tuple[int, float]]: ...

    def child(self, s: object, action: int) -> object: ...

    def returns(self, s: object) -> tuple[float, float]: ...

    def state_key(self, s: object) -> Hashable: ...

    def infoset_key(self, s: object, player: int) -> Hashable: ...

    def new_observations(self, parent: object, child: object, player: int) -> tuple:
        """What ``player`` learns on the move from ``parent`` to ``child``, as a tuple
        of hashable items: the concatenation of these tuples along a history must
        identify ``player``'s perfect-recall information state string."""
        ...

    def information_state_string(self, s: object, player: int) -> str: ...

    def action_to_string(self, s: object, player: int, action: int) -> str: ...
