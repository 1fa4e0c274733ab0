"""The battle's pure rule functions offered to the solver's compiler.

:class:`BattleWalker` implements :class:`games.keys.Walker` over the engine's
immutable positions (:class:`games.cobardes.engine.Pos`): every method calls the
functions :class:`games.cobardes.battle.CobardesBattleState` calls, so a walk
through it visits the same game without building an OpenSpiel state per node.
"""

from __future__ import annotations

from games.cobardes import engine as E
from games.cobardes import keys as K
from games.cobardes import view as V
from games.cobardes.options import Rules


class BattleWalker:
    """Positions of one battle, for :func:`analysis.solve.compile_game`.

    Parameters
    ----------
    rules
        The battle's validated rules (``game.rules``).
    history
        Keep the event log the information-state strings are read from. Without it
        (graph mode needs only the keys) positions carry no log, which keeps every
        move's copy small.
    """

    def __init__(self, rules: Rules, history: bool = True):
        self._cfg = rules.cfg
        self._pay = rules.pay
        root = rules.initial
        if not history:
            root = root.copy()
            root.ev = None
            root.seen = None
        self._root = root

    def root(self) -> E.Pos:
        return self._root

    def actor(self, s: E.Pos) -> int:
        return s.actor

    def legal_actions(self, s: E.Pos) -> list[int]:
        return E.legal_actions(self._cfg, s)

    def chance_outcomes(self, s: E.Pos) -> list[tuple[int, float]]:
        return E.chance_outcomes(self._cfg, s)

    def child(self, s: E.Pos, action: int) -> E.Pos:
        return E.apply(self._cfg, s, action)

    def returns(self, s: E.Pos) -> tuple[float, float]:
        value = self._pay.value(s.outcome)
        return value, -value

    def state_key(self, s: E.Pos):
        return K.state_key(s)

    def infoset_key(self, s: E.Pos, player: int):
        return K.infoset_key(s, player)

    def new_observations(self, parent: E.Pos, child: E.Pos, player: int) -> tuple:
        # The log only grows: the move's events are the child's tail.
        bit = 1 << player
        return tuple(V.event_text(e) for e in child.ev[len(parent.ev):] if e[0] & bit)

    def information_state_string(self, s: E.Pos, player: int) -> str:
        return V.info_string(s, player)

    def action_to_string(self, s: E.Pos, player: int, action: int) -> str:
        return V.action_string(s, player, action)
