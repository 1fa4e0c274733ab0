"""A later spot of a battle with hidden villains, re-solved from the start of its combat
(analysis.cobardes.solvers.spot_resolve): the rest of the battle is the battle itself from there,
the villain deals are weighed by Bayes' rule over each player's first move, and the
command answers such a spot without solving the whole battle. Each player's first
decision asked by history reads the shipped opening, as asked by position."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest
from cli_helpers import param_flags
from cobardes_helpers import random_spots, replayed

from analysis.cli import main
from analysis.cobardes.advice import advise as advise_module
from analysis.cobardes.advice.advise import Query, advise, advise_spot
from analysis.cobardes.model import hidden_params
from analysis.cobardes.solvers import openings
from analysis.cobardes.solvers.hidden_advice import advise_hidden, solution_for, strategy_at
from analysis.cobardes.solvers.hidden_solution import solution_path
from analysis.cobardes.solvers.spot_resolve import resolve_rest, rest_of_battle, weigh_deals
from analysis.cobardes.solvers.trunk import GAME, compile_cut
from analysis.shared import store
from games.cobardes import engine as E
from games.cobardes import keys as K
from games.history import history_text


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path / "cache"))


def _later_spots(game, combat=2, games=300, seed=0):
    """Decisions of ``combat`` or later, reached by random play."""
    return random_spots(game, lambda s: s.position.combat >= combat, games, seed)


@pytest.mark.parametrize("pairing", [("Squire", "Archer"), ("Wolf", "Inquisitor"),
                                     ("Procuress", "Sentinel"), ("Maiden", "Royal Guard")])
def test_the_rest_of_a_battle_plays_as_the_battle_from_its_combat(pairing):
    """From the spot on, the rest and the battle have the same moves, chances, positions
    and payoffs, whatever is played."""
    game = pyspiel.load_game(GAME, hidden_params(pairing, 3, 4))
    rng = random.Random(1)
    checked = 0
    for state in _later_spots(game, games=150):
        rest = rest_of_battle(state)
        a, b = state.clone(), rest.state.clone()
        assert rest.combat == state.position.combat >= 2
        while True:
            assert a.is_terminal() == b.is_terminal()
            if a.is_terminal():
                assert a.returns() == b.returns()
                break
            assert a.current_player() == b.current_player()
            if a.is_chance_node():
                assert sorted(a.chance_outcomes()) == sorted(b.chance_outcomes())
                move = rng.choice([x for x, p in a.chance_outcomes() if p > 0])
            else:
                assert a.legal_actions() == b.legal_actions()
                assert K.state_key(a.position) == K.state_key(b.position)
                move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        checked += 1
    assert checked >= 50


def _deal_chances(compiled) -> dict[tuple[int, ...], float]:
    """The chance of each villain deal at the root of a battle's compiled trunk (the
    root deals player 0's villain, its children player 1's)."""
    start, child, action, prob = (compiled.edge_start, compiled.edge_child,
                                  compiled.edge_action, compiled.edge_prob)
    out = {}
    for e in range(start[0], start[1]):
        node = int(child[e])
        for f in range(start[node], start[node + 1]):
            out[(int(action[e]), int(action[f]))] = float(prob[e] * prob[f])
    return out


def _moves_chance(solution, game, history, seat, villain):
    """The chance, under the whole battle's ``solution``, that ``seat`` holding
    ``villain`` makes its moves of ``history`` in the first combat, up to the one that
    commits its card: each move's probability at its information set, reached with
    ``villain`` dealt to the seat (the rival's deal any that keeps the moves legal: the
    seat cannot see it)."""
    state, cut = game.new_initial_state(), 0
    while state.is_chance_node() and state.position.pending:  # the two villain deals
        state.apply_action(history[cut])
        cut += 1
    assert cut == 2
    moves = list(history[cut:])
    for other in [history[1 - seat], *range(16)]:
        deal = [villain, other] if seat == 0 else [other, villain]
        if deal[0] == deal[1]:
            continue
        try:
            walk = replayed(game, deal)
            chance = 1.0
            for i, move in enumerate(moves):
                if walk.position.combat > 1:
                    break
                if not walk.is_chance_node() and walk.current_player() == seat:
                    chance *= strategy_at(solution, deal + moves[:i])[move]
                    if walk.position.phase == E.COMMIT:
                        break
                walk.apply_action(move)
        except Exception:  # a rival's deal its moves cannot follow
            continue
        return chance
    raise AssertionError("no deal follows the moves")


@pytest.mark.parametrize("pairing", [("Squire", "Archer"), ("Wolf", "Maiden")])
def test_the_deals_are_weighed_by_bayes_rule_over_each_players_moves(tmp_path, pairing):
    """At the start of the spot's combat each villain deal weighs its chance times the
    chance of each player's moves in the first combat up to its card holding it (the
    Maiden is advanced or held back first), read off the whole battle's solution where
    the opening was stored from."""
    game = pyspiel.load_game(GAME, hidden_params(pairing, 2, 3))
    solution = solution_for(game)
    with store.use(tmp_path / "data"):
        openings.from_solution(pairing, game, solution, 2, 3).save()
        checked = 0
        for state in _later_spots(game, games=200, seed=3):
            rest = rest_of_battle(state)
            if not all(rest.likelihood):
                continue
            compiled = compile_cut(rest.game, graph=True, key_names=False).compiled
            weighed, applied = weigh_deals(compiled, rest)
            assert applied and "each player's moves" in rest.beliefs
            prior, posterior = _deal_chances(compiled), _deal_chances(weighed)
            expected = {deal: p * np.prod([_moves_chance(
                solution, game, state.history(), seat, deal[seat]) for seat in (0, 1)])
                for deal, p in prior.items()}
            total = sum(expected.values())
            assert total > 0
            assert posterior == pytest.approx({d: w / total for d, w in expected.items()},
                                              abs=1e-9)
            checked += 1
            if checked >= 6:
                break
        # The re-solve stops once as accurate as the stored battle solve (within the
        # abstraction), or at its floor.
        resolved = resolve_rest(state)
        assert resolved.target == pytest.approx(solution.exploitability)
        assert resolved.target > 0
        measured = [x for _, x in resolved.checks]
        assert measured[-1] <= resolved.target or min(measured[-2:]) > 0.95 * min(
            measured[:-2])
        assert resolved.solution.exploitability == pytest.approx(min(measured))
    assert checked >= 3


def test_a_later_spot_is_answered_by_re_solving_the_rest_not_the_whole_battle(
        capsys, monkeypatch):
    game = pyspiel.load_game(GAME, hidden_params(("Wolf", "Maiden"), 2, 3))
    state = next(s for s in _later_spots(game, seed=2) if advise_module._hidden_from_a_player(
        s.position))
    # As for a full battle: too large to solve whole while you wait.
    monkeypatch.setattr(advise_module, "ON_DEMAND_NODES", 0)
    params = ",".join(f"{k}={v}" for k, v in hidden_params(("Wolf", "Maiden"), 2, 3).items())
    assert main(["advise", "cobardes", *param_flags(params), "--history",
                 history_text(state), "--json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert "re-solving the rest of this battle from the start of combat" in out.err
    assert data["source"].startswith("re-solved from the start of this combat")
    assert "chance alone (this battle's opening is not stored)" in data["solver"]
    assert [r["action"] for r in data["actions"]] == [
        state.action_to_string(a) for a in state.legal_actions()]
    assert sum(r["probability"] for r in data["actions"]) == pytest.approx(1.0)
    assert sum(data["opponent_hand"].values()) == pytest.approx(1.0)
    assert data["exploitability"] >= 0
    assert not solution_path(game).exists()  # the whole battle was not solved


def test_a_first_combat_spot_of_a_full_battle_is_refused_in_one_line_naming_solve(capsys):
    game = pyspiel.load_game(GAME, hidden_params(("Squire", "Archer")))
    rng = random.Random(0)
    state = game.new_initial_state()
    decided = set()
    while True:  # play on until a player decides a second time in the first combat
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
            continue
        if state.current_player() in decided:
            break
        decided.add(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.position.combat == 1
    params = ",".join(f"{k}={v}" for k, v in hidden_params(("Squire", "Archer")).items())
    code = main(["advise", "cobardes", *param_flags(params), "--history", history_text(state)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "whole battle" in err and "add --solve" in err and "minutes" in err


def _mix(advice) -> dict[str, float]:
    return dict(advice.strategy)


def test_each_players_first_decision_by_history_reads_the_shipped_opening():
    game = pyspiel.load_game(GAME, hidden_params(("Squire", "Archer")))
    names = {a: game.new_initial_state().action_to_string(pyspiel.PlayerId.CHANCE, a)
             for a, _ in game.new_initial_state().chance_outcomes()}
    friar = next(a for a, n in names.items() if n.endswith("Friar"))
    state = game.new_initial_state()
    state.apply_action(friar)
    ghost = next(a for a, _ in state.chance_outcomes()
                 if state.action_to_string(pyspiel.PlayerId.CHANCE, a).endswith("King's Ghost"))
    state.apply_action(ghost)
    first = advise_spot(state)
    by_position = advise(Query(my_courtier="Squire", their_courtier="Archer",
                               my_villain="Friar"))
    assert first.source.startswith("stored opening")
    assert _mix(first) == pytest.approx(_mix(by_position))
    assert first.value == pytest.approx(by_position.value)
    # The second player, after the first prepared a card face down.
    state.apply_action(state.legal_actions()[-1])
    assert state.current_player() == 1
    second = advise_spot(state)
    asked = advise(Query(my_courtier="Archer", their_courtier="Squire",
                         my_villain="King's Ghost", seat=1))
    same = [a for a in [asked, *asked.others] if a.seen == ("the rival prepares a card",)]
    assert len(same) == 1 and second.source.startswith("stored opening")
    assert _mix(second) == pytest.approx(_mix(same[0]))
    assert second.value == pytest.approx(same[0].value)


def test_the_opening_keeps_each_seats_decisions_up_to_its_commit(tmp_path):
    """A courtier advanced or held back first, the card committed after: each seat's
    decisions up to its commit are stored, and --history reads them, as the battle's
    solution answers there."""
    pairing = ("Wolf", "Maiden")
    game = pyspiel.load_game(GAME, hidden_params(pairing, 2, 3))
    solution = solution_for(game)
    table = openings.from_solution(pairing, game, solution, 2, 3)
    assert table.to_commit and table.later[1]  # here the Maiden is advanced or held back first
    checked = 0
    with store.use(tmp_path / "data"):
        table.save()
        stored = openings.stored(pairing, 2, 3)
        assert stored.later == table.later
        for seat in (0, 1):
            for villain in range(16):
                for seen, state in openings.decisions_to_commit(game, villain, seat):
                    assert state.position.combat == 1 and state.current_player() == seat
                    found = openings.answer_at(state)
                    assert found is not None and found[1] == seen
                    spot = advise_hidden(state, solution)
                    mix = dict((int(a), p) for a, p in found[2]["mix"])
                    assert mix == pytest.approx(spot.mix, abs=1e-12)
                    checked += 1
    assert checked >= 9  # one a villain at least
