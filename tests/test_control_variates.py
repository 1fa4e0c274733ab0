"""The starting-hand control variate (analysis.control_variates) on synthetic games whose
true win rates are known: unbiased with any baseline, smaller spread with a good one."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.control_variates import HandBaseline, corrected, fit_baseline

HANDS = ("a", "b", "c")
PROB = np.array([0.5, 0.3, 0.2])
# The chance of seat s winning holding hand h (seat 0 gains more from a good hand).
WIN = np.array([[0.2, 0.5, 0.9],    # seat 0
                [0.1, 0.4, 0.8]])   # seat 1
TRUTH = WIN @ PROB  # each seat's true win rate


def synthetic(rng: np.random.Generator, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Hands (games x seats, indices into HANDS) and shares (each seat wins or not)."""
    hands = rng.choice(3, size=(games, 2), p=PROB)
    wins = rng.random((games, 2)) < WIN[[0, 1], hands]
    return hands, wins.astype(float)


def fitted(rng: np.random.Generator, games: int = 600) -> HandBaseline:
    hands, shares = synthetic(rng, games)
    rows = [([HANDS[h] for h in hs], list(s)) for hs, s in zip(hands, shares, strict=True)]
    return fit_baseline(rows, dict(zip(HANDS, PROB, strict=True)), 2)


def replicate(baseline: HandBaseline, rng: np.random.Generator, trials: int = 3000,
              games: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """Each trial's plain and corrected win rates of both seats (trials x seats)."""
    table = np.array([[baseline.value(h, s) - baseline.expected[s] for h in HANDS]
                      for s in range(2)])
    plain, fixed = [], []
    for _ in range(trials):
        hands, shares = synthetic(rng, games)
        plain.append(shares.mean(axis=0))
        fixed.append((shares - table[[0, 1], hands]).mean(axis=0))
    return np.array(plain), np.array(fixed)


def test_the_corrected_mean_is_unbiased_and_tighter_with_a_good_baseline():
    rng = np.random.default_rng(3)
    baseline = fitted(rng)
    plain, fixed = replicate(baseline, rng)
    for s in range(2):
        se = fixed[:, s].std() / np.sqrt(len(fixed))
        assert abs(fixed[:, s].mean() - TRUTH[s]) < 4 * se
        assert fixed[:, s].var() < 0.85 * plain[:, s].var()


def test_a_bad_baseline_costs_spread_but_no_bias_and_a_wrong_expectation_is_caught():
    rng = np.random.default_rng(4)
    good = fitted(rng)
    # The baseline upside down: still unbiased, since its exact mean is taken off.
    values = {(h, s): 1 - v for (h, s), v in good.values.items()}
    means = tuple(1 - m for m in good.seat_means)
    expected = tuple(sum(p * values[(h, s)] for h, p in zip(HANDS, PROB, strict=True))
                     for s in range(2))
    bad = HandBaseline(values, means, expected)
    plain, fixed = replicate(bad, rng)
    for s in range(2):
        se = fixed[:, s].std() / np.sqrt(len(fixed))
        assert abs(fixed[:, s].mean() - TRUTH[s]) < 4 * se
    assert fixed[:, 0].var() > plain[:, 0].var()
    # The expectation taken over the wrong hand probabilities biases the answer.
    wrong = HandBaseline(good.values, good.seat_means,
                         tuple(np.mean([good.value(h, s) for h in HANDS]) for s in range(2)))
    _, off = replicate(wrong, rng, trials=1000)
    se = off[:, 0].std() / np.sqrt(len(off))
    assert abs(off[:, 0].mean() - TRUTH[0]) > 4 * se


def test_corrected_shares_and_hands_never_seen():
    baseline = HandBaseline({("a", 0): 0.7, ("a", 1): 0.2}, (0.5, 0.5), (0.6, 0.3))
    assert corrected([1.0, 0.0], ["a", "a"], baseline) == pytest.approx([0.9, 0.1])
    # A hand never seen counts its seat's mean.
    assert baseline.correction(["z", "z"]) == pytest.approx([-0.1, 0.2])
