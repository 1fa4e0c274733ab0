"""Coup's walker for the solver's compiler (the :class:`games.keys.Walker` protocol).

The compiler can walk positions directly instead of OpenSpiel states: a position is
an :class:`~games.coup.engine.Core`, stepped by the same :meth:`Core.apply` the
``CoupState`` calls, and every query below calls the function the state calls
(:mod:`games.coup.game`), so there is no second copy of the rules. ``Core.apply``
mutates, so :meth:`CoupWalker.child` applies to a copy (a shallow copy of immutable
fields): a position is never changed once returned.

Observations: a core's log is an immutable linked list shared with its ancestors,
so the events a move added are the log nodes between the child's head and the
parent's. A player's perfect-recall information state string is ``"P<player>"``
followed by the text of every log event they see (:func:`~games.coup.game.event_text`),
so the texts of the new events they see, concatenated along a history after the
root's own, identify it.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from games.coup import engine as E
from games.coup import game as G


@lru_cache(maxsize=1 << 16)
def _text(event: tuple, viewer: int, deck: str) -> str | None:
    # Events repeat across the tree (the same announcement in many histories).
    return G.event_text(event, viewer, deck)


class CoupWalker:
    """The pure rule functions of one ``python_coup`` game, over :class:`Core` positions.

    Parameters
    ----------
    config
        The game's validated configuration (``CoupGame.config``).
    history
        Keep the event log in the positions (tree mode needs it for
        :meth:`new_observations` and :meth:`information_state_string`); without it
        the positions drop their log (graph mode needs only the keys).
    """

    def __init__(self, config: E.Config, history: bool = True):
        self.config = config
        self.history = history
        self._deck = config.deck

    def root(self) -> E.Core:
        core = E.Core(self.config)
        if not self.history:
            core.log = None
        return core

    def actor(self, s: E.Core) -> int:
        return s.cur

    def legal_actions(self, s: E.Core) -> list[int]:
        return s.legal_actions()

    def chance_outcomes(self, s: E.Core) -> list[tuple[int, float]]:
        return s.chance_outcomes()

    def child(self, s: E.Core, action: int) -> E.Core:
        new = s.copy()
        new.apply(action)
        if not self.history:
            new.log = None
        return new

    def returns(self, s: E.Core) -> tuple[float, ...]:
        return tuple(G.returns(s))

    def state_key(self, s: E.Core) -> Hashable:
        return G.state_key(s)

    def infoset_key(self, s: E.Core, player: int) -> Hashable:
        return G.infoset_key(s, player)

    def _require_history(self, what: str) -> None:
        if not self.history:
            raise ValueError(f"{what} needs the event log: make the walker with history=True")

    def new_observations(self, parent: E.Core, child: E.Core, player: int) -> tuple:
        """The log lines ``player`` sees among the events added from ``parent`` to ``child``."""
        self._require_history("new_observations")
        stop = parent.log
        added = []
        node = child.log
        while node is not stop:
            if node is None:
                raise ValueError("child is not a descendant of parent")
            node, event = node
            added.append(event)
        deck = self._deck
        texts = (_text(event, player, deck) for event in reversed(added))
        return tuple(t for t in texts if t is not None)

    def root_observations(self, s: E.Core, player: int) -> tuple:
        """The log lines ``player`` sees at the root (a fixed card they hold, say)."""
        self._require_history("root_observations")
        return tuple(G.public_log(s, player))

    def information_state_string(self, s: E.Core, player: int) -> str:
        self._require_history("information_state_string")
        return G.information_state_text(s, player)

    def action_to_string(self, s: E.Core, player: int, action: int) -> str:
        return G.action_name(s, player, action)
