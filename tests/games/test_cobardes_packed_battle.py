"""The single-engine trial: the numba phase machine with its log, and the OpenSpiel state
on it (``games.cobardes.packed``, ``games.cobardes.packed_battle``).

Both are checked against the Python engine and :class:`CobardesBattleState` move by move
on random battles under several rules: the same fields, events, battlefield order and
visibility masks; the same legal moves, chance outcomes, strings, keys, tensors, returns
and errors.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from games.cobardes import engine as E
from games.cobardes import packed as P
from games.cobardes.options import make_rules
from games.cobardes.packed_battle import PackedBattleGame, PackedBattleState, pack_logged, unpack
from games.cobardes.tables import effect_tables
from games.errors import IllegalActionError

RULES = [
    {"kinds": "all"},
    {"kinds": "all", "quicker": "random"},
    {"kinds": "all", "combats": 3, "exchange_limit": 2, "followup": "mandatory"},
    {"kinds": "all", "courtier0": "Procuress", "courtier1": "Inquisitor"},
    {"kinds": "all", "courtier0": "Fortune-Teller", "courtier1": "Maiden"},
    {"kinds": "all", "courtier0": "Sentinel", "courtier1": "Archer", "villain0": "King's Ghost"},
]


def _pick(rng, cfg, pos):
    legal = ([a for a, _ in E.chance_outcomes(cfg, pos)] if pos.actor == E.CHANCE
             else E.legal_actions(cfg, pos))
    return rng.choice(legal)


@pytest.mark.parametrize("params", RULES)
def test_the_logged_machine_is_the_engine(params):
    """Every field the solver packs, and the log, order, masks and deals the OpenSpiel
    state reads, equal the Python engine's after every move of 60 random battles."""
    rules = make_rules(params)
    cfg = rules.cfg
    cfgv, tables = P.config_vector(cfg), effect_tables(cfg)
    rng = random.Random(11)
    events = set()
    for _ in range(60):
        pos, a = rules.initial, pack_logged(rules.initial)
        while pos.outcome is None:
            action = _pick(rng, cfg, pos)
            pos, a = E.apply(cfg, pos, action), P.apply_logged(cfgv, a, action, tables)
            got = unpack(a, rules)
            assert (got.ev, got.seen, got.field, got.out, got.pending) == (
                pos.ev, pos.seen, pos.field, pos.out, pos.pending)
            assert got.__dict__.keys() == pos.__dict__.keys()
            assert all(getattr(got, f) == getattr(pos, f) for f in E.Pos.FIELDS)
            if pos.phase != E.DEAL:
                assert np.array_equal(a[:P.NF], P.pack(pos))
                # The solver's specialization moves the same fields.
            events.update(e[1] for e in pos.ev)
    assert len(events) > 15


def test_the_solver_specialization_moves_the_same_fields():
    """``apply_packed`` (no log) gives the logged machine's fields on the same moves."""
    rules = make_rules({"kinds": "all", "courtier0": "Procuress", "courtier1": "Archer",
                        "villain0": "King's Ghost", "villain1": "Sheep"})
    cfg = rules.cfg
    cfgv, tables = P.config_vector(cfg), effect_tables(cfg)
    rng = random.Random(2)
    for _ in range(40):
        pos = rules.initial
        plain, logged = P.pack(pos), pack_logged(pos)
        while pos.outcome is None:
            action = _pick(rng, cfg, pos)
            pos = E.apply(cfg, pos, action)
            plain = P.apply_packed(cfgv, plain, action, tables)
            logged = P.apply_logged(cfgv, logged, action, tables)
            assert plain.shape == (P.NF,)
            assert np.array_equal(plain, logged[:P.NF])


def _same_state(a, b, q_strings: bool) -> None:
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.state_key() == b.state_key()
    assert str(a) == str(b)
    if a.is_terminal():
        assert a.returns() == b.returns() and a.outcome == b.outcome
        return
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
        return
    p = a.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert [a.action_to_string(p, x) for x in a.legal_actions()] == [
        b.action_to_string(p, x) for x in b.legal_actions()]
    if q_strings:
        for q in (0, 1):
            assert a.information_state_string(q) == b.information_state_string(q)
            assert a.observation_string(q) == b.observation_string(q)
            assert a.infoset_key(q) == b.infoset_key(q)
            assert np.array_equal(a.information_state_tensor(q), b.information_state_tensor(q))
            assert np.array_equal(a.observation_tensor(q), b.observation_tensor(q))


@pytest.mark.parametrize("params", [RULES[0], RULES[1], RULES[3], {"kinds": "warriors"}])
def test_the_packed_state_plays_the_same_game(params):
    """PackedBattleState and CobardesBattleState agree on everything OpenSpiel and the
    solvers read, after every move of 25 random battles (random deals included)."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    packed = PackedBattleGame(params)
    rng = random.Random(7)
    for _ in range(25):
        a, b = game.new_initial_state(), packed.new_initial_state()
        _same_state(a, b, True)
        while not a.is_terminal():
            if a.is_chance_node():
                action = rng.choice(a.chance_outcomes())[0]
            else:
                action = rng.choice(a.legal_actions())
            before = b.clone()
            a.apply_action(action)
            b.apply_action(action)
            _same_state(a, b, True)
            assert type(before) is PackedBattleState
            assert before.history() == b.history()[:-1]  # a clone is not moved on


def test_the_packed_state_refuses_what_the_state_refuses():
    """The same errors, word for word, for a move out of turn, a wrong chance outcome
    and a move after the end."""
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "all"})
    rng = random.Random(3)
    a, b = game.new_initial_state(), PackedBattleGame({"kinds": "all"}).new_initial_state()
    seen = set()
    while True:
        for bad in (range(E.NUM_ACTIONS) if not a.is_terminal() else [0]):
            if not a.is_terminal() and bad in (
                    [x for x, _ in a.chance_outcomes()] if a.is_chance_node()
                    else a.legal_actions()):
                continue
            with pytest.raises(IllegalActionError) as want:
                a.clone().apply_action(bad)
            with pytest.raises(IllegalActionError) as got:
                b.clone().apply_action(bad)
            assert str(got.value) == str(want.value)
            seen.add(str(want.value).split(" ")[-1])
        if a.is_terminal():
            break
        action = (rng.choice(a.chance_outcomes())[0] if a.is_chance_node()
                  else rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    assert {"here", "over"} <= seen
