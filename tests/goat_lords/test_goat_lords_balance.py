"""The strong-agent balance tables: an answer meets its aim exactly when its 95% interval
is no wider than ±2.5 points at 2 players (±3 beyond), and only finished tables count."""

from __future__ import annotations

import random

import pandas as pd

from analysis.goat_lords.studies.balance import BalanceTables
from analysis.goat_lords.studies.plan import aim
from analysis.goat_lords.studies.statistics import extra_wild_effect
from analysis.goat_lords.studies.tournament import Experiment


def _games(players: int, games: int, seed: int) -> pd.DataFrame:
    """Fair synthetic games: a uniform winner, a few duels and wilds each."""
    rng = random.Random(seed)
    rows = []
    for i in range(games):
        wilds = [rng.randint(0, 3) for _ in range(players)]
        rows.append({"index": i, "players": players, "seating": ";".join(["lord"] * players),
                     "winners": str(rng.randrange(players)), "points": ";".join("0" * players),
                     "wilds": ";".join(map(str, wilds)), "attacker_wins": rng.randint(5, 15),
                     "defender_wins": rng.randint(2, 8)})
    return pd.DataFrame(rows)


def _results(games: int, planned: int) -> dict:
    seats = [(Experiment(f"s_{s}", 2, ("lord",) * 2, planned, label=s), _games(2, games, k))
             for k, s in enumerate(("single", "rounds"))]
    wild = [(Experiment(f"w_{s}", 2, ("lord",) * 2, planned, label=s, extra_wild=True),
             _games(2, games, 7 + k)) for k, s in enumerate(("single", "rounds"))]
    values = [(Experiment("v", 2, ("lord",) * 2, planned, label="flat"), _games(2, games, 8))]
    return {"seats": seats, "extra_wild": wild, "sensitivity": values}


def test_large_finished_tables_meet_the_aim_and_small_ones_are_named():
    assert aim(2) == 0.025 and aim(3) == aim(6) == 0.03
    big = BalanceTables.from_results(_results(1600, 1600))
    assert big.played == big.planned == 5 * 1600
    assert all(big.complete(g) for g in ("seats", "extra_wild", "sensitivity"))
    assert big.finished() == 7 and big.misses() == []  # 5 tables + the wild received twice
    assert list(big.wild["scoring"]) == ["single", "rounds"]
    # Each wild experiment is paired with the seat table of its own scoring.
    res = _results(1600, 1600)
    seats = {e.label: df for e, df in res["seats"]}
    for (e, df), row in zip(res["extra_wild"], big.wild.itertuples(), strict=True):
        assert row.paired == extra_wild_effect(df, seats[e.label], 2)["win_paired"][0]
    assert (big.seats["half"] <= 0.025).all() and big.seats["meets_aim"].all()
    small = BalanceTables.from_results(_results(200, 200))
    assert set(small.misses()) == {"seats 2p (single)", "seats 2p (rounds)",
                                   "extra wild 2p (single)", "extra wild 2p (rounds)",
                                   "sensitivity 2p (flat)",
                                   "wild received 2p (single)", "wild received 2p (rounds)"}
    # Not finished: not counted, whatever its width.
    partial = BalanceTables.from_results(_results(200, 1600))
    assert partial.finished() == 0 and partial.misses() == []
    assert not partial.complete("seats") and partial.played == 1000


def test_the_appendix_says_how_many_games_are_played():
    from analysis.report.goat_lords.strong import _progress

    assert _progress(BalanceTables.from_results(_results(1600, 1600))).startswith(
        "All 8,000 planned games are played")
    partial = _progress(BalanceTables.from_results(_results(200, 1600)))
    assert "Games played so far: 1,000 of 8,000" in partial and "plays the rest" in partial


def test_the_appendix_sets_the_observed_slope_against_the_experiment():
    """The slope per wild received is compared with the experiment only where both are
    finished; the sentence counts the tables where the slope lies above, and shows the
    smallest table of each scoring."""
    from analysis.report.goat_lords.strong import _slope_against_experiment

    def tables(slope_lo: float, games: int = 10, rounds: bool = False) -> BalanceTables:
        keys = [("single", 2), ("single", 4)] + ([("rounds", 4), ("rounds", 2)] if rounds else [])
        wild = pd.DataFrame([{"scoring": sc, "players": n, "games": games, "planned": 10,
                              "gain": 0.03, "lo": 0.0, "hi": 0.06} for sc, n in keys])
        slope = pd.DataFrame([{"scoring": sc, "players": n, "games": 10, "planned": 10,
                               "slope": 0.13 if n == 2 else 0.05,
                               "lo": slope_lo if n == 2 else 0.04, "hi": 0.14} for sc, n in keys])
        return BalanceTables(pd.DataFrame(), wild, pd.DataFrame(), slope)

    text = "".join(_slope_against_experiment(tables(0.12)))
    assert "In 1 of the 2 tables where both are measured" in text
    assert "(single scoring at 2 players, +13.0 pp [+12.0, +14.0] against +3.0 pp [+0.0, +6.0])" \
        in text
    text = "".join(_slope_against_experiment(tables(0.12, rounds=True)))
    assert "In 2 of the 4 tables" in text and "; rounds scoring at 2 players, +13.0 pp" in text
    assert _slope_against_experiment(tables(0.05)) == []  # the intervals overlap
    assert _slope_against_experiment(tables(0.12, games=5)) == []  # not finished


def test_each_extra_wild_table_replays_the_deals_of_a_seat_table():
    """The extra wild is measured on the same deals as a seat table of the same scoring
    (the same seed, bots, rules and games), one round at 2-6 players and the rulebook's
    game at 2 and 4."""
    from analysis.goat_lords.studies.plan import strong_plan

    plan = strong_plan()
    seats = {(e.label, e.players): e for e in plan["seats"]}
    wild = {(e.label, e.players): e for e in plan["extra_wild"]}
    assert sorted(n for s, n in wild if s == "single") == [2, 3, 4, 5, 6]
    assert sorted(n for s, n in wild if s == "rounds") == [2, 4]
    for key, e in wild.items():
        control = seats[key]
        assert e.extra_wild and not control.extra_wild
        assert (e.seed, e.bots, e.game_params(), e.games) == (
            control.seed, control.bots, control.game_params(), control.games)
        assert e.key() != control.key()
