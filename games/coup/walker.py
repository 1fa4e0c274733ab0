"""Coup's walker for the solver's compiler (the :class:`games.keys.Walker` protocol).

The compiler can walk bare :class:`~games.coup.engine.Core` positions instead of
OpenSpiel states, stepped by the same rules and keyed by the same functions
(:mod:`games.coup.view`), so there is no second copy of them. A child is a copy: a
position is never changed once returned. Also the memory-keyed and decisive-Coup
variants used by the Coup studies.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from games.coup import cards as C
from games.coup import engine as E
from games.coup import view as V


@lru_cache(maxsize=1 << 16)
def _text(event: tuple, viewer: int, deck: str) -> str | None:
    # Events repeat across the tree (the same announcement in many histories).
    return V.event_text(event, viewer, deck)


def _events(log, stop) -> list[tuple]:
    """The events of the log ``log`` newer than ``stop``, oldest first.

    ``stop`` is an older node of the same linked list, or ``None`` for the whole of a
    log that starts at this move (graph mode drops the log between moves).
    """
    out = []
    while log is not stop:
        if log is None:
            raise ValueError("child is not a descendant of parent")
        log, event = log
        out.append(event)
    out.reverse()
    return out


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
        return tuple(V.returns(s))

    def state_key(self, s: E.Core) -> Hashable:
        return V.state_key(s)

    def infoset_key(self, s: E.Core, player: int) -> Hashable:
        return V.infoset_key(s, player)

    def _require_history(self, what: str) -> None:
        if not self.history:
            raise ValueError(f"{what} needs the event log: make the walker with history=True")

    def new_observations(self, parent: E.Core, child: E.Core, player: int) -> tuple:
        """The log lines ``player`` sees among the events added from ``parent`` to ``child``.

        A core's log is an immutable linked list shared with its ancestors, so the events a
        move added are the nodes between the two heads; the texts a player sees, after the
        root's own, identify their perfect-recall information state.
        """
        self._require_history("new_observations")
        return self._seen(_events(child.log, parent.log), player)

    def observations_of(self, parent: E.Core, child: E.Core, players) -> tuple:
        """:meth:`new_observations` for each of ``players``, reading the new events once."""
        self._require_history("observations_of")
        events = _events(child.log, parent.log)
        return tuple(self._seen(events, p) for p in players)

    def _seen(self, events: list[tuple], player: int) -> tuple:
        texts = (_text(event, player, self._deck) for event in events)
        return tuple(t for t in texts if t is not None)

    def root_observations(self, s: E.Core, player: int) -> tuple:
        """The log lines ``player`` sees at the root (a fixed card they hold, say)."""
        self._require_history("root_observations")
        return tuple(V.public_log(s, player))

    def information_state_string(self, s: E.Core, player: int) -> str:
        self._require_history("information_state_string")
        return V.information_state_text(s, player)

    def action_to_string(self, s: E.Core, player: int, action: int) -> str:
        return V.action_name(s, player, action)


# Events after which a player's earlier claims, and what others saw of their cards, say
# nothing about the cards they now hold: they lost a card, proved a claim (the shown card
# goes back and they draw another), exchanged (the draw is private, the fact public) or
# were forced to swap after an examination.
_CHANGES_FIRST = frozenset((E.E_LOSE, E.E_PROVEN, E.E_XDRAW, E.E_XDRAW2))
NO_CARD = -1


def memory_step(memory: tuple, events: list[tuple]) -> tuple:
    """``memory`` after ``events`` (log events, in order).

    ``memory`` is ``(claims, seen)``: ``claims[p]`` is the bitmask of the characters
    player ``p`` has claimed (turn actions and blocks) since their hand last changed;
    ``seen[v][p]`` is the card ``v`` was shown of ``p``'s hand (an examination ending
    with the card kept) since that hand last changed, or :data:`NO_CARD`.
    """
    claims, seen = list(memory[0]), [list(row) for row in memory[1]]

    def changed(p):
        claims[p] = 0
        for row in seen:
            row[p] = NO_CARD

    for event in events:
        code = event[1]
        if code == E.E_ACT:
            claim = C.KIND_CLAIM[event[3]]
            if claim is not None:
                claims[event[2]] |= 1 << claim
        elif code == E.E_BLOCK:
            claims[event[2]] |= 1 << event[3]
        elif code in _CHANGES_FIRST:
            changed(event[2])
        elif code == E.E_SHOW:
            _, _, target, viewer, card = event
            seen[viewer][target] = card
        elif code == E.E_IFORCE:
            changed(event[3])
    return tuple(claims), tuple(tuple(row) for row in seen)


class MemoryWalker(CoupWalker):
    """Coup's walker with a richer state-keyed abstraction: *claims and sightings*.

    :meth:`CoupWalker.infoset_key` keeps a player's own cards and the public position
    and forgets the past. This walker's keys also keep what a player would use to judge
    the other's cards:

    - for each player, the characters they have claimed (turn actions and blocks) since
      their hand last changed in public view (a lost card, a proven claim, an exchange,
      a forced swap): "they taxed as the Duke last turn, now they block a steal as the
      Captain";
    - the cards this player was shown by an Inquisitor's examination, until the shown
      hand changes (the plain key forgets them as soon as the examination ends).

    The claims are public, so both players' keys carry them; a sighting goes into the
    keys of the two players who saw it. Positions with equal keys have the same legal
    actions, so the keys are an abstraction of the same game: a larger graph than the
    plain keys', whose strategies lose less in the perfect-recall game (measured by
    :func:`analysis.coup.studies.abstraction.loss_at_cap`).

    Positions are :class:`~games.coup.engine.Core` objects with one extra attribute,
    ``memory`` (see :func:`memory_step`), carried by ``Core.copy``.
    """

    def root(self) -> E.Core:
        core = super().root()
        n = self.config.num_players
        start = ((0,) * n, ((NO_CARD,) * n,) * n)
        core.memory = memory_step(start, _events(core.log, None))
        return core

    def child(self, s: E.Core, action: int) -> E.Core:
        new = s.copy()
        stop = s.log if self.history else None
        if not self.history:
            new.log = None
        new.apply(action)
        new.memory = memory_step(s.memory, _events(new.log, stop))
        if not self.history:
            new.log = None
        return new

    def state_key(self, s: E.Core) -> Hashable:
        return (V.state_key(s), s.memory)

    def infoset_key(self, s: E.Core, player: int) -> Hashable:
        seen = s.memory[1]
        # The examined player knows what the examiner saw: both keys carry the sighting.
        about_me = tuple(row[player] for row in seen)
        return (V.infoset_key(s, player), s.memory[0], seen[player], about_me)


def decisive_coup(s: E.Core) -> int | None:
    """The Coup that wins the game at once at ``s``, or ``None``.

    «Golpe de Estado: Paga 7 monedas y mata a un personaje rival (la acción no puede ser
    contrarrestada)»: a player choosing a turn action with 7 coins or more, whose only
    living opponent has one card left, wins by couping it (no block, no challenge).
    """
    if s.over or not s.queue or s.queue[0][0] != E.S_ACTION:
        return None
    actor = s.actor
    if s.coins[actor] < s.cfg.numbers.coup_cost:
        return None
    others = [p for p, hand in enumerate(s.hands) if hand and p != actor]
    if len(others) != 1 or len(s.hands[others[0]]) != 1:
        return None
    return C.encode_turn_action(C.COUP, others[0])


class DecisiveCoupWalker(CoupWalker):
    """Coup's walker with one exact reduction for solvers: a winning Coup is played.

    Where :func:`decisive_coup` finds a Coup that wins at once, the player's only action
    is that Coup. The reduced game has the same value and every equilibrium of it is one
    of the full game: the Coup pays the player +1, the most any play can, at every
    position of the information set (coins and cards left are public), so no other
    action there can do better, and a best response in the reduced game is one in the
    full game. Best responses and the brackets' guarantees measured on the reduced tree
    are therefore those of the full game (``docs/coup_analysis.md``). What it saves: in
    endgames where a player has 7+ coins the trees lose every history that declines the
    Coup (18x fewer nodes at 1/7 coins, cap 3).
    """

    def legal_actions(self, s: E.Core) -> list[int]:
        coup = decisive_coup(s)
        return [coup] if coup is not None else s.legal_actions()
