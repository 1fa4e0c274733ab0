"""What a Coup position is worth by its face-down cards and coins, before it is played out.

The search agents score their roll-outs' last positions by it (:func:`score`), the
re-solve over the public beliefs values the positions where it stops by it
(:func:`analysis.coup.solvers.belief_resolve.heuristic`), and the exploiter the worlds
past its depth. One definition, so that they all weigh cards and coins alike (the
compiled roll-outs of :mod:`analysis.coup.agents.rollout_sim` read its constants).
"""

from __future__ import annotations

from games.coup import cards as C
from games.coup import engine as E

# The strength of a player: cards ** CARD_POWER + COIN * coins (+ COUP_READY at 7 coins).
CARD_POWER, COIN, COUP_READY = 1.5, 0.1, 0.25


def score(core: E.Core, seat: int) -> float:
    """The seat's share of the table's strength: a win is 1, out is 0, else its
    :func:`strength` against everyone's."""
    if core.over:
        return 1.0 if core.winner == seat else (0.0 if core.winner >= 0 else 1.0 / len(core.hands))
    if not core.hands[seat]:
        return 0.0
    k = core.cfg.numbers
    total = sum(strength(len(h), c, k) for h, c in zip(core.hands, core.coins, strict=True) if h)
    return strength(len(core.hands[seat]), core.coins[seat], k) / total


def strength(cards: int, coins: int, numbers: C.Numbers = C.PRINTED) -> float:
    """What a player's face-down cards and coins are worth (a second card more than the
    first; coins up to the forced Coup's 10, and a little more once a Coup is paid for;
    ``numbers``: the rules' costs, the printed ones by default)."""
    return (cards ** CARD_POWER + COIN * min(coins, numbers.forced_coup_coins)
            + (COUP_READY if coins >= numbers.coup_cost else 0.0))
