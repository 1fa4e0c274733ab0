"""The what-if's difference has the right sign and the right interval.

- A Coup variant whose effect is known in direction: a Coup costing 10 coins instead of 7
  takes longer to save for (and the forced Coup at 10 coins stays), so games last
  longer; the what-if must say the variant's games are longer, by an interval above 0.
- :func:`analysis.play.whatif.paired_difference` on rows made by hand: the variant minus
  the printed rules, over the pairs, with the Student-t interval computed here from the
  textbook formula; for a ratio, from the two intervals as independent.
- The intervals of :mod:`analysis.statistics.intervals` against the formulas, computed by
  hand with scipy's t quantile.
"""

from __future__ import annotations

import math

import pytest
from scipy import stats

from analysis.coup.studies import whatif as KW
from analysis.play.whatif import Estimate, Field, Measure, Ratio, estimate, paired_difference
from analysis.shared import store
from analysis.statistics import intervals as I


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        yield tmp_path


def test_a_dearer_coup_makes_games_longer(data):
    """Measured (honest in both seats, 60 pairs of games, seed 1): 12.7 turns under the
    printed rules, 16.0 with a Coup at 10 coins, difference +3.3 [+2.7, +3.9]."""
    result = KW.run_whatif({"coup_cost": 10}, players=2, agent="honest", strong="bluffer",
                           precision=0.2, skill_precision=0.3, max_games=60, progress=False)
    length = result.metric("length")
    assert length.variant.value > length.printed.value
    assert length.difference.low > 0
    # Every game reads a length in both rule sets, so the paired mean is the means' gap.
    assert length.difference.value == pytest.approx(
        length.variant.value - length.printed.value, abs=1e-12)


def t_interval(values):
    """Mean and 95% Student-t interval, by the textbook formula."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


LENGTH = Measure("length", "turns", "turns", Field("turns"), upper=float("inf"))


def test_the_difference_is_the_variant_minus_the_printed_rules():
    printed = {i: {"turns": t} for i, t in enumerate([10, 12, 11, 9, 13])}
    variant = {i: {"turns": t} for i, t in enumerate([14, 15, 13, 12, 18])}
    variant[7] = {"turns": 100}  # a game with no pair is left out
    a, b = estimate(LENGTH, printed), estimate(LENGTH, variant)
    d = paired_difference(LENGTH, printed, variant, a, b)
    mean, lo, hi = t_interval([4, 3, 2, 3, 5])
    assert d.value == pytest.approx(3.4, abs=1e-12) and d.value == pytest.approx(mean)
    assert (d.low, d.high) == pytest.approx((lo, hi), abs=1e-12)
    assert lo > 0
    # Swapped, the difference is negated.
    back = paired_difference(LENGTH, variant, printed, b, a)
    assert (back.value, back.low, back.high) == pytest.approx((-d.value, -d.high, -d.low))


def test_a_difference_is_kept_within_the_measure_span():
    """A share's difference lies within [-1, 1]: the interval is cut there."""
    share = Measure("s", "share", "share", Field("w"))
    printed = {0: {"w": 0.0}, 1: {"w": 0.0}, 2: {"w": 1.0}}
    variant = {0: {"w": 1.0}, 1: {"w": 1.0}, 2: {"w": 0.0}}
    d = paired_difference(share, printed, variant, estimate(share, printed),
                          estimate(share, variant))
    mean, lo, hi = t_interval([1.0, 1.0, -1.0])
    assert d.value == pytest.approx(1 / 3)
    assert (d.low, d.high) == pytest.approx((max(-1.0, lo), min(1.0, hi)))
    assert d.low == -1.0 and d.high == 1.0  # the t interval reaches beyond both ends


def test_a_ratio_difference_combines_two_independent_intervals():
    bluffs = Measure("b", "bluffs", "share", Ratio("bluffs", "claims"), ratio=True)
    a = Estimate(0.2, 0.1, 0.3)
    b = Estimate(0.5, 0.44, 0.56)
    d = paired_difference(bluffs, {}, {}, a, b)
    se = math.hypot(0.1 / 1.959963984540054, 0.06 / 1.959963984540054)
    assert d.value == pytest.approx(0.3)
    assert (d.low, d.high) == pytest.approx((0.3 - 1.959963984540054 * se,
                                             0.3 + 1.959963984540054 * se), abs=1e-12)


# ---------------------------------------------------------------- the intervals themselves
def test_mean_interval_is_student_t_and_kept_in_range():
    values = [0.0, 1.0, 1.0, 0.5, 1.0, 0.0, 1.0]
    assert I.mean_interval(values) == pytest.approx(
        tuple(min(1.0, max(0.0, x)) for x in t_interval(values)), abs=1e-12)
    wide = [3.0, 9.0, 4.0, 7.5]
    assert I.mean_interval(wide, -100, 100) == pytest.approx(t_interval(wide), abs=1e-12)
    assert I.mean_interval([0.7]) == (0.7, 0.0, 1.0)  # one value: nothing known of the spread
    value, lo, hi = I.mean_interval([])
    assert math.isnan(value) and (lo, hi) == (0.0, 1.0)
    assert I.mean_interval([2.0, 2.0, 2.0], 0, 5) == (2.0, 2.0, 2.0)
    assert I.t_quantile95(10) == pytest.approx(2.228138852, abs=1e-9)  # the t table's 2.228


def test_cluster_interval_of_equal_clusters_is_the_mean_interval_of_their_means():
    wins, games = [1.0, 2.0, 0.0, 2.0, 1.5], [2.0] * 5
    assert I.cluster_interval(wins, games) == pytest.approx(
        I.mean_interval([w / 2 for w in wins]), abs=1e-12)


def test_cluster_interval_of_unequal_clusters_by_hand():
    """The ratio estimator's cluster-robust standard error:
    ``sqrt(k / (k - 1) * sum((w_d - r g_d)^2)) / G`` with ``r = W / G``."""
    wins, games = [1.0, 3.0, 0.0, 4.0], [2.0, 4.0, 1.0, 5.0]
    k, W, G = 4, sum(wins), sum(games)
    r = W / G
    se = math.sqrt(k / (k - 1) * sum((w - r * g) ** 2 for w, g in zip(wins, games, strict=True))) / G
    half = stats.t.ppf(0.975, k - 1) * se
    assert I.cluster_interval(wins, games) == pytest.approx(
        (r, max(0.0, r - half), min(1.0, r + half)), abs=1e-12)
    assert I.cluster_interval([1.0], [0.0])[1:] == (0.0, 1.0)  # empty clusters are dropped


def test_wilson_by_hand():
    p, lo, hi = I.wilson(8, 10)
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.8 * 0.2 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (p, lo, hi) == pytest.approx((0.8, centre - half, centre + half), abs=1e-12)
    assert I.wilson(0, 5)[1] == 0.0 and I.wilson(5, 5)[2] == 1.0


def test_difference_and_pooled_by_hand():
    z = 1.959963984540054
    d, lo, hi = I.difference(0.6, (0.5, 0.7), 0.4, (0.35, 0.45))
    half = z * math.hypot(0.1 / z, 0.05 / z)
    assert (d, lo, hi) == pytest.approx((0.2, 0.2 - half, 0.2 + half), abs=1e-12)
    assert I.standard_error((0.5, 0.7)) == pytest.approx(0.1 / z)
    mean, lo, hi = I.pooled([(10, 0.5, (0.4, 0.6)), (30, 0.7, (0.65, 0.75))])
    assert mean == pytest.approx(0.65)
    half = z * math.hypot(0.25 * 0.1 / z, 0.75 * 0.05 / z)
    assert (lo, hi) == pytest.approx((0.65 - half, 0.65 + half), abs=1e-12)
    assert I.bound_points((-0.0123, 0.031)) == 3.1
    assert I.bound_points((-0.05, 0.01)) == 5.0


def test_an_estimate_holds_what_lies_in_its_interval():
    e = Estimate(0.5, 0.4, 0.6)
    assert e.half_width == pytest.approx(0.1, abs=1e-15)
    assert e.holds(0.4) and e.holds(0.6) and e.holds(0.5)
    assert not e.holds(0.39) and not e.holds(0.61)
    assert e.holds(0.6 + 5e-10) and not e.holds(0.6 + 2e-9)  # within the tolerance, 1e-9
    assert e.holds(0.4 - 0.01, tol=0.02) and not e.holds(0.4 - 0.03, tol=0.02)
    assert not e.exact and not e.solved


def test_a_ratio_is_estimated_over_games_as_clusters():
    """Games where the ratio reads nothing (no claims) are left out; the rest are the
    clusters of :func:`cluster_interval`."""
    bluffs = Measure("b", "bluffs", "share", Ratio("bluffs", "claims"), ratio=True)
    rows = {0: {"bluffs": 1, "claims": 4}, 1: {"bluffs": 0, "claims": 0},
            2: {"bluffs": 3, "claims": 5}, 3: {"bluffs": 2, "claims": 2}}
    e = estimate(bluffs, rows)
    value, lo, hi = I.cluster_interval([1.0, 3.0, 2.0], [4.0, 5.0, 2.0])
    assert (e.value, e.low, e.high) == pytest.approx((value, lo, hi), abs=1e-15)
    assert e.value == pytest.approx(6 / 11)


def test_games_a_measure_cannot_read_are_left_out_of_the_pairs():
    """A reading of None (the measure says nothing of that game) drops the pair."""
    turns = Measure("t", "turns", "turns", lambda row, i: row["turns"], upper=float("inf"))
    printed = {0: {"turns": 10}, 1: {"turns": None}, 2: {"turns": 12}, 3: {"turns": 9}}
    variant = {0: {"turns": 13}, 1: {"turns": 50}, 2: {"turns": None}, 3: {"turns": 11}}
    a = Estimate(0.0, 0.0, 0.0)
    d = paired_difference(turns, printed, variant, a, a)
    mean, lo, hi = t_interval([3, 2])
    assert (d.value, d.low, d.high) == pytest.approx((mean, lo, hi), abs=1e-12)
