"""The local best response with exact mixes (:mod:`analysis.coup.solvers.local_response`,
:mod:`analysis.coup.studies.local_best_response`) and the mix oracles it reads.

- Where its search reaches the end of the game it is the exact best response: OpenSpiel's
  best response to the same fixed strategy has the same value on small endgames, both for
  the search's value from the start and for the bot played move by move as a policy; and
  against the re-solving agent's own oracle.
- Its range is Bayes' rule: checked against the posterior computed by hand, enumerating
  the deals.
- The re-solving agent's oracle gives the mix the agent itself plays.
- Its bound (:func:`~analysis.coup.studies.local_best_response.bound_of`) on small
  endgames against a fixed exploitable strategy brackets the exact gap OpenSpiel's best
  response gives, without the blueprint.
- Against the blueprint it finds at least 0.15 (slow; where the blueprint is built).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pyspiel
import pytest
from coup_helpers import AsPolicy, fixed_model
from open_spiel.python.algorithms import best_response, expected_game_score

import games  # noqa: F401  (registers the games)
from analysis.coup import agents as A
from analysis.coup.agents.blueprint import blueprint_oracle
from analysis.coup.agents.resolve import ResolveAgent, ResolveOracle
from analysis.coup.solvers.blueprint_resolve import stored_value_graph
from analysis.coup.solvers.local_response import (
    LocalBestResponseAgent,
    Range,
    Responder,
)
from analysis.coup.solvers.mix_oracle import PolicyOracle, WithValues
from analysis.coup.studies import local_best_response as L
from analysis.play.bots import make_bot
from analysis.play.match import play_games
from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key
from games.errors import InvalidParameterError

SMALL = ("?/duke/3;?/captain/2;move:0", "?/assassin/3;?/contessa/0;move:1")




def endgame(position, cap=1):
    return pyspiel.load_game("python_coup", {"position": position, "turn_cap": cap})


def exact_response(game, seat, oracle):
    return best_response.BestResponsePolicy(game, seat, AsPolicy(game, oracle.mix)).value(
        game.new_initial_state())


@pytest.mark.parametrize("position", SMALL)
@pytest.mark.parametrize("seat", (0, 1))
def test_search_to_the_end_is_the_exact_best_response(position, seat):
    game = endgame(position)
    oracle = PolicyOracle(fixed_model)
    exact = exact_response(game, seat, oracle)
    assert Responder(seat, oracle, depth=None).game_value(game.config) == pytest.approx(
        exact, abs=1e-12)


@pytest.mark.parametrize("seat", (0, 1))
def test_the_bot_played_move_by_move_earns_the_exact_best_response(seat):
    """The bot, asked afresh at every state (its range rebuilt from the start each time),
    plays a best response: its exact expected payoff is OpenSpiel's best response value."""
    game = endgame(SMALL[0])
    oracle = PolicyOracle(fixed_model)
    exact = exact_response(game, seat, oracle)

    def fresh(player):
        return LocalBestResponseAgent(game.config, player, oracle, depth=None)

    pols = [AsPolicy(game, bot=fresh), AsPolicy(game, oracle.mix)]
    got = expected_game_score.policy_value(game.new_initial_state(),
                                           pols if seat == 0 else pols[::-1])[seat]
    assert got == pytest.approx(exact, abs=1e-12)
    # One decision deep with cards and coins past it: a legal strategy, so never more.
    shallow = [AsPolicy(game, bot=lambda p: LocalBestResponseAgent(game.config, p, oracle, 1)),
               AsPolicy(game, oracle.mix)]
    assert expected_game_score.policy_value(
        game.new_initial_state(), shallow if seat == 0 else shallow[::-1])[seat] <= exact + 1e-12


def test_against_the_resolve_oracle_search_to_the_end_is_exact():
    """The re-solving agent's oracle on a small endgame: the response searched to the end
    has OpenSpiel's best response value against the same mixes (asked in OpenSpiel's
    order, so the oracle's state by public history is exercised along every line)."""
    game = endgame(SMALL[0])
    oracle = ResolveOracle(ResolveAgent(game, 1, 0))
    exact = exact_response(game, 0, oracle)
    assert Responder(0, oracle, depth=None).game_value(game.config) == pytest.approx(
        exact, abs=1e-9)


def test_the_resolve_oracle_gives_the_mix_the_agent_plays():
    game = pyspiel.load_game("python_coup", {})
    state = game.new_initial_state()
    for a in (0, 3, 2, 4):  # P0 Duke+Captain, P1 Ambassador+Contessa
        state.apply_action(a)
    agent = ResolveAgent(game, 0, 0)
    oracle = ResolveOracle(ResolveAgent(game, 0, 0))
    core = state.core
    played = agent.resolved(core).mixes[infoset_key(core, 0)]
    assert dict(oracle.mix(core, 0)) == pytest.approx(
        {a: played.get(a, 0.0) for a in core.legal_actions()})
    state.apply_action(C.A_TAX)  # P0 claims the Duke; P1 decides whether to challenge
    state.apply_action(C.A_NO_CHALLENGE)
    # Another hand of P0's at the next spot: the oracle answers for it too.
    twin = state.core.copy()
    twin.hands = ((C.CONTESSA, C.CONTESSA), twin.hands[1])
    mix = dict(oracle.mix(twin, 0)) if twin.cur == 0 else None
    if mix is not None:
        assert sum(mix.values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="answers for seat 0"):
        oracle.mix(state.core, 1)


def deals_by_hand(config, seat):
    """Every way the deal can go, by hand computation: (probability, position after the
    deal) for each sequence of chance outcomes until a player first decides."""
    out, stack = [], [(1.0, E.Core(config))]
    while stack:
        p, core = stack.pop()
        if core.cur != E.CHANCE:
            out.append((p, core))
            continue
        for a, q in core.chance_outcomes():
            child = core.copy()
            child.apply(a)
            stack.append((p * q, child))
    return out


def test_the_range_is_bayes_rule_computed_by_hand():
    """Seat 1 holds Ambassador+Contessa and sees seat 0 claim the Duke (Tax): the range
    over seat 0's hands is P(hand | seat 1's cards) * P(Tax | hand), normalised."""
    game = pyspiel.load_game("python_coup", {})
    state = game.new_initial_state()
    for a in (0, 3, 2, 4):
        state.apply_action(a)
    state.apply_action(C.A_TAX)
    oracle = PolicyOracle(fixed_model)
    rng = Range(game.config, 1, oracle)
    rng.update(state.core)
    mine = state.core.hands[1]
    by_hand: dict = {}
    for p, core in deals_by_hand(game.config, 1):
        if core.hands[1] != mine:
            continue
        tax = dict(fixed_model(core, 0))[C.A_TAX]
        by_hand[core.hands[0]] = by_hand.get(core.hands[0], 0.0) + p * tax
    total = sum(by_hand.values())
    expected = {h: w / total for h, w in by_hand.items()}
    got = rng.hands()
    assert set(got) == set(expected)
    for hand, w in expected.items():
        assert got[hand] == pytest.approx(w, abs=1e-12)
    assert sum(w for w, _, _ in rng.worlds) == pytest.approx(1.0)
    # The claim moved the range: it is not the deal's odds alone.
    prior: dict = {}
    for p, core in deals_by_hand(game.config, 1):
        if core.hands[1] == mine:
            prior[core.hands[0]] = prior.get(core.hands[0], 0.0) + p
    norm = sum(prior.values())
    assert max(abs(got[h] - prior[h] / norm) for h in got) > 1e-3


def test_bad_mixes_and_agents_without_an_oracle_are_refused_in_one_line():
    game = pyspiel.load_game("python_coup", {})
    state = game.new_initial_state()
    for a in (0, 3, 2, 4):
        state.apply_action(a)
    half = PolicyOracle(lambda core, p: [(a, 0.5) for a in core.legal_actions()], "half")
    with pytest.raises(ValueError, match="sum to"):
        half.mix(state.core, 0)
    short = PolicyOracle(lambda core, p: [(core.legal_actions()[0], 1.0)], "short")
    with pytest.raises(ValueError, match="legal moves are"):
        short.mix(state.core, 0)
    for name in ("search", "belief"):
        with pytest.raises(InvalidParameterError, match="cannot give its mix") as err:
            A.mix_oracle(name, game, 1)
        assert "\n" not in str(err.value)
    with pytest.raises(InvalidParameterError, match="depth 1 or more"):
        L.Settings(depth=0)


def test_a_lower_bound_saves_and_reloads(tmp_path):
    bound = L.LowerBound("resolve", "ambassador", "basic", 4, 2, 0.75, (0.5, 1.0), 0.25,
                         (0.0, 0.5), 1, 0, 2, 3.5, {"version": "0", "commit": "x", "seed": 1})
    path = L.save_bounds([bound], tmp_path / "b.json")
    assert L.load_bounds(path) == [bound]
    again = L.LowerBound(**(bound.to_json() | {"games": 8, "win_ci95": (0.6, 0.9),
                                              "gain_ci95": (0.1, 0.4)}))
    L.save_bounds([again], path)
    assert L.load_bounds(path) == [again]  # a new measurement replaces the old one
    assert json.loads(path.read_text())["bounds"][0]["agent"] == "resolve"
    assert bound.at_least == 0.0 and again.at_least == pytest.approx(0.1)


class FixedBot:
    """The fixed strategy :func:`fixed_model` as a bot, drawing from its mixes (seeded)."""

    def __init__(self, seat, seed):
        self.seat, self.rng = seat, random.Random(seed)

    def __call__(self, state):
        actions, probs = zip(*fixed_model(state.core, self.seat), strict=True)
        return self.rng.choices(actions, probs)[0]


def with_fixed(name, game, seat, seed):
    return FixedBot(seat, seed) if name == "fixed" else make_bot(name, game, seat, seed)


@pytest.mark.parametrize("position", SMALL)
def test_the_bound_brackets_the_exact_gap_of_an_exploitable_strategy(position, monkeypatch):
    """A fixed mixed strategy (:func:`fixed_model`) on a small endgame, its exact gap from
    OpenSpiel's best response for each seat: the best response wins ``(v + 1) / 2`` of the
    games from a seat where it is worth ``v``, so over both seats it gains
    ``(v0 + v1) / 4`` over an even game. The responder, played against the strategy from
    both seats, measures a gain whose 95% interval holds that exact gap, and the gain is
    its win rate less one half. Measured (400 games, seed 3): +0.271 [+0.243, +0.300]
    for an exact +0.252 on the first endgame, +0.211 [+0.177, +0.246] for +0.220 on the
    second. No blueprint is read."""
    params = {"position": position, "turn_cap": 1}
    played = 400
    game = pyspiel.load_game("python_coup", params)
    oracle = PolicyOracle(fixed_model, "fixed")
    values = [exact_response(game, seat, oracle) for seat in (0, 1)]
    gap = (values[0] + values[1]) / 4
    assert gap > 0.2  # an exploitable strategy: the test has something to find
    monkeypatch.setitem(A.ORACLES, "fixed", lambda game, seat: oracle)
    monkeypatch.setattr(L, "make_bot", with_fixed)
    settings = L.Settings(depth=10)  # deeper than these endgames: the exact response
    rows = play_games("python_coup", (settings.name("fixed"), "fixed"), played, 3, params,
                      build=L.build)
    bound = L.bound_of("fixed", settings, game, 3, rows)
    assert bound.games == played and bound.deals == played // 2
    wins = sum(rows[i]["shares"][i % 2] for i in range(played))  # the responder's seat
    assert bound.win_rate == pytest.approx(wins / played, abs=1e-12)
    assert bound.gain == pytest.approx(bound.win_rate - 0.5, abs=1e-12)
    assert bound.gain_ci95 == pytest.approx((bound.win_ci95[0] - 0.5, bound.win_ci95[1] - 0.5),
                                            abs=1e-12)
    assert bound.gain_ci95[0] <= gap <= bound.gain_ci95[1], (gap, bound.text())
    assert bound.at_least == pytest.approx(max(0.0, bound.gain_ci95[0]))
    assert bound.provenance["seed"] == 3 and bound.depth == 10


def test_a_bound_is_complete_when_every_planned_game_was_played():
    bound = L.LowerBound("resolve", "ambassador", "basic", 8, 4, 0.75, (0.5, 1.0), 0.25,
                         (0.0, 0.5), 1, 0, 2, 3.5, {"version": "0", "commit": "x", "seed": 1})
    assert bound.complete  # planned 0: as many as it has
    assert L.LowerBound(**(bound.to_json() | {"planned": 8})).complete
    assert not L.LowerBound(**(bound.to_json() | {"planned": 9})).complete
    assert "+0.250 [95% interval +0.000, +0.500]" in bound.text()
    assert "(8 games, wins 75.0%)" in bound.text()


def test_bound_of_hand_made_rows():
    """Four duplicate deals, the responder first in even games: its shares 1, 1 | 1, 0 |
    0.5, 0.5 | 0, 1 make a win rate of 5/8 and a gain of +1/8; the interval is Student t
    over the deals' means (1, 0.5, 0.5, 0.5), cut at 1."""
    game = pyspiel.load_game("python_coup", {})
    responder = [1.0, 1.0, 1.0, 0.0, 0.5, 0.5, 0.0, 1.0]
    rows = {}
    for i, share in enumerate(responder):
        seat = i % 2  # game i seats the line-up's first agent at seat i % 2
        shares = [0.0, 0.0]
        shares[seat], shares[1 - seat] = share, 1.0 - share
        rows[i] = {"shares": shares}
    bound = L.bound_of("resolve", L.Settings(), game, 9, rows)
    assert (bound.games, bound.deals) == (8, 4)
    assert bound.win_rate == pytest.approx(5 / 8) and bound.gain == pytest.approx(1 / 8)
    half = 3.182446305284263 * 0.25 / 2  # t(3) 97.5% quantile x sd 0.25 / sqrt(4)
    # The interval is cut at a win rate of 1 (5/8 + half is 1.023).
    assert bound.win_ci95 == pytest.approx((5 / 8 - half, 1.0), abs=1e-9)
    assert bound.gain_ci95 == pytest.approx((1 / 8 - half, 0.5), abs=1e-9)
    assert bound.at_least == 0.0  # the interval holds 0: nothing is bounded
    assert (bound.deck, bound.setup) == ("ambassador", "basic")


def built_blueprint(game, monkeypatch):
    """The ambassador blueprint as an oracle, read from the cache where it was built:
    ``$FAROL_BLUEPRINT_CACHE``, else the repository's own cache folder (the tests' cache
    is empty by design, :mod:`conftest`); the test is skipped where it is not built."""
    folder = os.environ.get("FAROL_BLUEPRINT_CACHE", str(Path(__file__).parents[2] / ".farol_cache"))
    monkeypatch.setenv("FAROL_CACHE_DIR", folder)
    stored_value_graph.cache_clear()
    try:
        oracle = blueprint_oracle(game)
    except InvalidParameterError as exc:
        pytest.skip(f"the ambassador blueprint is not built in {folder} ({exc})")
    if oracle.values is None:
        pytest.skip(f"the blueprint's values are not computed in {folder}")
    return oracle


GAMES = 3000  # the slow test's games against the blueprint


@pytest.mark.slow
def test_against_the_blueprint_it_finds_the_known_gap(tmp_path, monkeypatch):
    """The blueprint loses at least 0.157 (its graph's local best response, 2,000 games a
    seat): the general response, reading the blueprint as an oracle, must find at least
    0.15. An interval whose low end clears 0.15 at a true gain of ~0.17 needs about 4,000
    games; this test plays GAMES (seeded, about a minute of play once the blueprint is
    loaded) and asks the point estimate to reach 0.15 and the interval's low end 0.13.
    Measured: +0.168 [+0.149, +0.187] (the benchmark's 1,000 games on seed 1: +0.183
    [+0.151, +0.215]). Skipped where the blueprint is not built."""
    game = pyspiel.load_game("python_coup", {})
    built_blueprint(game, monkeypatch)
    bound = L.measure("blueprint", GAMES, 5, record=tmp_path / "games.jsonl")
    assert bound.games == GAMES
    assert bound.gain >= 0.15, bound.text()
    assert bound.gain_ci95[0] >= 0.13, bound.text()
    stored_value_graph.cache_clear()
def test_settings_read_back_from_a_line_up_name():
    settings = L.Settings(2, 3, 1, "blueprint")
    assert L.Settings.of_name(settings.name("resolve")) == ("resolve", settings)
    with pytest.raises(InvalidParameterError, match="values 'table'"):
        L.Settings(values="table")


def test_values_beside_mixes_come_from_the_other_oracle():
    """WithValues: the mixes of one oracle, the tags and values of another; searched to the
    end, the values past the search never count, so the response is still exact."""

    class Counting(PolicyOracle):
        def start(self, core):
            return 0

        def advance(self, tag, core, action):
            return tag + 1

        def value(self, tag, core):
            return 0.25

    game = endgame(SMALL[1])
    both = WithValues(PolicyOracle(fixed_model, "fixed"), Counting(lambda c, p: []))
    assert both.name == "fixed (values: policy)"
    exact = exact_response(game, 0, PolicyOracle(fixed_model))
    assert Responder(0, both, depth=None).game_value(game) == pytest.approx(exact, abs=1e-12)
    # Cut after one decision, the leaves are worth the other oracle's value (0.25 for
    # player 0, -0.25 for player 1) wherever the game is not over.
    cut = Responder(1, both, depth=1).game_value(game)
    assert -1.0 <= cut <= exact + 1e-12
