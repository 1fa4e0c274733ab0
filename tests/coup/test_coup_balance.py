"""Coup balance at 2-8 players (analysis.coup.studies.seat_balance, ``farol coup balance``)."""

from __future__ import annotations

import json
import random
import re

import pyspiel
import pytest

from analysis.cli import main
from analysis.cli.bots import build
from analysis.coup.studies import seat_balance as SB
from analysis.play.match import MatchResult, SeatRecord
from analysis.shared import store
from games.coup import cards as C
from games.errors import InvalidParameterError

SMALL = dict(games=12, seed=5, panel=("random",), robustness_games=6, build=build)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        yield tmp_path


def numbers(record: SB.TableRecord) -> dict:
    """A record's numbers: all but where and when it was made, and what it cost."""
    out = record.to_json()
    for key in ("version", "commit", "cpu_seconds"):
        out.pop(key, None)
    for match in [out["self_play"], *out["robustness"]]:
        match.pop("version"), match.pop("commit")
    return out


def test_tables_cover_every_count_deck_and_two_player_setup():
    every = SB.tables()
    assert len(every) == 2 * 3 + 6 * 2  # 2 players: 3 setups per deck; 3-8: one each
    assert len({t.name for t in every}) == len(every)
    assert SB.Table(2, "inquisitor", "draft").params() == {
        "players": 2, "deck": "inquisitor", "two_player_setup": "draft"}
    assert "two_player_setup" not in SB.Table(5, "ambassador").params()
    for table in every:  # every table is a game OpenSpiel deals
        pyspiel.load_game(SB.GAME, table.params()).new_initial_state()


@pytest.mark.parametrize("args, words", [
    ((9, "ambassador"), "players: 9"), ((2, "classic", "basic"), "deck 'classic'"),
    ((2, "ambassador", "solo"), "setup 'solo'"), ((4, "ambassador", "basic"), "setups are for 2"),
])
def test_bad_tables_are_refused_in_one_line(args, words):
    with pytest.raises(InvalidParameterError, match=words) as info:
        SB.Table(*args)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("setup", ["basic", "draft"])
def test_starting_hands_are_the_hands_once_every_player_holds_two(setup):
    game = pyspiel.load_game(SB.GAME, {"players": 2, "two_player_setup": setup})
    rng = random.Random(1)
    state = game.new_initial_state()
    seen = None
    while seen is None:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        seen = SB.starting_hands(state)
        if seen is None:
            assert setup == "draft"  # a drafting player holds one card
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen == [sorted(C.card_name(c) for c in h) for h in state.core.hands]
    assert all(len(h) == 2 for h in seen)


def test_a_table_record_adds_up_saves_and_resumes(data, monkeypatch):
    table = SB.Table(4, "inquisitor")
    first = SB.play_table(table, "honest", **SMALL | {"games": 8})
    record = SB.play_table(table, "honest", **SMALL)  # 4 more games, the 8 kept
    seats = record.self_play.seats
    assert [s.seat for s in seats] == [0, 1, 2, 3]
    assert sum(s.wins for s in seats) == pytest.approx(12)  # one win per game in all
    assert sum(h.games for h in record.hands) == 12 * 4  # every seat's hand, every game
    assert sum(h.wins for h in record.hands) == pytest.approx(12)
    assert any("Inquisitor" in h.hand for h in record.hands)
    assert first.self_play.games == 8
    # The compute cost sums each game's clocked seconds, the resumed games' included.
    assert 0 < first.cpu_seconds <= record.cpu_seconds
    assert record.to_json()["cpu_seconds"] == record.cpu_seconds
    assert record.agent_about.startswith("never bluffs")  # the honest agent's description
    # The same 12 games played straight through, elsewhere, give the same record.
    monkeypatch.setenv(store.CACHE_ENV, str(data / "other-cache"))
    with store.use(data / "other"):
        straight = SB.play_table(table, "honest", **SMALL | {"seed": 5})
    assert numbers(straight) == numbers(record)
    back = SB.load_records([table])[0]
    assert back == SB.TableRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert numbers(back) == numbers(record)
    (rival,) = record.robustness
    assert [s.agent for s in rival.totals()] == ["honest", "random"]
    assert rival.games == 6


def test_hands_are_valued_at_three_players_too(data):
    # Every player count values its starting hands: each seat's hand in each game counts once.
    record = SB.play_table(SB.Table(3, "ambassador"), "random", **SMALL | {"panel": ()})
    assert record.hands and record.robustness == ()
    assert sum(h.games for h in record.hands) == 3 * record.self_play.games
    assert all("+" in h.hand for h in record.hands)  # two characters each


def test_processes_and_a_local_dask_cluster_give_the_same_numbers(tmp_path, monkeypatch):
    from distributed import LocalCluster

    chosen = SB.tables([2], ["ambassador"], ["standard"])
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache-pool"))
    with store.use(tmp_path / "pool"):
        pooled = SB.run_balance(chosen, "bluffer", workers=2, **SMALL)
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache-dask"))
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, store.use(tmp_path / "dask"):
        dasked = SB.run_balance(chosen, "bluffer", scheduler=cluster.scheduler_address,
                                **SMALL)
    assert [numbers(r) for r in pooled] == [numbers(r) for r in dasked]


def test_the_command_prints_each_table_and_refuses_bad_input(data, capsys):
    assert main(["coup", "balance", "--players", "2", "--decks", "ambassador", "--setups",
                 "standard", "--agent", "honest", "--panel", "random", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "2 players, Ambassador deck, standard setup" in out
    assert "seat 1:" in out and "seat 2:" in out
    assert "honest against 1 random, 6 games" in out
    assert "best starting hand:" in out
    assert re.search(r"compute: [\d.,]+ CPU-minutes for its games", out)
    for bad, words in ([["--players", "9"], "2-8 players"], [["--players", "two"], "range"],
                       [["--decks", "classic"], "--decks 'classic'"],
                       [["--setups", "solo"], "--setups 'solo'"],
                       [["--agent", "nobody"], "nobody"], [["--games", "0"], "--games"]):
        assert main(["coup", "balance", "--panel", "none", *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err


def test_the_report_section_shows_each_table_and_the_blueprint_from_the_records(data):
    from analysis.coup.solvers import blueprint as B
    from analysis.report.context import ReportContext
    from analysis.report.coup.from_the_deal import section_from_the_deal
    from analysis.report.markdown import pct_ci as pct
    from games.catalog import family

    ctx = ReportContext(family("coup"), data)
    text = section_from_the_deal(ctx)
    assert "Not measured yet: run `farol coup balance`" in text
    assert "| ambassador | basic | not built yet | | |" in text
    record = SB.play_table(SB.Table(2, "ambassador", "basic"), "honest", **SMALL)
    B.update_summary("ambassador", setups={"basic": {"iterations": 9, "first_player_value": -0.1}},
                     bounds={"basic": {"exploitability_lower_bound": 0.0712}})
    text = section_from_the_deal(ctx)
    assert "| ambassador | basic | 9 | 45.0% | at least 0.071 (exact lower bound) |" in text
    first = record.self_play.seats[0]
    assert f"1: {pct(first.win_rate, first.ci95)}" in text
    assert "| 2 players, Ambassador deck, basic setup | random | 6 |" in text  # robustness
    assert "Each table is played by `honest` in every seat" in text
    mine = next(t for t in record.robustness[0].totals() if t.agent == "honest")
    beaten = f"random at 2 players, Ambassador deck, basic setup ({pct(mine.win_rate, mine.ci95)})"
    # Six games cannot put an interval above one half: the table says it is not shown.
    assert mine.ci95[0] <= 0.5 and f"is not shown to beat that table: {beaten}" in text
    assert "Starting hands, 2 players, Ambassador deck, basic setup: best" in text
    assert ctx.figures == ["coup_seat_win_rates.png"]


def test_who_plays_names_what_best_stood_for_at_each_player_count():
    from analysis.report.facts.coup.edges import player_counts, who_plays

    def rec(players, plays):
        about = "the strongest Coup agent" + (f" (here: {plays})" if plays else "")
        table = SB.Table(players, "ambassador", "basic" if players == 2 else "-")
        return SB.TableRecord(table, "best", None, (), (), "v", "c", 1, about, plays)

    records = [rec(2, "BlueprintAgent"), *(rec(n, "SearchAgent") for n in (3, 4, 5))]
    # A record stored before the agent was a field of its own: read from its prose.
    old = {"table": {"players": 2, "deck": "ambassador", "setup": "basic"}, "agent": "best",
           "self_play": {"game": "python_coup", "params": {}, "games": 0, "seed": 1,
                         "seats": [], "version": "v", "commit": "c"},
           "robustness": [], "hands": [], "version": "v", "commit": "c", "seed": 1,
           "agent_about": "the strongest Coup agent (here: BlueprintAgent)"}
    assert SB.TableRecord.from_json(old).plays == "BlueprintAgent"
    assert SB.TableRecord.from_json(old | {"agent_about": "never bluffs"}).plays == ""
    # Both agents have been replaced since as `best` (by the re-solving agent at 2
    # players, by the compiled search at 3 to 8): the text says what `best` is now.
    assert who_plays(records) == (
        "`best`, the strongest agent when each table was played (the blueprint at 2 "
        "players, where `best` is now the re-solving agent; information-set search at 3 "
        "to 5 players, where `best` is now information-set search, compiled)")
    current = [rec(2, "ResolveAgent"), *(rec(n, "FastSearchAgent") for n in (3, 4, 5))]
    assert who_plays(current) == ("`best`, the strongest agent (the re-solving agent at 2 "
                                  "players; information-set search, compiled at 3 to 5 players)")
    mixed = [rec(2, "BeliefSearchAgent"), *current[1:]]
    assert who_plays(mixed) == (
        "`best`, the strongest agent when each table was played (the belief agent at 2 "
        "players, where `best` is now the re-solving agent; information-set search, compiled "
        "at 3 to 5 players)")
    from analysis.report.facts.coup.edges import agent_words
    assert agent_words(mixed[0]) == "`best` (the belief agent; `best` is now the re-solving agent)"
    assert agent_words(current[0]) == "`best` (the re-solving agent)"
    assert player_counts([3, 5, 8]) == "3, 5 and 8 players"


def test_games_of_best_are_kept_apart_by_the_agent_it_stands_for(data):
    table = SB.Table(3, "ambassador")
    assert SB.what_plays(table, "best", build) == "FastSearchAgent"
    lineup = ("best",) * 3
    assert SB.games_path(table, lineup, 1, "FastSearchAgent").name == \
        "3p-ambassador-best+best+best-1-FastSearchAgent.jsonl"
    assert SB.games_path(table, lineup, 1, "SearchAgent") != \
        SB.games_path(table, lineup, 1, "FastSearchAgent")


def test_the_balance_output_names_what_best_was(capsys):
    from analysis.cli.coup_balance import print_record
    from analysis.coup.agents.best import agent_name

    table = SB.Table(2, "ambassador", "basic")
    self_play = MatchResult("python_coup", {}, (), 0, 0, "v", "c")
    record = SB.TableRecord(table, "best", self_play, (), (), "v", "c", 1, "", "BeliefSearchAgent")
    print_record(record)
    out = capsys.readouterr().out
    assert "best (here: belief) in every seat" in out
    assert "belief: it remembers every claim" in out and "strength: " in out
    assert agent_name("SearchAgent") == "search" and agent_name("BlueprintAgent") == "blueprint"


def test_the_reports_answer_from_duplicate_deals_where_stored(tmp_path):
    """A table with both a plain and a duplicate-deal record is answered from the
    duplicate one; a table with only plain games from those."""
    plain = SB.Table(2, "ambassador", "basic")
    only_plain = SB.Table(2, "ambassador", "draft")
    with store.use(tmp_path):
        for table, duplicate in ((plain, False), (plain, True), (only_plain, False)):
            seats = (SeatRecord("best", 0, 1.0, 2), SeatRecord("best", 1, 1.0, 2))
            self_play = MatchResult("python_coup", {}, seats, 2, 0, "v", "c", duplicate,
                                    seats if duplicate else ())
            record = SB.TableRecord(table, "best", self_play, (), (), "v", "c", 1,
                                    duplicate=duplicate)
            SB.save_record(record)
        answers = {r.table: r.duplicate for r in SB.load_answers([plain, only_plain])}
    assert answers == {plain: True, only_plain: False}


def test_the_json_says_what_best_was_with_its_strength(data, capsys):
    assert main(["coup", "balance", "--players", "2", "--decks", "ambassador", "--setups",
                 "basic", "--panel", "none", "--games", "4", "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["best_is"]["agent"] == "resolve"
    assert "strength" in record["best_is"] and record["best_is"]["strength"]
