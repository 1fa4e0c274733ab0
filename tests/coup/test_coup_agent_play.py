"""How the strongest 2-player agent plays, by what the opponent has shown
(:mod:`analysis.coup.studies.agent_play`, contexts in
:mod:`analysis.coup.studies.blueprint_bluffs`): what the table has seen each player claim
and be caught at, the counts by context, the intervals of counted moves, and the stored
table."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.studies import agent_play as A
from analysis.coup.studies import blueprint_bluffs as BB
from analysis.shared import store
from games.coup import cards as C
from games.errors import InvalidParameterError


def act(state, text):
    player = state.current_player()
    moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
             else state.legal_actions())
    named = {state.action_to_string(player, a): a for a in moves}
    state.apply_action(named[text])


def history():
    """P1 is caught bluffing a Duke, then claims the Duke again; P0 is to answer."""
    game = pyspiel.load_game("python_coup", {"starting_player": 1})
    state = game.new_initial_state()
    for card in ("Captain", "Assassin", "Contessa", "Captain"):  # P0, P1, P0, P1
        act(state, f"Draw {card}")
    act(state, "Tax (claims Duke)")      # P1 bluffs the Duke
    act(state, "Challenge")              # P0 catches it
    act(state, "Lose Captain")           # P1 loses a card
    act(state, "Steal from P1 (claims Captain)")  # P0, holding the Captain
    act(state, "No challenge")
    act(state, "No block")
    act(state, "Tax (claims Duke)")      # P1 claims the Duke again
    return state


def test_shown_reads_claims_and_caught_bluffs():
    state = history()
    shown = BB.Shown.of(state.core, 0)
    assert shown.caught == (0, 1)
    # The pending Duke claim is not "before"; P1's first Duke claim is.
    assert shown.claimed[1] == frozenset({C.DUKE})
    assert shown.claimed[0] == frozenset({C.CAPTAIN})


def test_a_challenge_is_counted_by_what_the_claimer_showed():
    state = history()
    got = []
    view = View.of(state, 0)
    BB.tally_context(view, {C.A_CHALLENGE: 1.0}, BB.Shown.of(state.core, 0),
                     lambda q, c, n, d, context: got.append((q, c, n, d, context)))
    assert got == [("challenge", C.DUKE, 1.0, 1.0, "caught before"),
                   ("challenge", C.DUKE, 1.0, 1.0, "claimed before"),
                   ("challenge", C.DUKE, 1.0, 1.0, "all")]


def test_a_claim_on_the_turn_is_counted_by_whether_it_was_claimed_before():
    state = history()
    act(state, "No challenge")           # P1's Tax stands
    act(state, "Income")                 # P0
    act(state, "Income")                 # P1; P0 is to act
    got = []
    view = View.of(state, 0)
    mix = {C.A_STEAL + 1: 0.5, C.A_TAX: 0.5}
    BB.tally_context(view, mix, BB.Shown.of(state.core, 0),
                     lambda q, c, n, d, context: got.append((q, c, n, d, context)))
    assert ("claim", C.CAPTAIN, 0.0, 0.5, "claimed before") in got  # held and claimed before
    assert ("claim", C.DUKE, 0.5, 0.5, "first claim") in got       # a bluff, never claimed


def test_a_rate_counted_zero_in_a_few_decisions_keeps_an_honest_interval():
    num = np.zeros(BB.BATCHES)
    den = np.zeros(BB.BATCHES)
    den[:5] = 1.0
    rate, lo, hi = BB.counted_interval(num, den)
    assert rate == 0.0 and lo == 0.0
    assert hi > 0.3  # 0 of 5: Wilson's upper end is about 43%
    assert BB.ratio_interval(num, den)[2] < hi


def test_the_agent_tables_are_stored_and_read_back(tmp_path):
    with store.use(tmp_path):
        table = A.play_tables("ambassador", "draft", games=BB.BATCHES, seed=2)
        A.save_table(table)
        back = A.load_tables("ambassador", ("draft", "basic"))
    assert list(back) == ["draft"]
    assert back["draft"] == table
    assert table.agent == A.AGENT and table.games == BB.BATCHES
    contexts = {r.context for r in table.rows}
    assert {"any", "first claim", "all"} <= contexts
    # Every character together, by context: the counts of the characters add up.
    pooled = {(r.question, r.influence, r.context): r for r in table.rows if r.card == BB.ALL}
    for (question, influence, context), row in pooled.items():
        parts = [r for r in table.rows if r.question == question and r.influence == influence
                 and r.context == context and r.card != BB.ALL and r.coins == "any"]
        assert row.decisions == pytest.approx(sum(r.decisions for r in parts))
    frame = table.frame()
    assert set(frame["context"]) == contexts
    for r in table.rows:
        assert r.ci95[0] <= r.rate <= r.ci95[1]


def test_blueprint_rows_are_written_as_before():
    row = BB.BluffRow("claim", "Duke", 0, "any", 10.0, 0.5, (0.4, 0.6))
    assert "context" not in row.to_json()
    assert BB.BluffRow.from_json(row.to_json()) == row
    table = BB.BluffTable("ambassador", "basic", 20, (row,), {"seed": 1})
    assert "agent" not in table.to_json()
    assert BB.BluffTable.from_json(table.to_json()).agent == "blueprint"


@pytest.mark.parametrize("bad", ["--setups nope", "--games 30", "--agent search"])
def test_play_tables_refuses_bad_options_in_one_line(bad, capsys):
    from analysis import cli

    try:
        code = cli.main(["coup", "play-tables", *bad.split()])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) <= 2 and "Traceback" not in "".join(err)


def test_an_exploiter_line_names_the_agent_best_stood_for():
    from analysis.coup.agents.best import measured_agent

    assert measured_agent({"agent": "search"}) == "search"
    assert measured_agent({"agent": "best", "plays": "resolve"}) == "resolve"
    # lines stored before ``plays`` was kept were measured when best was belief
    assert measured_agent({"agent": "best"}) == "belief"


def write_json(path, data):
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_what_best_is_says_a_gain_or_that_no_gain_was_shown(tmp_path, monkeypatch):
    from analysis.coup.agents import best

    monkeypatch.setattr(store, "REPOSITORY", tmp_path)
    line = {"games": 200, "win_rate": 0.76, "gain": 0.26, "gain_ci95": [0.2, 0.32]}
    lines = [dict(line, agent="best"), dict(line, agent="resolve", gain=-0.045,
                                            gain_ci95=[-0.12, 0.03])]
    write_json(tmp_path / "benchmarks" / "results" / "coup_exploiter.json", {"lines": lines})
    assert "gains at least +0.26" in best.exploited("belief")
    text = best.exploited("resolve")
    assert "no gain" in text and "-0.04" in text and "at least" not in text
    assert best.exploited("search") == ""


def test_the_guide_reads_the_strength_of_the_agent_that_played(tmp_path, monkeypatch):
    from analysis.report.facts.coup import records as R
    from analysis.report.guides.coup import frequencies as F

    monkeypatch.setattr(R, "BENCHMARKS", tmp_path)
    monkeypatch.setattr(R, "local_bounds", lambda deck, setup: {})  # none stored: the exploiter
    row = {"deck": "ambassador", "setup": "basic", "win_rate": 0.8, "ci95": [0.75, 0.85]}
    write_json(tmp_path / "coup_resolve_agent.json", {"matches": [
        dict(row, opponent="belief", games=100), dict(row, opponent="search", games=1000),
        dict(row, setup="draft", opponent="honest", games=1000)]})
    write_json(tmp_path / "coup_exploiter.json", {"lines": [
        {"agent": "best", "games": 200, "gain": 0.26, "gain_ci95": [0.2, 0.32]},
        {"agent": "resolve", "games": 200, "gain": -0.045, "gain_ci95": [-0.12, 0.03]}]})
    got = R.strength("ambassador", "basic", "resolve")
    assert [w[0] for w in got.wins] == ["belief", "search"]
    assert got.exploit == (200, -0.045, (-0.12, 0.03))
    assert R.strength(agent="belief") is None  # its results are not in this folder
    text = F.strength_text(got)
    assert "(100 games)" in text and "(1,000 games)" in text and "no gain" in text
    assert "lower bound" not in text


def test_the_appendix_lists_every_strength_line_and_the_ones_missing(tmp_path, monkeypatch):
    from analysis.report.coup import agent_strength as S
    from analysis.report.facts.coup import records as R

    monkeypatch.setattr(R, "BENCHMARKS", tmp_path)
    assert "Not measured yet: run" in S.strength_text()
    row = {"deck": "ambassador", "setup": "basic", "games": 1000}
    matches = [dict(row, opponent=o, win_rate=0.7, ci95=[0.66, 0.74], above_half=True)
               for o in ("honest", "bluffer", "search")]
    matches.append(dict(row, setup="draft", opponent="honest", win_rate=0.51,
                        ci95=[0.48, 0.54], above_half=False))
    matches.append(dict(row, setup="draft", opponent="search", games=100, win_rate=0.8,
                        ci95=[0.72, 0.88], above_half=True))
    write_json(tmp_path / "coup_resolve_agent.json", {"matches": matches})
    text = S.strength_text()
    assert "| ambassador | basic | search | 1,000 | 70.0% [66.0, 74.0] | yes |" in text
    assert "| ambassador | draft | honest | 1,000 | 51.0% [48.0, 54.0] | no |" in text
    assert "Of the 4 lines of 1,000 games or more, 3 lie wholly above 50%." in text
    missing = text.split("Not measured yet with 1,000 games: ")[1]
    # Every deck, setup and opponent without a full line; a 100-game check is not one.
    assert "ambassador draft vs search" in missing and "ambassador basic vs blueprint" in missing
    assert "ambassador basic vs search" not in missing and "ambassador draft vs honest" not in missing
    assert missing.count(" vs ") == 2 * 3 * 4 - 4
    assert "farol coup blueprint build" in missing


def test_chunks_cover_the_games_once_and_never_cross_a_batch(monkeypatch):
    monkeypatch.setattr(A, "CHUNK", 3)
    games = BB.BATCHES * 5
    parts = A.chunks(games)
    assert [i for a, b in parts for i in range(a, b)] == list(range(games))
    for a, b in parts:
        assert 0 < b - a <= 3
        assert a * BB.BATCHES // games == (b - 1) * BB.BATCHES // games
    with pytest.raises(InvalidParameterError, match="multiple"):
        A.chunks(games + 1)


def sequential_table(agent, games, seed):
    """The table played game after game in one tally, as before chunks existed."""
    game = pyspiel.load_game("python_coup", {"players": 2, "deck": "ambassador",
                                             "two_player_setup": "basic"})
    return BB.tally_play(game, games, seed, A._mixes(game, games, seed, agent), "test",
                         agent=agent, contexts=True)


def test_tables_played_in_chunks_are_the_tables_played_in_one_go(tmp_path, monkeypatch):
    monkeypatch.setattr(A, "CHUNK", 3)
    games = BB.BATCHES * 5
    chunked = A.play_tables("ambassador", "basic", games, 4, "honest", folder=tmp_path)
    whole = sequential_table("honest", games, 4)
    assert chunked.rows == whole.rows and chunked.grid == whole.grid
    assert len(list(tmp_path.glob("games-*.json"))) == len(A.chunks(games))
    tally = BB.Tally.from_json(json.loads(json.dumps(BB.Tally().to_json())))
    assert tally.counts == {} and tally.grid == {}


def test_a_stopped_run_resumes_and_plays_only_what_is_missing(tmp_path, monkeypatch):
    games = BB.BATCHES * 2
    first = A.play_tables("ambassador", "basic", games, 5, "honest", folder=tmp_path)
    files = sorted(tmp_path.glob("games-*.json"))
    files[0].unlink()                       # never finished
    files[3].write_text('{"start": 6, "st')  # cut short by the stop
    played = []
    chunk = A.play_chunk
    monkeypatch.setattr(A, "play_chunk", lambda *call: played.append(call[-2:]) or chunk(*call))
    again = A.play_tables("ambassador", "basic", games, 5, "honest", folder=tmp_path)
    assert sorted(played) == [A.chunks(games)[0], A.chunks(games)[3]]
    assert again.rows == first.rows and again.grid == first.grid
    played.clear()
    A.play_tables("ambassador", "basic", games, 5, "honest", folder=tmp_path)
    assert played == []  # everything kept


def test_two_processes_give_the_same_table_as_one(tmp_path):
    games = BB.BATCHES * 2
    one = A.play_tables("ambassador", "basic", games, 6, "honest", folder=tmp_path / "one")
    two = A.play_tables("ambassador", "basic", games, 6, "honest", workers=2,
                        folder=tmp_path / "two")
    assert one.rows == two.rows and one.grid == two.grid


def test_the_appendix_shows_each_agents_table_and_names_the_tables_left(tmp_path):
    from analysis.report.coup.from_the_deal import agent_bluff_lines, bluff_lines

    with store.use(tmp_path):
        assert agent_bluff_lines() == []
        rows = (BB.BluffRow("claim", "Duke", 0, "any", 40.0, 0.25, (0.12, 0.38)),
                BB.BluffRow("challenge", "Duke", 0, "any", 30.0, 0.1, (0.02, 0.2)),
                BB.BluffRow("claim", "Duke", 1, "any", 9.0, 0.9, (0.5, 1.0)),
                BB.BluffRow("claim", "Duke", 0, "any", 20.0, 0.7, (0.55, 0.85),
                            context="first claim"),
                BB.BluffRow("claim", BB.ALL, 0, "any", 50.0, 0.3, (0.2, 0.4), context=BB.ALL),
                BB.BluffRow("claim", BB.ALL, 0, "any", 25.0, 0.6, (0.4, 0.8),
                            context="first claim"))
        A.save_table(BB.BluffTable("ambassador", "draft", 40, rows, {"seed": 1},
                                   agent="resolve"))
        A.save_table(BB.BluffTable("inquisitor", "basic", 60, rows[:1], {"seed": 1},
                                   agent="belief"))
        text = "\n".join(bluff_lines())
    # one row per table and character, both cards in hand at any coins, named by its agent
    assert ("| ambassador | draft | the re-solving agent | Duke | 25.0% [12.0, 38.0] | "
            "10.0% [2.0, 20.0] | 40 |") in text
    assert "| inquisitor | basic | the belief agent | Duke | 25.0% [12.0, 38.0] | - | 60 |" in text
    assert "90.0%" not in text  # the one-card rate is not the table's
    assert "70.0%" not in text and "60.0%" not in text  # nor the rate of first claims only
    # all characters together, whatever the opponent had shown
    assert "| ambassador | draft | the re-solving agent | all | 30.0% [20.0, 40.0] | - | 40 |" in text
    left = next(line for line in text.splitlines() if line.startswith("Not yet played"))
    assert "inquisitor basic" in left and "ambassador draft" not in left
    assert "How the blueprint bluffs" not in text  # no blueprint table stored here


def test_the_exploiters_verdict_is_set_beside_what_it_finds_against_the_blueprint():
    from analysis.report.facts.coup import records as R

    wins = (("search", 1000, 0.78, (0.75, 0.81)),)
    # Against the blueprint it gains +0.035 [-0.045, +0.115], where a best response is
    # known to gain at least 0.157: its "no gain" against the agent is a weak test.
    weak = R.Strength(wins, (200, -0.045, (-0.12, 0.03)), (0.036, (-0.046, 0.116), 0.157))
    assert "no gain" in weak.caveat
    assert "gains only +0.04 of a game [-0.05, +0.12] against the blueprint" in weak.caveat
    assert "at least 0.16" in weak.caveat and "weak test" in weak.caveat
    # Where its interval reaches the known bound it is not called weak.
    strong = R.Strength(wins, (200, -0.045, (-0.12, 0.03)), (0.15, (0.10, 0.20), 0.157))
    assert strong.yardstick_words == "" and "weak test" not in strong.caveat
    assert R.Strength(wins, None, (0.036, (-0.046, 0.116), 0.157)).caveat == ""


def test_the_guide_sets_the_local_best_responses_bound_beside_the_agents_play(tmp_path,
                                                                              monkeypatch):
    """Where the local best response is stored for the agent and for the blueprint, the
    guide reads it (shown to find what is known against the blueprint), not the weaker
    exploiter; a run whose interval holds 0 says it shows no loss, with its games."""
    from types import SimpleNamespace

    from analysis.report.facts.coup import records as R
    from analysis.report.guides.coup import frequencies as F

    monkeypatch.setattr(R, "BENCHMARKS", tmp_path)
    row = {"deck": "ambassador", "setup": "basic", "win_rate": 0.8, "ci95": [0.75, 0.85]}
    write_json(tmp_path / "coup_resolve_agent.json", {"matches": [
        dict(row, opponent="search", games=1000)]})
    write_json(tmp_path / "coup_exploiter.json", {"lines": [
        {"agent": "resolve", "games": 200, "gain": -0.045, "gain_ci95": [-0.12, 0.03]}]})
    bound = lambda agent, gain, ci, games, planned: SimpleNamespace(  # noqa: E731
        agent=agent, deck="ambassador", setup="basic", gain=gain, gain_ci95=ci, games=games,
        planned=planned)
    bounds = {"blueprint": bound("blueprint", 0.183, [0.151, 0.215], 1000, 1000),
              "resolve": bound("resolve", 0.06, [0.02, 0.10], 1000, 1000)}
    monkeypatch.setattr(R, "local_bounds", lambda deck, setup: bounds)
    monkeypatch.setattr(R, "blueprint_first", lambda deck, setup: R.BlueprintFirst(
        deck, setup, 0.52, 50, 0.157))
    # The blueprint's test is its own measurement, the appendix's, beside its exact bound.
    monkeypatch.setattr(R.blueprint, "accuracy", lambda summary, setup: R.blueprint.Accuracy(
        0.115, (0.172, 0.157, 0.186), 2000, 1))
    got = R.strength("ambassador", "basic", "resolve")
    assert got.local and got.exploit == (1000, 0.06, (0.02, 0.10))
    assert "gains at least +0.060 in win probability" in got.caveat
    assert ("finds +0.172 [+0.157, +0.186] in win probability against the blueprint where at "
            "least 0.115 is known (exact)") in got.caveat
    text = F.strength_text(got)
    assert "A local best response" in text and "gains at least +0.060" in text
    assert "lower bound on how much it loses" in text and "exploiter" not in text
    # A stopped run whose interval holds 0: no loss shown, with the games it played.
    bounds["resolve"] = bound("resolve", 0.25, [-0.05, 0.5], 20, 1000)
    got = R.strength("ambassador", "basic", "resolve")
    assert "holds 0" in got.caveat and "20 of the 1,000 games planned" in got.caveat
    assert "no loss yet" in F.strength_text(got)
