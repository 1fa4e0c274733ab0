"""The starting-hand control variate (analysis.statistics.control_variates) on synthetic games whose
true win rates are known: unbiased with any baseline, smaller spread with a good one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.statistics.control_variates import HandBaseline, fit_baseline

HANDS = ("a", "b", "c")
PROB = np.array([0.5, 0.3, 0.2])
STRENGTH = np.array([-0.4, 0.0, 0.5])
FIRST = 0.55  # seat 0's win rate when both hands are worth the same
TRUTH = np.array([FIRST, 1 - FIRST])  # the hands' strengths cancel on average


def synthetic(rng: np.random.Generator, games: int) -> tuple[np.ndarray, np.ndarray]:
    """A 2-seat game: hands (games x seats, indices into HANDS) and shares (one winner),
    seat 0 winning with chance FIRST + (its hand's strength - the other's) / 2."""
    hands = rng.choice(3, size=(games, 2), p=PROB)
    first = FIRST + (STRENGTH[hands[:, 0]] - STRENGTH[hands[:, 1]]) / 2
    won = rng.random(games) < first
    return hands, np.stack([won, ~won], axis=1).astype(float)


def fitted(rng: np.random.Generator, games: int = 800) -> HandBaseline:
    hands, shares = synthetic(rng, games)
    rows = [([HANDS[h] for h in hs], list(s)) for hs, s in zip(hands, shares, strict=True)]
    return fit_baseline(rows, dict(zip(HANDS, PROB, strict=True)), 2)


def replicate(baseline: HandBaseline, rng: np.random.Generator, trials: int = 3000,
              games: int = 100, relative: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Each trial's plain and corrected win rates of both seats (trials x seats)."""
    table = np.zeros((3, 3, 2))
    for h0, h1 in itertools.product(range(3), repeat=2):
        table[h0, h1] = baseline.correction([HANDS[h0], HANDS[h1]], relative)
    plain, fixed = [], []
    for _ in range(trials):
        hands, shares = synthetic(rng, games)
        plain.append(shares.mean(axis=0))
        fixed.append((shares - table[hands[:, 0], hands[:, 1]]).mean(axis=0))
    return np.array(plain), np.array(fixed)


def unbiased(values: np.ndarray) -> bool:
    se = values.std(axis=0) / np.sqrt(len(values))
    return bool(np.all(np.abs(values.mean(axis=0) - TRUTH) < 4 * se))


@pytest.mark.parametrize(("relative", "shrink"), [(True, 0.85), (False, 0.95)])
def test_the_corrected_mean_is_unbiased_and_tighter_with_a_good_baseline(relative, shrink):
    # Seat 0's chances hang on both hands: the correction relative to the table takes
    # out the luck of both, the plain one only that of a seat's own hand.
    rng = np.random.default_rng(3)
    baseline = fitted(rng)
    plain, fixed = replicate(baseline, rng, relative=relative)
    assert unbiased(fixed) and unbiased(plain)
    assert np.all(fixed.var(axis=0) < shrink * plain.var(axis=0))
    if relative:  # the corrected shares of a game still sum to one
        assert fixed.sum(axis=1) == pytest.approx(np.ones(len(fixed)))


def test_a_bad_baseline_costs_spread_but_no_bias_and_a_wrong_expectation_is_caught():
    rng = np.random.default_rng(4)
    good = fitted(rng)
    # The baseline upside down: still unbiased, since its exact mean is taken off.
    values = {(h, s): 1 - v for (h, s), v in good.values.items()}
    means = tuple(1 - m for m in good.seat_means)
    expected = tuple(sum(p * values[(h, s)] for h, p in zip(HANDS, PROB, strict=True))
                     for s in range(2))
    plain, fixed = replicate(HandBaseline(values, means, expected), rng)
    assert unbiased(fixed)
    assert fixed[:, 0].var() > plain[:, 0].var()
    # The expectation taken over the wrong hand probabilities biases the answer.
    wrong = HandBaseline(good.values, good.seat_means,
                         tuple(np.mean([good.value(h, s) for h in HANDS]) for s in range(2)))
    _, off = replicate(wrong, rng, trials=1000, relative=False)
    assert not unbiased(off)


def test_corrections_and_hands_never_seen():
    baseline = HandBaseline({("a", 0): 0.7, ("a", 1): 0.2}, (0.5, 0.5), (0.6, 0.3))
    assert baseline.correction(["a", "a"], relative=False) == pytest.approx([0.1, -0.1])
    assert baseline.correction(["a", "a"]) == pytest.approx([0.1, -0.1])
    # A hand never seen counts its seat's mean.
    assert baseline.correction(["z", "z"], relative=False) == pytest.approx([-0.1, 0.2])
    assert baseline.correction(["z", "z"]) == pytest.approx([-0.15, 0.15])
