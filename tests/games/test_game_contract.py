"""The contract every game of Farol keeps, modelled on OpenSpiel's games_sim_test.

Parametrized over every registered game of the catalog and the parameter sets
it declares (``GameEntry.contract_params``), plus OpenSpiel's python_kuhn_poker
so the suite is exercised even before our games exist.
"""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

from analysis.play.bots import sample_chance
from games import catalog


def _cases():
    cases = [pytest.param("python_kuhn_poker", {}, id="python_kuhn_poker")]
    for entry in catalog.entries():
        for i, params in enumerate(entry.contract_params):
            label = ",".join(f"{k}={v}" for k, v in sorted(params.items())) or "defaults"
            cases.append(pytest.param(entry.name, dict(params), id=f"{entry.name}[{i}:{label}]"))
    return cases


CASES = _cases()
N_TRAJECTORIES = 30


def _trajectories(game, n, seed):
    """Random play-outs: yields the list of states along each game (terminal last)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        state = game.new_initial_state()
        path = [state.clone()]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.is_simultaneous_node():
                joint = []
                for p in range(game.num_players()):
                    legal = state.legal_actions(p)
                    joint.append(int(legal[rng.integers(len(legal))]) if legal else 0)
                state.apply_actions(joint)
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
            path.append(state.clone())
        yield path


@pytest.mark.parametrize("name,params", CASES)
def test_random_sim(name, params):
    """OpenSpiel's own C++ checks (legal actions, chance sums, serialization)."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("name,params", CASES)
def test_load_from_parameter_string(name, params):
    game = pyspiel.load_game(name, params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()


@pytest.mark.parametrize("name,params", CASES)
def test_pickle_and_serialize_round_trips(name, params):
    game = pyspiel.load_game(name, params)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    for path in _trajectories(game, 5, seed=1):
        for state in path[:: max(1, len(path) // 6)]:
            restored = pickle.loads(pickle.dumps(state))
            assert str(restored) == str(state)
            assert restored.history() == state.history()
            text = pyspiel.serialize_game_and_state(game, state)
            game2, state2 = pyspiel.deserialize_game_and_state(text)
            assert str(game2) == str(game)
            assert state2.history() == state.history()
            assert str(state2) == str(state)


@pytest.mark.parametrize("name,params", CASES)
def test_clone_is_equal_and_independent(name, params):
    game = pyspiel.load_game(name, params)
    for path in _trajectories(game, 5, seed=2):
        for state in path[:-1]:
            copy = state.clone()
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.current_player() == state.current_player()
            if state.is_chance_node() or state.is_simultaneous_node():
                continue
            before = str(state)
            copy.apply_action(copy.legal_actions()[0])
            assert str(state) == before, "applying an action to a clone changed the original"


@pytest.mark.parametrize("name,params", CASES)
def test_returns_within_declared_bounds(name, params):
    game = pyspiel.load_game(name, params)
    lo, hi = game.min_utility(), game.max_utility()
    for path in _trajectories(game, N_TRAJECTORIES, seed=3):
        returns = path[-1].returns()
        assert len(returns) == game.num_players()
        for r in returns:
            assert lo - 1e-9 <= r <= hi + 1e-9
        if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
            assert abs(sum(returns)) < 1e-9
        for state in path[:-1]:
            assert all(r == 0 for r in state.returns()) or game.get_type().reward_model == (
                pyspiel.GameType.RewardModel.REWARDS
            )


@pytest.mark.parametrize("name,params", CASES)
def test_information_states_have_perfect_recall(name, params):
    """Two histories a player cannot tell apart must agree on everything that player saw and did.

    A player's record along a history is the sequence of its own observation strings
    (its private cards and the public events) and its own actions; its
    information-state string must determine that record, so any difference in
    the player's private information gives a different information state.
    """
    game = pyspiel.load_game(name, params)
    game_type = game.get_type()
    if not game_type.provides_information_state_string:
        pytest.skip("game has no information-state strings")
    n = game.num_players()
    seen: list[dict[str, tuple]] = [dict() for _ in range(n)]
    for path in _trajectories(game, N_TRAJECTORIES, seed=4):
        records: list[list] = [[] for _ in range(n)]
        for state, nxt in zip(path, path[1:], strict=False):
            acting = (
                range(n) if state.is_simultaneous_node()
                else [] if state.is_chance_node() else [state.current_player()]
            )
            for p in acting:
                if game_type.provides_observation_string:
                    records[p].append(("obs", state.observation_string(p)))
                key = state.information_state_string(p)
                record = (tuple(records[p]), tuple(state.legal_actions(p)))
                assert seen[p].setdefault(key, record) == record, (
                    f"player {p}: one information state {key!r} for two different records"
                )
            # The history grows by one action, or by one per player at a simultaneous node.
            new = nxt.history()[len(state.history()):]
            for p, a in zip(acting, new, strict=False):
                records[p].append(("act", a))


@pytest.mark.parametrize("name,params", CASES)
def test_observation_tensors_have_declared_shape(name, params):
    game = pyspiel.load_game(name, params)
    game_type = game.get_type()
    for path in _trajectories(game, 5, seed=5):
        for state in path:
            for p in range(game.num_players()):
                if game_type.provides_observation_tensor:
                    obs = np.asarray(state.observation_tensor(p))
                    assert obs.size == int(np.prod(game.observation_tensor_shape()))
                    assert np.all(np.isfinite(obs))
                if game_type.provides_information_state_tensor:
                    info = np.asarray(state.information_state_tensor(p))
                    assert info.size == int(np.prod(game.information_state_tensor_shape()))


@pytest.mark.parametrize("name,params", CASES)
def test_same_seed_same_game(name, params):
    game_a = pyspiel.load_game(name, params)
    game_b = pyspiel.load_game(name, params)
    runs = []
    for game in (game_a, game_b):
        runs.append([(p[-1].history(), tuple(p[-1].returns())) for p in _trajectories(game, 5, seed=6)])
    assert runs[0] == runs[1]
