"""How public battles end under the exact solution (``analysis.cobardes.solvers.fast_outcomes``):
the ending probabilities (outcome and courtiers played) sum to 1, price at the exact
value, and agree with the villain-free graphs' (:class:`analysis.cobardes.solvers.graph.BattleGraph`
for the outcomes, :class:`analysis.cobardes.studies.renewal.RenewalGraph` for the endings),
computed another way.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from analysis.cobardes.model import (
    DRAW,
    ENDING_NAMES,
    LOSS,
    OUTCOME_NAMES,
    USED,
    WIN,
    initial_position,
    outcome_totals,
)
from analysis.cobardes.solvers.fast_exact import FastExactSolver
from analysis.cobardes.solvers.fast_outcomes import OutcomeSolver, class_table
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.cobardes.solvers.villains import REDUCED_DECKS, deal_outcomes, deal_values
from analysis.cobardes.studies.renewal import RenewalGraph
from analysis.cobardes.studies.sweep import pairings_dir
from analysis.solve import CFRSolver
from games.cobardes import engine as E
from games.cobardes.options import make_rules
from games.errors import InvalidPositionError


def _payoffs(rules) -> np.ndarray:
    pay = rules.pay
    return np.array([pay.win, pay.loss, pay.crown, pay.crown_loss, pay.draw])


def _ending_payoffs(rules) -> np.ndarray:
    return np.repeat(_payoffs(rules), len(USED))


@pytest.mark.parametrize("params", [
    {"kinds": "warriors", "warriors": 3, "combats": 3},
    {"kinds": "warriors+courtiers", "courtier0": "Squire", "courtier1": "Archer",
     "warriors": 4, "combats": 4},
    {"kinds": "warriors+courtiers", "courtier0": "Wolf", "courtier1": "Maiden",
     "warriors": 4, "combats": 5, "win_value": 2.0, "crown_value": 5.0},
])
def test_villain_free_battles_end_as_the_battle_graph_says(params):
    rules = make_rules(params)
    got = OutcomeSolver(rules.cfg, rules.pay).outcome_probs(rules.initial)
    cfg, pos, _ = initial_position(params)
    want = BattleGraph(cfg, pos).solve(tuple(_payoffs(rules))).outcome_probs
    assert outcome_totals(got) == pytest.approx(want, abs=1e-9)
    if params["kinds"] == "warriors":  # no courtier to play
        assert got.reshape(len(OUTCOME_NAMES), len(USED))[:, 1:] == pytest.approx(0.0)


@pytest.mark.parametrize("pairing", [("Inquisitor", "Archer"), ("Archer", "Inquisitor")])
def test_which_courtiers_are_played_agrees_with_the_renewal_graph(pairing):
    """Warriors 0-3 in 4 combats, battles where no tie between moves decides whether a
    courtier is played (so the two graphs' tie rules agree): the 20 endings are the
    renewal graph's, computed another way, and they split by the courtiers played."""
    params = {"kinds": "warriors+courtiers", "courtier0": pairing[0],
              "courtier1": pairing[1], "warriors": 3, "combats": 4}
    rules = make_rules(params)
    got = OutcomeSolver(rules.cfg, rules.pay).outcome_probs(rules.initial)
    cfg, pos, _ = initial_position(params)
    want = RenewalGraph(cfg, pos).solve(tuple(_ending_payoffs(rules))).reach
    assert got == pytest.approx(want, abs=1e-9)
    assert len({j % len(USED) for j in np.flatnonzero(got > 1e-6)}) > 1


def _spare(p: np.ndarray) -> float:
    used = np.tile(np.arange(len(USED)), len(OUTCOME_NAMES))
    return float(p @ ((1 - (used & 1)) - (1 - (used >> 1))))


def _single_choice(pos) -> bool:
    # A player's move that is not the face-down commit both make at once.
    matrix = (pos.phase == E.COMMIT and not pos.open and pos.actor == pos.first
              and pos.cards[pos.actor] < 0)
    return pos.actor in (0, 1) and not matrix and pos.outcome is None


@pytest.mark.parametrize("pairing", [("Squire", "Archer"), ("Maiden", "Sentinel")])
def test_a_tie_between_moves_keeps_the_movers_courtier_unplayed(pairing):
    """At every single-player choice of 30 random games: the endings are those of the
    best move which leaves the mover's courtier unplayed rather than the rival's; every
    move's endings are the mover's alternatives there, valued by the same solver."""
    rules = make_rules({"kinds": "warriors+courtiers", "courtier0": pairing[0],
                        "courtier1": pairing[1], "warriors": 4, "combats": 4})
    solver = OutcomeSolver(rules.cfg, rules.pay)
    rng = random.Random(3)
    ties = 0
    for _ in range(30):
        pos = rules.initial
        while pos.outcome is None:
            legal = (None if pos.actor == E.CHANCE else E.legal_actions(rules.cfg, pos))
            if _single_choice(pos) and len(legal) > 1:
                kids = [E.apply(rules.cfg, pos, a) for a in legal]
                values = [solver.value(k) for k in kids]
                sign = 1.0 if pos.actor == 0 else -1.0
                best = max(values) if pos.actor == 0 else min(values)
                tied = [k for k, v in zip(kids, values, strict=True)
                        if abs(v - best) <= 1e-9]
                spares = [sign * _spare(solver.outcome_probs(k)) for k in tied]
                assert sign * _spare(solver.outcome_probs(pos)) == pytest.approx(
                    max(spares), abs=1e-9)
                ties += len({round(x, 9) for x in spares}) > 1
            moves = (E.chance_outcomes(rules.cfg, pos) if legal is None else None)
            action = rng.choice(moves)[0] if moves is not None else rng.choice(legal)
            pos = E.apply(rules.cfg, pos, action)
    assert ties > 0  # some tie did decide whether a courtier is played


def test_full_armies_end_as_the_stored_battle_record_says():
    """Procuress vs Maiden, warriors 0-6 in 7 combats: the committed record's outcome
    probabilities (written from the battle graph)."""
    record = json.loads((pairings_dir() / "battle" / "procuress__maiden__w6c7.json")
                        .read_text())["battle"]
    rules = make_rules({"kinds": "warriors+courtiers", "courtier0": "Procuress",
                        "courtier1": "Maiden"})
    got = outcome_totals(OutcomeSolver(rules.cfg, rules.pay).outcome_probs(rules.initial))
    assert got == pytest.approx([record["outcome_probs"][k] for k in OUTCOME_NAMES],
                                abs=1e-9)


@pytest.mark.parametrize("params", [
    {"kinds": "warriors+villains", "villain0": "Executioner", "villain1": "Seductress",
     "warriors": 4, "combats": 5},
    {"kinds": "all", "warriors": 4, "combats": 4, "courtier0": "Procuress",
     "courtier1": "Sentinel", "villain0": "Executioner", "villain1": "Sheep"},
    {"kinds": "all", "warriors": 3, "combats": 4, "courtier0": "Fortune-Teller",
     "courtier1": "Standard-Bearer", "villain0": "Thug", "villain1": "Beggar"},
])
def test_at_every_position_of_sampled_games_the_outcomes_price_at_the_value(params):
    """Villains named (public battles): at every position of 20 random games the
    probabilities are a distribution whose payoff is the exact value, the same value the
    plain compiled solver gives; no outcome vector is left waiting on the stack."""
    rules = make_rules(params)
    solver = OutcomeSolver(rules.cfg, rules.pay)
    plain = FastExactSolver(rules.cfg, rules.pay)
    pay = _ending_payoffs(rules)
    rng = random.Random(5)
    seen = set()
    for _ in range(20):
        pos = rules.initial
        while True:
            p = solver.outcome_probs(pos)
            assert p.min() >= -1e-12 and p.sum() == pytest.approx(1.0, abs=1e-9)
            value = solver.value(pos)
            assert p @ pay == pytest.approx(value, abs=1e-9)
            assert value == pytest.approx(plain.value(pos), abs=1e-12)
            seen.add(tuple(np.round(p, 6)))
            if pos.outcome is not None:
                break
            moves = (E.chance_outcomes(rules.cfg, pos) if pos.actor == E.CHANCE else None)
            action = (rng.choice(moves)[0] if moves is not None
                      else rng.choice(E.legal_actions(rules.cfg, pos)))
            pos = E.apply(rules.cfg, pos, action)
    assert solver._data[0].top[0] == 0
    assert len(seen) > 5


def test_the_class_table_follows_the_battle_graphs_outcome_kinds():
    table = class_table()
    assert (table == DRAW).sum() == table.size - 4
    assert {int(table[1, 1]), int(table[1, 2])} == {WIN, LOSS}


def test_a_position_with_a_deal_to_come_is_refused():
    rules = make_rules({"kinds": "all", "warriors": 3, "combats": 3, "courtier0": "Squire",
                        "courtier1": "Archer", "villain0": "random", "villain1": "random",
                        "villain_deck": "all"})
    with pytest.raises(InvalidPositionError):
        OutcomeSolver(rules.cfg, rules.pay).outcome_probs(rules.initial)


ARRAYS = ("kind", "infoset", "edge_start", "edge_child", "edge_prob", "edge_action",
          "utility", "infoset_offset", "infoset_actions")


@pytest.mark.parametrize("deck", [0, 3])  # plain villains; the Procuress's swaps
@pytest.mark.parametrize("graph", [True, False])
def test_the_cut_keeping_outcomes_compiles_the_same_game(deck, graph):
    """With hidden villains, the trunk compiled keeping how each leaf ends is the same
    game, array for array (the same payoffs too), and each terminal's outcome
    probabilities price at its payoff; after CFR+, so does every deal's."""
    game = pyspiel.load_game("python_cobardes_battle", REDUCED_DECKS[deck][1])
    plain = compile_cut(game, graph=graph, progress=False).compiled
    cut = compile_cut(game, graph=graph, progress=False, outcomes=True)
    for name in ARRAYS:
        assert np.array_equal(getattr(plain, name), getattr(cut.compiled, name)), name
    pay = _ending_payoffs(game.rules)
    dense = cut.outcomes.dense()
    assert dense.shape == (plain.num_terminals, len(ENDING_NAMES))
    assert dense @ pay == pytest.approx(plain.utility, abs=1e-6)
    assert dense.sum(axis=1) == pytest.approx(1.0, abs=1e-6)
    assert 0 < (dense == 1).any(axis=1).sum() < plain.num_terminals  # sure or not
    assert (cut.outcomes.code < 0).sum() == len(cut.outcomes.cuts)  # one row a cut leaf
    solver = CFRSolver(cut.compiled, "cfr+")
    solver.run(iterations=30, progress=False)
    strategy = solver.average_strategy()
    values = deal_values(cut.compiled, strategy)
    ends = deal_outcomes(cut.compiled, strategy, cut.outcomes)
    assert ends.keys() == values.keys()
    for mine, row in values.items():
        for theirs, value in row.items():
            p = np.array([ends[mine][theirs][k] for k in ENDING_NAMES])
            assert p.sum() == pytest.approx(1.0, abs=1e-6)
            assert p @ pay == pytest.approx(value, abs=1e-6)
