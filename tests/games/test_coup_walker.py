"""Coup's solver walker (``games/coup/walker.py``) walks exactly the game the states walk."""

from __future__ import annotations

import pytest
from walker_check import assert_walker_compiles_like_states

from games.coup import endgame_game
from games.coup.walker import CoupWalker

CASES = (
    # hidden cards dealt by chance, Ambassador exchange (pair draws)
    ("?/contessa/3;?/contessa/2;move:0", "ambassador", 1),
    # Inquisitor: examine (a card shown privately), one-card exchange, cap 2
    ("?/contessa/1;?/contessa/1;move:0", "inquisitor", 2),
    # fixed cards: the root's log holds what each player was given
    ("duke/assassin/7;captain/contessa/3;move:1", "ambassador", 2),
    # three players, two cards for one of them
    ("duke+?/-/2;-/captain+contessa/0;?/assassin/3;move:2", "inquisitor", 1),
)


def _walk_both(game, walker):
    """Depth-first over the states and the walker's positions side by side; yields
    (state, position, observations per player) at every node."""
    n = game.num_players()
    root_state, root = game.new_initial_state(), walker.root()
    root_obs = tuple(walker.root_observations(root, p) for p in range(n))
    stack = [(root_state, root, root_obs)]
    while stack:
        state, pos, obs = stack.pop()
        yield state, pos, obs
        if state.is_terminal():
            continue
        actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        for a in actions:
            before = dict(pos.__dict__)
            child = walker.child(pos, a)
            assert pos.__dict__ == before, "child() changed its parent"
            child_obs = tuple(obs[p] + walker.new_observations(pos, child, p) for p in range(n))
            stack.append((state.child(a), child, child_obs))


@pytest.mark.parametrize("position,deck,cap", CASES)
def test_walker_matches_the_state_walk(position, deck, cap):
    game = endgame_game(position, deck=deck, turn_cap=cap)
    walker = game.solver_walker(history=True)
    n = game.num_players()
    nodes = 0
    seen: dict[tuple, str] = {}
    for state, pos, obs in _walk_both(game, walker):
        nodes += 1
        player = state.current_player()
        assert walker.actor(pos) == player
        assert walker.state_key(pos) == state.state_key()
        for p in range(n):
            assert walker.infoset_key(pos, p) == state.infoset_key(p)
            text = state.information_state_string(p)
            assert walker.information_state_string(pos, p) == text
            # The observations along the history identify the information state exactly.
            assert f"P{p}\n" + "\n".join(obs[p]) == text
            assert seen.setdefault((p, obs[p]), text) == text
        if state.is_terminal():
            assert walker.returns(pos) == tuple(state.returns())
        elif state.is_chance_node():
            assert walker.chance_outcomes(pos) == state.chance_outcomes()
        else:
            legal = state.legal_actions()
            assert walker.legal_actions(pos) == legal
            for a in legal:
                assert walker.action_to_string(pos, player, a) == state.action_to_string(player, a)
    assert nodes > 500


def test_walker_without_history_keeps_the_keys_and_drops_the_log():
    game = endgame_game("?/contessa/1;?/contessa/1;move:0", deck="inquisitor", turn_cap=1)
    full, bare = game.solver_walker(history=True), game.solver_walker(history=False)
    assert isinstance(bare, CoupWalker) and not bare.history
    a, b = full.root(), bare.root()
    while full.actor(a) != -4:
        move = (full.chance_outcomes(a)[-1][0] if full.actor(a) == -1 else full.legal_actions(a)[0])
        a, b = full.child(a, move), bare.child(b, move)
        assert bare.state_key(b) == full.state_key(a)
        assert b.log is None
    assert bare.returns(b) == full.returns(a)
    with pytest.raises(ValueError, match="history=True"):
        bare.new_observations(b, b, 0)


COMPILE_CASES = (
    ("?/contessa/1;?/contessa/1;move:0", "inquisitor", 2, 0.0),
    ("?/contessa/3;?/contessa/2;move:0", "ambassador", 1, -1.0),
    ("duke/assassin/7;captain/contessa/3;move:1", "ambassador", 2, 1.0),
)


@pytest.mark.parametrize("graph", [False, True], ids=["tree", "graph"])
@pytest.mark.parametrize("position,deck,cap,cap_payoff", COMPILE_CASES)
def test_compiling_through_the_walker_gives_the_state_walks_arrays(position, deck, cap,
                                                                   cap_payoff, graph):
    """The compiler's fast path (``use_walker``) and the State walk agree exactly."""
    game = endgame_game(position, deck=deck, turn_cap=cap, cap_payoff=cap_payoff)
    fast = assert_walker_compiles_like_states(game, graph)
    assert fast.num_infosets > 10
