"""Hidden-villain battles with their public subgames cut off and solved exactly
(``analysis.cobardes.solvers.subgames``, ``games.cobardes.hidden.is_public``).

The cut is only sound if (a) :func:`is_public` says yes only where nothing is private
and (b) the exact solver values those positions right; both are checked against the
sequence-form LP of the whole perfect-recall game, which must give the same value.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from walker_check import ARRAYS

import games  # noqa: F401
from analysis.cobardes.model import payoff_values
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.solvers.subgames import cut_loss, hidden_villain_values_exact
from analysis.cobardes.solvers.trunk import PublicCut, compile_cut
from analysis.solve import compile_game
from analysis.solve.compile import estimate_tree_nodes, estimate_walker_nodes
from analysis.solve.lp import solve_lp
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.hidden import is_public
from games.errors import InvalidParameterError

GAME = "python_cobardes_battle"

# Battles with a nonzero value (an asymmetric pairing or payoff), so equal values are
# not a coincidence of symmetry: a lone Squire, the crown worth 2, the Fortune-Teller
# against the Maiden (a card played face up), an Inquisitor drawing villains.
CASES = [
    {"kinds": "all", "warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
     "courtier0": "Squire", "courtier1": "none"},
    {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
     "villain_deck": "Thug/Sheep/Executioner", "crown_value": 2.0},
    {"kinds": "all", "warriors": 2, "combats": 2, "courtier0": "Fortune-Teller",
     "courtier1": "Maiden", "villain_deck": "King's Ghost/Seductress/Executioner"},
]


def _id(params):
    return ",".join(f"{k}={v}" for k, v in params.items())


def _after(game, *actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def _dealt(game):
    """The first position after both villains are dealt (the first outcome each time)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_dealt_villains_are_private():
    """"In hand: their seven Warriors (0 to 6) and one Villain taken at random from the
    Villain deck": the rival does not see it, so a battle with villains dealt at random is
    not public before or after the deal."""
    game = pyspiel.load_game(GAME, CASES[0])
    assert not is_public(game.new_initial_state().position)  # the deal is pending
    assert not is_public(_dealt(game).position)


def test_named_villains_are_public_until_a_card_is_prepared_face_down():
    """Villains named in the position are known to both players; "Both players prepare a
    card ... both reveal it at the same time": once player 0 has prepared face down,
    player 1 does not know it, so that position is not public."""
    game = pyspiel.load_game(GAME, {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
                                    "position": "hand0:0.1.2.Thug;hand1:0.1.2.Sheep"})
    root = game.new_initial_state()
    assert root.position.phase == E.COMMIT and is_public(root.position)
    prepared = _after(game, root.legal_actions()[0])
    assert not is_public(prepared.position)


def test_an_exchange_makes_both_villains_public():
    """"Each player takes into their hand the villain played by their rival": after two
    hidden villains meet, both players know both, and the position is public."""
    game = pyspiel.load_game(GAME, {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
                                    "villain_deck": "Thug/Sheep"})
    state = _dealt(game)
    assert not is_public(state.position)
    hands = state.position.h
    thug, sheep = (E.bits(hands[p] & C.VILLAIN_MASK)[0] for p in (0, 1))
    state.apply_action(thug)  # player 0 prepares the villain face down
    state.apply_action(sheep)  # player 1 answers with theirs: both revealed, exchanged
    pos = state.position
    assert pos.h[0] >> sheep & 1 and pos.h[1] >> thug & 1
    assert is_public(pos)


def test_warriors_only_positions_are_public():
    game = pyspiel.load_game(GAME, {"kinds": "warriors", "warriors": 2, "combats": 3})
    assert is_public(game.new_initial_state().position)


@pytest.mark.parametrize("params", CASES, ids=[_id(p) for p in CASES])
def test_the_cut_keeps_the_exact_value(params):
    """A public position roots a proper subgame, so replacing it by its exact value does
    not change the game's value: the LP of the trunk's perfect-recall tree equals the LP
    of the whole battle's tree (a much larger one)."""
    game = pyspiel.load_game(GAME, params)
    whole = compile_game(game)
    cut = compile_cut(game, graph=False)
    assert cut.compiled.num_nodes < whole.num_nodes / 1.5
    assert cut.cuts > 0 and cut.exact_positions > 0
    assert solve_lp(cut.compiled) == pytest.approx(solve_lp(whole), abs=1e-9)


def test_exact_solver_values_known_villains_as_the_lp_does():
    """With both villains named (known to both) the battle is public: backward induction
    must give its LP value."""
    params = {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
              "position": "hand0:0.1.2.Executioner;hand1:0.1.2.Seductress"}
    game = pyspiel.load_game(GAME, params)
    rules = game.rules
    exact = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False)
    assert exact.value(rules.initial) == pytest.approx(solve_lp(compile_game(game)), abs=1e-9)


def test_lifted_cut_graph_equals_the_direct_cut_graph():
    """The trunk's state graph compiled through the deal-lifted walk is the same, array
    for array, as the direct walk of every deal; both are smaller than the whole graph."""
    game = pyspiel.load_game(GAME, CASES[0])
    rules = game.rules
    exact = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False)
    direct = compile_game(game, graph=True, lifted=False,
                          walker=PublicCut(game.solver_walker(history=False), exact))
    lifted = compile_cut(game, graph=True).compiled
    for name in ARRAYS:
        assert np.array_equal(getattr(direct, name), getattr(lifted, name)), name
    assert direct.infoset_keys == lifted.infoset_keys
    assert lifted.walked < direct.walked
    assert direct.num_internal < compile_game(game, graph=True).num_internal


def test_a_procuress_trunk_with_its_endings_is_the_same_lifted_or_walked_deal_by_deal():
    """As the sweep compiles it (public subgames exact, how each battle ends kept), a
    Procuress matchup's trunk is the same graph, with the same endings terminal by
    terminal, whether the walk is shared between villain deals or not."""
    game = pyspiel.load_game(GAME, {"kinds": "all", "warriors": 2, "combats": 3,
                                    "courtier0": "Squire", "courtier1": "Procuress"})
    shared = compile_cut(game, graph=True, key_names=False, outcomes=True)
    apart = compile_cut(game, graph=True, key_names=False, outcomes=True, lifted=False)
    for name in ARRAYS:
        assert np.array_equal(getattr(shared.compiled, name), getattr(apart.compiled, name)), name
    assert np.array_equal(shared.outcomes.dense(), apart.outcomes.dense())
    assert shared.compiled.walked < apart.compiled.walked


def test_cut_loss_measures_the_trunk_abstraction():
    """The state-keyed trunk solution evaluated in the trunk's perfect-recall tree: its true
    exploitability is at least the one measured inside the abstraction (a best response
    that forgets is a strategy of the true game), and the tree's value is the battle's."""
    params = CASES[0]
    loss = cut_loss("test", params, iterations=400)
    assert loss.graph_exploitability_true >= loss.graph_exploitability_in_abstraction - 1e-9
    assert loss.graph_exploitability_true < 1e-2
    whole = solve_lp(compile_game(pyspiel.load_game(GAME, params)))
    assert abs(loss.tree_value - whole) <= loss.tree_exploitability + 1e-9


def test_public_battles_and_other_games_are_refused_by_name():
    with pytest.raises(InvalidParameterError, match="no hidden villain"):
        compile_cut(pyspiel.load_game(GAME, {"kinds": "warriors", "warriors": 2, "combats": 3}))
    with pytest.raises(InvalidParameterError, match="python_cobardes_battle"):
        compile_cut(pyspiel.load_game("kuhn_poker"))


def test_exact_hidden_villain_table_averages_to_the_lp_value():
    """Deals are uniform, so the mean of the deal values is the battle's value; solved on
    the trunk's perfect-recall tree it is the exact one (the LP's) up to the reported
    exploitability."""
    params = CASES[1]
    h = hidden_villain_values_exact("tiny", params, iterations=300)
    cells = [v for row in h["table"].values() for v in row.values()]
    assert len(cells) == 6 and not h["abstraction"]
    assert np.mean(cells) == pytest.approx(h["value"], abs=1e-9)
    lp = solve_lp(compile_game(pyspiel.load_game(GAME, params)))
    assert abs(h["value"] - lp) <= h["exploitability"] + 1e-9
    assert "perfect-recall tree of the trunk" in h["provenance"]


def test_the_walker_estimate_probes_the_tree_the_walker_describes():
    """Knuth's probes through the battle's own walker make the same random choices as
    through OpenSpiel states (same estimate, same seed); through the cut walker they see
    the smaller trunk."""
    game = pyspiel.load_game(GAME, CASES[0])
    whole = estimate_walker_nodes(game.solver_walker(history=True), probes=200, seed=3)
    assert whole == pytest.approx(estimate_tree_nodes(game, probes=200, seed=3), rel=1e-12)
    rules = game.rules
    cut = PublicCut(game.solver_walker(history=True),
                    ExactSolver(rules.cfg, payoff_values(rules.pay), record=False))
    assert estimate_walker_nodes(cut, probes=200, seed=3) < whole / 1.5


def test_combat_memo_gives_the_same_values_with_a_smaller_memo():
    """Remembering only the positions before each reveal changes no value: the battle's
    value and every public leaf of a trunk (valued by the compiled solver, which keeps
    the same memo) agree with the full-memo solver."""
    params = {"kinds": "all", "warriors": 3, "combats": 4, "courtier0": "Squire",
              "courtier1": "Archer", "position": "hand0:0.1.2.3.Thug;hand1:0.1.2.3.Sheep"}
    game = pyspiel.load_game(GAME, params)
    rules = game.rules
    full = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False)
    lean = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False, combat_memo=True)
    assert lean.value(rules.initial) == full.value(rules.initial)
    assert len(lean.values) < len(full.values) / 2
    assert lean.solved >= len(full.values)
    trunk_game = pyspiel.load_game(GAME, CASES[0])
    exact = ExactSolver(trunk_game.rules.cfg, payoff_values(trunk_game.rules.pay), record=False)
    lean_trunk = compile_cut(trunk_game, graph=True).compiled  # compiled solver, lean memo
    full_trunk = compile_cut(trunk_game, graph=True, exact=exact).compiled
    assert np.array_equal(lean_trunk.utility, full_trunk.utility)
    with pytest.raises(ValueError, match="values only"):
        ExactSolver(rules.cfg, payoff_values(rules.pay), record=True, combat_memo=True)


def test_compiled_and_python_solvers_value_the_same_tree_leaves():
    """The perfect-recall trunk reaches the same public position through many histories:
    both solvers remember every leaf they are asked for, so they solve the same positions
    and give every leaf the same value."""
    game = pyspiel.load_game(GAME, CASES[2])
    rules = game.rules
    python = ExactSolver(rules.cfg, payoff_values(rules.pay), record=False, combat_memo=True)
    slow = compile_cut(game, graph=False, exact=python)
    fast = compile_cut(game, graph=False)
    assert fast.exact_positions == slow.exact_positions > 0
    assert fast.cuts == slow.cuts > fast.exact_positions / 10
    assert np.allclose(fast.compiled.utility, slow.compiled.utility, atol=1e-12)
