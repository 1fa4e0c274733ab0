"""The war with courtier renewal between battles (:mod:`analysis.cobardes.studies.renewal`).

"When a battle ends, prepare the next one: ... Discard the villain and courtier cards
that are on the battlefield, placing them under the corresponding deck, and renew them
with others of the same type. If you did not play your villain or courtier you may
decide not to replace them and keep them for the next battle."

Checked against hand-worked wars (hand-made battles), the exact recursive solver with
the renewal written out independently here, and the solver engine's CFR on
``python_cobardes_war`` itself where the memoryless deck is exact (one renewal).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import games  # noqa: F401  (registers the games)
from analysis.cobardes.model import (
    CROWN,
    CROWN_LOSS,
    DRAW,
    LOSS,
    SCORES,
    WIN,
    BattleSpec,
    ending_index,
    initial_position,
    outcome_kind,
)
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.studies import renewal as R
from analysis.report import ReportContext
from analysis.report.cobardes import renewal_war
from analysis.solve import solve
from games import catalog
from games.errors import InvalidParameterError

SMALL_DECK = ("Standard-Bearer", "Maiden", "Squire", "Wolf")
REARGUARDS = ("Squire", "Wolf", "Archer", "Royal Guard")


@pytest.fixture(scope="module")
def small():
    """The renewal war on warriors 0-3, 3 combats, four courtiers: 108 states."""
    model = R.RenewalModel(SMALL_DECK, 3, 3)
    return R.solve_renewal(model)


class _Fixed:
    """A hand-made battle: ends in terminal kind ``t`` with probability ``reach[t]``
    whatever the payoffs."""

    def __init__(self, reach: dict[tuple[int, int], float]):
        self.reach = np.zeros(R.TERMINALS)
        for (kind, used), p in reach.items():
            self.reach[ending_index(kind, used)] = p

    def solve(self, payoffs):
        return R.RenewalBattle(float(self.reach @ payoffs), self.reach.copy())


# ---------------------------------------------------------------- battles
@pytest.mark.parametrize("pairing", [("Squire", "Maiden"), ("Archer", "Standard-Bearer")])
def test_renewal_graph_reads_the_used_bits_of_each_final_position(pairing):
    """The compiled battle with 20 terminals (outcome x used bits) against the exact
    recursive solver whose terminal value reads the final position's ``used`` bits."""
    rng = np.random.default_rng(7)
    graph = R.compile_pairing(pairing, 3, 3)
    cfg, pos, _ = initial_position(BattleSpec(3, 3, pairing).params())
    for _ in range(3):
        pay = rng.uniform(-1, 1, R.TERMINALS)
        got = graph.solve(pay)
        solver = ExactSolver(cfg, lambda p, pay=pay: pay[
            ending_index(outcome_kind(p), p.used)], record=False)
        assert got.value == pytest.approx(solver.value(pos), abs=1e-9)
        assert got.reach.sum() == pytest.approx(1.0)
        assert got.reach @ pay == pytest.approx(got.value, abs=1e-9)
    # With payoffs blind to the used bits it is the five-terminal battle graph.
    pay5 = np.array([0.4, -0.3, 1.0, -1.0, 0.1])
    plain = BattleGraph(cfg, pos).solve(pay5)
    got = graph.solve(np.repeat(pay5, 4))
    assert got.value == pytest.approx(plain.value, abs=1e-12)
    assert got.reach.reshape(5, 4).sum(axis=1) == pytest.approx(plain.outcome_probs)


def test_a_model_needs_four_distinct_courtiers():
    with pytest.raises(InvalidParameterError, match="at least 4 courtiers"):
        R.RenewalModel(("Squire", "Wolf", "Archer"), 2, 2)
    with pytest.raises(InvalidParameterError, match="twice"):
        R.RenewalModel(("Squire", "Wolf", "Archer", "Squire"), 2, 2)


# ---------------------------------------------------------------- the renewal step
def test_draws_come_from_the_courtiers_not_in_the_finished_battle():
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    pairing = ("Squire", "Wolf")
    assert model.draws(pairing, False, False) == [pairing]
    assert model.draws(pairing, True, False) == [("Standard-Bearer", "Wolf"),
                                                 ("Maiden", "Wolf")]
    assert sorted(model.draws(pairing, True, True)) == [("Maiden", "Standard-Bearer"),
                                                        ("Standard-Bearer", "Maiden")]


def test_keeping_is_chosen_when_it_is_better_and_renewing_otherwise():
    """Player 1's Wolf was played (must be replaced); player 0's Squire was not.
    Keeping gives the mean of V(Squire, x) over the Wolf's possible replacements x;
    renewing both gives the mean over the two ways to share the other two courtiers."""
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    v = np.zeros(model.size)

    def at(pairing):
        return model.index[((0, 0), pairing)]

    v[at(("Squire", "Standard-Bearer"))] = 0.8
    v[at(("Squire", "Maiden"))] = 0.4
    r = model.renewal(v, (0, 0), ("Squire", "Wolf"), used=2)
    assert r.choice0 == R.KEEP and r.value == pytest.approx(0.6)
    assert r.table[(R.RENEW, R.RENEW)] == pytest.approx(0.0)
    v[at(("Squire", "Standard-Bearer"))] = -0.8
    r = model.renewal(v, (0, 0), ("Squire", "Wolf"), used=2)
    assert r.choice0 == R.RENEW and r.value == pytest.approx(0.0)
    # A used courtier is always replaced: no choice.
    r = model.renewal(v, (0, 0), ("Squire", "Wolf"), used=3)
    assert set(r.table) == {(R.RENEW, R.RENEW)}


def test_player_1_answers_player_0s_public_choice():
    """Both courtiers unused: player 1 picks the reply that is worst for player 0 after
    each choice of player 0, and player 0 picks the better of the two."""
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    v = np.zeros(model.size)
    v[model.index[((1, 0), ("Squire", "Wolf"))]] = 0.5       # both keep
    v[model.index[((1, 0), ("Squire", "Maiden"))]] = -0.2    # player 1 renews ...
    v[model.index[((1, 0), ("Squire", "Standard-Bearer"))]] = 0.0
    r = model.renewal(v, (1, 0), ("Squire", "Wolf"), used=0)
    assert r.reply1[R.KEEP] == R.RENEW          # -0.1 < 0.5
    assert r.table[(R.KEEP, R.RENEW)] == pytest.approx(-0.1)
    assert r.choice0 == R.RENEW and r.value == pytest.approx(0.0)


# ---------------------------------------------------------------- wars by hand
def test_war_by_hand_a_decisive_courtier_is_worth_renewing_for():
    """Hand-made battles: whoever holds the Standard-Bearer takes the Crown; any other
    pairing is drawn with both courtiers unused (the score never moves). After a draw
    of (Squire, Wolf) the others are (Standard-Bearer, Maiden). With v the value of a
    drawn pairing: keep/keep v; player 0 renews alone (1 + v) / 2; player 1 alone
    (v - 1) / 2; both renew 0 (each gets the Standard-Bearer half the time). Player 1
    renews after either choice, so v = max((v - 1) / 2, 0) = 0: both renew."""
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    graphs = {}
    for pairing in model.pairings:
        if pairing[0] == "Standard-Bearer":
            graphs[pairing] = _Fixed({(CROWN, 1): 1.0})
        elif pairing[1] == "Standard-Bearer":
            graphs[pairing] = _Fixed({(CROWN_LOSS, 2): 1.0})
        else:
            graphs[pairing] = _Fixed({(DRAW, 0): 1.0})
    sol = R.solve_renewal(model, graphs=graphs)
    assert sol.residual < 1e-12
    for score in SCORES:
        assert sol.value(("Standard-Bearer", "Wolf"), score) == 1.0
        assert sol.value(("Maiden", "Standard-Bearer"), score) == -1.0
        assert sol.value(("Squire", "Wolf"), score) == pytest.approx(0.0)
    r = sol.renewal((0, 0), ("Squire", "Wolf"), used=0)
    assert r.table[(R.KEEP, R.KEEP)] == pytest.approx(0.0)
    assert r.table[(R.RENEW, R.KEEP)] == pytest.approx(0.5)
    assert r.table[(R.KEEP, R.RENEW)] == pytest.approx(-0.5)
    assert (r.choice0, r.reply1[R.KEEP], r.reply1[R.RENEW]) == (R.RENEW, R.RENEW, R.RENEW)


def test_alike_pairings_reduce_to_the_fixed_pairing_war_by_hand():
    """Every battle won 40%, lost 20%, drawn 40%, courtiers unused: renewal changes
    nothing, and V(a, b) = (0.4 V(a+1, b) + 0.2 V(a, b+1)) / 0.6 (as the fixed-pairing
    war's test): V(2,2) = 1/3, V(2,1) = 7/9, V(1,2) = -1/9, V(1,1) = 13/27."""
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    graphs = {p: _Fixed({(WIN, 0): 0.4, (LOSS, 0): 0.2, (DRAW, 0): 0.4})
              for p in model.pairings}
    sol = R.solve_renewal(model, graphs=graphs)
    for pairing in model.pairings:
        assert sol.value(pairing, (2, 2)) == pytest.approx(1 / 3)
        assert sol.value(pairing, (2, 1)) == pytest.approx(7 / 9)
        assert sol.value(pairing, (1, 2)) == pytest.approx(-1 / 9)
        assert sol.value(pairing, (1, 1)) == pytest.approx(13 / 27)
    assert sol.spectral_radius == pytest.approx(0.4)


# ---------------------------------------------------------------- real battles
def _independent_renewal(values, model, score, pairing, used):
    """The renewal written out again: draws from the two courtiers not in the battle."""
    others = [c for c in model.courtiers if c not in pairing]

    def mean(pairs):
        return sum(values[model.index[(score, p)]] for p in pairs) / len(pairs)

    outcome = {}
    for keep0 in ([True, False] if not used & 1 else [False]):
        for keep1 in ([True, False] if not used & 2 else [False]):
            c0 = [pairing[0]] if keep0 else others
            c1 = [pairing[1]] if keep1 else others
            outcome[(keep0, keep1)] = mean([(x, y) for x in c0 for y in c1 if x != y])
    return max(min(v for (k0, _), v in outcome.items() if k0 == keep0)
               for keep0 in {k0 for k0, _ in outcome})


def test_solution_satisfies_the_war_equation_under_the_recursive_solver(small):
    """Every state's battle, solved by the exact recursive solver with terminal values
    computed by the renewal written out independently, is worth the state's value."""
    model, v = small.model, small.values
    assert small.residual < 1e-9
    assert small.spectral_radius < 1.0
    for (a, b), pairing in model.states:
        def terminal(pos, a=a, b=b, pairing=pairing):
            kind = outcome_kind(pos)
            if kind == CROWN or (kind == WIN and a == 2):
                return 1.0
            if kind == CROWN_LOSS or (kind == LOSS and b == 2):
                return -1.0
            nxt = {WIN: (a + 1, b), LOSS: (a, b + 1), DRAW: (a, b)}[kind]
            return _independent_renewal(v, model, nxt, pairing, pos.used)

        cfg, pos, _ = initial_position(BattleSpec(3, 3, pairing).params())
        got = ExactSolver(cfg, terminal, record=False).value(pos)
        assert got == pytest.approx(v[model.index[((a, b), pairing)]], abs=1e-8)


def test_renewal_changes_the_war_and_keeping_depends_on_the_courtier(small):
    """With a choice, the Squire (a rearguard that can wait) is kept in every renewal of
    this small army and the Wolf (only for the 3) never: the keep decision matters."""
    counts = R.keep_counts(small)
    assert counts["Squire"]["p0_keep"] == counts["Squire"]["p0_total"] > 0
    assert counts["Wolf"]["p0_keep"] == 0
    assert 0 < sum(c["p0_keep"] for c in counts.values()) < sum(
        c["p0_total"] for c in counts.values())


def test_rearguard_deck_is_seat_antisymmetric():
    """With rearguards only, who is quicker never matters and the battles are
    symmetric; player 0 decides first at renewal, but where every renewal has a pure
    saddle point (checked) the order does not matter, so swapping seats negates the
    value: V(a, b; c0, c1) = -V(b, a; c1, c0)."""
    model = R.RenewalModel(REARGUARDS, 3, 3)
    sol = R.solve_renewal(model)
    assert sol.residual < 1e-9
    for score in SCORES:
        for pairing in model.pairings:
            r = sol.renewal(score, pairing, 0)
            t = r.table
            minmax = min(max(t[(R.KEEP, d1)], t[(R.RENEW, d1)]) for d1 in (R.KEEP, R.RENEW))
            assert r.value == pytest.approx(minmax, abs=1e-12)
            assert sol.value(pairing, score) == pytest.approx(
                -sol.value(pairing[::-1], score[::-1]), abs=1e-9)


@pytest.mark.slow
def test_one_renewal_matches_cfr_on_the_war_game():
    """With at most 2 battles there is one renewal, and the memoryless deck is exact
    then (the two courtiers not dealt are the shuffled part): the capped model against
    the solver engine's CFR on python_cobardes_war (warriors 0-3, 3 combats, four
    courtiers, from 1-2, initial courtiers dealt at random)."""
    model = R.RenewalModel(SMALL_DECK, 3, 3)
    v = R.capped_values(model, 2)
    model_value = float(np.mean([v[model.index[((1, 2), p)]] for p in model.pairings]))
    result = solve("python_cobardes_war", params=dict(
        kinds="warriors+courtiers", warriors=3, combats=3, max_battles=2,
        court_deck="/".join(SMALL_DECK), tokens0=1, tokens1=2),
        graph=True, iterations=2000, use_cache=False)
    assert model_value == pytest.approx(-0.18191367456, abs=1e-9)
    assert abs(result.value - model_value) <= 2 * result.exploitability + 1e-6


# ---------------------------------------------------------------- cache and resume
def _uneven_battles(model):
    """Hand-made battles that depend on the pairing (so renewal matters)."""
    graphs = {}
    for k, pairing in enumerate(model.pairings):
        p = 0.1 + 0.05 * k
        graphs[pairing] = _Fixed({(WIN, 0): p, (LOSS, 2): 0.2, (DRAW, k % 4): 0.8 - p})
    return graphs


def test_run_renewal_checkpoints_resumes_and_reuses(tmp_path, monkeypatch):
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    graphs = _uneven_battles(model)
    R.run_renewal(model, tmp_path, workers=1, max_iterations=1, log=None, graphs=graphs)
    path = R.cache_path(model, tmp_path)
    data = json.loads(path.read_text())
    assert len(data["history"]) == 9            # one iteration on each score
    assert data["status"] == "stopped"          # out of iterations before converging
    done = R.run_renewal(model, tmp_path, workers=1, log=None, graphs=graphs)
    assert done.history[:9] == data["history"] and len(done.history) > 9
    assert done.residual <= 1e-9
    assert json.loads(path.read_text())["status"] == "done"
    direct = R.solve_renewal(model, graphs=graphs)
    assert np.allclose(done.values, direct.values, atol=1e-8)

    def boom(*args, **kwargs):
        raise AssertionError("a finished solution is not solved again")

    monkeypatch.setattr(R, "solve_renewal", boom)
    again = R.run_renewal(model, tmp_path, workers=1, log=None, graphs=graphs)
    assert np.array_equal(again.values, done.values)


def test_an_interrupted_run_resumes_after_the_scores_done(tmp_path):
    """A checkpoint written while running lists the scores done; resuming solves only
    the others."""
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    graphs = _uneven_battles(model)
    full = R.solve_renewal(model, graphs=graphs)
    path = R.cache_path(model, tmp_path)
    R.solve_renewal(model, checkpoint=path, graphs=graphs)
    data = json.loads(path.read_text())
    assert data["status"] == "running" and len(data["done"]) == 9
    # Pretend it stopped after the first two scores.
    data["done"] = data["done"][:2]
    kept = [h for h in data["history"] if h["score"] in ("2-2", "2-1")]
    data["history"] = kept
    path.write_text(json.dumps(data))
    resumed = R.run_renewal(model, tmp_path, workers=1, log=None, graphs=graphs)
    assert resumed.history[:len(kept)] == kept
    assert {h["score"] for h in resumed.history[len(kept):]} == {
        "1-2", "2-0", "1-1", "0-2", "1-0", "0-1", "0-0"}
    assert np.allclose(resumed.values, full.values, atol=1e-8)


@pytest.mark.slow
def test_workers_give_the_same_solution():
    model = R.RenewalModel(SMALL_DECK, 2, 2)
    one = R.solve_renewal(model)
    two = R.solve_renewal(model, workers=2)
    assert np.allclose(one.values, two.values, atol=1e-12)


def test_report_section_reads_a_renewal_solution(tmp_path, monkeypatch, small):
    """The report's renewal section from a solved (small) model: provenance, residual,
    the keep table and its charts."""
    monkeypatch.setattr(renewal_war, "load_renewal", lambda: small)
    ctx = ReportContext(catalog.family("cobardes"), tmp_path, quick=True)
    text = renewal_war.renewal_section(ctx)
    assert f"{small.residual:.1e}" in text and "spectral radius" in text
    assert "memoryless" in text and "No villains" in text
    assert "| Squire | 54 of 54 |" in text
    for stem in ("renewal_war", "renewal_vs_fixed", "keep_or_renew"):
        assert (tmp_path / f"cobardes_{stem}.png").exists()


def test_war_results_are_frozen():
    """The war's results are built whole and cannot be changed afterwards."""
    import dataclasses

    from analysis.cobardes.solvers import war
    from analysis.cobardes.studies import renewal

    for cls in (renewal.RenewalSolution, war.WarSolution):
        assert cls.__dataclass_params__.frozen, cls.__name__
    sol = war.solve_war(warriors=2, combats=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.seconds = 0.0
    assert war.WarSolution.from_json(sol.to_json()).to_json() == sol.to_json()
