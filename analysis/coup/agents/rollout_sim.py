"""Whole turns of Coup played by the search agent's quick rule agent, compiled with numba.

The search agent's roll-outs for a turn action run about one round of turns with a quick
rule agent (:func:`analysis.coup.agents.search.quick_move`) on the engine, where each step
is a Python call. :func:`play_turns` plays the same turns from the start of a turn over a
few small arrays, with the same rules (:mod:`games.coup.rules`: who is asked,
challenges, blocks and their challenges, refunds, the treasury, exchanges of either
deck, the turn cap) and the same rule agent: the same choices at the same rates, from
numba's own generator. No examine is played: the rule agent never examines.
:func:`evaluate` plays every candidate turn action in every deal in one call.

A position (:func:`position`): ``hands`` (n x 2, sorted, -1 where no card), ``coins``,
``court`` and ``up`` (cards face up) as counts per character, the actor and the turn.
"""

from __future__ import annotations

import numba
import numpy as np

from analysis.coup.agents.rules_of_thumb import VALUE
from analysis.coup.agents.search import SELF_BLOCK
from analysis.coup.solvers.strength import CARD_POWER, COIN, COUP_READY
from games.coup import cards as C
from games.coup import engine as E
from games.errors import InvalidParameterError

# The characters, as numba sees them (module constants are frozen at compile time).
DUKE, ASSASSIN, CAPTAIN, EXCHANGER, CONTESSA = C.DUKE, C.ASSASSIN, C.CAPTAIN, C.EXCHANGER, C.CONTESSA
# The panel's card values, by character.
_VALUE = np.array([VALUE[c] for c in C.CHARACTERS], dtype=np.int64)
# Kinds of turn action the rule agent plays.
INCOME, FOREIGN_AID, COUP, TAX, ASSASSINATE, STEAL, EXCHANGE = (
    C.INCOME, C.FOREIGN_AID, C.COUP, C.TAX, C.ASSASSINATE, C.STEAL, C.EXCHANGE)
# Flags of the game's parameters: (copies, inquisitor deck, refund a challenged
# assassination, refund a blocked one, chance orders challenges, chance orders blocks,
# turn cap, coins in the game, the searching seat) and the rules' numbers
# (:class:`games.coup.cards.Numbers`: costs, forced Coup, gains, the Captain's steal).
(_COPIES, _INQ, _REFUND, _REFUND_BLOCKED, _CHAL_CHANCE, _BLOCK_CHANCE, _CAP, _TOTAL, _MINE,
 _COUP_COST, _ASSN_COST, _FORCED, _INCOME, _AID, _TAX, _STEAL) = range(16)


def rules_of(cfg: E.Config, seat: int) -> np.ndarray:
    """The game's parameters as :func:`play_turns` reads them, for the searching ``seat``."""
    if cfg.numbers.hand_size > 2:
        raise InvalidParameterError("the fast agent's roll-outs hold hands of at most 2 "
                                    f"cards; hand_size={cfg.numbers.hand_size}")
    k = cfg.numbers
    return np.array([cfg.copies, cfg.deck == "inquisitor", cfg.refund, cfg.refund_blocked,
                     cfg.challenge_chance, cfg.block_chance, cfg.turn_cap, cfg.total_coins,
                     seat, k.coup_cost, k.assassination_cost, k.forced_coup_coins, k.income,
                     k.foreign_aid, k.tax, k.steal], dtype=np.int64)


def position(core: E.Core) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``core`` at the start of a turn as arrays: hands, coins, court and cards face up."""
    n = len(core.hands)
    hands = np.full((n, 2), -1, dtype=np.int64)
    up = np.zeros(C.NUM_CHARACTERS, dtype=np.int64)
    for p, hand in enumerate(core.hands):
        hands[p, :len(hand)] = hand
        for c in core.revealed[p]:
            up[c] += 1
    return (hands, np.array(core.coins, dtype=np.int64), np.array(core.court, dtype=np.int64), up)


@numba.njit(cache=True)
def _cards(hands, p):
    return (hands[p, 0] >= 0) + (hands[p, 1] >= 0)


@numba.njit(cache=True)
def _holds(hands, p, c):
    return hands[p, 0] == c or hands[p, 1] == c


@numba.njit(cache=True)
def _count(hands, p, c):
    return (hands[p, 0] == c) + (hands[p, 1] == c)


@numba.njit(cache=True)
def _living(hands):
    k = 0
    for p in range(hands.shape[0]):
        k += hands[p, 0] >= 0
    return k


@numba.njit(cache=True)
def _draw(court):
    # A card from the court, uniform over its cards.
    total = court.sum()
    x = np.random.randint(total)
    for c in range(5):
        if x < court[c]:
            court[c] -= 1
            return c
        x -= court[c]
    return -1


@numba.njit(cache=True)
def _set_hand(hands, p, a, b):
    # Hand ``p`` = {a, b} (either -1), sorted with the cards first.
    if a < 0 or (b >= 0 and b < a):
        a, b = b, a
    hands[p, 0], hands[p, 1] = a, b


@numba.njit(cache=True)
def _lose(hands, coins, up, p):
    """``p`` turns up its card least worth keeping; returns whether the game is over."""
    a, b = hands[p, 0], hands[p, 1]
    if b >= 0 and (_VALUE[b] < _VALUE[a] or (_VALUE[b] == _VALUE[a] and b < a)):
        lost, kept = b, a
    elif b >= 0:
        lost, kept = a, b
    else:
        lost, kept = a, -1
    up[lost] += 1
    _set_hand(hands, p, kept, -1)
    if kept < 0:
        coins[p] = 0
        return _living(hands) <= 1
    return False


@numba.njit(cache=True)
def _redraw(hands, court, p, shown):
    # ``p`` shows ``shown``, shuffles it into the court and draws a card.
    court[shown] += 1
    keep = hands[p, 1] if hands[p, 0] == shown else hands[p, 0]
    _set_hand(hands, p, keep, _draw(court))


@numba.njit(cache=True)
def _gain(coins, p, amount, total):
    got = min(amount, max(0, total - coins.sum()))
    coins[p] += got


@numba.njit(cache=True)
def _order(hands, first, skip, chance):
    # Living players but ``skip`` in turn order from ``first``; rotated to a random
    # start when ``chance`` and two or more.
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):
        p = (first + i) % n
        if hands[p, 0] >= 0 and p != skip:
            out[k] = p
            k += 1
    out = out[:k]
    if chance and k >= 2:
        s = np.random.randint(k)
        out = np.concatenate((out[s:], out[:s]))
    return out


@numba.njit(cache=True)
def _challenger(hands, up, rates, rules, askers, claim):
    """The first asker who challenges ``claim`` (-1: nobody), as the rule agent asks."""
    for q in askers:
        if _count(hands, q, claim) + up[claim] >= rules[_COPIES]:
            return q
        rate = rates[q, 2] if claim == DUKE else rates[q, 1]
        if q == rules[_MINE] and _cards(hands, q) == 1:
            rate *= 0.5
        if rate > 0 and np.random.random() < rate:
            return q
    return -1


@numba.njit(cache=True)
def _threat(hands, coins, actor, need_coins):
    # The most threatening living opponent of ``actor`` (most cards, most coins, nearest
    # left); with ``need_coins`` the richest holding two coins or more (nearest left).
    n = hands.shape[0]
    best, key0, key1 = -1, 0, 0
    for i in range(1, n):
        p = (actor + i) % n
        if hands[p, 0] < 0:
            continue
        if need_coins:
            if coins[p] < 2:
                continue
            k0, k1 = coins[p], 0
        else:
            k0, k1 = _cards(hands, p), coins[p]
        if best < 0 or k0 > key0 or (k0 == key0 and k1 > key1):
            best, key0, key1 = p, k0, k1
    return best


@numba.njit(cache=True)
def _action(hands, coins, rates, rules, actor):
    """The rule agent's turn action: (kind, target)."""
    coins_a = coins[actor]
    if coins_a >= rules[_FORCED]:
        return COUP, _threat(hands, coins, actor, False)
    claims = np.zeros(5, dtype=np.bool_)
    for c in hands[actor]:
        if c >= 0:
            claims[c] = True
    rate = rates[actor, 0]
    if actor == rules[_MINE] and _cards(hands, actor) == 1:
        rate *= 0.5
    lacking = np.empty(3, dtype=np.int64)
    k = 0
    for c in (DUKE, CAPTAIN, ASSASSIN):
        if not claims[c] and (c != ASSASSIN or coins_a >= rules[_ASSN_COST]):
            lacking[k] = c
            k += 1
    if k > 0 and rate > 0 and np.random.random() < rate:
        claims[lacking[np.random.randint(k)]] = True
    if coins_a >= rules[_COUP_COST]:
        return COUP, _threat(hands, coins, actor, False)
    if claims[ASSASSIN] and coins_a >= rules[_ASSN_COST]:
        return ASSASSINATE, _threat(hands, coins, actor, False)
    if claims[DUKE]:
        return TAX, -1
    if claims[CAPTAIN]:
        rich = _threat(hands, coins, actor, True)
        if rich >= 0:
            return STEAL, rich
    if coins_a == rules[_COUP_COST] - 1:
        return INCOME, -1
    if claims[EXCHANGER] and not (claims[DUKE] or claims[CAPTAIN] or claims[ASSASSIN]):
        return EXCHANGE, -1
    return FOREIGN_AID, -1


@numba.njit(cache=True)
def _keep_score(a, b):
    if b < 0:
        return _VALUE[a]
    return _VALUE[a] + _VALUE[b] - (2 if a == b else 0)


@numba.njit(cache=True)
def _exchange(hands, court, rules, p):
    """``p`` exchanges with the court as the rule agent does (either deck)."""
    held = _cards(hands, p)
    if rules[_INQ]:
        pool = np.array([hands[p, 0], hands[p, 1], _draw(court)])
        if held == 1:
            pool = np.array([hands[p, 0], pool[2], -1])
        best, back = -1000, -1
        for c in range(5):  # the character given back leaving the best hand (smallest on ties)
            at = -1
            for i in range(3):
                if pool[i] == c:
                    at = i
                    break
            if at < 0:
                continue
            rest = np.array([pool[i] for i in range(3) if i != at and pool[i] >= 0])
            score = _keep_score(rest[0], rest[1] if len(rest) > 1 else -1)
            if score > best:
                best, back = score, at
        court[pool[back]] += 1
        keep = [pool[i] for i in range(3) if i != back and pool[i] >= 0]
        _set_hand(hands, p, keep[0], keep[1] if len(keep) > 1 else -1)
        return
    draws = min(2, court.sum())
    pool = np.full(4, -1, dtype=np.int64)
    m = 0
    for i in range(2):
        if hands[p, i] >= 0:
            pool[m] = hands[p, i]
            m += 1
    for _ in range(draws):
        pool[m] = _draw(court)
        m += 1
    pool = np.sort(pool[:m])
    best, bi, bj = -1000, -1, -1
    if held == 1:
        for i in range(m):
            s = _VALUE[pool[i]]
            if s > best or (s == best and pool[i] < pool[bi]):
                best, bi = s, i
        for i in range(m):
            if i != bi:
                court[pool[i]] += 1
        _set_hand(hands, p, pool[bi], -1)
        return
    for i in range(m):  # pairs in KEEP_OPTIONS order: the first best wins ties
        for j in range(i + 1, m):
            s = _keep_score(pool[i], pool[j])
            if s > best or (s == best and (pool[i] < pool[bi] or (pool[i] == pool[bi] and pool[j] < pool[bj]))):
                best, bi, bj = s, i, j
    for i in range(m):
        if i != bi and i != bj:
            court[pool[i]] += 1
    _set_hand(hands, p, pool[bi], pool[bj])


@numba.njit(cache=True)
def _block(hands, rates, rules, kind, actor, target):
    """(blocker, character) of the first asker who blocks (-1, -1: nobody)."""
    if kind == FOREIGN_AID:
        askers = _order(hands, actor + 1, actor, rules[_BLOCK_CHANCE])
        chars = np.array([DUKE])
    elif kind == ASSASSINATE:
        askers = np.array([target]) if hands[target, 0] >= 0 else np.empty(0, dtype=np.int64)
        chars = np.array([CONTESSA])
    else:
        askers = np.array([target]) if hands[target, 0] >= 0 else np.empty(0, dtype=np.int64)
        chars = np.array([CAPTAIN, EXCHANGER])
    for q in askers:
        for c in chars:
            if _holds(hands, q, c):
                return q, c
        if q == rules[_MINE]:
            if kind == ASSASSINATE and _cards(hands, q) == 1:
                return q, CONTESSA
            stands = 1.0
            for r in range(hands.shape[0]):
                if hands[r, 0] >= 0 and r != q:
                    stands *= 1.0 - rates[r, 1]
            if stands > SELF_BLOCK:
                return q, chars[0]
            continue
        rate = rates[q, 3]
        if rate > 0 and np.random.random() < rate:
            return q, chars[np.random.randint(len(chars))]
    return -1, -1


@numba.njit(cache=True)
def _turn(hands, coins, court, up, rates, rules, actor, kind, target):
    """Play ``actor``'s turn, opening with the action (``kind``, ``target``) or, with
    ``kind`` -1, the rule agent's; returns whether the game is over."""
    total = rules[_TOTAL]
    if kind < 0:
        kind, target = _action(hands, coins, rates, rules, actor)
    if kind == COUP:
        coins[actor] -= rules[_COUP_COST]
        return _lose(hands, coins, up, target)
    if kind == ASSASSINATE:
        coins[actor] -= rules[_ASSN_COST]
    claim = -1
    if kind == TAX:
        claim = DUKE
    elif kind == ASSASSINATE:
        claim = ASSASSIN
    elif kind == STEAL:
        claim = CAPTAIN
    elif kind == EXCHANGE:
        claim = EXCHANGER
    if claim >= 0:
        askers = _order(hands, actor + 1, actor, rules[_CHAL_CHANCE])
        q = _challenger(hands, up, rates, rules, askers, claim)
        if q >= 0:
            if _holds(hands, actor, claim):
                if _lose(hands, coins, up, q):
                    return True
                _redraw(hands, court, actor, claim)
            else:
                if kind == ASSASSINATE and rules[_REFUND]:
                    _gain(coins, actor, rules[_ASSN_COST], total)
                return _lose(hands, coins, up, actor)
    if kind in (FOREIGN_AID, ASSASSINATE, STEAL):
        q, c = _block(hands, rates, rules, kind, actor, target)
        if q >= 0:
            askers = _order(hands, actor, q, rules[_CHAL_CHANCE])
            r = _challenger(hands, up, rates, rules, askers, c)
            if r < 0 or _holds(hands, q, c):
                if kind == ASSASSINATE and rules[_REFUND_BLOCKED]:
                    _gain(coins, actor, rules[_ASSN_COST], total)
                if r >= 0:
                    if _lose(hands, coins, up, r):
                        return True
                    _redraw(hands, court, q, c)
                return False
            if _lose(hands, coins, up, q):
                return True
    if kind == INCOME:
        _gain(coins, actor, rules[_INCOME], total)
    elif kind == FOREIGN_AID:
        _gain(coins, actor, rules[_AID], total)
    elif kind == TAX:
        _gain(coins, actor, rules[_TAX], total)
    elif kind == STEAL:
        if hands[target, 0] >= 0:
            amount = min(rules[_STEAL], max(0, coins[target]))
            coins[target] -= amount
            coins[actor] += amount
    elif kind == ASSASSINATE:
        if hands[target, 0] >= 0:
            return _lose(hands, coins, up, target)
    elif kind == EXCHANGE:
        _exchange(hands, court, rules, actor)
    return False


@numba.njit(cache=True)
def _strength(cards, coins, rules):
    return (cards ** CARD_POWER + COIN * min(coins, rules[_FORCED])
            + (COUP_READY if coins >= rules[_COUP_COST] else 0.0))


@numba.njit(cache=True)
def play_turns(hands, coins, court, up, rates, rules, actor, turn, until, seed, kind=-1, target=-1):
    """Play turns from the start of ``actor``'s turn ``turn`` until turn ``until`` starts
    or the game ends (the arrays are changed), the first opening with (``kind``,
    ``target``) when ``kind`` is given; the searching seat's score, as
    :func:`analysis.coup.solvers.strength.score` gives it."""
    np.random.seed(seed)
    n = hands.shape[0]
    mine = rules[_MINE]
    over = False
    while turn < until:
        over = _turn(hands, coins, court, up, rates, rules, actor, kind, target)
        kind = -1
        if over:
            break
        turn += 1
        if turn >= rules[_CAP]:
            return 1.0 / n
        for i in range(1, n + 1):
            p = (actor + i) % n
            if hands[p, 0] >= 0:
                actor = p
                break
    if hands[mine, 0] < 0:
        return 0.0
    if over:
        return 1.0
    total = 0.0
    for p in range(n):
        if hands[p, 0] >= 0:
            total += _strength(_cards(hands, p), coins[p], rules)
    return _strength(_cards(hands, mine), coins[mine], rules) / total


@numba.njit(cache=True)
def evaluate(hands, courts, coins, up, rates, rules, actor, turn, until, kinds, targets, seeds):
    """Every turn action (``kinds``, ``targets``) played by ``actor`` in every deal
    (``hands``: deals x players x 2, ``courts``: deals x 5) and on with
    :func:`play_turns`, the same seed for every action in a deal; scores, actions x deals."""
    out = np.empty((len(kinds), hands.shape[0]))
    for w in range(hands.shape[0]):
        for m in range(len(kinds)):
            out[m, w] = play_turns(hands[w].copy(), coins.copy(), courts[w].copy(), up.copy(),
                                   rates, rules, actor, turn, until, seeds[w], kinds[m], targets[m])
    return out
