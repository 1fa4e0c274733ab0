"""Goat Lords bots, the tournament runner (seeded, parallel, resumable) and its statistics."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

from analysis import cli, store
from analysis.bots import bots_for, sample_chance
from analysis.goat_lords import GAME
from analysis.goat_lords.bots import TableRolloutEvaluator, greedy_bot
from analysis.goat_lords.statistics import (
    bot_win_rates,
    duel_success,
    extra_wild_effect,
    game_length,
    mean_ci,
    seat_win_rates,
    wild_worth,
    wilson,
)
from analysis.goat_lords.tournament import (
    Experiment,
    csv_path,
    load_rows,
    play_one,
    run_experiment,
    swap_in_a_wild,
)
from analysis.params import load_game
from analysis.play import play_game
from games.goat_lords.cards import DECK_COUNTS, IS_WILD
from games.goat_lords.table import STARTER, Config, Table


def mid_game_state(players=2, steps=40, seed=0):
    game = pyspiel.load_game(GAME, {"players": players, "scoring": "single"})
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return game, state


def test_bots_are_registered_for_the_game():
    names = {spec.name for spec in bots_for(GAME)}
    assert {"random", "greedy", "mcts", "ismcts"} <= names


@pytest.mark.parametrize("seed", range(5))
def test_greedy_ignores_hidden_cards(seed):
    """The greedy bot decides from its hand and the public table only: dealing the hidden
    cards again never changes its move."""
    game, state = mid_game_state(3, 30 + 7 * seed, seed)
    seat = state.current_player()
    bot = greedy_bot(game, seat)
    action = bot(state)
    assert action in state.legal_actions()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(10):
        assert bot(state.resample_from_infostate(seat, sampler)) == action


def test_greedy_beats_random():
    exp = Experiment("t", 2, ("greedy", "random"), 60, seed=5, rotate=True)
    df = pd.DataFrame([play_one(exp, i) for i in range(exp.games)])
    rate = bot_win_rates(df).set_index("bot").loc["greedy"]
    assert rate.lo > 0.5


@pytest.mark.parametrize("name", ["mcts:8", "ismcts:8"])
def test_search_bots_play_a_whole_game(name):
    exp = Experiment("t", 2, (name, "greedy"), 1, seed=3)
    row = play_one(exp, 0)
    assert row["turns"] > 10 and row["winners"]


def test_ismcts_with_information_state_keys_on_three_players():
    """OpenSpiel's ISMCTS asserts every resampled world has the root's information state."""
    game, state = mid_game_state(3, 50, 4)
    bot = ismcts.ISMCTSBot(game, TableRolloutEvaluator(1, 0), 2.0, 20,
                           random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()


def test_table_rollout_evaluator_returns_zero_sum_values():
    _, state = mid_game_state(4, 30, 2)
    value = TableRolloutEvaluator(3, 1).evaluate(state)
    assert len(value) == 4 and abs(value.sum()) < 1e-9
    assert state.table.log  # the evaluated state is untouched


def test_tournament_is_seeded_parallel_and_resumable(tmp_path):
    exp = Experiment("tiny", 3, ("greedy", "random", "greedy"), 12, seed=9, rotate=True)
    with store.use(tmp_path):
        df = run_experiment(exp, workers=2, chunk=4, progress=False)
        path = csv_path(exp)
    assert path == tmp_path / "goat_lords_tiny.csv"
    assert sorted(df["index"]) == list(range(12))
    # The same game played alone (no pool) gives the same row.
    alone = play_one(exp, 7)
    row = df[df["index"] == 7].iloc[0]
    assert row["winners"] == alone["winners"] and row["points"] == alone["points"]
    assert row["seating"] == ";".join(exp.seating(7))
    lines_before = path.read_text().splitlines()
    # A rerun with more games plays only the new ones; the finished ones are not replayed.
    more = Experiment("tiny", 3, ("greedy", "random", "greedy"), 16, seed=9, rotate=True)
    df2 = run_experiment(more, tmp_path, workers=1, chunk=4, progress=False)
    lines_after = path.read_text().splitlines()
    assert lines_after[: len(lines_before)] == lines_before
    assert len(lines_after) == len(lines_before) + 4
    assert sorted(df2["index"]) == list(range(16))
    # Another experiment under the same name (other seed) does not reuse these rows.
    other = Experiment("tiny", 3, ("greedy", "random", "greedy"), 2, seed=10, rotate=True)
    assert load_rows(other, tmp_path).empty


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


def _scripted(answers):
    it = iter(answers)

    def read(_prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_farol_play_to_the_end(opponent):
    game = load_game(GAME, {"players": 3})
    lines: list[str] = []
    returns = play_game(game, seat=1, opponent=opponent, seed=2, read=_scripted(["0"] * 10_000),
                        write=lines.append)
    assert returns is not None and abs(sum(returns)) < 1e-9
    text = "\n".join(lines)
    assert "Your hand:" in text and "Winner(s):" in text and "Game over" in text


def test_goat_lords_command(tmp_path, capsys):
    argv = ["goat-lords", "--players", "2", "--bots", "greedy,random", "--games", "6", "--rotate",
            "--out", str(tmp_path), "--workers", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "6 games" in out and "greedy: win rate" in out and "attacker wins" in out
    assert cli.main(["goat-lords", "--players", "3", "--bots", "greedy,random"]) == 2
    assert "names 2 bots for 3 players" in capsys.readouterr().err
    assert cli.main(["goat-lords", "--bots", "nobody", "--out", str(tmp_path)]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err
    assert cli.main(["goat-lords", "--bots", "alphago:10", "--out", str(tmp_path)]) == 2
    assert "no bot 'alphago:10'" in capsys.readouterr().err


def test_goat_lords_command_writes_to_the_data_folder(tmp_path, monkeypatch, capsys):
    """Without ``--out`` the tournament's CSV goes to the store's data root."""
    monkeypatch.setenv("FAROL_DATA_DIR", str(tmp_path))
    assert cli.main(["goat-lords", "--games", "2", "--workers", "1"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert len(list(tmp_path.glob("goat_lords_cli_*.csv"))) == 1


def test_extra_wild_experiment_changes_only_the_treated_hand():
    """The intervention keeps the deal: the treated seat swaps its cheapest goat for a wild."""
    table = Table(Config(players=3))
    rng = np.random.default_rng(0)
    while table.phase != STARTER:
        kinds, probs = zip(*table.chance_outcomes(), strict=True)
        table.apply_chance(int(rng.choice(kinds, p=np.array(probs) / sum(probs))))
    before = [h[:] for h in table.hands]
    swap_in_a_wild(table, 1, np.random.default_rng(1))
    assert table.hands[0] == before[0] and table.hands[2] == before[2]
    wilds = lambda hand: sum(c for c, w in zip(hand, IS_WILD, strict=True) if w)  # noqa: E731
    assert wilds(table.hands[1]) == wilds(before[1]) + 1 and sum(table.hands[1]) == 5
    assert [d + sum(h[k] for h in table.hands) for k, d in enumerate(table.draw)] == list(DECK_COUNTS)


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
    assert extra_wild_effect(rows_c, rows_c, 2)["win"][0] == 0.0
