"""Statistics of Goat Lords tournaments: intervals, seat and bot win rates, the worth of a wild."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from analysis.goat_lords.studies.statistics import (
    duel_success,
    extra_wild_effect,
    game_length,
    mean_ci,
    seat_win_rates,
    wild_worth,
)
from analysis.goat_lords.studies.tournament import Experiment, play_one
from analysis.statistics.intervals import wilson


def test_statistics():
    p, lo, hi = wilson(50, 100)
    assert p == 0.5 and lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi
    exp = Experiment("t", 3, ("random",) * 3, 30, seed=1)
    df = pd.DataFrame([play_one(exp, i) for i in range(30)])
    rates = seat_win_rates(df)
    assert rates["win_rate"].sum() == pytest.approx(1.0)
    assert (rates["lo"] <= rates["win_rate"]).all() and (rates["win_rate"] <= rates["hi"]).all()
    duels = duel_success(df)
    assert duels["duels"] == df["attacker_wins"].sum() + df["defender_wins"].sum() > 0
    worth = wild_worth(df)
    assert worth["seats"] == 90 and worth["win"][1] <= worth["win"][0] <= worth["win"][2]
    assert game_length(df)["turns"] == pytest.approx(df["turns"].mean())


def test_wild_worth_recovers_a_planted_effect():
    """With wins decided by wilds alone, the slope is about one win per extra wild share."""
    rng = random.Random(0)
    rows = []
    for i in range(400):
        wilds = [rng.randint(0, 3), rng.randint(0, 3)]
        if wilds[0] == wilds[1]:
            wilds[1] = (wilds[0] + 1) % 4
        winner = int(np.argmax(wilds))
        rows.append({"index": i, "players": 2, "seating": "a;b", "winners": str(winner),
                     "points": "0;0", "wilds": f"{wilds[0]};{wilds[1]}"})
    worth = wild_worth(pd.DataFrame(rows))
    assert worth["win"][0] > 0.25
    by = worth["by_count"].set_index("wilds")
    assert by.loc[3, "win_rate"] == 1.0 and by.loc[0, "win_rate"] == 0.0


def test_extra_wild_effect_pairs_games_by_index():
    control = Experiment("c", 2, ("greedy", "greedy"), 30, seed=4)
    treated = Experiment("t", 2, ("greedy", "greedy"), 30, seed=4, extra_wild=True)
    assert control.key() != treated.key() and treated.treated_seat(3) == 1
    rows_c = pd.DataFrame([play_one(control, i) for i in range(30)])
    rows_t = pd.DataFrame([play_one(treated, i) for i in range(30)])
    # Same deal: the treated seat received exactly one more wild at the start.
    effect = extra_wild_effect(rows_t, rows_c, 2)
    assert effect["pairs"] == 30
    assert effect["win"][1] <= effect["win"][0] <= effect["win"][2]
    assert effect["win_paired"][1] <= effect["win_paired"][0] <= effect["win_paired"][2]
    assert extra_wild_effect(rows_c, rows_c, 2)["win_paired"][0] == 0.0
    # Against the fair share: the treated seat's mean share, its seats weighted equally.
    seat = rows_t["index"] % 2
    share = [(1.0 / len(w.split(";"))) * (str(s) in w.split(";")) for w, s in zip(rows_t["winners"], seat, strict=True)]
    rate = pd.Series(share).groupby(seat.to_numpy()).mean().mean()
    assert effect["win_rate"][0] == pytest.approx(rate) and effect["win"][0] == pytest.approx(rate - 0.5)


def _treated_games(players: int, games: int, p: float, rng: random.Random) -> pd.DataFrame:
    """Games where seat ``i % players`` wins with chance ``p``, else another seat (ties none)."""
    rows = []
    for i in range(games):
        seat = i % players
        winner = seat if rng.random() < p else rng.choice([s for s in range(players) if s != seat])
        rows.append({"index": i, "winners": str(winner), "points": ";".join("0" * players)})
    return pd.DataFrame(rows)


def test_extra_wild_effect_interval_covers_the_true_gain():
    """Over many synthetic tables with a known gain (seat wins 40% at 3 players: +6.7
    points over the fair share), the 95% interval holds the gain about 95% of the time,
    and the fair-share interval is narrower than the paired one."""
    rng = random.Random(5)
    control = _treated_games(3, 600, 1 / 3, rng)
    covered, narrower = 0, 0
    for _ in range(200):
        effect = extra_wild_effect(_treated_games(3, 600, 0.4, rng), control, 3)
        lo, hi = effect["win"][1:]
        covered += lo <= 0.4 - 1 / 3 <= hi
        narrower += (hi - lo) < effect["win_paired"][2] - effect["win_paired"][1]
    assert 0.90 <= covered / 200 <= 0.99
    assert narrower == 200
