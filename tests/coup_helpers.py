"""Helpers for the Coup tests: load positions, play moves by their names, and play a
whole game between bots."""

from __future__ import annotations

import hashlib

import numpy as np
import pyspiel
from open_spiel.python import policy as osp

import games  # noqa: F401  (registers python_coup)
from analysis.play.bots import sample_chance
from analysis.shared import store
from games.coup import endgame_game
from games.coup.view import infoset_key


def position_state(position: str, **params) -> pyspiel.State:
    """The initial state of a game starting from ``position`` (chance nodes left as they are)."""
    params.setdefault("turn_cap", 200)
    return endgame_game(position, **params).new_initial_state()


def names(state: pyspiel.State) -> list[str]:
    """The names of the legal actions (or chance outcomes) at ``state``."""
    player = state.current_player()
    if state.is_chance_node():
        return [state.action_to_string(player, a) for a, _ in state.chance_outcomes()]
    return [state.action_to_string(player, a) for a in state.legal_actions()]


def play(state: pyspiel.State, *moves: str) -> pyspiel.State:
    """Apply moves by name ("Tax (claims Duke)", "No challenge", "Draw Duke", ...).

    Raises AssertionError naming the legal moves when a move is not available.
    """
    for move in moves:
        player = state.current_player()
        actions = (
            [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        )
        by_name = {state.action_to_string(player, a): a for a in actions}
        assert move in by_name, f"{move!r} is not legal for P{player}; legal: {sorted(by_name)}"
        state.apply_action(by_name[move])
    return state


def chance_probability(state: pyspiel.State, move: str) -> float:
    """The probability of the chance outcome called ``move``."""
    player = state.current_player()
    for action, prob in state.chance_outcomes():
        if state.action_to_string(player, action) == move:
            return prob
    return 0.0


def data_without(tmp_path, *missing: str):
    """A data root under ``tmp_path`` holding the committed Coup data except the folders or
    files ``missing`` (names under ``coup/``), for :func:`analysis.shared.store.use`."""
    real = store.data("coup")
    root = tmp_path / "data_without"
    (root / "coup").mkdir(parents=True)
    for entry in real.iterdir():
        if entry.name not in missing:
            (root / "coup" / entry.name).symlink_to(entry)
    return store.use(root)


def play_bots(game, bots, seed, watch=None):
    """Play one game between ``bots`` (one per seat), chance seeded by ``seed``, checking
    every move is legal; ``watch(state, seat)`` sees every decision before it is made.
    Returns the final state and the decisions made."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        if watch is not None:
            watch(state, seat)
        action = bots[seat](state)
        assert action in state.legal_actions(seat), (seat, action, str(state))
        actions.append(action)
        state.apply_action(action)
    return state, actions


def fixed_model(core, player):
    """A mixed strategy fixed by what ``player`` sees (a hash of its view): every legal
    move gets weight 1 to 5."""
    legal = core.legal_actions()
    key = repr(infoset_key(core, player)).encode()
    w = [1 + int(hashlib.md5(key + bytes([a % 256])).hexdigest()[:2], 16) % 5 for a in legal]
    total = sum(w)
    return [(a, x / total) for a, x in zip(legal, w, strict=True)]


class AsPolicy(osp.Policy):
    """A model (``model(core, player)``: the mover's mix, as an oracle's ``mix``) or a bot
    as an OpenSpiel policy (a bot is asked afresh at every state)."""

    def __init__(self, game, model=None, bot=None):
        super().__init__(game, [0, 1])
        self.model, self.bot = model, bot

    def action_probabilities(self, state, player_id=None):
        if self.model is not None:
            return dict(self.model(state.core, state.current_player()))
        return {self.bot(state.current_player())(state): 1.0}
