"""The mutable Goat Lords table: one round after another, driven by chance and decisions.

:class:`Table` holds the position as plain lists (hands and the draw pile as counts
per kind, herds as tuples of piles) and moves it on with the pure rule functions
of :mod:`games.goat_lords.rules`. The OpenSpiel state wraps one; the lean
simulators of the tests drive one directly. Copying a table is cheap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.errors import IllegalActionError, InvalidParameterError, InvalidPositionError
from games.goat_lords import rules
from games.goat_lords.cards import (
    DECK_COUNTS,
    DEFAULT_VALUES,
    GOATS,
    IS_WILD,
    KINDS,
    NUM_KINDS,
    WILDS,
    kind_index,
)

MAX_COPIES = 40  # copies of a wild a variant's deck may hold
MAX_HAND = 30  # cards a variant may deal to each player (the deck must hold them all)

# Phases of a round.
DEAL, STARTER, PLAY, DUEL, REFILL, OVER = range(6)
CHANCE = -1
TERMINAL = -4

SCORING_MODES = ("rounds", "single")
DUEL_ANSWER_MODES = ("pile", "last")


@dataclass(frozen=True)
class Config:
    """The rules variant a table plays (built from the game's flat parameters)."""

    players: int = 2
    values: tuple[int, ...] = DEFAULT_VALUES
    scoring: str = "rounds"
    target_score: int = 1000
    duel_answer: str = "pile"
    max_turns: int = 600
    max_rounds: int = 30
    # Copies of the two wilds (Goat Lord, Magical Goatini): the published deck's 4 and 8.
    wilds: tuple[int, ...] = tuple(DECK_COUNTS[k] for k in WILDS)
    hand: int = 0  # cards dealt to each player; 0: the rules' 5 (2-3 players) or 4

    def __post_init__(self):
        if not rules.MIN_PLAYERS <= self.players <= rules.MAX_PLAYERS:
            raise InvalidParameterError(
                f"Goat Lords takes 2 to 6 players, not players={self.players}"
            )
        if len(self.values) != NUM_KINDS or any(not 0 <= v <= 1000 for v in self.values):
            raise InvalidParameterError(
                f"Goat Lords point values must be 12 numbers from 0 to 1000, got {self.values}"
            )
        if self.scoring not in SCORING_MODES:
            raise InvalidParameterError(
                f"scoring must be one of {', '.join(SCORING_MODES)}, not {self.scoring!r}"
            )
        if self.duel_answer not in DUEL_ANSWER_MODES:
            raise InvalidParameterError(
                f"duel_answer must be one of {', '.join(DUEL_ANSWER_MODES)}, not {self.duel_answer!r}"
            )
        if self.target_score < 1:
            raise InvalidParameterError(f"target_score must be positive, not {self.target_score}")
        if self.max_turns < 1 or self.max_rounds < 1:
            raise InvalidParameterError("max_turns and max_rounds must be positive")
        for k, copies in zip(WILDS, self.wilds, strict=True):
            if not 0 <= copies <= MAX_COPIES:
                raise InvalidParameterError(
                    f"the deck takes 0 to {MAX_COPIES} {KINDS[k].name} cards, not {copies}")
        if not 0 <= self.hand <= MAX_HAND:
            raise InvalidParameterError(
                f"hand_size must be 0 (the rules' 5, or 4 with 4-6 players) to {MAX_HAND}, "
                f"not {self.hand}")
        need = self.players * self.hand_size + 1
        if sum(self.counts) < need:
            raise InvalidParameterError(
                f"{self.players} hands of {self.hand_size} cards and the first discard need "
                f"{need} cards; the deck has {sum(self.counts)}")

    @property
    def hand_size(self) -> int:
        return self.hand or rules.hand_size_for(self.players)

    @property
    def counts(self) -> tuple[int, ...]:
        """Copies of each kind in this game's deck (the published deck's, wilds as set)."""
        counts = list(DECK_COUNTS)
        for k, copies in zip(WILDS, self.wilds, strict=True):
            counts[k] = copies
        return tuple(counts)

    @property
    def rounds(self) -> int:
        """Rounds the game can last at most."""
        return 1 if self.scoring == "single" else self.max_rounds

    def max_game_length(self) -> int:
        """An upper bound on actions (chance included) in a game."""
        h = self.hand_size
        # A turn: one action, a duel of at most 2h cards and a yield, then at most 2h draws.
        per_round = self.players * h + 1 + self.max_turns * (4 * h + 2)
        return per_round * self.rounds


class Table:
    """One game of Goat Lords in progress.

    Attributes are plain lists so a copy is a handful of list copies. ``log`` is
    the record of events as ``(owner, token)``: owner ``-1`` is public, otherwise
    only that seat saw the event (its own draws). Recording can be switched off
    for fast simulation.
    """

    __slots__ = (
        "cfg", "record", "hands", "herds", "draw", "discard", "phase", "turn_player",
        "to_move", "pending", "duel", "turns", "round_no", "start_seat", "totals",
        "round_points", "log", "winning", "stats",
    )

    def __init__(self, cfg: Config, record: bool = True):
        self.cfg = cfg
        self.record = record
        self.totals = [0] * cfg.players
        self.round_points: list[list[int]] = []
        self.log: list[tuple[int, str]] = []
        self.winning: list[int] = []
        # Counters for the analyses: duels won by attackers/defenders, wilds drawn per seat.
        self.stats = {"attacker_wins": 0, "defender_wins": 0, "wilds_drawn": [0] * cfg.players,
                      "reshuffles": 0}
        self._start_round(0)

    # --- copying ------------------------------------------------------------------
    def copy(self, record: bool | None = None) -> Table:
        """A copy; ``record=False`` drops the event log (fast simulation from here)."""
        new = Table.__new__(Table)
        new.cfg = self.cfg
        new.record = self.record if record is None else record
        new.hands = [h[:] for h in self.hands]
        new.herds = self.herds[:]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.phase = self.phase
        new.turn_player = self.turn_player
        new.to_move = self.to_move
        new.pending = self.pending[:]
        new.duel = None if self.duel is None else dict(self.duel, cards=self.duel["cards"][:])
        new.turns = self.turns
        new.round_no = self.round_no
        new.start_seat = self.start_seat
        new.totals = self.totals[:]
        new.round_points = [r[:] for r in self.round_points]
        new.log = self.log[:] if new.record else []
        new.winning = self.winning[:]
        new.stats = dict(self.stats, wilds_drawn=self.stats["wilds_drawn"][:])
        return new

    def __deepcopy__(self, memo) -> Table:
        return self.copy()

    # --- rounds -------------------------------------------------------------------
    def _start_round(self, round_no: int) -> None:
        n, h = self.cfg.players, self.cfg.hand_size
        self.round_no = round_no
        # The dealer moves left each round, so the first player rotates too.
        self.start_seat = round_no % n
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.herds: list[rules.Herd] = [() for _ in range(n)]
        self.draw = list(self.cfg.counts)
        self.discard: list[int] = []
        self.phase = DEAL
        self.turn_player = self.start_seat
        self.to_move = CHANCE
        # Deal one card at a time around the table, starting left of the dealer.
        self.pending = [(self.start_seat + i) % n for _ in range(h) for i in range(n)]
        self.duel: dict | None = None
        self.turns = 0
        if self.record:
            self.log.append((-1, f"round{round_no + 1}"))

    def _end_round(self) -> None:
        cfg = self.cfg
        points = [rules.herd_points(herd, cfg.values) for herd in self.herds]
        self.round_points.append(points)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        last = cfg.scoring == "single" or self.round_no + 1 >= cfg.max_rounds
        if last or max(self.totals) >= cfg.target_score:
            # "Si en la misma ronda varias personas pasan de 1,000, entonces gana la puntuación más alta."
            self.winning = rules.winners(points if cfg.scoring == "single" else self.totals)
            self.phase = OVER
            self.to_move = TERMINAL
            self.pending = []
        else:
            self._start_round(self.round_no + 1)

    # --- queries ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def draw_size(self) -> int:
        return sum(self.draw)

    def discard_top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == STARTER:
            # "un comodín no puede comenzar": a wild goes back and another card is turned.
            total = sum(self.draw[k] for k in GOATS)
            return [(k, self.draw[k] / total) for k in GOATS if self.draw[k]]
        total = sum(self.draw)
        return [(k, c / total) for k, c in enumerate(self.draw) if c]

    def legal_actions(self) -> list[int]:
        if self.phase == PLAY:
            return self._play_actions(self.to_move)
        if self.phase == DUEL:
            d = self.duel
            cards = rules.answer_options(
                self.hands[self.to_move], d["kind"], d["cards"][-1], self.cfg.duel_answer
            )
            return [rules.ANSWER0 + k for k in cards] + [rules.YIELD]
        return []

    def _play_actions(self, p: int) -> list[int]:
        hand = self.hands[p]
        births = rules.birth_options(hand)
        assisted = rules.assisted_options(hand, self.discard_top())
        duels = rules.duel_options(hand, self.herds, p)
        if rules.must_discard(births, assisted, duels):
            return [rules.DISCARD0 + k for k in range(NUM_KINDS) if hand[k]]
        actions = [rules.BIRTH_ID[pair] for pair in births]
        actions += [rules.ASSIST0 + k for k in assisted]
        actions += [rules.DUEL0 + t * NUM_KINDS + k for t, k in duels]
        return sorted(actions)

    # --- chance -------------------------------------------------------------------
    def apply_chance(self, kind: int) -> None:
        if self.phase == STARTER:
            if not 0 <= kind < NUM_KINDS or IS_WILD[kind] or not self.draw[kind]:
                raise IllegalActionError(f"{kind} cannot start the discard pile")
            self.draw[kind] -= 1
            self.discard.append(kind)
            if self.record:
                self.log.append((-1, f"start:{KINDS[kind].key}"))
            self.phase = PLAY
            self.to_move = self.turn_player
            return
        if self.phase not in (DEAL, REFILL) or not 0 <= kind < NUM_KINDS or not self.draw[kind]:
            raise IllegalActionError(f"no card {kind} can be drawn now")
        p = self.pending.pop(0)
        self.draw[kind] -= 1
        self.hands[p][kind] += 1
        if IS_WILD[kind]:
            self.stats["wilds_drawn"][p] += 1
        if self.record:
            self.log.append((p, f"+{KINDS[kind].key}"))
        if self.phase == DEAL:
            if not self.pending:
                self.phase = STARTER
            return
        if not any(self.draw):
            # "Si la pila de descarte contiene 5 o más cartas de cabra en el momento en que
            # la pila de robo se vacía, baraja la pila de descarte".
            if len(self.discard) >= rules.RESHUFFLE_MIN:
                for k in self.discard:
                    self.draw[k] += 1
                self.discard = []
                self.stats["reshuffles"] += 1
                if self.record:
                    self.log.append((-1, "reshuffle"))
            else:
                self.pending = []
        if not self.pending:
            self._next_turn()

    # --- decisions ----------------------------------------------------------------
    def apply_action(self, action: int, check: bool = True) -> None:
        """Play a decision; ``check=False`` skips the legality test (search plays only
        actions it took from :meth:`legal_actions`)."""
        if check and action not in self.legal_actions():
            raise IllegalActionError(f"action {action} is not legal now")
        p = self.to_move
        if self.phase == DUEL:
            self._duel_step(p, action)
            return
        hand = self.hands[p]
        if action < rules.ASSIST0:
            a, b = rules.BIRTH_PAIRS[action]
            hand[a] -= 1
            hand[b] -= 1
            self.herds[p] = rules.birth(self.herds[p], a, b)
            self._note(f"p{p}:birth:{KINDS[a].key}/{KINDS[b].key}")
        elif action < rules.DUEL0:
            k = action - rules.ASSIST0
            top = self.discard.pop()
            hand[k] -= 1
            self.herds[p] = rules.birth(self.herds[p], k, top)
            self._note(f"p{p}:assisted:{KINDS[k].key}")
        elif action < rules.ANSWER0:
            target, k = divmod(action - rules.DUEL0, NUM_KINDS)
            hand[k] -= 1
            self.duel = {"attacker": p, "defender": target, "kind": self.herds[target][-1][0],
                         "cards": [k]}
            self._note(f"p{p}:duel:p{target}:{KINDS[k].key}")
            self.phase = DUEL
            self._pass_duel_to(target, last_player=p)
            return
        else:
            k = action - rules.DISCARD0
            hand[k] -= 1
            self.discard.append(k)
            self._note(f"p{p}:discard:{KINDS[k].key}")
        self._end_turn()

    def _note(self, token: str) -> None:
        if self.record:
            self.log.append((-1, token))

    def _duel_step(self, p: int, action: int) -> None:
        d = self.duel
        other = d["defender"] if p == d["attacker"] else d["attacker"]
        if action == rules.YIELD:
            self._note(f"p{p}:yield")
            self._finish_duel(winner=other)
            return
        k = action - rules.ANSWER0
        self.hands[p][k] -= 1
        d["cards"].append(k)
        self._note(f"p{p}:answer:{KINDS[k].key}")
        self._pass_duel_to(other, last_player=p)

    def _pass_duel_to(self, p: int, last_player: int) -> None:
        """Give the duel to ``p``; one who cannot answer yields at once (publicly the same)."""
        d = self.duel
        if rules.answer_options(self.hands[p], d["kind"], d["cards"][-1], self.cfg.duel_answer):
            self.to_move = p
            return
        self._note(f"p{p}:yield")
        self._finish_duel(winner=last_player)

    def _finish_duel(self, winner: int) -> None:
        d = self.duel
        a, t = d["attacker"], d["defender"]
        won = winner == a
        pile = len(self.herds[t][-1][1]) + len(d["cards"])
        self._note(f"p{winner}:{'takes' if won else 'defends'}:{pile}")
        self.herds[a], self.herds[t] = rules.resolve_duel(self.herds[a], self.herds[t], d["cards"], won)
        self.stats["attacker_wins" if won else "defender_wins"] += 1
        self.duel = None
        self._end_turn()

    def _end_turn(self) -> None:
        """Refill every short hand, the player who completed the turn first."""
        self.turns += 1
        h = self.cfg.hand_size
        self.pending = []
        if any(self.draw):
            for p in rules.refill_order(self.turn_player, self.cfg.players):
                self.pending += [p] * (h - sum(self.hands[p]))
        if self.pending:
            self.phase = REFILL
            self.to_move = CHANCE
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        n = self.cfg.players
        self.duel = None
        if self.turns >= self.cfg.max_turns:
            self._end_round()
            return
        # "Cuando se acaba el Draw Pile, los jugadores continúan jugando hasta que se agotan
        # las manos": a seat with an empty hand is skipped.
        for i in range(1, n + 1):
            p = (self.turn_player + i) % n
            if any(self.hands[p]):
                self.turn_player = p
                self.to_move = p
                self.phase = PLAY
                return
        self._end_round()

    # --- hidden information -------------------------------------------------------
    def resample(self, player: int, rng: random.Random) -> Table:
        """A copy in which the cards ``player`` cannot see are dealt again at random.

        The cards ``player`` has not seen (the other hands and the draw pile) are
        shuffled and dealt back to the same hand sizes; ``player``'s view (hand,
        herds, discard pile, sizes, own record) is unchanged. Other seats' private
        records are replaced by one event naming their new hand, so their
        information states stay consistent with what they hold.
        """
        new = self.copy()
        pool = []
        for k, c in enumerate(self.draw):
            pool += [k] * c
        others = [q for q in range(self.cfg.players) if q != player]
        for q in others:
            for k, c in enumerate(self.hands[q]):
                pool += [k] * c
        rng.shuffle(pool)
        at = 0
        for q in others:
            size = sum(self.hands[q])
            hand = [0] * NUM_KINDS
            for k in pool[at : at + size]:
                hand[k] += 1
            new.hands[q] = hand
            at += size
        new.draw = [0] * NUM_KINDS
        for k in pool[at:]:
            new.draw[k] += 1
        if self.record:
            new.log = [(o, t) for o, t in self.log if o < 0 or o == player]
            for q in others:
                held = ",".join(KINDS[k].key for k in range(NUM_KINDS) for _ in range(new.hands[q][k]))
                new.log.append((q, f"resampled:{held}"))
        return new


def from_position(
    cfg: Config,
    hands: list[list[str]],
    herds: list[list[list[str]]] | None = None,
    discard: list[str] | None = None,
    to_move: int = 0,
) -> Table:
    """A table at the start of ``to_move``'s turn with the given cards; the rest is the draw pile.

    ``hands`` and ``discard`` list card names (keys or printed names), ``herds`` one
    list of piles per seat, each pile a list of card names (the first two make the
    pair the pile is made of).

    Raises
    ------
    UnknownCardError
        For a name that is not a Goat Lords card.
    InvalidPositionError
        When the cards cannot come from one deck, a pile is not a pair, or the
        sizes do not fit the game.
    """
    n = cfg.players
    herds = herds if herds is not None else [[] for _ in range(n)]
    if len(hands) != n or len(herds) != n:
        raise InvalidPositionError(f"a {n}-player position needs {n} hands and {n} herds")
    if not 0 <= to_move < n:
        raise InvalidPositionError(f"seat {to_move} does not exist in a {n}-player game")
    table = Table(cfg)
    used = [0] * NUM_KINDS
    table.hands = []
    for p, names in enumerate(hands):
        if len(names) > cfg.hand_size:
            raise InvalidPositionError(f"seat {p} holds {len(names)} cards; hands hold {cfg.hand_size}")
        hand = [0] * NUM_KINDS
        for name in names:
            hand[kind_index(name)] += 1
        table.hands.append(hand)
    table.herds = []
    for p, piles in enumerate(herds):
        herd = []
        for pile in piles:
            cards = tuple(kind_index(name) for name in pile)
            if len(cards) < 2 or not rules.is_pair(cards[0], cards[1]):
                raise InvalidPositionError(f"seat {p}'s pile {pile} does not start with a pair")
            herd.append((rules.pair_kind(cards[0], cards[1]), cards))
        table.herds.append(tuple(herd))
    table.discard = [kind_index(name) for name in (discard or [])]
    for hand in table.hands:
        used = [u + c for u, c in zip(used, hand, strict=True)]
    for herd in table.herds:
        for _, cards in herd:
            for k in cards:
                used[k] += 1
    for k in table.discard:
        used[k] += 1
    table.draw = [c - u for c, u in zip(table.cfg.counts, used, strict=True)]
    for k, left in enumerate(table.draw):
        if left < 0:
            raise InvalidPositionError(
                f"the position uses {used[k]} {KINDS[k].name} cards; the deck has {table.cfg.counts[k]}"
            )
    table.phase = PLAY
    table.turn_player = table.to_move = to_move
    table.pending = []
    table.log.append((-1, "position"))
    return table
