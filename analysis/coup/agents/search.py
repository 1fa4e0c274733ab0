"""``search``: Farol's strong Coup agent for 2-8 players (information-set Monte Carlo search).

At each turn action, challenge and block with a choice to make, the agent deals the cards
it cannot see (the other players' face-down cards and the court) several times, in ways
that agree with everything its seat has seen, and plays each candidate move forward in
every such deal with short roll-outs; it picks the move with the best average outcome.
The other choices (which card to lose or keep, what to show, the draft pick) use the
panel's plain rules (:func:`analysis.coup.agents.rules_of_thumb.plain_choice`).

What it knows: only its seat's view. It reads the events its seat has seen (its
information state: every public event plus its own draws), to remember who claimed which
character, who was caught bluffing and how often each player challenges. The deals weight
a character a player claimed without being caught as more likely in their hand (more so
for a player who has not been caught bluffing), and never give out a card that counting
proves is not available (the seat's own hand and draws, every card turned face up, the
deck's copies, in the 2-player draft the dealt pile and the picks).

Roll-outs: every player plays a quick rule agent (bluffing, challenging and block-bluffing
at the rates the agent has seen that player use), up to the end of the turn for a
challenge or a block, and for about one round for a turn action; a position is then
scored by face-down cards and coins (a win is 1, being out is 0).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pyspiel

from analysis.coup.agents.rules_of_thumb import (
    View,
    acting_hand,
    block_answer,
    challenges,
    plain_choice,
    threat_order,
    turn_action,
)
from analysis.coup.model import GAME
from analysis.coup.solvers.strength import score
from analysis.play.bots import Bot, BotSpec, register_bot
from games.coup import cards as C
from games.coup import engine as E

# Steps at which the agent searches; elsewhere it uses the panel's plain choices.
SEARCHED = (E.S_ACTION, E.S_CHAL, E.S_BLOCK)
_CLAIMS = (C.DUKE, C.CAPTAIN, C.ASSASSIN)
# The claims a player cannot bluff for want of coins (by whether it can pay an assassination).
_UNAFFORDABLE = ({C.ASSASSIN}, set())
# The challenge model: the prior chance a player never challenges, and the kinds of
# players who do: (prior chance, Beta prior of their rate).
NEVER = 0.5
CHALLENGERS = ((0.35, 1.5, 6.0), (0.15, 3.0, 3.0))
# Facing a claim, at most this many cheap deals per roll-out deal measure its chance.
STRATA_TRIES = 12
# The searching seat blocks without the card in roll-outs when a block is this likely to stand.
SELF_BLOCK = 0.75
# A player's claims before any was challenged: (true claims, claims challenged) imagined.
HONESTY = (4.0, 5.0)


@dataclass(frozen=True)
class Budget:
    """How much the agent searches: deals per decision and the roll-outs' length.

    ``deals_action``/``deals_react``: deals for a turn action / a challenge or block
    (every candidate move is tried once in each deal). ``horizon``: turns a turn
    action's roll-outs run (``0``: one round, one turn per living player, or only the
    turn itself with two players left).
    """

    deals_action: int = 16
    deals_react: int = 12
    horizon: int = 0


DEFAULT = Budget()


def challenge_rate(made: int, asked: int) -> float:
    """A player's chance of challenging, after ``made`` challenges in ``asked`` chances.

    Before any evidence a player is, with the chances of :data:`NEVER` and
    :data:`CHALLENGERS`, one who never challenges (but a lie counting proves), one who
    challenges now and then (a rate drawn from Beta(1.5, 6), mean 0.2) or one who
    challenges often (Beta(3, 3), mean 0.5); the chance is the posterior mean. Declined
    chances quickly point to the first kind, so bluffs become cheap against a table that
    never challenges, and a few challenges to the last.
    """
    declined = asked - made
    never = NEVER * (0.1 ** made)
    weight = mean = 0.0
    for prior, a, b in CHALLENGERS:
        likely = prior * math.exp(_log_beta(a + made, b + declined) - _log_beta(a, b))
        weight += likely
        mean += likely * (a + made) / (a + b + asked)
    return mean / (weight + never)


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


# --------------------------------------------------------------------------- memory
class Memory:
    """What the seat has learnt from the events it saw, player by player.

    ``claims[p]``: characters ``p`` claimed (by an action or a block) and has not been
    shown to lack, since its cards last changed; ``lacks[p]``: characters ``p`` was
    caught without (until its cards change); ``declined[p]``: blocks ``p`` could have
    made and did not. Counts of challenges made and declined (on the Duke and on other
    characters), and of ``p``'s claims found true or false when challenged.
    """

    def __init__(self, n: int, seat: int):
        self.seat = seat
        self.claims = [set() for _ in range(n)]
        self.lacks = [set() for _ in range(n)]
        self.declined = [set() for _ in range(n)]
        self.asked = [[0, 0] for _ in range(n)]  # [other characters, the Duke]
        self.challenged = [[0, 0] for _ in range(n)]
        self.proven = [0] * n
        self.caught = [0] * n
        self.my_pick: int | None = None
        self._last = None  # the newest log node already read
        self._claim = -1  # the character the current challenge window is about
        self._block_kind = -1

    def read(self, core: E.Core) -> None:
        """Read the events since the last call (the log is shared and only grows).

        Every event is in the seat's information state, some with a card only the
        player concerned sees (a draw, a pick): only the public part of those is used,
        and the card of the seat's own pick. A log that does not continue the one read
        before (another game) is read again from the start.
        """
        fresh = []
        node = core.log
        while node is not None and node is not self._last:
            node, event = node
            fresh.append(event)
        if node is None and self._last is not None:
            self.__init__(len(core.hands), self.seat)
        self._last = core.log
        for event in reversed(fresh):
            self._see(event[1], event[2:], bool(event[0] & (1 << self.seat)))

    def _changed(self, p: int) -> None:
        self.claims[p].clear()
        self.lacks[p].clear()
        self.declined[p].clear()

    def _see(self, code: int, a: tuple, shown: bool) -> None:
        if code == E.E_ACT:
            actor, kind, target = a
            self._claim = C.KIND_CLAIM[kind] if C.KIND_CLAIM[kind] is not None else -1
            self._block_kind = kind
            if self._claim >= 0:
                self.claims[actor].add(self._claim)
        elif code == E.E_BLOCK:
            self._claim = a[1]
            self.claims[a[0]].add(a[1])
        elif code == E.E_NOBLOCK:
            for c in C.BLOCKERS.get(self._block_kind, ((), ""))[0]:
                self.declined[a[0]].add(c)
        elif code in (E.E_NOCHAL, E.E_CHAL) and self._claim >= 0:
            duke = int(self._claim == C.DUKE)
            self.asked[a[0]][duke] += 1
            self.challenged[a[0]][duke] += code == E.E_CHAL
        elif code == E.E_PROVEN:
            self.proven[a[0]] += 1
        elif code == E.E_BLUFF:
            self.caught[a[0]] += 1
            self.claims[a[0]].discard(a[1])
            self.lacks[a[0]].add(a[1])
        elif code == E.E_LOSE:
            self.claims[a[0]].discard(a[1])
        elif code in (E.E_REDRAW, E.E_KEEP, E.E_IRETURN):
            self._changed(a[0])
        elif code == E.E_IFORCE:
            self._changed(a[1])
        elif code == E.E_PICK and shown and a[0] == self.seat:
            self.my_pick = a[1]

    # ---- the model of each player ---------------------------------------------
    def honesty(self, p: int) -> float:
        """How likely a claim of ``p`` is true, from its challenged claims (prior 0.8)."""
        return (self.proven[p] + HONESTY[0]) / (self.proven[p] + self.caught[p] + HONESTY[1])

    def rates(self, p: int) -> tuple[float, float, float, float]:
        """``p``'s (bluff, challenge, challenge a Duke, block-bluff) rates for roll-outs."""
        lie = 1.0 - self.honesty(p)
        other = challenge_rate(self.challenged[p][0], self.asked[p][0])
        duke = challenge_rate(self.challenged[p][1], self.asked[p][1])
        return min(0.7, lie * 1.2), other, duke, min(0.5, lie)

    def weights(self, p: int) -> list[float]:
        """How much likelier each character is in ``p``'s hand than the count says, apart
        from its claims: less for a block it declined, hardly at all for a lie caught."""
        w = [1.0] * C.NUM_CHARACTERS
        for c in self.declined[p]:
            w[c] *= 0.6
        for c in self.lacks[p]:
            w[c] *= 0.02
        return w


# --------------------------------------------------------------------------- deals
def unseen_counts(view: View, my_pick: int | None, their_pick: int | None) -> list[int]:
    """How many of each character the seat cannot see (other hands and the court).

    The deck's copies less the seat's hand, its drawn cards and every card face up; in
    the 2-player draft the cards in play are the dealt pile (one of each) plus the two
    picks, so both picks must be given.
    """
    if view.draft:
        total = [1 + (my_pick == c) + (their_pick == c) for c in C.CHARACTERS]
    else:
        total = [view.copies] * C.NUM_CHARACTERS
    for c in view.hand + view.drawn:
        total[c] -= 1
    for shown in view.revealed:
        for c in shown:
            total[c] -= 1
    return total


def _pick_options(view: View, my_pick: int | None) -> list[tuple[int, int]]:
    """The (seat's pick, opponent's pick) pairs of the draft that the cards seen allow."""
    mine = [my_pick] if my_pick is not None else list(C.CHARACTERS)
    return [(m, t) for m in mine for t in C.CHARACTERS
            if min(unseen_counts(view, m, t)) >= 0]


def deal(view: View, memory: Memory, core: E.Core, rng: random.Random) -> E.Core:
    """A copy of ``core`` with the cards the seat cannot see dealt again at random.

    Each other living player gets as many face-down cards as it has, from the cards the
    seat cannot see (:func:`unseen_counts`; in the draft with a possible pick of the
    opponent's): first each character it claimed, with the chance its claims are true
    (:meth:`Memory.honesty`), then the rest with the weights of :meth:`Memory.weights`.
    What is left is the court.
    """
    if view.draft:
        mine, theirs = rng.choice(_pick_options(view, memory.my_pick))
        pool = unseen_counts(view, mine, theirs)
    else:
        pool = unseen_counts(view, None, None)
    hands = list(core.hands)
    dealt: dict[int, list[int]] = {}
    weights: dict[int, list[float]] = {}
    others = [p for p in range(len(hands)) if p != view.seat and view.cards[p]]
    for p in sorted(others, key=lambda _: rng.random()):
        # Each character p claimed is in its hand with the chance its claims have been
        # true (players in random order: two claims of the last copy cannot both be);
        # a claim judged a bluff is then (almost) kept out of its hand.
        got, w = [], memory.weights(p)
        honesty = memory.honesty(p)
        for c in sorted(memory.claims[p], key=lambda _: rng.random()):
            if len(got) < view.cards[p] and pool[c] and rng.random() < honesty:
                got.append(c)
                pool[c] -= 1
            elif c not in got:
                w[c] *= 0.02
        dealt[p], weights[p] = got, w
    for p in others:
        got = dealt[p]
        while len(got) < view.cards[p]:
            c = _draw(pool, weights[p], rng)
            pool[c] -= 1
            got.append(c)
        hands[p] = tuple(sorted(got))
    world = core.copy()
    world.hands = tuple(hands)
    world.court = tuple(pool)
    return world


def _draw(pool: list[int], w: list[float], rng: random.Random) -> int:
    # A character of ``pool`` (counts) with probability in proportion to count * weight.
    options = [c for c in C.CHARACTERS if pool[c]]
    x = rng.random() * sum(pool[c] * w[c] for c in options)
    for c in options:
        x -= pool[c] * w[c]
        if x < 0:
            return c
    return options[-1]


# --------------------------------------------------------------------------- roll-outs
def _view(core: E.Core, p: int, cards: tuple[int, ...]) -> View:
    cfg = core.cfg
    return View(p, core.hands[p], core.drawn if p == core.actor else (), core.coins,
                core.revealed, cards, core.actor, core.kind, core.target, core.queue[0],
                cfg.copies, False)


def quick_move(core: E.Core, p: int, rates: list, rng: random.Random, mine: int) -> int:
    """A quick rule agent's move for ``p`` holding its cards in ``core`` (roll-outs only).

    ``rates[q]``: player ``q``'s (bluff, challenge, challenge a Duke, block-bluff) rates.
    Its claims are the panel's bluffing decisions
    (:func:`analysis.coup.agents.rules_of_thumb.acting_hand`,
    :func:`~analysis.coup.agents.rules_of_thumb.challenges`,
    :func:`~analysis.coup.agents.rules_of_thumb.block_answer`) at those rates, halved for
    the searching seat ``mine`` with one card left. The searching seat blocks without the
    card when the others are unlikely to challenge it, and always when an assassination
    would put it out.
    """
    legal = core.legal_actions()
    if len(legal) == 1:
        return legal[0]
    bluff, challenge, duke, block_bluff = rates[p]
    hand = core.hands[p]
    code = core.queue[0][0]
    caution = 0.5 if p == mine and len(hand) == 1 else 1.0
    if code == E.S_CHAL:
        claim = core.queue[0][2]
        seen = hand.count(claim) + sum(r.count(claim) for r in core.revealed)
        rate = duke if claim == C.DUKE else challenge
        return C.A_CHALLENGE if challenges(seen >= core.cfg.copies, rate * caution,
                                           rng.random) else C.A_NO_CHALLENGE
    if code == E.S_BLOCK:
        if p == mine and not any(a - C.A_BLOCK in hand for a in legal if a != C.A_NO_BLOCK):
            if core.kind == C.ASSASSINATE and len(hand) == 1:
                return C.A_BLOCK + C.CONTESSA  # out anyway unless the block stands
            stands = 1.0
            for q, h in enumerate(core.hands):
                if h and q != p:
                    stands *= 1.0 - rates[q][1]
            return legal[0] if stands > SELF_BLOCK else C.A_NO_BLOCK
        return block_answer(legal, hand, block_bluff * caution, rng.random,
                            lambda k: int(rng.random() * k))
    cards = tuple(len(h) for h in core.hands)
    view = _view(core, p, cards)
    if code == E.S_ACTION:
        acting = acting_hand(hand, core.coins[p], _CLAIMS, bluff * caution, rng.random,
                             lambda k: int(rng.random() * k))
        if acting is hand and set(_CLAIMS) <= set(hand) | _UNAFFORDABLE[core.coins[p] >= C.ASSASSINATE_COST]:
            rng.random()  # nothing to bluff with: the draw roll-outs have always made here
        return turn_action(view, legal, acting)
    return plain_choice(view, legal)


def rollout(world: E.Core, seat: int, until_turn: int, rates: list, rng: random.Random) -> float:
    """Play ``world`` on with quick moves until turn ``until_turn`` starts; its score."""
    while not world.over and world.turn < until_turn:
        if world.cur == E.CHANCE:
            outcomes = world.chance_outcomes()
            x = rng.random()
            action = outcomes[-1][0]
            for outcome, prob in outcomes:
                x -= prob
                if x < 0:
                    action = outcome
                    break
            world.apply(action)
        else:
            p = world.cur
            world.apply(quick_move(world, p, rates, rng, seat))
    return score(world, seat)


# --------------------------------------------------------------------------- the agent
def candidates(view: View, legal: Sequence[int]) -> list[int]:
    """The moves worth searching: at a turn, every untargeted action, and each targeted
    one against the two most threatening players (a steal against the two richest with
    coins); nobody is examined. Reactions: every legal answer."""
    if view.step[0] != E.S_ACTION:
        return list(legal)
    out = [a for a in legal if a < C.A_COUP]
    for base in (C.A_COUP, C.A_ASSASSINATE):
        targets = [a - base for a in legal if base <= a < base + C.MAX_PLAYERS]
        out += [base + p for p in threat_order(view, targets)[:2]]
    rich = [a - C.A_STEAL for a in legal if C.A_STEAL <= a < C.A_STEAL + C.MAX_PLAYERS
            and view.coins[a - C.A_STEAL] > 0]
    order = view.opponents()
    out += [C.A_STEAL + p for p in sorted(rich, key=lambda p: (-view.coins[p], order.index(p)))[:2]]
    return out or list(legal)


class SearchAgent:
    """The search agent bound to ``seat`` (see the module's docstring); seeded."""

    # The agent's own rates in roll-outs: it bluffs and challenges little.
    SELF_RATES = (0.1, 0.05, 0.05, 0.1)

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0, budget: Budget = DEFAULT):
        self.seat = seat
        self.budget = budget
        self.rng = random.Random(seed)
        self.memory = Memory(game.num_players(), seat)

    def __call__(self, state: pyspiel.State) -> int:
        core = state.core
        self.memory.read(core)
        legal = state.legal_actions(self.seat)
        view = View.of(state, self.seat)
        if view.step[0] == E.S_PICK:
            action = plain_choice(view, legal)
            self.memory.my_pick = action - C.A_PICK
            return action
        if len(legal) == 1:
            return legal[0]
        if view.step[0] not in SEARCHED:
            return plain_choice(view, legal)
        if view.step[0] == E.S_CHAL and not self.concerned(view):
            return C.A_CHALLENGE if view.proven_lie(view.step[2], self.memory.my_pick) else C.A_NO_CHALLENGE
        return self.search(view, core, legal)

    def concerned(self, view: View) -> bool:
        """Whether a claim concerns the seat enough to weigh a challenge: with two players
        left, or when the seat is the actor or the target. Otherwise a challenge risks the
        seat's card for the good of the whole table, and only a proven lie is challenged."""
        living = sum(1 for k in view.cards if k)
        return living == 2 or self.seat in (view.actor, view.target)

    def search(self, view: View, core: E.Core, legal: Sequence[int]) -> int:
        """The candidate with the best mean roll-out score over the deals."""
        moves = candidates(view, legal)
        if len(moves) == 1:
            return moves[0]
        n = len(core.hands)
        rates = [self.SELF_RATES if p == self.seat else self.memory.rates(p) for p in range(n)]
        if view.step[0] == E.S_ACTION:
            deals = self.budget.deals_action
            living = sum(1 for h in core.hands if h)
            until = core.turn + (self.budget.horizon or (1 if living == 2 else living))
        else:
            deals = self.budget.deals_react
            until = core.turn + 1
        worlds = self.deals(view, core, deals)
        seeds = [self.rng.random() for _ in worlds]  # one roll-out seed a deal
        totals = self.totals(view, core, moves, worlds, seeds, rates, until)
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def totals(self, view: View, core: E.Core, moves: list[int], worlds: list,
               seeds: list[float], rates: list, until: int) -> list[float]:
        """Each move's weighted roll-out score over the deals (the engine plays them)."""
        totals = [0.0] * len(moves)
        for (weight, world), seed in zip(worlds, seeds, strict=True):
            for i, move in enumerate(moves):
                branch = world.copy()
                branch.apply(move)
                totals[i] += weight * rollout(branch, self.seat, until, rates, random.Random(seed))
        return totals

    def deals(self, view: View, core: E.Core, count: int) -> list[tuple[float, E.Core]]:
        """``count`` deals with their weights (summing to 1).

        Facing a claim it may challenge, the seat's answer turns on whether the claimant
        holds the character: the chance of that is measured on many cheap deals, and the
        roll-outs are split evenly between deals where it does and deals where it does
        not (each half weighted by its chance), so that a few unlucky deals do not
        start a challenge.
        """
        if view.step[0] != E.S_CHAL:
            return [(1.0 / count, deal(view, self.memory, core, self.rng)) for _ in range(count)]
        claimant, claim = view.step[1], view.step[2]
        half = max(1, count // 2)
        strata: tuple[list, list] = ([], [])
        holds = tries = 0
        while tries < STRATA_TRIES * count and (len(strata[0]) < half or len(strata[1]) < half):
            world = deal(view, self.memory, core, self.rng)
            tries += 1
            has = claim in world.hands[claimant]
            holds += has
            if len(strata[has]) < half:
                strata[has].append(world)
        p = holds / tries
        out = [((1.0 - p) / len(strata[0]), w) for w in strata[0]]
        return out + [(p / len(strata[1]), w) for w in strata[1]]


def search_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> Bot:
    """The search agent at its default budget, bound to ``seat``."""
    return SearchAgent(game, seat, seed)


register_bot(BotSpec("search", "information-set search: deals the unseen cards from what the "
                     "table showed, compares moves with short roll-outs", search_bot, games=(GAME,)))
