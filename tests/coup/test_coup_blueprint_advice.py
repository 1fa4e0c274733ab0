"""Advice at any Coup decision from the blueprint (analysis.coup.advice.blueprint), on the
1v1 endgames' blueprint (tests/conftest.py), checked against beliefs computed another
way: OpenSpiel states replayed with each card the opponent may have been dealt."""

from __future__ import annotations

import json
import random

import pyspiel
import pytest
from cli_helpers import param_flags

from analysis import cli
from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.coup.advice.blueprint import advise_spot, beliefs
from analysis.coup.guarantees import position_key
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.shared import store
from games.coup import cards as C
from games.errors import InvalidPositionError

PARAMS = {"position": Endgame(2, 2).position(), "turn_cap": 60}


@pytest.fixture(scope="module")
def bp(endgames):
    dg, _, strategies, _, _ = endgames
    return B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {})


def game():
    return pyspiel.load_game("python_coup", PARAMS)


def dealt(mine: int, theirs: int) -> pyspiel.State:
    """The endgame after P0 is dealt ``theirs`` and P1 ``mine`` (P1 advised later)."""
    state = game().new_initial_state()
    for card in (theirs, mine):
        (action,) = [a for a, _ in state.chance_outcomes()
                     if state.action_to_string(a).endswith(C.card_name(card))]
        state.apply_action(action)
    return state


@pytest.mark.parametrize("claim", [C.A_TAX, C.A_STEAL + 1, C.A_FOREIGN_AID])
def test_beliefs_after_a_claim_are_bayes_rule_over_the_cards_dealt(bp, claim):
    mine = C.CAPTAIN
    truth = dealt(mine, C.DUKE)
    truth.apply_action(claim)
    advice = advise_spot(truth, bp, rollouts=4)
    # Independently: each card P0 may hold, its deal odds times the blueprint's chance
    # of this move with it, replayed through OpenSpiel.
    weights = {}
    for card in C.CHARACTERS:
        state = game().new_initial_state()
        odds = dict(state.chance_outcomes())
        (deal,) = [a for a in odds if state.action_to_string(a).endswith(C.card_name(card))]
        if odds[deal] == 0:
            continue
        state = dealt(mine, card)
        after_mine = dict(state.get_game().new_initial_state().child(deal).chance_outcomes())
        mix = bp.action_probabilities(state)
        weights[C.card_name(card)] = odds[deal] * mix.get(claim, 0.0) * sum(
            p for a, p in after_mine.items()
            if state.get_game().new_initial_state().child(deal).action_to_string(a)
            .endswith(C.card_name(mine)))
    total = sum(weights.values())
    expected = {c: w / total for c, w in weights.items()}
    got = dict(advice.opponent_hand)
    for card, p in expected.items():
        assert got[card] == pytest.approx(p, abs=1e-9)


def test_the_true_world_is_never_ruled_out(bp):
    rng = random.Random(2)
    for _ in range(6):
        state = game().new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            player = state.current_player()
            worlds = beliefs(game().new_initial_state().core, state.history(), player, bp,
                             "basic", uniform=True)
            assert sum(w for _, w in worlds) == pytest.approx(1.0)
            assert position_key(state.core) in {position_key(c) for c, _ in worlds}
            mine = {c.hands[player] for c, _ in worlds}
            assert mine == {state.core.hands[player]}  # a player knows their own cards
            state.apply_action(rng.choice(state.legal_actions()))


def test_advice_lists_every_legal_move_with_a_mix_and_values(bp, tmp_path):
    state = dealt(C.DUKE, C.ASSASSIN)
    state.apply_action(C.A_TAX)  # P1 may challenge P0's Duke
    with store.use(tmp_path):  # no measured bound stored there
        advice = advise_spot(state, bp, rollouts=30, seed=3)
    out = advice.to_json()
    assert [a["action"] for a in out["actions"]] == [
        state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert sum(a["probability"] for a in out["actions"]) == pytest.approx(1.0)
    for a in out["actions"]:
        lo, hi = a["value_ci95"]
        assert -1.0 <= lo <= a["value"] <= hi <= 1.0
    assert sum(out["opponent_hands"].values()) == pytest.approx(1.0)
    assert set(out["opponent_hand"]) == {C.card_name(c) for c in C.CHARACTERS}
    assert out["source"].startswith("blueprint") and out["exploitability"] is None
    with store.use(tmp_path):
        assert advise_spot(state, bp, rollouts=30, seed=3) == advice  # seeded
    assert "P1 may challenge P0's claim of Duke" in advice.text()


def test_spots_without_a_decision_are_refused_in_one_line(bp):
    with pytest.raises(InvalidPositionError, match="waits for a card"):
        advise_spot(game().new_initial_state(), bp)
    state = pyspiel.load_game("python_coup", {"players": 3}).new_initial_state()
    with pytest.raises(InvalidPositionError, match="2-player"):
        advise_spot(state, bp)


def test_the_command_advises_a_history_from_the_blueprint(endgames, bp, tmp_path, monkeypatch,
                                                          capsys):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    state, names = game().new_initial_state(), []
    for action in dealt(C.CONTESSA, C.DUKE).history():
        names.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    names.append("Tax (claims Duke)")
    args = ["advise", "coup", *param_flags(f"position={PARAMS['position']},turn_cap=60"),
            "--history", ";".join(names), "--blueprint", "--rollouts", "10", "--json"]
    with store.use(tmp_path):
        B.save_blueprint(bp, "dealt", B.strategy_path("ambassador", "dealt"))
        B.update_summary("ambassador", bounds={"basic": {"exploitability_lower_bound": 0.07}})
        assert cli.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["player"] == 1 and out["exploitability"] == 0.07
    assert {a["action"] for a in out["actions"]} == {"Challenge", "No challenge"}
    assert out["opponent_hand"]["Duke"] > 0


def test_a_position_string_is_advised_with_the_deals_the_player_cannot_rule_out(bp):
    from analysis.coup.advice.blueprint import position_spot

    position = "captain/contessa/2;?/contessa/2;move:0"
    state = position_spot(position, "ambassador", "basic", seed=1)
    advice = advise_spot(state, bp, rollouts=4)
    # Seen: my Captain and both Contessas; the opponent's card is any of the 12 others.
    left = {C.DUKE: 3, C.ASSASSIN: 3, C.CAPTAIN: 2, C.EXCHANGER: 3, C.CONTESSA: 1}
    for card, n in left.items():
        assert dict(advice.opponent_hand)[C.card_name(card)] == pytest.approx(n / 12)
    other = advise_spot(position_spot(position, "ambassador", "basic", seed=9), bp, rollouts=4)
    assert other.opponent_hand == advice.opponent_hand  # whatever card was drawn


def test_a_position_off_the_blueprint_is_one_line(
        endgames, tmp_path, monkeypatch, capsys):
    dg, _, strategies, _, _ = endgames
    both = B.Blueprint("ambassador", {"dealt": dg.keys},
                       {"basic": strategies, "standard": strategies}, {})
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path):
        B.save_blueprint(both, "dealt", B.strategy_path("ambassador", "dealt"))
        assert cli.main(["advise", "coup", "duke+captain/-/2;?+?/-/2;move:0",
                         "--blueprint"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the blueprint has no strategy here" in err[0]


@pytest.mark.slow
def test_move_values_agree_with_the_blueprints_exact_values_on_its_graph(endgames, bp):
    """Each move's simulated value against the value of the blueprint's self-play
    computed exactly on the graph, averaged over the same beliefs."""
    from analysis.coup.guarantees import position_graph, position_id, uncapped_roots
    from games.coup.walker import DecisiveCoupWalker

    dg, solver, strategies, _, _ = endgames
    config, roots = uncapped_roots([Endgame(2, 2).game()])
    graph = position_graph(DecisiveCoupWalker(config, history=False), roots,
                           key=B.blueprint_key, depth_first=True)
    assert graph.num_positions == dg.graph.num_nodes  # the same walk, the same numbers
    exact = solver.evaluate(strategies)
    rng = random.Random(5)
    checked = 0
    while checked < 6:
        state = game().new_initial_state()
        while not state.is_terminal() and checked < 6:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            player = state.current_player()
            worlds = beliefs(game().new_initial_state().core, state.history(), player, bp,
                             "basic")
            advice = advise_spot(state, bp, rollouts=400, seed=checked)
            sign = 1.0 if player == 0 else -1.0
            for action, (_, _, value, (lo, hi)) in zip(state.legal_actions(), advice.actions,
                                                       strict=True):
                total = 0.0
                for core, w in worlds:
                    child = core.copy()
                    child.apply(action)
                    child.turn = 0
                    node = graph.index.get(position_id(position_key(child)))
                    assert node is not None  # never a winning Coup declined here
                    total += w * sign * exact[node]
                assert abs(value - total) <= max(hi - value, value - lo) * 2 + 1e-9
            checked += 1
            mix = bp.action_probabilities(state)
            acts, probs = zip(*mix.items(), strict=True)
            state.apply_action(rng.choices(acts, probs)[0])
