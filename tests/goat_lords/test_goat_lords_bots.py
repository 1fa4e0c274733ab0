"""Goat Lords bots: registered for ``farol play``, the greedy one fair, the search ones whole."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

from analysis.goat_lords import GAME
from analysis.goat_lords.agents.greedy import greedy_bot
from analysis.goat_lords.agents.mcts import TableRolloutEvaluator
from analysis.goat_lords.studies.statistics import bot_win_rates
from analysis.goat_lords.studies.tournament import Experiment, play_one
from analysis.play.bots import bots_for, sample_chance
from analysis.play.session import play_game
from analysis.shared.params import load_game


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


@pytest.mark.parametrize("name", ["mcts:8", "ismcts:8", "lord:8"])
def test_search_bots_replay_a_seeded_game_exactly(name):
    """A stored game can be played again from its seed: the search bots' worlds, roll-outs
    and ties all come from the seed (OpenSpiel's default sampler draws a fresh seed)."""
    exp = Experiment("t", 2, (name, "greedy"), 2, seed=5, rotate=True)
    for index in (0, 1):
        assert play_one(exp, index) == play_one(exp, index)


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
    returns = play_game(game, seat=1, opponent=opponent, seed=2, read=_scripted(["a"] * 10_000),
                        write=lines.append)
    assert returns is not None and abs(sum(returns)) < 1e-9
    text = "\n".join(lines)
    assert "Your hand:" in text and "Winner(s):" in text and "Game over" in text


def test_farol_play_greedy_in_a_fresh_process():
    """A fresh ``farol`` process knows the Goat Lords bots (registered by the command's imports)."""
    code = "import sys; from analysis.cli import main; sys.exit(main())"
    proc = subprocess.run(
        [sys.executable, "-c", code, "play", GAME, "--opponent", "greedy", "--seed", "2"],
        input="a\n" * 10_000, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over. Returns:" in proc.stdout
