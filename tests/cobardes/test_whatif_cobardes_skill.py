"""How much skill decides the ¡Cobardes! war in the what-if (``farol whatif cobardes``):
the solved strategy's exact chance of winning the war against a player picking
uniformly at random among its legal moves, checked against a walk of every battle
position, against wars played with OpenSpiel's states and the ``random`` bot, by hand,
and against the printed rules given as a variant (no difference).
"""

from __future__ import annotations

import math

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401
from analysis.cobardes.model import ending_index, outcome_kind
from analysis.cobardes.solvers.fast_outcomes import CLASSES, OutcomeSolver
from analysis.cobardes.studies import whatif as CW
from analysis.play.bots import make_bot, sample_chance
from analysis.shared import store
from games.cobardes import engine as E
from games.cobardes.keys import state_key
from games.cobardes.options import make_rules


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        yield tmp_path


def _sample(mix: dict[int, float], rng: np.random.Generator) -> int:
    actions = list(mix)
    p = np.clip(np.array([mix[a] for a in actions]), 0.0, None)
    return int(actions[rng.choice(len(actions), p=p / p.sum())])


# ---------------------------------------------------------------- one battle, every position
def _walk(solver: OutcomeSolver, cfg, pos, solved: tuple[bool, bool], memo: dict) -> np.ndarray:
    """The chance of each ending from ``pos``, walking the battle as OpenSpiel plays it
    (the face-down card first, then the answer): a player marked in ``solved`` plays the
    solver's mix, the other every legal move alike."""
    if pos.outcome is not None:
        out = np.zeros(CLASSES)
        out[ending_index(outcome_kind(pos), pos.used)] = 1.0
        return out
    key = state_key(pos)
    if key in memo:
        return memo[key]
    if pos.actor == E.CHANCE:
        moves = E.chance_outcomes(cfg, pos)
    elif solved[pos.actor]:
        moves = list(solver.solution_mix(pos).items())
    else:
        legal = E.legal_actions(cfg, pos)
        moves = [(a, 1.0 / len(legal)) for a in legal]
    out = sum(p * _walk(solver, cfg, E.apply(cfg, pos, a), solved, memo)
              for a, p in moves if p > 0)
    memo[key] = out
    return out


@pytest.mark.parametrize("params", [
    {"kinds": "warriors", "warriors": 4, "combats": 3},
    {"kinds": "warriors+courtiers", "courtier0": "Wolf", "courtier1": "Royal Guard",
     "warriors": 3, "combats": 3},
    {"kinds": "warriors+courtiers", "courtier0": "Procuress", "courtier1": "Standard-Bearer",
     "warriors": 3, "combats": 3, "draw_value": 0.25},
    {"kinds": "warriors+courtiers", "courtier0": "Archer", "courtier1": "Squire",
     "warriors": 4, "combats": 3},
    {"kinds": "warriors+courtiers", "courtier0": "Inquisitor", "courtier1": "Fortune-Teller",
     "warriors": 3, "combats": 3, "quicker": "random"},
])
def test_the_battle_against_a_random_player_ends_as_a_walk_of_every_position_says(params):
    """Every position of small battles walked one by one, in OpenSpiel's order: with
    both players on the solver's mixes the endings are the solution's (so those mixes
    are the solution whose endings are carried), and with one player picking at random
    they are the ones carried against a random player, in each seat."""
    rules = make_rules(params)
    solver = OutcomeSolver(rules.cfg, rules.pay, random_rival=True)
    both = _walk(solver, rules.cfg, rules.initial, (True, True), {})
    assert both == pytest.approx(solver.outcome_probs(rules.initial), abs=1e-9)
    carried = solver.endings_against_random(rules.initial)
    for seat in (0, 1):
        walked = _walk(solver, rules.cfg, rules.initial, (seat == 0, seat == 1), {})
        assert walked == pytest.approx(carried[seat], abs=1e-9)
        assert walked.sum() == pytest.approx(1.0, abs=1e-12)
    assert solver._data[0].top[0] == 0


def test_the_solver_carries_the_same_solution_with_or_without_a_random_rival():
    rules = make_rules({"kinds": "warriors+courtiers", "courtier0": "Sentinel",
                        "courtier1": "Maiden", "warriors": 4, "combats": 4})
    plain = OutcomeSolver(rules.cfg, rules.pay)
    both = OutcomeSolver(rules.cfg, rules.pay, random_rival=True)
    assert both.value(rules.initial) == plain.value(rules.initial)
    assert np.array_equal(both.outcome_probs(rules.initial), plain.outcome_probs(rules.initial))
    with pytest.raises(ValueError, match="random_rival"):
        plain.endings_against_random(rules.initial)


# ---------------------------------------------------------------- the war, played
WARS = 600  # wars played in each seat: a 95% interval of about ±4 points at worst


def _check(wins: list[bool], exact: float) -> None:
    """``exact`` lies in the 95% interval of the wins' rate (Wilson's, which stays
    honest near 0 and 1)."""
    n, k = len(wins), sum(wins)
    z = 1.96
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    assert centre - half <= exact <= centre + half, (k, n, exact)


def _mixes(solvers: dict) -> callable:
    cache: dict = {}

    def mix(score, pos):
        key = (score, state_key(pos))
        if key not in cache:
            cache[key] = solvers[score].solution_mix(pos)
        return cache[key]
    return mix


def test_the_solved_strategy_beats_a_random_player_in_openspiel_wars_as_computed():
    """Warriors 0-3, three combats, a war to 2 victories, played whole by OpenSpiel's war
    game (python_cobardes_war): the solved strategy of each score (the what-if's) in one
    seat, the ``random`` bot in the other, chance sampled as the game declares it. The
    share of wars it wins holds the exact figure, in each seat."""
    params = {"kinds": "warriors", "warriors": 3, "combats": 3}
    solvers: dict = {}
    war = CW.solve_pairing(params, (None, None), 2, solvers)
    assert 0.5 < war.skill[0] < 0.999 and 0.5 < war.skill[1] < 0.999
    game = pyspiel.load_game("python_cobardes_war", params | {"victories": 2,
                                                               "max_battles": 50})
    mix = _mixes(solvers)
    rng = np.random.default_rng(11)
    for seat in (0, 1):
        weak = make_bot("random", game, 1 - seat, seed=seat)
        wins = []
        for _ in range(WARS):
            state = _play_out(game.new_initial_state(), seat, weak, rng,
                              lambda s: _sample(mix(s.war.tokens, s.position), rng))
            wins.append(state.returns()[seat] > 0)
        _check(wins, war.skill[seat])


def _play_out(state, seat: int, weak, rng, strong):
    """``state`` played to its end: ``strong(state)`` moves for ``seat``, ``weak`` for the
    other, chance sampled as the game declares it."""
    while not state.is_terminal():
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(strong(state) if player == seat else weak(state))
    return state


def test_a_courtier_pairings_war_played_battle_by_battle_holds_the_exact_figure():
    """Wolf against Royal Guard, warriors 0-3, three combats, a war to 2 victories:
    battles played by OpenSpiel's battle game one after another, each at the score it
    is fought at (a Victory scores a token, the Crown ends the war, a drawn battle is
    fought again). The solved Wolf wins about 41% against a random Royal Guard, the
    solved Royal Guard every war against a random Wolf."""
    params = {"kinds": "warriors+courtiers", "warriors": 3, "combats": 3}
    solvers: dict = {}
    war = CW.solve_pairing(params, ("Wolf", "Royal Guard"), 2, solvers)
    assert 0.2 < war.skill[0] < 0.8 and war.skill[1] == pytest.approx(1.0, abs=1e-12)
    game = pyspiel.load_game("python_cobardes_battle", {
        "kinds": "warriors+courtiers", "warriors": 3, "combats": 3, "courtier0": "Wolf",
        "courtier1": "Royal Guard"})
    mix = _mixes(solvers)
    rng = np.random.default_rng(12)
    for seat in (0, 1):
        weak = make_bot("random", game, 1 - seat, seed=seat)
        wins = []
        for _ in range(WARS):
            tokens = [0, 0]
            winner = -1
            for _battle in range(200):
                state = _play_out(game.new_initial_state(), seat, weak, rng,
                                  lambda s, t=tuple(tokens): _sample(mix(t, s.position), rng))
                kind, who = state.outcome
                if kind == E.VICTORY:
                    tokens[who] += 1
                if kind == E.CROWN or max(tokens) >= 2:
                    winner = who
                    break
            wins.append(winner == seat)
        _check(wins, war.skill[seat])


# ---------------------------------------------------------------- by hand
def test_warriors_zero_to_three_in_one_combat_the_solution_wins_every_war():
    """Worked out by hand. Warriors 0-3, one combat, one victory: a combat is won by 2
    points or more, so only 2 or 3 against the prince and 3 against 1 win. Against
    either card of the rival's 3 or 2 a player risks losing with the prince or the 1,
    so the solution (the battle's value is 0) never plays them: it never loses a
    combat, and against a random player it wins at least a quarter of the battles (2 or
    3 against the random prince). Drawn battles are fought again, so it wins the war
    for sure, in each seat; the war between solutions never ends. With warriors 0-1 no
    card beats another by 2 points: no war is ever won."""
    war = CW.solve_pairing({"kinds": "warriors", "warriors": 3, "combats": 1}, (None, None), 1)
    assert war.skill == (pytest.approx(1.0, abs=1e-12), pytest.approx(1.0, abs=1e-12))
    assert war.endless == pytest.approx(1.0)
    never = CW.solve_pairing({"kinds": "warriors", "warriors": 1, "combats": 3}, (None, None), 2)
    assert never.skill == (0.0, 0.0)


def test_the_printed_rules_as_a_variant_show_no_difference_in_skill(data):
    """The printed war without courtiers given as a variant: the skill figure is the same
    exact number on both sides (a difference of exactly 0), the mean of both seats'."""
    result = CW.run_whatif({"kinds": "warriors", "victories": 3}, progress=False)
    metric = result.metric("skill_random_2p")
    assert metric.difference.exact and metric.difference.value == 0.0
    assert metric.printed.value == metric.variant.value
    (war,) = CW.solve_wars({"kinds": "warriors"}, progress=False)
    assert metric.printed.value == pytest.approx((war.skill[0] + war.skill[1]) / 2, abs=1e-15)
    assert 0.5 < metric.printed.value <= 1.0
    assert "random" in metric.label and "both seats" in metric.label
    assert not any("not measured" in note for note in result.notes)
    assert any("random" in note and "exact" in note for note in result.notes)
