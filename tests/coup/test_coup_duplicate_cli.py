"""Duplicate deals from the command line and in the balance tables: ``farol coup match
--duplicate``, ``farol coup balance --duplicate`` and :func:`seat_balance.play_table`."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.cli.bots import build
from analysis.coup.studies import seat_balance as SB
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.match import play_games
from analysis.shared import store
from analysis.statistics.intervals import cluster_interval

SMALL = dict(games=12, seed=5, panel=("random",), robustness_games=6, build=build)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        yield tmp_path


def _json(argv, capsys):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_coup_match_duplicate_says_so_rounds_to_deals_and_ignores_workers(capsys):
    argv = ["coup", "match", "--agents", "honest,bluffer,random", "--players", "3",
            "--games", "7", "--seed", "2", "--duplicate"]
    data = _json(argv, capsys)
    assert data["duplicate"] is True and data["deals"] == 3 and data["games"] == 9
    assert all(r["ci95_over"] == "deals" for r in data["seats"] + data["totals"])
    assert [t["agent"] for t in data["totals"]] == ["honest", "bluffer", "random"]
    assert sum(t["wins"] for t in data["totals"]) == pytest.approx(9)
    assert _json(argv + ["--workers", "2"], capsys) == data
    plain = _json(argv[:-1], capsys)
    assert "duplicate" not in plain and plain["games"] == 7  # plain games as before
    assert main(argv) == 0
    assert "duplicate deals: 3 deals" in capsys.readouterr().out


def test_a_duplicate_table_resumes_and_is_kept_apart_from_plain_games(data, monkeypatch):
    table = SB.Table(2, "ambassador", "standard")
    plain = SB.play_table(table, "honest", **SMALL)
    first = SB.play_table(table, "honest", **SMALL | {"games": 6}, duplicate=True)
    record = SB.play_table(table, "honest", **SMALL, duplicate=True)  # 6 more, 6 kept
    assert not plain.duplicate and record.duplicate and first.self_play.games == 6
    assert record.self_play.duplicate and record.self_play.deals == 6
    assert all(m.duplicate for m in record.robustness)
    assert SB.record_path(table, True).exists() and SB.record_path(table).exists()
    assert SB.load_records([table]) == [plain]
    assert SB.load_records([table], duplicate=True) == [record]
    assert json.loads(SB.record_path(table).read_text())["duplicate"] is False
    # Played straight through elsewhere: the same numbers.
    monkeypatch.setenv(store.CACHE_ENV, str(data / "other-cache"))
    with store.use(data / "other"):
        straight = SB.play_table(table, "honest", **SMALL, duplicate=True, workers=2)
    assert straight.self_play.seats == record.self_play.seats
    assert straight.hands == record.hands
    assert [m.seats for m in straight.robustness] == [m.seats for m in record.robustness]
    assert sum(h.games for h in record.hands) == 12 * 2
    # A hand's interval is over deals (its games in one deal are not independent).
    assert all(h.deal_ci95 is None for h in plain.hands)
    rows = play_games(SB.GAME, ("honest", "honest"), 12, 5, table.params(), build=build,
                      deal=deal_chance, observe=SB.starting_hands)
    hand = max(record.hands, key=lambda h: h.games)
    wins, games = {}, {}
    for i, row in rows.items():
        for seat in (0, 1):
            if "+".join(row["seen"][seat]) == hand.hand:
                wins[i // 2] = wins.get(i // 2, 0.0) + row["shares"][seat]
                games[i // 2] = games.get(i // 2, 0) + 1
    assert hand.ci95 == pytest.approx(cluster_interval(
        [wins[d] for d in sorted(games)], [games[d] for d in sorted(games)])[1:])
    assert hand.to_json()["ci95_over"] == "deals"
    assert SB.HandRecord.from_json(json.loads(json.dumps(hand.to_json()))) == hand


def test_a_record_stored_before_duplicate_deals_loads_as_plain_games(data):
    table = SB.Table(3, "ambassador")
    record = SB.play_table(table, "random", **SMALL | {"panel": ()})
    stored = json.loads(SB.record_path(table).read_text())
    del stored["duplicate"]
    SB.record_path(table).write_text(json.dumps(stored))
    (back,) = SB.load_records([table])
    assert back == record and not back.duplicate and not back.self_play.duplicate


def test_coup_balance_duplicate_prints_the_deals(data, capsys):
    argv = ["coup", "balance", "--players", "3", "--decks", "inquisitor", "--agent", "honest",
            "--panel", "none", "--games", "5", "--duplicate"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "6 games as 2 duplicate deals, intervals over deals" in out
    assert "3p-inquisitor-duplicate.json" in out
