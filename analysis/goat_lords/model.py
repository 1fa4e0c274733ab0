"""What one seat knows of the hidden Goat Lords cards, and worlds dealt to agree with it.

A seat sees its own hand and draws, every herd, the discard pile and what every other
seat plays. :class:`Belief` replays that public record of the current round and keeps,
for every card another seat holds, a *slot*: the pool it was drawn from and what the
record proves it is not.

- A discard proves the discarder had no other legal move: "Si no se puede hacer nada de
  lo anterior, el jugador descarta una carta". So every card then in that hand was no
  wild (when a wild could have made a pair or a duel), not the discard pile's top card,
  not the goat of a top pile the seat could attack, and no two were the same goat (nor
  the same as the card discarded).
- A card played (birth, assisted birth, duel, duel answer, discard) is shown: it leaves
  one of the player's slots that can hold it.
- When the draw pile runs out and the discard pile is shuffled into it ("baraja la pila
  de descarte restante y continúa extrayendo de ella"), the new draw pile holds exactly
  the cards that were face up: cards drawn from it come from those, and the cards held
  before come from the rest.

:meth:`Belief.sample` deals the unseen cards to the slots and the draw pile honouring all
of that. Which slot a shown card left is not always known; the belief takes the most
constrained slot that can hold it, which keeps every later deal possible in the positions
play reaches. A record the replay cannot follow (a table set up with ``from_position``)
leaves the other hands unconstrained: any deal of the unseen cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.goat_lords import rules
from games.goat_lords.cards import KINDS, NUM_KINDS, WILDS
from games.goat_lords.table import Table

_KEY = {k.key: i for i, k in enumerate(KINDS)}


@dataclass
class Slot:
    """One card another seat holds: the pool it came from and the kinds it cannot be."""

    pool: int
    banned: set[int] = field(default_factory=set)
    groups: set[int] = field(default_factory=set)  # discards it was in the hand for


class ReplayError(Exception):
    """The record does not follow the rules the replay knows (an edited table)."""


class Belief:
    """The hidden cards as ``seat`` knows them at the table's current position."""

    def __init__(self, table: Table, seat: int):
        self.table = table
        self.seat = seat
        self.exact = True
        try:
            self._replay()
        except ReplayError:
            self.exact = False

    # --- replay -------------------------------------------------------------------
    def _replay(self) -> None:
        t, me = self.table, self.seat
        tokens = [tok for owner, tok in t.log if owner < 0 or owner == me]
        starts = [i for i, tok in enumerate(tokens) if tok.startswith("round") or tok == "position"]
        if not starts or tokens[starts[-1]] == "position":
            raise ReplayError("no round start in the record")
        self._tokens = tokens[starts[-1]:]
        self._at = 1
        n, h = t.cfg.players, t.cfg.hand_size
        self.n, self.h = n, h
        self.slots: list[list[Slot]] = [[] for _ in range(n)]
        self.pools: list[list[int]] = [list(t.cfg.counts)]
        self.sizes = [0] * n
        self.herds: list[rules.Herd] = [() for _ in range(n)]
        self.discard: list[int] = []
        self.draw_left = sum(t.cfg.counts)
        self._groups = 0
        start = (int(self._tokens[0][len("round"):]) - 1) % n
        self._draws([(start + i) % n for _ in range(h) for i in range(n)])
        tok = self._next()
        if not tok.startswith("start:"):
            raise ReplayError(tok)
        k = _KEY[tok[len("start:"):]]
        self.pools[-1][k] -= 1
        self.draw_left -= 1
        self.discard.append(k)
        duel = None
        while self._at < len(self._tokens):
            tok = self._next()
            who, verb, *rest = tok.split(":")
            p = int(who[1:])
            if verb == "birth":
                a, b = (_KEY[x] for x in rest[0].split("/"))
                self._play(p, a)
                self._play(p, b)
                self.herds[p] = rules.birth(self.herds[p], a, b)
            elif verb == "assisted":
                k = _KEY[rest[0]]
                self._play(p, k)
                self.herds[p] = rules.birth(self.herds[p], k, self.discard.pop())
            elif verb == "discard":
                k = _KEY[rest[0]]
                self._note_discard(p, k)
                self._play(p, k)
                self.discard.append(k)
            elif verb == "duel":
                target, k = int(rest[0][1:]), _KEY[rest[1]]
                self._play(p, k)
                duel = (p, target, [k])
                continue
            elif verb == "answer":
                self._play(p, _KEY[rest[0]])
                duel[2].append(_KEY[rest[0]])
                continue
            elif verb == "yield":
                attacker, defender, cards = duel
                won = p == defender
                self.herds[attacker], self.herds[defender] = rules.resolve_duel(
                    self.herds[attacker], self.herds[defender], cards, won)
                p, duel = attacker, None
                # How the duel ended, noted next: the yield already told it.
                if self._at < len(self._tokens) and self._tokens[self._at].split(":")[1:2] in (
                        ["takes"], ["defends"]):
                    self._at += 1
            else:
                raise ReplayError(tok)
            self._end_turn(p)
        if duel is not None:
            self.duel_cards = duel[2]
        if self.draw_left != sum(t.draw) or any(
            self.sizes[q] != sum(t.hands[q]) for q in range(n)
        ) or sum(self.pools[-1]) != self.draw_left + sum(
            1 for q in range(n) for s in self.slots[q] if s.pool == len(self.pools) - 1
        ):
            raise ReplayError("the replay does not reach the table")

    def _next(self) -> str:
        if self._at >= len(self._tokens):
            raise ReplayError("the record ends early")
        tok = self._tokens[self._at]
        self._at += 1
        return tok

    def _draws(self, order: list[int]) -> None:
        """Cards drawn in ``order`` (own draws read from the record), reshuffling as the table does."""
        for p in order:
            if p == self.seat:
                tok = self._next()
                if not tok.startswith("+"):
                    raise ReplayError(tok)
                k = _KEY[tok[1:]]
                if not self.pools[-1][k] and len(self.pools) > 1:
                    # The pile held no such card by the belief: a card shown earlier was
                    # taken from the wrong side of the reshuffle (see _play).
                    self._merge_pools()
                if not self.pools[-1][k]:
                    raise ReplayError(f"{tok}: no such card left to draw")
                self.pools[-1][k] -= 1
            else:
                self.slots[p].append(Slot(len(self.pools) - 1))
            self.sizes[p] += 1
            self.draw_left -= 1
            if self.draw_left == 0:
                if len(self.discard) < rules.RESHUFFLE_MIN:
                    return
                if self._next() != "reshuffle":
                    raise ReplayError("a reshuffle is missing")
                pool = [0] * NUM_KINDS
                for k in self.discard:
                    pool[k] += 1
                self.pools.append(pool)
                self.draw_left, self.discard = len(self.discard), []

    def _end_turn(self, player: int) -> None:
        if self.draw_left:
            order = rules.refill_order(player, self.n)
            self._draws([p for p in order for _ in range(self.h - self.sizes[p])])

    def _play(self, p: int, k: int) -> None:
        """Seat ``p`` shows card ``k`` from its hand."""
        self.sizes[p] -= 1
        if p == self.seat:
            return
        fits = [s for s in self.slots[p] if k not in s.banned and self.pools[s.pool][k] > 0]
        if not fits and len(self.pools) > 1:
            # An earlier shown card was taken from the wrong side of a reshuffle: forget
            # which pool each card came from (a weaker belief, still a true one).
            self._merge_pools()
            fits = [s for s in self.slots[p] if k not in s.banned and self.pools[0][k] > 0]
        if not fits:
            raise ReplayError(f"seat {p} cannot hold the card it played")
        slot = max(fits, key=lambda s: (len(s.banned), len(s.groups)))
        self.slots[p].remove(slot)
        self.pools[slot.pool][k] -= 1
        for other in self.slots[p]:
            if other.groups & slot.groups:
                other.banned.add(k)

    def _merge_pools(self) -> None:
        merged = [sum(pool[k] for pool in self.pools) for k in range(NUM_KINDS)]
        self.pools = [merged]
        for slots in self.slots:
            for slot in slots:
                slot.pool = 0

    def _note_discard(self, p: int, card: int) -> None:
        """What seat ``p``'s hand was not, given it had to discard ``card``."""
        if p == self.seat:
            return
        top = self.discard[-1] if self.discard else None
        targets = [] if not self.herds[p] else [
            self.herds[q][-1][0] for q in range(self.n)
            if q != p and rules.can_be_attacked(self.herds[q])]
        banned = {k for k in targets if k < NUM_KINDS}
        if top is not None:
            banned.add(top)
        # A wild pairs with any other card, the discard pile's top, or any top pile.
        if self.sizes[p] >= 2 or top is not None or targets:
            banned.update(WILDS)
        group = self._groups
        self._groups += 1
        # The card discarded is one of these slots: _play bans it from the others.
        for slot in self.slots[p]:
            slot.banned.update(banned)
            slot.groups.add(group)

    # --- sampling -----------------------------------------------------------------
    def sample(self, rng: random.Random, tries: int = 20) -> Table:
        """A copy of the table (no event log) with the unseen cards dealt to agree with
        the record: other hands and the draw pile change, everything ``seat`` sees stays."""
        if self.exact:
            for _ in range(tries):
                world = self._deal(rng)
                if world is not None:
                    return world
        world = self.table.resample(self.seat, rng)
        world.record, world.log = False, []
        return world

    def _deal(self, rng: random.Random) -> Table | None:
        t = self.table
        world = t.copy(record=False)
        hands = [[0] * NUM_KINDS for _ in range(self.n)]
        for pool_id, pool in enumerate(self.pools):
            left = pool[:]
            slots = [(q, s) for q in range(self.n) if q != self.seat
                     for s in self.slots[q] if s.pool == pool_id]
            slots.sort(key=lambda qs: -len(qs[1].banned))
            chosen: list[int] = []
            if not _assign(slots, 0, left, chosen, rng, [0]):
                return None
            for (q, _), k in zip(slots, chosen, strict=True):
                hands[q][k] += 1
            if pool_id == len(self.pools) - 1:
                world.draw = left
            elif any(left):
                return None
        for q in range(self.n):
            if q != self.seat:
                world.hands[q] = hands[q]
        return world


def _assign(slots, i, left, chosen, rng, steps) -> bool:
    """Depth-first: a kind for every slot from ``i`` on, drawn by the pool's counts."""
    if i == len(slots):
        return True
    steps[0] += 1
    if steps[0] > 2000:
        return False
    q, slot = slots[i]
    taken = {chosen[j] for j in range(i) if slots[j][0] == q and slots[j][1].groups & slot.groups}
    kinds = [k for k in range(NUM_KINDS) if left[k] and k not in slot.banned and k not in taken]
    weights = [left[k] for k in kinds]
    while kinds:
        j = rng.choices(range(len(kinds)), weights)[0]
        k = kinds.pop(j)
        weights.pop(j)
        left[k] -= 1
        chosen.append(k)
        if _assign(slots, i + 1, left, chosen, rng, steps):
            return True
        chosen.pop()
        left[k] += 1
    return False

