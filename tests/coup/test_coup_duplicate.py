"""Duplicate deals in Coup (analysis.coup.studies.duplicate, analysis.play.match with
``deal``): the same cards in every rotation, games that replay from their seeds, intervals
over deals."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pyspiel
import pytest

from analysis.cli import bots
from analysis.coup.studies.duplicate import DealChance, deal_chance, shuffle_keys, shuffled
from analysis.coup.studies.seat_balance import starting_hands
from analysis.play import match
from analysis.statistics.intervals import cluster_interval, mean_interval
from games.coup import cards as C
from games.coup import rules as R
from games.errors import FarolError, InvalidParameterError

GAME = "python_coup"


def dealt(params: dict, seed: int, rotation: int):
    """The state after the deal of rotation ``rotation`` of deal ``seed``, and its chooser."""
    game = pyspiel.load_game(GAME, params)
    chance = DealChance(game, seed, rotation)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(chance(state))
    return state, chance


@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 2, "two_player_setup": "draft"},
    {"players": 3, "deck": "inquisitor"}, {"players": 5}, {"players": 8, "deck": "inquisitor"},
])
def test_every_rotation_deals_the_same_cards_turned_round_and_the_same_court(params):
    n = params["players"]
    for seed in (1, 2, 3):
        first, chance = dealt(params, seed, 0)
        court, order = first.core.court, list(chance.order)
        assert sum(court) == len(order) and Counter(order) == Counter(
            {c: k for c, k in enumerate(court) if k})
        for r in range(1, n):
            state, other = dealt(params, seed, r)
            assert [state.core.hands[(s + r) % n] for s in range(n)] == list(first.core.hands)
            assert state.core.court == court and other.order == order
        # Another deal is another deal.
        assert dealt(params, seed + 100, 0)[0].core.hands != first.core.hands


def test_the_same_exchange_draws_the_same_cards_whoever_makes_it():
    n = 3
    drawn = []
    for r in range(n):
        state, chance = dealt({"players": n}, 7, r)
        exchange = next(a for a in state.legal_actions() if "Exchange" in state.action_to_string(a))
        state.apply_action(exchange)
        while state.current_player() >= 0 and not state.is_chance_node():
            state.apply_action(next(a for a in state.legal_actions()
                                    if state.action_to_string(a) == "No challenge"))
        top = chance.order[:2]
        state.apply_action(chance(state))
        drawn.append((sorted(top), state.core.drawn))
    assert all(tuple(sorted(top)) == pair for top, pair in drawn)
    assert len({pair for _, pair in drawn}) == 1


def test_a_shuffle_keeps_the_order_of_the_cards_two_courts_share():
    keys = shuffle_keys(11, 4)
    big = shuffled((2, 1, 3, 0, 1), keys)
    small = shuffled((2, 1, 2, 0, 1), keys)  # one Captain fewer: the last copy's key goes
    assert Counter(big) == Counter({0: 2, 1: 1, 2: 3, 4: 1})
    without = list(big)
    rank = sorted(range(3), key=lambda i: keys[2, i])
    # remove the Captain whose key was the copy numbered 2
    position = [i for i, c in enumerate(big) if c == 2][rank.index(2)]
    del without[position]
    assert small == without
    assert shuffle_keys(11, 4).tolist() == keys.tolist()
    assert shuffle_keys(11, 5).tolist() != keys.tolist()


def test_each_game_is_still_a_fair_game_of_coup():
    # Over many deals, whatever the rotation: seat 0's starting hand comes with the
    # probabilities of a shuffled deck, and so does a draw from a court.
    deals = 3000
    hands = Counter(dealt({"players": 2}, seed, seed % 2)[0].core.hands[0]
                    for seed in range(deals))
    for pair, p in R.draw_pair_probabilities((3,) * C.NUM_CHARACTERS):
        assert abs(hands[pair] / deals - p) < 4 * np.sqrt(p * (1 - p) / deals)
    court = (2, 3, 1, 2, 3)
    got = Counter()
    for seed in range(deals):
        chance = DealChance(pyspiel.load_game(GAME, {"players": 2}), seed, 0)
        got[tuple(sorted(chance._draw(court, 2)))] += 1
    for pair, p in R.draw_pair_probabilities(court):
        assert abs(got[pair] / deals - p) < 4 * np.sqrt(p * (1 - p) / deals) + 1e-9


def test_a_game_replays_bit_for_bit_from_its_seeds():
    agents = ("bluffer", "search", "bluffer-bold")
    params = {"players": 3, "deck": "inquisitor"}
    for index in (0, 4):
        a, _ = match.replay(GAME, params, agents, 3, index, bots.build, deal=deal_chance)
        b, _ = match.replay(GAME, params, agents, 3, index, bots.build, deal=deal_chance)
        assert a.history() == b.history() and a.returns() == b.returns()
    plain, _ = match.replay(GAME, params, agents, 3, 0, bots.build)
    assert plain.history() == match.replay(GAME, params, agents, 3, 0, bots.build)[0].history()


def test_duplicate_matches_rotate_the_hands_with_the_agents_and_round_up_to_whole_deals():
    rows = match.play_games(GAME, ("honest", "bluffer", "random"), 7, 2, {"players": 3},
                            build=bots.build, deal=deal_chance, observe=starting_hands)
    assert sorted(rows) == list(range(9))  # 7 games: three deals of 3
    for d in range(3):
        hands = [rows[3 * d + r]["seen"] for r in range(3)]
        for r in range(3):
            assert [hands[r][(j + r) % 3] for j in range(3)] == hands[0]
    assert rows[0]["seen"] != rows[3]["seen"]


def test_duplicate_results_are_the_same_with_workers_resumed_and_recorded(tmp_path):
    run = dict(params={"players": 2, "deck": "inquisitor"}, build=bots.build, deal=deal_chance)
    agents = ("search", "bluffer")  # the strong agent too: seeded, it replays anywhere
    straight = match.play_match(GAME, agents, 16, 4, **run)
    pooled = match.play_match(GAME, agents, 16, 4, workers=2, **run)
    record = tmp_path / "games.jsonl"
    match.play_match(GAME, agents, 6, 4, record=record, **run)
    resumed = match.play_match(GAME, agents, 16, 4, record=record, **run)
    assert straight == pooled == resumed
    assert straight.duplicate and straight.deals == 8 and straight.games == 16
    assert json.loads(record.read_text().splitlines()[0])["deals"] == "duplicate"
    with pytest.raises(FarolError, match="another match"):
        match.play_match(GAME, agents, 16, 4, record=record, params=run["params"],
                         build=bots.build)  # plain games are not resumed from duplicate ones
    back = match.MatchResult.from_json(json.loads(json.dumps(straight.to_json())))
    assert back == straight
    assert straight.to_json()["duplicate"] is True and straight.to_json()["deals"] == 8


def test_duplicate_intervals_are_over_deals():
    agents = ("honest", "honest")
    result = match.play_match(GAME, agents, 40, 6, build=bots.build, deal=deal_chance)
    rows = match.play_games(GAME, agents, 40, 6, build=bots.build, deal=deal_chance)
    for seat in (0, 1):
        per_deal = [(rows[2 * d]["shares"][seat] + rows[2 * d + 1]["shares"][seat]) / 2
                    for d in range(20)]
        mean, lo, hi = mean_interval(per_deal)
        (record,) = [r for r in result.seats if r.seat == seat]
        assert record.win_rate == pytest.approx(mean)
        assert record.ci95 == pytest.approx((lo, hi))
    (total,) = result.totals()
    assert total.win_rate == pytest.approx(0.5) and total.games == 80


def test_deal_values_on_rows_with_a_known_answer():
    # Two deals of a 2-seat match A,B: seat 0 wins every game of deal 0; deal 1 splits.
    rows = {0: {"shares": [1.0, 0.0]}, 1: {"shares": [1.0, 0.0]},
            2: {"shares": [1.0, 0.0]}, 3: {"shares": [0.0, 1.0]}}
    by_seat, by_agent = match.deal_values(("A", "B"), 4, rows)
    # game 0: A in seat 0; game 1: B in seat 0 (seats rotate every game)
    assert by_seat[0, "A"] == [1.0, 1.0] and by_seat[0, "B"] == [1.0, 0.0]
    assert by_seat[1, "B"] == [0.0, 0.0] and by_seat[1, "A"] == [0.0, 1.0]
    assert by_agent["A"] == [0.5, 1.0] and by_agent["B"] == [0.5, 0.0]


def test_a_position_cannot_be_a_duplicate_deal():
    game = pyspiel.load_game(GAME, {"players": 2, "position": "captain/duke/3; ?/contessa/0"})
    with pytest.raises(InvalidParameterError, match="position"):
        deal_chance(game, 0, 0)


def test_the_interval_over_deals_on_numbers_with_a_known_answer():
    mean, lo, hi = mean_interval([0.4, 0.5, 0.6, 0.5])
    half = 3.182446305284263 * np.sqrt(0.02 / 3) / 2  # t(3) quantile, s / sqrt(4)
    assert mean == pytest.approx(0.5) and (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert mean_interval([0.9, 1.0, 1.0])[2] == 1.0  # kept within [0, 1]
    assert mean_interval([0.3]) == (0.3, 0.0, 1.0)  # one deal says nothing of the spread
    # Deals whose rotations share a luck drawn per deal: the interval over deals covers
    # the true rate about 95 times in 100 (an interval over games, as if the rotations
    # were independent, would cover it far less often).
    rng = np.random.default_rng(0)
    truth, covered, naive = 0.3, 0, 0
    trials, deals, rotations = 2000, 20, 4
    for _ in range(trials):
        luck = rng.beta(0.6, 1.4, size=deals)  # a deal's win chance, mean 0.3
        wins = rng.random((deals, rotations)) < luck[:, None]
        _, lo, hi = mean_interval(wins.mean(axis=1))
        covered += lo <= truth <= hi
        n, p = wins.size, wins.mean()
        half = 1.96 * np.sqrt(p * (1 - p) / n)
        naive += p - half <= truth <= p + half
    assert 0.93 <= covered / trials <= 0.97
    assert naive / trials < 0.9


def test_the_cluster_interval_on_numbers_with_a_known_answer():
    # Equal clusters: exactly the interval of their means.
    wins, games = [1.0, 1.5, 0.5, 1.2, 0.9], [2, 2, 2, 2, 2]
    assert cluster_interval(wins, games) == pytest.approx(
        mean_interval([w / g for w, g in zip(wins, games, strict=True)]))
    assert cluster_interval([3.0], [4]) == (0.75, 0.0, 1.0)
    # Unequal clusters sharing a luck each: the interval covers the truth about 95 times
    # in 100.
    rng = np.random.default_rng(1)
    truth, covered, trials = 0.4, 0, 2000
    for _ in range(trials):
        sizes = rng.integers(1, 7, size=30)
        luck = rng.beta(2, 3, size=30)  # mean 0.4
        won = [float((rng.random(k) < p).sum()) for k, p in zip(sizes, luck, strict=True)]
        _, lo, hi = cluster_interval(won, sizes)
        covered += lo <= truth <= hi
    assert 0.93 <= covered / trials <= 0.97
