"""Intervals shared by every study: a proportion's 95% Wilson score interval, and a
mean's Student-t interval over independent units (duplicate deals).

Tournaments and matches of any game report win rates with it; draws and shared wins
count fractionally, so the number of successes may be a fraction.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float, float]:
    """A proportion and its 95% Wilson score interval (ties may count fractionally)."""
    if n == 0:
        return (float("nan"),) * 3
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


class WinRate:
    """For a record with ``wins`` (shared wins count fractionally) out of ``games``:
    the win rate and its 95% Wilson interval."""

    wins: float
    games: int

    @property
    def win_rate(self) -> float:
        return wilson(self.wins, self.games)[0]

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        _, lo, hi = wilson(self.wins, self.games)
        return lo, hi


def t_quantile95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def mean_interval(values, lower: float = 0.0, upper: float = 1.0) -> tuple[float, float, float]:
    """The mean of independent ``values`` and its 95% Student-t interval, kept within
    ``[lower, upper]`` (a win rate's range by default).

    For duplicate deals each value is one deal's mean over its rotations: the deal, not
    the game, is the independent unit. With fewer than two values nothing is known of
    the spread, and the interval is the whole range.
    """
    values = [float(v) for v in values]
    k = len(values)
    if k == 0:
        return float("nan"), lower, upper
    mean = math.fsum(values) / k
    if k == 1:
        return mean, lower, upper
    var = math.fsum((v - mean) ** 2 for v in values) / (k - 1)
    half = t_quantile95(k - 1) * math.sqrt(var / k)
    return mean, max(lower, mean - half), min(upper, mean + half)


def cluster_interval(wins, games, lower: float = 0.0,
                     upper: float = 1.0) -> tuple[float, float, float]:
    """A win rate over clusters of games that are not independent within a cluster (the
    rotations of a duplicate deal): ``wins[d]`` out of ``games[d]`` in cluster ``d``. The
    rate is all wins over all games; its 95% interval is Student t over the clusters with
    the ratio's cluster-robust standard error, so clusters of equal size give exactly
    :func:`mean_interval` of their means. Kept within ``[lower, upper]``; fewer than two
    clusters give the whole range."""
    pairs = [(float(w), float(g)) for w, g in zip(wins, games, strict=True) if g > 0]
    k = len(pairs)
    total = math.fsum(g for _, g in pairs)
    if k == 0:
        return float("nan"), lower, upper
    rate = math.fsum(w for w, _ in pairs) / total
    if k == 1:
        return rate, lower, upper
    spread = math.fsum((w - rate * g) ** 2 for w, g in pairs) * k / (k - 1)
    half = t_quantile95(k - 1) * math.sqrt(spread) / total
    return rate, max(lower, rate - half), min(upper, rate + half)


def standard_error(ci: tuple[float, float]) -> float:
    """The standard error a 95% interval stands for: its half-width over the 95% quantile
    (an interval that is not symmetric, such as Wilson's, by its mean half-width)."""
    lo, hi = ci
    return (hi - lo) / (2 * Z95)


def difference(a: float, a_ci: tuple[float, float], b: float,
               b_ci: tuple[float, float]) -> tuple[float, float, float]:
    """``a - b`` and its 95% interval, for two estimates from independent games (two
    tables played apart): each interval's standard error (:func:`standard_error`),
    combined as the square root of the sum of their squares."""
    half = Z95 * math.hypot(standard_error(a_ci), standard_error(b_ci))
    return a - b, a - b - half, a - b + half


def pooled(estimates) -> tuple[float, float, float]:
    """One estimate from independent runs of the same measurement: ``estimates`` are
    ``(units, mean, (low, high))``, each mean over its units (deals) with its 95%
    interval. The pooled mean weighs each run by its units; its standard error combines
    the runs' (:func:`standard_error`) with the same weights."""
    estimates = list(estimates)
    total = sum(n for n, _, _ in estimates)
    mean = sum(n * m for n, m, _ in estimates) / total
    half = Z95 * math.sqrt(sum((n / total * standard_error(ci)) ** 2
                               for n, _, ci in estimates))
    return mean, mean - half, mean + half


def bound_points(ci: tuple[float, float]) -> float:
    """The largest size, in percentage points rounded up to a tenth, of a difference of
    probabilities that a 95% interval holding 0 still allows: the larger of |lower| and
    |upper|."""
    largest = 100 * max(abs(ci[0]), abs(ci[1]))
    return math.ceil(round(10 * largest, 6)) / 10
