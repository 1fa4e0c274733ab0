"""¡Cobardes! analysis: exact battles, the war composition, advice, sweeps.

Values are checked against independent computations: OpenSpiel's CFR+ and best
response on the same OpenSpiel game, the solver engine's CFR on the state graph,
``scipy.optimize.linprog`` for the matrix games, and hand-worked cases.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

import games  # noqa: F401  (registers the games)
from analysis.cli import main
from analysis.cobardes.agents import solved as _solved_bot  # noqa: F401  (registers the solved bot)
from analysis.cobardes.model import (
    DRAW,
    LOSS,
    SCORES,
    TOKENS_TO_WIN,
    WIN,
    BattleSpec,
    card_label,
    initial_position,
    payoff_values,
)
from analysis.cobardes.solvers import subgames, villains, war
from analysis.cobardes.solvers.exact import (
    ExactPolicy,
    ExactSolver,
    solve_battle,
    solve_matrix,
    solve_matrix_lp,
)
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.solvers.subgames import hidden_villain_values_exact
from analysis.cobardes.solvers.villains import (
    REDUCED_DECKS,
    abstraction_loss,
    advise_villains,
    deal_values,
    first_combat_mix,
    solve_villains,
)
from analysis.cobardes.studies import renewal, sweep
from analysis.play.bots import make_bot, sample_chance
from analysis.play.session import play_game
from analysis.report import ReportContext
from analysis.report import cobardes as cobardes_report
from analysis.shared import store
from analysis.solve import compile_game, solve, solve_lp
from games import catalog
from games.cobardes import cards as C
from games.cobardes.options import make_rules
from games.errors import InvalidParameterError, InvalidPositionError

SMALL = [
    dict(kinds="warriors", warriors=3, combats=3, crown_value=2.0, crown_loss_value=-2.0,
         draw_value=0.3),
    dict(kinds="warriors+courtiers", warriors=3, combats=3, courtier0="Maiden",
         courtier1="Inquisitor"),
    dict(kinds="warriors+courtiers", warriors=3, combats=4, courtier0="Fortune-Teller",
         courtier1="Maiden"),
    dict(kinds="warriors+courtiers", warriors=3, combats=4, courtier0="Sentinel",
         courtier1="Standard-Bearer", quicker="p1"),
    dict(kinds="warriors+courtiers", warriors=3, combats=3, courtier0="Royal Guard",
         courtier1="Archer", win_value=1.0, loss_value=-1.0, crown_value=5.0,
         crown_loss_value=-5.0),
]


def _value(params):
    cfg, pos, pay = initial_position(params)
    return ExactSolver(cfg, payoff_values(pay)).value(pos)


# ---------------------------------------------------------------- matrix games
def test_simplex_matches_linprog_and_is_an_equilibrium():
    rng = np.random.default_rng(7)
    for k in range(400):
        m, n = rng.integers(1, 8, 2)
        a = rng.integers(-3, 4, (m, n)).astype(float) if k % 2 else rng.normal(size=(m, n))
        sol, ref = solve_matrix(a), solve_matrix_lp(a)
        assert sol.value == pytest.approx(ref.value, abs=1e-9)
        assert (sol.row @ a).min() >= sol.value - 1e-9
        assert (a @ sol.col).max() <= sol.value + 1e-9


def test_matching_pennies_by_hand():
    sol = solve_matrix(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    assert sol.row == pytest.approx([0.5, 0.5])
    assert sol.col == pytest.approx([0.5, 0.5])


# ---------------------------------------------------------------- exact battles
@pytest.mark.parametrize("params", SMALL[:4], ids=lambda p: f"{p.get('courtier0', 'w')}")
def test_exact_strategy_has_zero_nash_conv_by_openspiel_best_response(params):
    """OpenSpiel's own best response finds nothing to gain against the exact solution."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    policy = ExactPolicy(game)
    assert exploitability.nash_conv(game, policy) == pytest.approx(0.0, abs=1e-9)
    played = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    assert played == pytest.approx(_value(params), abs=1e-9)


def test_exact_value_within_openspiel_cfr_bound():
    """|v(CFR+ average) - v*| <= NashConv: OpenSpiel CFR+ on the full perfect-recall tree."""
    params = SMALL[0]
    game = pyspiel.load_game("python_cobardes_battle", params)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    conv = exploitability.nash_conv(game, avg)
    v = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0]
    assert conv < 0.02
    assert abs(v - _value(params)) <= conv + 1e-9
    assert _value(params) == pytest.approx(0.18667481662591578, abs=1e-9)


@pytest.mark.parametrize("params", [SMALL[1], SMALL[4]], ids=["maiden", "royal-guard"])
def test_exact_value_matches_engine_cfr_on_state_graph(params):
    result = solve("python_cobardes_battle", params=params, graph=True, iterations=3000,
                   use_cache=False)
    assert not result.abstraction or result.exploitability < 1e-3
    assert abs(result.value - _value(params)) <= 2 * result.exploitability + 1e-6


def test_graph_solution_equals_recursive_solution():
    spec = BattleSpec(warriors=4, combats=5, courtiers=("Squire", "Wolf"), crown=2.0,
                      draw=-0.25)
    cfg, pos, pay = initial_position(spec.params())
    sol = BattleGraph(cfg, pos).solve((pay.win, pay.loss, pay.crown, pay.crown_loss,
                                       pay.draw))
    assert sol.value == pytest.approx(solve_battle(spec).value, abs=1e-10)
    assert sol.outcome_probs.sum() == pytest.approx(1.0)


def test_last_combat_by_hand():
    """The last combat (6 of 6): "If after seven combats there is no winner, the battle
    ends in a draw." You hold 0 and 5, the rival 3 and 6: your 5 against 3 wins (+1),
    against 6 draws; your prince loses the Crown to either (-3). Value 0 (the rival
    answers 6), play the 5."""
    params = {"kinds": "warriors", "combats": 6,
              "position": "hand0:0.5;hand1:3.6;combat:6;unharmed:1"}
    cfg, pos, pay = initial_position(params)
    solver = ExactSolver(cfg, payoff_values(pay))
    assert solver.value(pos) == pytest.approx(0.0)
    assert solver.strategy(pos) == {0: 0.0, 5: 1.0}


def test_symmetric_battles_are_worth_zero_and_mirrors_negate():
    assert solve_battle(BattleSpec(warriors=4, combats=4)).value == pytest.approx(0, abs=1e-9)
    ab = solve_battle(BattleSpec(warriors=3, combats=4, courtiers=("Squire", "Maiden"))).value
    ba = solve_battle(BattleSpec(warriors=3, combats=4, courtiers=("Maiden", "Squire"),
                                 quicker="alternate")).value
    # Swapping seats also swaps who is quicker on odd combats, which only matters when
    # both hold a vanguard courtier; here only one does.
    assert ab == pytest.approx(-ba, abs=1e-9)


def test_exact_solver_refuses_hidden_deals():
    with pytest.raises(InvalidPositionError, match="random"):
        initial_position({"kinds": "all"})
    with pytest.raises(InvalidPositionError, match="random"):
        initial_position({"kinds": "warriors+courtiers"})
    with pytest.raises(InvalidParameterError):
        initial_position({"kinds": "warriors", "warriors": 9})


@pytest.mark.parametrize("params", [
    dict(kinds="warriors+villains", warriors=2, combats=3, villain0="Seductress",
         villain1="Sheep"),
    dict(kinds="all", warriors=2, combats=3, villain0="Troubadour", villain1="Thug",
         courtier0="Procuress", courtier1="Archer"),
    dict(kinds="warriors+villains", warriors=2, combats=3, villain0="King's Ghost",
         villain1="Executioner"),
], ids=["seductress-sheep", "procuress", "ghost-executioner"])
def test_named_villains_are_public_and_solved_exactly(params):
    """Villains named in the parameters are "known to both players": the battle stays
    a game of public information and the exact solution has NashConv 0."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    assert exploitability.nash_conv(game, ExactPolicy(game)) == pytest.approx(0, abs=1e-9)


# ---------------------------------------------------------------- rulebook tips
@pytest.fixture(scope="module")
def warriors_only():
    cfg, pos, pay = initial_position(BattleSpec().params())
    solver = ExactSolver(cfg, payoff_values(pay))
    solver.value(pos)
    return solver, solver.node(pos)


def test_tip_first_combat_risk_the_4_but_not_lower(warriors_only):
    """"In the first combat, you can risk the 4, but not a lower one.\""""
    _, node = warriors_only
    mix = dict(zip(node.actions, node.strategy, strict=True))
    assert mix[4] > 0.1
    assert all(mix[c] < 1e-9 for c in (0, 1, 2, 3))


def test_tip_starting_with_the_prince_is_a_sure_defeat(warriors_only):
    """"Starting with the prince would be a sure defeat." Against the prince the rival's
    best answer takes the Crown at once (-3, the worst payoff)."""
    _, node = warriors_only
    grid = np.array(node.child_values).reshape(len(node.actions), len(node.actions1))
    assert grid[0].min() == pytest.approx(-3.0)


def test_tip_six_and_five_are_invincible():
    """"Note that both the 6 and the 5 are invincible": no warrior exceeds them by 2."""
    for strong in (5, 6):
        assert all(C.combat_winner(strong, other) != 1 for other in range(7))


# ---------------------------------------------------------------- the war
class _FixedBattle(BattleGraph):
    """A battle won with probability p, lost with q, drawn otherwise, whatever the
    payoffs: one chance node over the terminal kinds."""

    def __init__(self, p, q):  # noqa: D107 - no walk
        self.kind = [-1, -2, -3, -4, -5, 2]
        self.children = [(), (), (), (), (), [WIN, LOSS, DRAW]]
        self.probs = [(), (), (), (), (), (p, q, 1 - p - q)]
        self.actions = [()] * 6
        self.root = self.opening = 5


def test_war_composition_by_hand():
    """With battles won 40%, lost 20%, drawn 40% (draws repeat the score), by hand:
    V(a,b) = (0.4 V(a+1,b) + 0.2 V(a,b+1)) / 0.6, V = +1 at 3 tokens, -1 when the
    rival has 3. V(2,2) = (0.4 - 0.2)/0.6 = 1/3; V(2,1) = (0.4 + 0.2/3)/0.6 = 7/9;
    V(1,2) = (0.4/3 - 0.2)/0.6 = -1/9; V(1,1) = (0.4*7/9 - 0.2/9)/0.6 = 13/27."""
    sol = war.solve_war(graph=_FixedBattle(0.4, 0.2))
    assert sol.scores[(2, 2)].value == pytest.approx(1 / 3)
    assert sol.scores[(2, 1)].value == pytest.approx(7 / 9)
    assert sol.scores[(1, 2)].value == pytest.approx(-1 / 9)
    assert sol.scores[(1, 1)].value == pytest.approx(13 / 27)
    assert all(s.residual < 1e-9 for s in sol.scores.values())


def test_capped_war_matches_engine_cfr_on_the_war_game():
    """The composition, with a cap of 3 battles, against the solver engine's CFR on
    python_cobardes_war itself (warriors 0-3, 3 combats, starting 0-1)."""
    cfg, pos, _ = initial_position(BattleSpec(3, 3).params())
    composed = war.capped_war_value(BattleGraph(cfg, pos), 3, (0, 1))
    result = solve("python_cobardes_war", params=dict(
        kinds="warriors", warriors=3, combats=3, max_battles=3, tokens0=0, tokens1=1),
        graph=True, iterations=3000, use_cache=False)
    assert composed == pytest.approx(-0.09479892761394071, abs=1e-9)
    assert abs(result.value - composed) <= 2 * result.exploitability + 1e-6


def _absorbing_chain_value(q: dict, start=(0, 0)) -> float:
    """The war's value as an absorbing Markov chain over the scores (a battle ending as
    ``q`` says at every score), by the fundamental matrix: an independent way to the
    composition's numbers."""
    states = list(SCORES)
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    stay, gain = np.zeros((n, n)), np.zeros(n)
    for (a, b), i in index.items():
        stay[i, i] += q["draw"]
        gain[i] += q["crown"] - q["crown_loss"]
        for prob, nxt, end in ((q["win"], (a + 1, b), 1.0), (q["loss"], (a, b + 1), -1.0)):
            if max(nxt) >= TOKENS_TO_WIN:
                gain[i] += prob * end
            else:
                stay[i, index[nxt]] += prob
    return float(np.linalg.solve(np.eye(n) - stay, gain)[index[start]])


def test_war_composed_from_one_battle_agrees_with_the_absorbing_chain():
    q = {"win": 0.31, "loss": 0.22, "crown": 0.07, "crown_loss": 0.11, "draw": 0.29}
    values = war.composed_values(q)
    for score in SCORES:
        assert values[score] == pytest.approx(_absorbing_chain_value(q, score), abs=1e-12)


def test_war_composed_from_each_scores_solved_battle_is_the_solved_war():
    """Composed from the battle solved at each score (its own outcome probabilities),
    the war values are solve_war's; composed from the plain battle's (one solution at
    every score), they differ: players change their play with the score."""
    sol = war.solve_war(warriors=4, combats=4, courtiers=("Squire", "Archer"))
    own = war.composed_values({s: x.outcome_probs for s, x in sol.scores.items()})
    for score, x in sol.scores.items():
        assert own[score] == pytest.approx(x.value, abs=1e-9)
    plain = war.composed_values(sol.scores[(2, 2)].outcome_probs)
    assert plain[(2, 2)] == pytest.approx(sol.scores[(2, 2)].value, abs=1e-9)
    assert max(abs(plain[s] - x.value) for s, x in sol.scores.items()) > 0.1


def test_the_appendix_reads_the_war_composition_benchmark(tmp_path):
    from analysis.report.cobardes.hidden_villains import war_composition_text
    from analysis.report.facts.cobardes.stored import WAR_COMPOSITION_JSON

    b = json.loads(WAR_COMPOSITION_JSON.read_text())
    text = war_composition_text()
    assert f"median of {b['error_median']:.3f}" in text
    assert f"largest {b['error_max']:.3f}" in text
    assert f"about {b['exact_route_hours']:.0f} hours" in text
    # The count of matchups solved is today's, not the benchmark's (one count everywhere).
    assert "of the 90 dealt" not in text
    assert "4 of the 90 dealt matchups are solved with how each battle ends" in \
        war_composition_text(stored=4)
    assert "All 90 dealt matchups are solved" in war_composition_text(stored=90)
    b |= {"same_order": False, "same_ends": False}
    (tmp_path / "w.json").write_text(json.dumps(b))
    assert "a different strongest or weakest courtier" in war_composition_text(tmp_path / "w.json")
    assert war_composition_text(tmp_path / "missing.json") == ""


def test_the_appendix_states_the_keep_or_renew_model_and_its_measured_miss(tmp_path):
    from analysis.report.cobardes.hidden_villains import renewal_composition_text
    from analysis.report.facts.cobardes.stored import RENEWAL_COMPOSITION_JSON

    b = json.loads(RENEWAL_COMPOSITION_JSON.read_text())
    text = renewal_composition_text()
    assert f"median of {b['error_median']:.3f}" in text
    assert f"largest {b['error_max']:.3f}" in text
    assert f"{b['choices_agreeing'] / b['choices']:.1%} of the {b['choices']:,}" in text
    assert "villains are dealt afresh in every battle" in text
    b |= {"same_ends": False}
    (tmp_path / "r.json").write_text(json.dumps(b))
    assert "a different strongest or weakest" in renewal_composition_text(tmp_path / "r.json")
    assert renewal_composition_text(tmp_path / "missing.json") == ""


def test_war_values_are_antisymmetric_for_warriors_only():
    sol = war.solve_war(warriors=4, combats=5)
    for (a, b), s in sol.scores.items():
        assert s.value == pytest.approx(-sol.scores[(b, a)].value, abs=1e-9)
    assert sol.scores[(2, 0)].value > sol.scores[(1, 0)].value > 0


# ---------------------------------------------------------------- advice
def test_advise_text(capsys):
    code = main(["advise", "cobardes", "--variant", "warriors", "--mine", "0,1,2,3",
                 "--theirs", "0,1,2,4", "--win-value", "1", "--crown-value", "3",
                 "--combat", "4"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Value for you: -0.3488" in out
    assert "Exploitability: 0" in out


def test_advise_json_matches_solver(capsys):
    code = main(["advise", "cobardes", "--variant", "warriors", "--mine", "0,1,2,3",
                 "--theirs", "0,1,2,4", "--combat", "4", "--crown-value", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    params = {"kinds": "warriors", "crown_value": 2.0, "crown_loss_value": -2.0,
              "position": "hand0:0.1.2.3;hand1:0.1.2.4;combat:4"}
    assert data["value"] == pytest.approx(_value(params))
    assert sum(data["strategy"].values()) == pytest.approx(1.0)
    assert data["exploitability"] == 0.0
    assert set(data["strategy"]) == {"Prince", "1", "2", "3"}


def test_advise_with_courtiers_vanguard_decision(capsys):
    main(["advise", "cobardes", "--my-courtier", "Maiden", "--their-courtier", "Wolf",
          "--mine", "0,1,2,3,4,5", "--theirs", "0,1,2,3,4,6", "--combat", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == "vanguard"
    assert set(data["strategy"]) == {"advance", "pass"}
    assert "confrontation" in data


@pytest.mark.parametrize("argv, words", [
    (["--mine", "0,1,9"], "unknown"),
    (["--mine", "0,1,1"], "twice"),
    (["--mine", "0,1", "--theirs", "1", "--combat", "7"], "cannot have fought"),
    (["--score", "3-0"], "tokens"),
    (["--my-courtier", "Jester"], "unknown"),
    (["--variant", "warriors", "--my-courtier", "Squire"], "not in the warriors variant"),
    (["--combat", "9"], "combat"),
])
def test_advise_bad_positions_give_one_clear_error(argv, words, capsys):
    code = main(["advise", "cobardes", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert words in err


# ---------------------------------------------------------------- sweeps
def test_sweep_caches_and_resumes(tmp_path):
    pairs = [("none", "none"), ("Squire", "Wolf")]
    first = sweep.run_sweep(pairs, warriors=3, combats=3, directory=tmp_path, workers=1,
                            progress=False)
    assert set(first) == set(pairs)
    path = sweep.task_path(tmp_path, ("Squire", "Wolf"), 3, 3)
    stamp = path.stat().st_mtime_ns
    again = sweep.run_sweep(pairs, warriors=3, combats=3, directory=tmp_path, workers=1,
                            progress=False)
    assert path.stat().st_mtime_ns == stamp  # resumed from the cache, not recomputed
    assert again[("Squire", "Wolf")].war == first[("Squire", "Wolf")].war
    assert first[("none", "none")].war["scores"]["0-0"]["value"] == pytest.approx(0.0)


def test_sweep_on_a_local_dask_cluster(tmp_path):
    from distributed import Client, LocalCluster

    pairs = [("Squire", "Archer"), ("Archer", "Squire"), ("Wolf", "Maiden")]
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        with Client(cluster) as client:
            results = sweep.run_sweep(pairs[:2], warriors=3, combats=3, directory=tmp_path,
                                      scheduler=client, progress=False)
        # As `farol cobardes sweep --scheduler ADDRESS` does: connect by address.
        results = sweep.run_sweep(pairs, warriors=3, combats=3, directory=tmp_path,
                                  scheduler=cluster.scheduler_address, progress=False)
    assert set(results) == set(pairs)
    local = sweep.solve_pairing(("Wolf", "Maiden"), 3, 3)
    assert results[("Wolf", "Maiden")].war["scores"] == local.war["scores"]


def test_exact_module_reports_provenance():
    sol = solve_battle(BattleSpec(warriors=3, combats=3))
    assert "exact" in sol.provenance()
    assert card_label(0) == "Prince"


# ---------------------------------------------------------------- hidden villains
def test_abstraction_loss_is_measured_in_the_perfect_recall_tree():
    label, params = REDUCED_DECKS[0]
    loss = abstraction_loss(label, params, iterations=300)
    assert loss.graph_nodes < loss.tree_nodes
    # Same game, so the values agree within the solutions' exploitabilities.
    assert abs(loss.tree_value - loss.graph_value) <= 2 * (
        loss.tree_exploitability + loss.graph_exploitability_true) + 1e-9
    # The abstraction's own best response forgets, so it cannot beat the true one.
    assert loss.graph_exploitability_in_abstraction <= loss.graph_exploitability_true + 1e-9
    assert loss.graph_exploitability_true < 0.05


def test_advise_with_a_hidden_villain(capsys):
    code = main(["advise", "cobardes", "--warriors", "2", "--combats", "3", "--mine", "0,1,2",
                 "--theirs", "0,1,2", "--my-villain", "Thug", "--iterations", "100",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    # The trunk's perfect-recall tree fits: an exact solve, its true exploitability.
    assert data["abstraction"] is False
    assert "perfect-recall tree of the trunk" in data["solver"]
    assert "Thug" in data["strategy"]
    assert sum(data["strategy"].values()) == pytest.approx(1.0)
    assert 0 <= data["exploitability"] < 0.01


def test_advice_falls_back_to_the_trunk_graph_when_its_tree_does_not_fit():
    """Over the tree's memory budget the trunk's state graph is solved instead, and the
    answer says it is an abstraction; both give nearly the same opening mix."""
    sheep = C.villain_id("Sheep")
    tree = advise_villains(dict(REDUCED_VILLAINS), sheep, iterations=400)
    graph = advise_villains(dict(REDUCED_VILLAINS), sheep, iterations=400, tree_memory=1)
    assert not tree.abstraction and graph.abstraction
    assert "state graph of the trunk" in graph.solver
    assert graph.value == pytest.approx(tree.value, abs=0.02)
    for card, p in tree.strategy:
        assert dict(graph.strategy)[card] == pytest.approx(p, abs=0.05)


# ---------------------------------------------------------------- play and report
def test_solved_bot_plays_the_exact_equilibrium():
    game = pyspiel.load_game("python_cobardes_battle",
                             {"kinds": "warriors", "warriors": 3, "combats": 3})
    bot = make_bot("solved", game, 1, seed=3)
    state = game.new_initial_state()
    state.apply_action(0)  # player 0 prepares the prince face down
    assert bot(state) in state.legal_actions(1)
    lines = []
    answers = iter(["a"] * 10)
    returns = play_game(game, 0, "solved", seed=5, read=lambda _: next(answers),
                        write=lines.append)
    assert returns is not None and len(returns) == 2


def test_solved_bot_with_hidden_villains_on_a_reduced_deck():
    game = pyspiel.load_game("python_cobardes_battle", dict(REDUCED_VILLAINS))
    bots = [make_bot("solved", game, p, seed=p) for p in (0, 1)]
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()](state))
    assert state.is_terminal()


REDUCED_VILLAINS = {"kinds": "warriors+villains", "warriors": 2, "combats": 2,
                    "villain_deck": "Thug/Sheep/Executioner"}


def test_report_sections_in_quick_mode(tmp_path):
    ctx = ReportContext(catalog.family("cobardes"), tmp_path, quick=True)
    text = "\n".join(section(ctx) for section in (
        cobardes_report.method_section, cobardes_report.warriors_section,
        cobardes_report.tips_section, cobardes_report.war_section,
        cobardes_report.mixing_section, cobardes_report.hidden_section))
    assert "exploitability 0" in text
    assert "Starting with the prince" in text
    assert (tmp_path / "cobardes_warriors_mix.png").exists()
    assert (tmp_path / "cobardes_war_by_score.png").exists()
    # The committed trunk-loss measurements: their table and chart.
    assert "Public subgames solved exactly" in text
    assert "graph expl. in the true game" in text
    assert (tmp_path / "cobardes_trunk_loss.png").exists()


def test_advise_at_a_war_score_gives_the_war_value(capsys):
    """At score 1-2 the battle's payoffs are the war values of the next states and a draw
    repeats the score, so the position's value is the war value V(1-2) itself."""
    code = main(["advise", "cobardes", "--warriors", "3", "--combats", "3", "--score", "1-2",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    expected = war.solve_war(warriors=3, combats=3).scores[(1, 2)].value
    assert data["value"] == pytest.approx(expected, abs=1e-9)
    assert data["payoffs"]["draw"] == pytest.approx(expected, abs=1e-9)
    assert data["payoffs"]["crown"] == 1.0


def test_hidden_villain_deal_values_average_to_the_game_value():
    h = hidden_villain_values_exact("tiny", dict(REDUCED_VILLAINS), iterations=200)
    cells = [v for row in h["table"].values() for v in row.values()]
    assert len(cells) == 6  # 3 villains, each deal of two different ones
    # Deals are uniform, so the mean of the cells is the value of the whole battle.
    assert np.mean(cells) == pytest.approx(h["value"], abs=1e-9)


@pytest.mark.parametrize("params", [SMALL[0], SMALL[1], SMALL[4]],
                         ids=["warriors", "maiden", "royal-guard"])
def test_exact_value_matches_the_sequence_form_lp(params):
    """The solver engine's sequence-form LP on the perfect-recall tree (HiGHS)."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    assert solve_lp(compile_game(game)) == pytest.approx(_value(params), abs=1e-7)


def test_mirrored_pairing_equals_the_solved_mirror():
    """Swapping seats (when at most one courtier is a vanguard one) gives the same war
    seen from the other side: the derived mirror matches a direct solve."""
    direct = sweep.solve_pairing(("Maiden", "Squire"), 3, 4)
    derived = sweep.mirror(sweep.solve_pairing(("Squire", "Maiden"), 3, 4))
    assert derived.battle["value"] == pytest.approx(direct.battle["value"], abs=1e-9)
    for key, s in direct.war["scores"].items():
        assert derived.war["scores"][key]["value"] == pytest.approx(s["value"], abs=1e-9)
    assert not sweep.both_vanguard(("Maiden", "Squire"))
    assert sweep.both_vanguard(("Maiden", "Inquisitor"))
    assert len(sweep.canonical_pairings()) == 1 + 35 + 20


def test_matrix_game_with_near_ties_is_solved_and_verified():
    """A war-payoff matrix whose near-equal entries (5e-16 apart) once broke a pivot."""
    a = np.array([
        [0.5942871264311846, 0.6782377419748333, 0.6801465631189445, -1.0, -1.0],
        [0.5942871264311846, 0.6782377419748347, 0.6801465631189445, -1.0, -1.0],
        [1.0, 0.6762701690741176, 0.5095866980176255, 0.6762727080252047, -1.0],
        [1.0, 0.6762701690741176, 0.6762701690741176, 0.6766379348069074, 0.6766379348069069],
        [1.0, 0.6762701690741176, 0.6762701690741176, 0.6766379348069074, 0.6766379348069069],
    ])
    sol = solve_matrix(a)
    assert sol.value == pytest.approx(solve_matrix_lp(a).value, abs=1e-12)
    assert (sol.row @ a).min() >= sol.value - 1e-9
    assert (a @ sol.col).max() <= sol.value + 1e-9


@pytest.mark.slow
def test_full_warriors_only_battle_has_zero_nash_conv_by_openspiel():
    """The whole learning battle (warriors 0-6, 7 combats): OpenSpiel's best response on
    the full perfect-recall tree finds nothing to gain against the exact strategy."""
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors"})
    assert exploitability.nash_conv(game, ExactPolicy(game)) == pytest.approx(0, abs=1e-9)


@pytest.mark.slow
def test_named_villains_on_a_larger_army_have_zero_nash_conv():
    game = pyspiel.load_game("python_cobardes_battle", dict(
        kinds="warriors+villains", warriors=4, combats=5, villain0="Seductress",
        villain1="Executioner"))
    assert exploitability.nash_conv(game, ExactPolicy(game)) == pytest.approx(0, abs=1e-9)


# ---------------------------------------------------------------- mirror matchups
def _mirror_graph(courtier, quicker="alternate", warriors=4, combats=5):
    params = BattleSpec(warriors, combats, (courtier, courtier), quicker=quicker,
                        allow_mirror=True).params()
    cfg, pos, _ = initial_position(params)
    return BattleGraph(cfg, pos)


def test_a_mirror_battle_needs_the_explicit_opt_in():
    """The court deck has one card of each courtier ("Separate and shuffle ... the
    Courtier cards"), so both players with the same courtier is refused unless the
    hypothetical battle is asked for with allow_mirror."""
    base = dict(kinds="warriors+courtiers", courtier0="Archer", courtier1="Archer")
    with pytest.raises(InvalidPositionError, match="allow_mirror"):
        make_rules(base)
    for flag in (True, "true", "1"):
        assert make_rules(dict(base, allow_mirror=flag)).initial.court == (
            C.ARCHER, C.ARCHER)
    with pytest.raises(InvalidParameterError, match="allow_mirror"):
        make_rules(dict(base, allow_mirror="maybe"))
    game = pyspiel.load_game("python_cobardes_battle", dict(base, allow_mirror=True))
    assert game.new_initial_state().position.court == (C.ARCHER, C.ARCHER)


@pytest.mark.parametrize("courtier", ["Archer", "Royal Guard", "Wolf"])
def test_rearguard_mirrors_are_fair_at_every_score(courtier):
    """Who is quicker only matters for vanguard courtiers, so a rearguard mirror is the
    same battle from both seats: the battle is worth 0 and the war negates under seat
    swap, V(a, b) = -V(b, a) (so V(a, a) = 0)."""
    graph = _mirror_graph(courtier)
    assert graph.solve(sweep.STANDARD_PAYOFFS).value == pytest.approx(0.0, abs=1e-9)
    sol = war.solve_war((courtier, courtier), 4, 5, graph=graph)
    for (a, b), s in sol.scores.items():
        assert s.value == pytest.approx(-sol.scores[(b, a)].value, abs=1e-9)
    assert sol.scores[(2, 0)].value > 0.0


@pytest.mark.parametrize("courtier,quicker_matters", [
    ("Inquisitor", True), ("Maiden", False), ("Standard-Bearer", False),
    ("Fortune-Teller", False)])
def test_vanguard_mirrors_negate_when_the_quicker_player_swaps(courtier, quicker_matters):
    """Swapping seats in a vanguard mirror turns "player 0 is quicker" into "player 1
    is quicker": V_p0 = -V_p1 for the battle and V_p0(a, b) = -V_p1(b, a) for the war;
    with a fair coin for who is quicker (quicker=random) the battle is worth 0.
    (Warriors 0-3, 4 combats: being quicker is worth 1/16 with the Inquisitor.)"""
    g0, g1 = _mirror_graph(courtier, "p0", 3, 4), _mirror_graph(courtier, "p1", 3, 4)
    v0 = g0.solve(sweep.STANDARD_PAYOFFS).value
    assert v0 == pytest.approx(-g1.solve(sweep.STANDARD_PAYOFFS).value, abs=1e-9)
    assert (abs(v0) > 0.01) == quicker_matters
    random = _mirror_graph(courtier, "random", 3, 4).solve(sweep.STANDARD_PAYOFFS).value
    assert random == pytest.approx(0.0, abs=1e-9)
    w0 = war.solve_war((courtier, courtier), 3, 4, graph=g0)
    w1 = war.solve_war((courtier, courtier), 3, 4, graph=g1)
    for (a, b), s in w0.scores.items():
        assert s.value == pytest.approx(-w1.scores[(b, a)].value, abs=1e-9)


def test_sweep_solves_mirrors_as_hypothetical(tmp_path):
    results = sweep.run_sweep([("Wolf", "Wolf")], 3, 3, tmp_path, workers=1,
                              progress=False, war=True)
    data = results[("Wolf", "Wolf")]
    assert data.hypothetical is True
    assert set(data.seat_check) == {"p0", "p1", "random"}
    assert data.battle["value"] == pytest.approx(0.0, abs=1e-9)
    assert data.war["scores"]["1-1"]["value"] == pytest.approx(0.0, abs=1e-9)
    assert sweep.is_mirror(("Wolf", "Wolf")) and not sweep.is_mirror(("none", "none"))
    assert len(sweep.mirror_pairings()) == 10


@pytest.mark.slow
def test_war_takes_the_capped_limit_when_a_battle_is_drawn_for_sure():
    """Standard-Bearer mirror, player 1 always quicker, warriors 0-3, 4 combats: at some
    scores the battle can be drawn for sure, so f(x) = x on an interval; the war's value
    is the limit of the capped war (0 at the cap), the fixed point nearest 0. (The
    fast guard is the Standard-Bearer case of the vanguard-mirror seat test, which
    failed before this was handled.)"""
    graph = _mirror_graph("Standard-Bearer", "p1", 3, 4)
    sol = war.solve_war(("Standard-Bearer",) * 2, 3, 4, graph=graph)
    assert any(s.outcome_probs["draw"] > 1 - 1e-9 for s in sol.scores.values())
    capped = war.capped_war_value(graph, 80, None)
    for score, s in sol.scores.items():
        assert s.value == pytest.approx(capped[score], abs=1e-7)


def test_first_combat_mix_reads_each_villains_opening_information_set():
    """Player 0 opens face down holding their villain; player 1 answers without seeing
    it: one mix per villain held, each a probability distribution over the hand (the
    villain included), equal to the solver's strategy at that information set."""
    _, solver = solve_villains(dict(REDUCED_VILLAINS), iterations=100, use_cache=False)
    cg, strategy = solver.compiled, solver.average_strategy()
    mix = first_combat_mix(cg, strategy)
    assert set(mix) == {"P0", "P1"}
    for player in ("P0", "P1"):
        assert set(mix[player]) == {"Thug", "Sheep", "Executioner"}
        for villain, row in mix[player].items():
            assert set(row) == {"Prince", "1", "2", villain}
            assert sum(row.values()) == pytest.approx(1.0)
    # Player 0's opening mix is the average strategy of that information set.
    player0 = [i for i in range(cg.num_infosets) if cg.infoset_player[i] == 0]
    row = mix["P0"]["Sheep"]
    rows = [strategy[cg.infoset_offset[i]:cg.infoset_offset[i + 1]] for i in player0]
    matches = [r for r in rows if len(r) == len(row) and np.allclose(r, list(row.values()))]
    assert matches
    values = deal_values(cg, strategy)
    assert np.mean([v for r in values.values() for v in r.values()]) == pytest.approx(
        solver.exploitability().value, abs=1e-9)


def test_cobardes_locations_follow_the_data_store(tmp_path, monkeypatch):
    """Every stored ¡Cobardes! result is located through :mod:`analysis.shared.store` at call
    time: ``store.use`` and ``$FAROL_DATA_DIR`` move them all."""
    with store.use(tmp_path):
        assert sweep.pairings_dir() == tmp_path / "cobardes" / "pairings"
        assert renewal.renewal_dir() == tmp_path / "cobardes" / "renewal"
        assert villains.abstraction_loss_path() == tmp_path / "cobardes" / "abstraction_loss.json"
        assert subgames.cut_loss_path().parent == tmp_path / "cobardes"
        assert subgames.hidden_villains_path().parent == tmp_path / "cobardes"
        results = sweep.run_sweep([("Squire", "Wolf")], warriors=2, combats=2, workers=1,
                                  progress=False, war=False)
        assert sweep.task_path(tmp_path / "cobardes" / "pairings", ("Squire", "Wolf"), 2, 2,
                               False).exists()
        assert sweep.load_results([("Squire", "Wolf")], 2, 2, war=False) == results
    monkeypatch.setenv("FAROL_DATA_DIR", str(tmp_path / "env"))
    assert sweep.pairings_dir() == tmp_path / "env" / "cobardes" / "pairings"


def test_sweep_records_are_stored_as_their_json(tmp_path):
    """A sweep record on disk is exactly its ``to_json()``, and reads back equal."""
    for kind, pair in ((True, ("Squire", "Wolf")), ("villains", ("Thug", "Sheep"))):
        sweep.run_sweep([pair], warriors=2, combats=2, directory=tmp_path, workers=1,
                        progress=False, war=kind)
        path = sweep.task_path(tmp_path, pair, 2, 2, kind)
        record = sweep.load_task(path)
        assert path.read_text() == json.dumps(record.to_json(), indent=1)
        assert type(record).from_json(record.to_json()) == record
        assert record.pairing == pair and record.battle["payoffs"] == list(sweep.STANDARD_PAYOFFS)
    assert isinstance(sweep.load_task(sweep.task_path(tmp_path, ("Thug", "Sheep"), 2, 2,
                                                      "villains")), sweep.VillainPairRecord)


def test_the_appendix_tells_how_one_matchup_is_solved_from_the_benchmarks(tmp_path, monkeypatch):
    """The methods appendix reads the speed benchmark and the convergence curves: the
    old and new CPU seconds and accuracies from the files, a chart of the curves, each
    method's band after 100 iterations; without the speed benchmark, nothing."""
    from analysis.report.cobardes import matchup_solve
    from analysis.report.context import ReportContext

    speed = json.loads(matchup_solve.SPEED_JSON.read_text())

    class Family:
        key, title = "cobardes", "¡Cobardes!"

    text = matchup_solve.text(ReportContext(Family, tmp_path, False))
    assert f"{speed['python']['cpu_seconds']:.0f} CPU s (in Python)" in text
    assert f"{speed['new_solve']['exploitability']:.3f}" in text
    assert "**lower bound**" in text
    if matchup_solve.CURVES_JSON.exists():
        assert (tmp_path / "cobardes_matchup_solve_curves.png").exists()
        assert "Discounted CFR" in text
    monkeypatch.setattr(matchup_solve, "SPEED_JSON", tmp_path / "missing.json")
    assert matchup_solve.text(ReportContext(Family, tmp_path, False)) == ""


def test_by_default_a_position_with_villains_is_solved_to_its_floor():
    """Without --iterations, the trunk is solved by Discounted CFR until its
    exploitability stops improving (the best strategy kept), and says so."""
    out = advise_villains(dict(REDUCED_VILLAINS), C.villain_id("Sheep"), tree_memory=1)
    assert out.abstraction and out.exploitability >= 0 and out.villain == "Sheep"
    assert out.solver.startswith("Discounted CFR on the state graph")
    assert "until its exploitability stopped improving" in out.solver
    assert sum(p for _, p in out.strategy) == pytest.approx(1.0)


def test_a_later_position_with_villains_is_solved_while_you_wait(monkeypatch):
    """A full army's second combat solves in about half a minute: answered without
    --solve; the opening of a full battle (minutes) still needs it, as does anything
    when the wait allowed is nothing."""
    from analysis.cobardes.advice import advise as advise_module

    later = advise_module.Query(mine=(1, 2, 3, 4, 5, 6), theirs=(0, 1, 2, 3, 4, 5),
                                my_courtier="Squire", their_courtier="Archer",
                                my_villain="Thug", combat=2)
    advise_module.check_size(later)  # no refusal
    opening = advise_module.Query(my_courtier="Wolf", their_courtier="Maiden",
                                  my_villain="Thug", win_value=2.0)
    with pytest.raises(InvalidPositionError, match="add --solve"):
        advise_module.check_size(opening)
    monkeypatch.setattr(advise_module, "ANSWER_SECONDS", 0.0)
    with pytest.raises(InvalidPositionError, match="add --solve"):
        advise_module.check_size(later)
    advise_module.check_size(replace(later, solve=True))
