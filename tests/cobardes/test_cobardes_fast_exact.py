"""The numba-compiled exact solver of public battles (``analysis.cobardes.solvers.fast_exact``).

It transcribes the engine's phases, so it is checked against the Python engine and
:class:`ExactSolver` (the reference, itself checked against OpenSpiel's LP): the same
value and the same number of positions solved, on every courtier pairing, every pair of
villains, each rules option, and at every position of sampled games.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import games  # noqa: F401
from analysis.cobardes.model import payoff_values
from analysis.cobardes.solvers import exact
from analysis.cobardes.solvers.exact import ExactSolver, solve_matrix_lp
from analysis.cobardes.solvers.fast_exact import (
    FastExactSolver,
    _tableau_value,
    effect_tables,
    pack,
)
from analysis.cobardes.studies.sweep import pairings_dir, solve_villain_pair
from analysis.solve import matrix_game
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import make_rules
from games.errors import InvalidPositionError

SMALL = {"warriors": 3, "combats": 3}


def _both(params):
    rules = make_rules(params)
    slow = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False, combat_memo=True)
    fast = FastExactSolver(rules.cfg, rules.pay)
    return rules, slow, fast


def _assert_same(params):
    rules, slow, fast = _both(params)
    want = slow.value(rules.initial)
    got = fast.value(rules.initial)
    assert got == pytest.approx(want, abs=1e-12), params
    assert fast.solved == slow.solved, params
    return want


def test_every_courtier_pairing_without_villains():
    """All 10 x 10 courtier pairings (mirrors included), warriors 0-3 in 3 combats:
    the same values as the Python solver, and not all the same value."""
    values = set()
    for c0, c1 in itertools.product(C.COURTIER_NAMES, repeat=2):
        mirror = {"allow_mirror": True} if c0 == c1 else {}
        values.add(round(_assert_same({"kinds": "warriors+courtiers", "courtier0": c0,
                                       "courtier1": c1, **SMALL, **mirror}), 9))
    assert len(values) > 5


VILLAIN_PAIRS = list(itertools.permutations(C.VILLAINS, 2))


@pytest.mark.parametrize("courtiers, pairs", [
    (("Procuress", "Inquisitor"), VILLAIN_PAIRS),
    (("Fortune-Teller", "Maiden"), [(a, b) for a, b in VILLAIN_PAIRS if (a - b) % 9 in (1, 4)]),
    (("Sentinel", "Archer"), [(a, b) for a, b in VILLAIN_PAIRS if (a - b) % 9 in (2, 6)])])
def test_villain_pairs(courtiers, pairs):
    """Every pair of named villains (72) with vanguard courtiers that show, swap and draw
    villains (Procuress, Inquisitor); every villain on each side twice with courtiers that
    make a card be played face up (Fortune-Teller, Maiden) or change warriors (Sentinel,
    Archer)."""
    for a, b in pairs:
        v0, v1 = C.CARD_NAMES[a], C.CARD_NAMES[b]
        _assert_same({"kinds": "all", "courtier0": courtiers[0], "courtier1": courtiers[1],
                      "villain0": v0, "villain1": v1, **SMALL})


@pytest.mark.parametrize("option", [{"quicker": "random"}, {"quicker": "p0"}, {"quicker": "p1"},
                                    {"followup": "mandatory"}, {"exchange_limit": 0},
                                    {"exchange_limit": 2}])
def test_rules_options(option):
    """Each rules option, on battles where it matters: two vanguard courtiers (who is
    quicker), villains that follow up, exchange, capture and execute."""
    for v0, v1 in (("Seductress", "Sheep"), ("Beggar", "Thug"), ("Executioner", "King's Ghost"),
                   ("Troubadour", "Assassin")):
        _assert_same({"kinds": "all", "courtier0": "Procuress", "courtier1": "Inquisitor",
                      "villain0": v0, "villain1": v1, **SMALL, **option})


def test_every_position_of_sampled_games():
    """Warriors 0-4 in 4 combats, Royal Guard vs Wolf, Troubadour vs King's Ghost: every
    position of 40 random games has the Python solver's value."""
    rules, slow, fast = _both({"kinds": "all", "warriors": 4, "combats": 4,
                               "courtier0": "Royal Guard", "courtier1": "Wolf",
                               "villain0": "Troubadour", "villain1": "King's Ghost"})
    cfg = rules.cfg
    rng = random.Random(7)
    checked = set()
    for _ in range(40):
        pos = rules.initial
        while pos.outcome is None:
            checked.add(pos.phase)
            assert fast.value(pos) == pytest.approx(slow.value(pos), abs=1e-12)
            if pos.actor == E.CHANCE:
                action = rng.choice(E.chance_outcomes(cfg, pos))[0]
            else:
                action = rng.choice(E.legal_actions(cfg, pos))
            pos = E.apply(cfg, pos, action)
    assert {E.COMMIT, E.REAR}.issubset(checked)


def test_positions_solved_once():
    """The memo is shared: solving the same battle again costs nothing."""
    rules, _, fast = _both({"kinds": "warriors+villains", "villain0": "Sheep",
                            "villain1": "Friar", **SMALL})
    fast.value(rules.initial)
    solved = fast.solved
    assert solved > 0
    fast.value(rules.initial)
    assert fast.solved == solved


def test_a_random_deal_is_refused():
    """A villain still to be dealt is not public: the compiled solver refuses it by name."""
    rules = make_rules({"kinds": "warriors+villains", **SMALL})
    assert rules.initial.pending
    with pytest.raises(InvalidPositionError, match="deal"):
        pack(rules.initial)


def test_effect_tables_read_the_cards():
    """The tables are the cards' own functions: the Assassin against the prince takes the
    Crown, the Thug against warrior 4 wins, the Executioner executes a villain, the
    Squire adds 1, the Wolf stops warrior 3's combat, warrior 2 loses to the Inquisitor."""
    villainy, meet, vanguard, rear, inquisitor = effect_tables(E.Config())
    assert villainy[C.ASSASSIN, C.PRINCE, 0] == 1 and villainy[C.ASSASSIN, 3, 0] == 4
    assert villainy[C.THUG, 4, 0] == 2 and villainy[C.TROUBADOUR, 1, 1] == 2
    assert tuple(meet[C.SHEEP, C.EXECUTIONER, 0]) == (1, 1)
    assert tuple(meet[C.SHEEP, C.FRIAR, 0]) == (3, -1) and tuple(meet[C.SHEEP, C.FRIAR, 1]) == (4, -1)
    assert tuple(vanguard[C.MAIDEN]) == (0, 1, 1) and tuple(vanguard[C.STANDARD_BEARER]) == (1, 0, 0)
    assert tuple(rear[C.SQUIRE, 4, 1, 1]) == (1, 1) and tuple(rear[C.WOLF, 3, 0, 0]) == (2, 0)
    assert rear[C.WOLF, 4, 1, 1, 0] == 0 and rear[C.ARCHER, 4, 1, 0, 0] == 0
    assert inquisitor[2] == 1 and inquisitor.sum() == 1


def test_matrix_games_match_the_lp():
    """The compiled tableau simplex gives HiGHS's value on random games, including ones
    with ties (small integer payoffs), or NaN when it cannot verify its answer."""
    rng = np.random.default_rng(3)
    answered = 0
    for trial in range(300):
        m, n = rng.integers(1, 8, size=2)
        a = rng.integers(-2, 3, size=(m, n)).astype(float) if trial % 2 else rng.normal(size=(m, n))
        got = _tableau_value(a)
        if not np.isnan(got):
            answered += 1
            assert got == pytest.approx(solve_matrix_lp(a).value, abs=1e-9)
    assert answered > 290


def test_both_solvers_share_one_simplex():
    """The Python solver's matrix games and the compiled solver's go through the same
    tableau (:mod:`analysis.solve.matrix_game`): the same values, bit for bit."""
    assert exact.solve_matrix is matrix_game.solve_matrix
    rng = np.random.default_rng(5)
    for trial in range(200):
        m, n = rng.integers(1, 8, size=2)
        a = rng.integers(-2, 3, size=(m, n)).astype(float) if trial % 2 else rng.normal(size=(m, n))
        got = _tableau_value(a)
        if not np.isnan(got):
            assert got == exact.solve_matrix(a).value


@pytest.mark.parametrize("params", [
    {"kinds": "all", "warriors": 4, "combats": 4, "courtier0": "Fortune-Teller",
     "courtier1": "Maiden", "villain0": "Seductress", "villain1": "Beggar"},
    {"kinds": "all", "warriors": 4, "combats": 4, "courtier0": "Procuress",
     "courtier1": "Sentinel", "villain0": "Executioner", "villain1": "Sheep"},
    {"kinds": "warriors", "warriors": 5, "combats": 5},
])
def test_strategies_are_the_python_solvers(params):
    """At every decision of 30 random games, including answers to a card prepared face
    down, the compiled solver advises the Python solver's mix."""
    rules = make_rules(params)
    slow = ExactSolver(rules.cfg, payoff_values(rules.pay))
    fast = FastExactSolver(rules.cfg, rules.pay)
    cfg = rules.cfg
    rng = random.Random(11)
    answers = 0
    for _ in range(30):
        pos = rules.initial
        while pos.outcome is None:
            if pos.actor == E.CHANCE:
                pos = E.apply(cfg, pos, rng.choice(E.chance_outcomes(cfg, pos))[0])
                continue
            want, got = slow.strategy(pos), fast.strategy(pos)
            assert got.keys() == want.keys()
            assert list(got.values()) == pytest.approx(list(want.values()), abs=1e-9)
            answers += pos.phase == E.COMMIT and pos.cards[1 - pos.actor] >= 0
            pos = E.apply(cfg, pos, rng.choice(E.legal_actions(cfg, pos)))
        with pytest.raises(InvalidPositionError, match="nobody decides"):
            fast.strategy(pos)
    assert answers > 0


def test_full_armies_reproduce_the_committed_villain_sweep():
    """Full armies (warriors 0-6, 7 combats) with both villains named: the compiled solver
    gives the values the Python solver wrote in the committed 9 x 9 sweep
    (``reports/data/cobardes/pairings/villains``)."""
    for v0, v1 in (("Thug", "Sheep"), ("Executioner", "Seductress"), ("Assassin", "Friar")):
        path = pairings_dir() / "villains" / f"{v0.lower()}__{v1.lower()}__w6c7.json"
        want = json.loads(path.read_text())["battle"]["value"]
        rules = make_rules({"kinds": "warriors+villains", "villain0": v0, "villain1": v1})
        got = FastExactSolver(rules.cfg, rules.pay).value(rules.initial)
        assert got == pytest.approx(want, abs=1e-12), (v0, v1)


def test_a_villain_sweep_record_is_the_python_solvers_value():
    """``farol cobardes sweep`` over villain pairs solves each with the compiled solver:
    the record holds the Python solver's value and the positions it solved."""
    record = solve_villain_pair(("Seductress", "Sheep"), warriors=3, combats=3)
    rules, slow, _ = _both({"kinds": "warriors+villains", "villain0": "Seductress",
                            "villain1": "Sheep", **SMALL})
    assert record.battle["value"] == pytest.approx(slow.value(rules.initial), abs=1e-12)
    assert record.positions == slow.solved and record.matrix_games > 0
