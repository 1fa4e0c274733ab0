"""Control variates for win rates: the luck of the starting hand taken out, unbiasedly.

In the spirit of AIVAT (Burch et al., AAAI 2018), without its per-move terms: a
*baseline* ``b(hand, seat)``, a seat's expected win share holding a starting hand, is
estimated on games played apart from the ones measured. A game's share ``x`` at seat
``s`` holding hand ``h`` is then counted as ``x - (b(h, s) - E[b(H, s)])``, where the
expectation over the hands ``H`` a seat can be dealt is exact (the probabilities of the
deal, not an estimate). The correction has mean zero whatever the baseline, so the
corrected mean is unbiased; the better ``b`` predicts ``x``, the smaller its variance.

With duplicate deals every seat holds every hand of a deal once, so a baseline that
depends on the hand alone cancels out of seat comparisons: only how a hand's worth
changes with the seat can help there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class HandBaseline:
    """``values[(hand, seat)]``, a seat's expected share holding ``hand`` (a hand never
    seen counts its seat's mean), and ``expected[seat]``, its exact mean over the deal."""

    values: Mapping[tuple[str, int], float]
    seat_means: tuple[float, ...]
    expected: tuple[float, ...]

    def value(self, hand: str, seat: int) -> float:
        return self.values.get((hand, seat), self.seat_means[seat])

    def correction(self, hands: Sequence[str], relative: bool = True) -> list[float]:
        """What to subtract from each seat's share of a game where seat ``s`` held
        ``hands[s]``: ``c_s = b(hands[s], s) - E[b(H, s)]``, less the table's mean of the
        ``c_t`` when ``relative`` (a hand is good or bad against the others dealt, and the
        corrected shares still sum to one). Either way every term has mean zero."""
        luck = [self.value(h, s) - self.expected[s] for s, h in enumerate(hands)]
        mean = sum(luck) / len(luck) if relative else 0.0
        return [c - mean for c in luck]


def fit_baseline(games: Iterable[tuple[Sequence[str], Sequence[float]]],
                 probabilities: Mapping[str, float], seats: int,
                 prior: float = 10.0) -> HandBaseline:
    """The baseline of ``games`` (each: the hands by seat, the shares by seat), each
    hand's mean share in each seat drawn towards the seat's mean as if ``prior`` more
    games had given it; ``probabilities``: every hand a seat can be dealt, with its
    probability."""
    wins: dict[tuple[str, int], float] = {}
    count: dict[tuple[str, int], int] = {}
    total, played = [0.0] * seats, [0] * seats
    for hands, shares in games:
        for s in range(seats):
            key = (hands[s], s)
            wins[key] = wins.get(key, 0.0) + shares[s]
            count[key] = count.get(key, 0) + 1
            total[s] += shares[s]
            played[s] += 1
    means = tuple(total[s] / played[s] if played[s] else 1.0 / seats for s in range(seats))
    values = {key: (wins[key] + prior * means[key[1]]) / (count[key] + prior) for key in count}
    partial = HandBaseline(values, means, (0.0,) * seats)
    expected = tuple(sum(p * partial.value(h, s) for h, p in probabilities.items())
                     for s in range(seats))
    return HandBaseline(values, means, expected)


def corrected(shares: Sequence[float], hands: Sequence[str], baseline: HandBaseline,
              relative: bool = True) -> list[float]:
    """A game's shares with the baseline's correction taken off, seat by seat."""
    return [x - c for x, c in zip(shares, baseline.correction(hands, relative), strict=True)]
