"""Coup's rules as pure functions of small values (tuples and ints).

The OpenSpiel state (:mod:`games.coup.game`) calls these; the tests call them
directly. Hands are sorted tuples of characters; the court and other piles are
tuples of counts indexed by character.
"""

from __future__ import annotations

from functools import lru_cache

from games.coup import cards as C

# The pure functions of small tuples that the engine calls at every node are
# memoised: their arguments take few distinct values.
_cache = lru_cache(maxsize=65536)


def action_cost(kind: int, numbers: C.Numbers = C.PRINTED) -> int:
    """Coins the actor pays when declaring an action of ``kind`` (Coup 7, Assassinate 3
    in the printed rules)."""
    return numbers.cost(kind)


def steal_amount(target_coins: int, steal: int = C.STEAL_MAX) -> int:
    """Coins a Captain takes: 2, or 1 if the target has only one, or nothing (``steal``:
    the most it takes, 2 in the printed rules)."""
    return min(steal, max(0, target_coins))


def treasury_gain(amount: int, treasury: int) -> int:
    """Coins actually taken from a treasury holding ``treasury`` coins (never more than it has)."""
    return min(amount, max(0, treasury))


@_cache
def turn_action_ids(
    actor: int, coins: int, living: tuple[bool, ...], deck: C.Deck,
    numbers: C.Numbers = C.PRINTED,
) -> tuple[int, ...]:
    """The legal turn actions (sorted ids) of ``actor`` holding ``coins``.

    With 10 coins or more the only action is a Coup; Coup needs 7 coins and
    Assassinate 3; Steal may target a player with no coins (it has no effect);
    Examine exists only with the Inquisitor deck. ``numbers`` gives those three numbers
    (the printed rules' by default).
    """
    targets = [p for p, alive in enumerate(living) if alive and p != actor]
    if coins >= numbers.forced_coup_coins:
        return tuple(C.A_COUP + t for t in targets)
    ids = [C.A_INCOME, C.A_FOREIGN_AID, C.A_TAX, C.A_EXCHANGE]
    if coins >= numbers.coup_cost:
        ids += [C.A_COUP + t for t in targets]
    if coins >= numbers.assassination_cost:
        ids += [C.A_ASSASSINATE + t for t in targets]
    ids += [C.A_STEAL + t for t in targets]
    if deck == "inquisitor":
        ids += [C.A_EXAMINE + t for t in targets]
    return tuple(ids)


@_cache
def who_may_challenge(claimant: int, living: tuple[bool, ...], first: int | None = None) -> tuple[int, ...]:
    """Who is asked, in order, whether they challenge ``claimant``'s claim.

    Any living player except the claimant, in turn order starting to the
    claimant's left, or starting at ``first`` (the actor, for a block) when given.
    """
    n = len(living)
    start = claimant if first is None else first - 1
    order = tuple((start + k) % n for k in range(1, n + 1))
    return tuple(p for p in order if living[p] and p != claimant)


def block_characters(kind: int) -> tuple[int, ...]:
    """Characters that may block an action of ``kind`` (empty: not blockable)."""
    blockers = C.BLOCKERS.get(kind)
    return blockers[0] if blockers else ()


@_cache
def who_may_block(kind: int, actor: int, target: int, living: tuple[bool, ...]) -> tuple[int, ...]:
    """Who may block, in the order they are asked.

    Foreign Aid: any living player but the actor, in turn order from the actor's
    left. Assassinate and Steal: only their target (if still in the game).
    """
    blockers = C.BLOCKERS.get(kind)
    if blockers is None:
        return ()
    if blockers[1] == "anyone":
        return who_may_challenge(actor, living)
    return (target,) if target >= 0 and living[target] else ()


def resolve_challenge(hand: tuple[int, ...], claim: int) -> bool:
    """True if the challenged player can show ``claim`` (wins the challenge)."""
    return claim in hand


def hand_remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` without one copy of ``card``."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def hand_add(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` with one more ``card``, kept sorted."""
    return tuple(sorted(hand + (card,)))


def pile_add(pile: tuple[int, ...], card: int, k: int = 1) -> tuple[int, ...]:
    """A count pile with ``k`` more copies of ``card``."""
    return pile[:card] + (pile[card] + k,) + pile[card + 1:]


@_cache
def lose_options(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct characters a player losing influence may turn face up."""
    return tuple(sorted(set(hand)))


@_cache
def exchange_options(hand: tuple[int, ...], drawn: tuple[int, ...]) -> tuple[int, ...]:
    """Ambassador exchange: indices into ``KEEP_OPTIONS`` of the hands one may keep.

    The player keeps as many cards as they had face down, chosen from their
    hand and the drawn cards together; the rest go back to the court.
    """
    pool = hand + drawn
    size = len(hand)
    out = []
    for i, keep in enumerate(C.KEEP_OPTIONS):
        if len(keep) == size and all(keep.count(c) <= pool.count(c) for c in set(keep)):
            out.append(i)
    return tuple(out)


def exchange_returned(hand: tuple[int, ...], drawn: tuple[int, ...], keep: tuple[int, ...]) -> tuple[int, ...]:
    """The cards returned to the court when keeping ``keep`` from ``hand + drawn``."""
    rest = list(hand + drawn)
    for c in keep:
        rest.remove(c)
    return tuple(sorted(rest))


@_cache
def inquisitor_return_options(hand: tuple[int, ...], drawn: tuple[int, ...]) -> tuple[int, ...]:
    """Inquisitor exchange: the characters that may be returned (one card of hand + drawn).

    Returning the drawn card keeps the hand; returning a hand card swaps it.
    """
    return tuple(sorted(set(hand + drawn)))


def swap_with_court(
    hand: tuple[int, ...], court: tuple[int, ...], shown: int, drawn: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hand and court after ``shown`` is shuffled into the court and ``drawn`` comes out.

    Used for a claim proven in a challenge and for a card the Inquisitor makes an
    examined player give up: «la carta se baraja en la Corte y el jugador objetivo
    roba una nueva carta». ``drawn`` may be ``shown`` itself.
    """
    return hand_add(hand_remove(hand, shown), drawn), pile_add(pile_add(court, shown), drawn, -1)


@_cache
def draw_probabilities(court: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Chance outcomes of drawing one card from a shuffled court of counts."""
    total = sum(court)
    return tuple((c, k / total) for c, k in enumerate(court) if k)


@_cache
def draw_pair_probabilities(court: tuple[int, ...]) -> tuple[tuple[tuple[int, int], float], ...]:
    """Chance outcomes of drawing two cards at once from a court of counts (pairs sorted)."""
    total = sum(court)
    norm = total * (total - 1)
    out = []
    for a in range(len(court)):
        for b in range(a, len(court)):
            ways = court[a] * (court[a] - 1) if a == b else 2 * court[a] * court[b]
            if ways:
                out.append(((a, b), ways / norm))
    return tuple(out)


def terminal_returns(winner: int, num_players: int, cap_payoff: float = 0.0) -> list[float]:
    """Winner +1, every other player −1/(n−1) (zero-sum).

    ``winner=-1`` is the turn cap: player 0 gets ``cap_payoff`` and every other
    player −cap_payoff/(n−1) (all 0 by default).
    """
    if winner < 0:
        other = -cap_payoff / (num_players - 1)
        return [float(cap_payoff)] + [other] * (num_players - 1)
    loss = -1.0 / (num_players - 1)
    return [1.0 if p == winner else loss for p in range(num_players)]


def next_living(seat: int, living: tuple[bool, ...]) -> int:
    """The first living player to the left of ``seat``."""
    n = len(living)
    for k in range(1, n + 1):
        p = (seat + k) % n
        if living[p]:
            return p
    raise ValueError("no living player")
