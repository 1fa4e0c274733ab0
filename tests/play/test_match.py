"""Matches between agents: Wilson intervals, seat rotation, seeding, worker processes,
shared wins and the stored result's JSON."""

from __future__ import annotations

import json

import pytest

from analysis.cli import bots
from analysis.play import match
from analysis.play.match import MatchResult, SeatRecord, play_match, seating, win_shares
from analysis.statistics.intervals import wilson
from games.errors import InvalidParameterError, UnknownBotError
from games.goat_lords import rules as goat_rules


def test_wilson_against_known_values():
    p, lo, hi = wilson(50, 100)
    assert p == 0.5 and lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    p, lo, hi = wilson(0, 10)
    assert p == 0 and lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    p, lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1) and lo == pytest.approx(0.7225, abs=1e-4)
    # Shared wins count fractionally: 2.5 wins in 5 games is a rate of one half.
    assert wilson(2.5, 5)[0] == 0.5


def test_rotation_seats_every_agent_equally():
    agents = ("a", "b", "c")
    rounds = [seating(agents, i) for i in range(6)]
    assert rounds[0] == agents and rounds[1] == ("c", "a", "b")
    for seat in range(3):
        assert sorted(r[seat] for r in rounds) == ["a", "a", "b", "b", "c", "c"]


def test_match_records_each_agent_in_each_seat():
    result = play_match("python_coup", ("honest", "bluffer", "random"), 9, seed=4,
                        params={"players": 3}, build=bots.build)
    assert [(r.seat, r.agent, r.games) for r in result.seats] == [
        (s, a, 3) for s in range(3) for a in ("honest", "bluffer", "random")]
    # Coup has one winner a game (or a turn cap shared by all): the wins sum to the games.
    assert sum(r.wins for r in result.seats) == pytest.approx(9)
    totals = {r.agent: r for r in result.totals()}
    assert all(t.games == 9 for t in totals.values())
    assert sum(t.wins for t in totals.values()) == pytest.approx(9)


def test_same_seed_same_result_and_workers_do_not_matter():
    args = ("python_coup", ("honest", "bluffer-bold", "random", "bluffer"), 24)
    one = play_match(*args, seed=7, params={"players": 4}, build=bots.build)
    again = play_match(*args, seed=7, params={"players": 4}, build=bots.build)
    two = play_match(*args, seed=7, params={"players": 4}, workers=2, build=bots.build)
    assert one == again == two
    other = play_match(*args, seed=8, params={"players": 4}, build=bots.build)
    assert other.seats != one.seats


def test_a_game_depends_on_the_seed_and_its_index_only():
    agents = ("bluffer", "bluffer")
    shares = [match.play_one("python_coup", {}, agents, 3, i, bots.build) for i in range(6)]
    assert [match.play_one("python_coup", {}, agents, 3, i, bots.build)
            for i in (5, 2)] == [shares[5], shares[2]]
    assert match.game_seeds(3, 1, 2) != match.game_seeds(3, 2, 2) != match.game_seeds(4, 1, 2)


def test_shared_wins_and_draws_split_the_game():
    # Goat Lords: "returns_for" gives tied winners equal returns.
    assert win_shares(goat_rules.returns_for([0, 2], 3)) == [0.5, 0.0, 0.5]
    assert win_shares(goat_rules.returns_for([1], 4)) == [0.0, 1.0, 0.0, 0.0]
    assert win_shares([0.0, 0.0]) == [0.5, 0.5]  # a draw
    result = play_match("tic_tac_toe", ("random", "random"), 40, seed=1)
    wins = [r.wins for r in result.seats]
    assert sum(wins) == pytest.approx(40)
    assert any(w != int(w) for w in wins)  # some games were drawn


def test_json_shape_and_round_trip():
    result = play_match("python_coup", ("honest", "random"), 4, seed=2, build=bots.build)
    data = json.loads(json.dumps(result.to_json()))
    assert list(data) == ["seats", "game", "params", "games", "seed", "version", "commit"]
    assert set(data["seats"][0]) == {"agent", "seat", "wins", "games", "win_rate", "ci95"}
    assert data["game"] == "python_coup" and data["games"] == 4 and data["seed"] == 2
    assert data["version"] and data["commit"]
    row = data["seats"][0]
    assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert MatchResult.from_json(data) == result


def test_seat_record_rates():
    record = SeatRecord("honest", 1, 50, 100)
    assert record.win_rate == 0.5 and record.ci95 == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_bad_matches_are_refused():
    with pytest.raises(InvalidParameterError, match="agents"):
        play_match("python_coup", ("honest",), 3, seed=0, build=bots.build)
    with pytest.raises(InvalidParameterError, match="games"):
        play_match("python_coup", ("honest", "honest"), 0, seed=0, build=bots.build)
    with pytest.raises(InvalidParameterError, match="seed"):
        play_match("python_coup", ("honest", "honest"), 1, seed=-1, build=bots.build)
    with pytest.raises(UnknownBotError, match="choose from"):
        play_match("python_coup", ("honest", "nobody"), 1, seed=0, build=bots.build)


def test_clocked_games_note_their_seconds_and_unclocked_ones_cost_nothing_known(tmp_path):
    kept = tmp_path / "games.jsonl"
    rows = match.play_games("python_coup", ("honest", "bluffer"), 6, seed=3,
                            build=bots.build, record=kept, clock=True)
    assert all(r["cpu_s"] >= 0 for r in rows.values())
    assert match.compute_seconds(rows) == pytest.approx(sum(r["cpu_s"] for r in rows.values()),
                                                        abs=1e-3)
    # The clock changes no result: the same games unclocked give the same shares.
    plain = match.play_games("python_coup", ("honest", "bluffer"), 6, seed=3, build=bots.build)
    assert [r["shares"] for r in plain.values()] == [r["shares"] for r in rows.values()]
    assert match.compute_seconds(plain) is None
    # A resumed record keeps the seconds of the games it already held.
    more = match.play_games("python_coup", ("honest", "bluffer"), 8, seed=3,
                            build=bots.build, record=kept, clock=True)
    assert {i: more[i]["cpu_s"] for i in rows} == {i: r["cpu_s"] for i, r in rows.items()}
