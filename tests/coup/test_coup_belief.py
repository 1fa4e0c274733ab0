"""Exact beliefs over the opponent's hidden cards in 2-player Coup
(:mod:`analysis.coup.solvers.beliefs`): they sum to 1, never give a hand that counting the
cards rules out, always keep the true hand possible, read nothing the seat did not see,
and agree with Bayes' rule computed by enumerating every history with OpenSpiel's own
information-state strings."""

from __future__ import annotations

import itertools

import numpy as np
import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from analysis.coup.solvers.beliefs import Belief, ClaimModel
from analysis.play.bots import sample_chance
from games.coup import cards as C
from games.errors import InvalidPositionError

SETUPS = [(deck, setup) for deck in C.DECKS for setup in ("basic", "standard", "draft")]


def game_of(deck="ambassador", setup="basic", **extra):
    return pyspiel.load_game("python_coup", {"deck": deck, "two_player_setup": setup, **extra})


def act(state, text):
    """Apply the legal move (or chance outcome) whose name is ``text``."""
    player = state.current_player()
    moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
             else state.legal_actions())
    named = {state.action_to_string(player, a): a for a in moves}
    assert text in named, f"{text!r} not among {sorted(named)}"
    state.apply_action(named[text])


def most_in_play(core):
    return 3 if core.cfg.setup == "draft" else core.cfg.copies


@pytest.mark.parametrize(("deck", "setup"), SETUPS)
def test_beliefs_on_random_games(deck, setup):
    """Over random games of every deck and setup: the beliefs sum to 1, the opponent's
    true hand is always possible, and no hand is given that the seat's cards and the
    face-up ones leave no copy for (the deck's copies; in the draft one dealt pile and
    the two picks)."""
    game = game_of(deck, setup, starting_player=-1)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(6):
        state = game.new_initial_state()
        beliefs = [Belief(game, 0), Belief(game, 1)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            core = state.core
            beliefs[seat].update(core)
            hands = beliefs[seat].hands()
            assert sum(hands.values()) == pytest.approx(1.0)
            assert hands.get(core.hands[1 - seat], 0.0) > 0.0
            for hand, weight in hands.items():
                assert weight >= 0.0
                for c in C.CHARACTERS:
                    seen = (hand.count(c) + core.hands[seat].count(c)
                            + sum(r.count(c) for r in core.revealed))
                    assert seen <= most_in_play(core) or weight == 0.0
            checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 20


def test_counting_rules_out_a_hand():
    """The seat holds two Dukes and the third is turned face up: the opponent cannot
    hold a Duke, and the beliefs say so (exactly zero)."""
    game = game_of(starting_player=0)
    state = game.new_initial_state()
    for card in ("Duke", "Duke", "Duke", "Assassin"):  # P0, P1, P0, P1
        act(state, f"Draw {card}")
    act(state, "Tax (claims Duke)")
    act(state, "Challenge")           # P1 challenges; P0 shows a Duke
    act(state, "Lose Duke")           # P1 loses its Duke: the third is face up
    act(state, "Draw Duke")           # P0 redraws the Duke it showed
    act(state, "Foreign Aid")         # P1
    belief = Belief(game, 0)
    belief.update(state.core)
    assert belief.holds(C.DUKE) == 0.0
    assert set(belief.hands()) == {(c,) for c in C.CHARACTERS if c != C.DUKE}


def enumerated_posterior(game, history, seat, model):
    """Bayes by enumeration: every history of the same length whose OpenSpiel
    information-state string for ``seat`` matches the real one at each step, weighted by
    the chance odds and ``model``'s play for the opponent; the posterior of the
    opponent's face-down hand."""
    real = game.new_initial_state()
    strings = [real.information_state_string(seat)]
    for action in history:
        real.apply_action(action)
        strings.append(real.information_state_string(seat))
    frontier = [(1.0, game.new_initial_state())]
    for t in range(len(history)):
        nxt = []
        for weight, state in frontier:
            if state.is_chance_node():
                branches = state.chance_outcomes()
            elif state.current_player() == seat:
                branches = [(a, 1.0) for a in state.legal_actions()]
            else:
                branches = model(state.core, state.current_player())
            for action, prob in branches:
                child = state.clone()
                child.apply_action(action)
                if child.information_state_string(seat) == strings[t + 1]:
                    nxt.append((weight * prob, child))
        frontier = nxt
    out: dict = {}
    for weight, state in frontier:
        hand = state.core.hands[1 - seat]
        out[hand] = out.get(hand, 0.0) + weight
    total = sum(out.values())
    return {h: w / total for h, w in out.items()}, real


def hand_made(game):
    """A short game: a Tax, an Ambassador exchange by P1, a steal blocked with a
    claimed Ambassador that P0 challenges and loses, P1's redraw; P0 to act."""
    state = game.new_initial_state()
    for card in ("Duke", "Ambassador", "Captain", "Contessa"):  # P0, P1, P0, P1
        act(state, f"Draw {card}")
    act(state, "Tax (claims Duke)")
    act(state, "No challenge")
    act(state, "Exchange (claims Ambassador)")
    act(state, "No challenge")
    act(state, "Draw Duke+Assassin")
    act(state, "Keep Assassin+Ambassador")
    act(state, "Steal from P1 (claims Captain)")
    act(state, "No challenge")
    act(state, "Block with Ambassador")
    act(state, "Challenge")
    act(state, "Lose Duke")
    act(state, "Draw Captain")
    act(state, "Foreign Aid")
    return state


@pytest.mark.parametrize("model", [ClaimModel(), ClaimModel(truth=1.0, bluff=1.0),
                                   ClaimModel(bluff=0.05, challenge=0.4)])
def test_beliefs_agree_with_bayes_by_enumeration(model):
    game = game_of(starting_player=0)
    state = hand_made(game)
    expected, real = enumerated_posterior(game, state.history(), 0, model)
    belief = Belief(game, 0, model)
    belief.update(real.core)
    got = belief.hands()
    assert set(got) == set(expected)
    for hand, prob in expected.items():
        assert got[hand] == pytest.approx(prob, abs=1e-12)


def test_beliefs_updated_step_by_step_match_one_update():
    """Updating at every decision of the seat or once at the end gives the same beliefs."""
    game = game_of(starting_player=0)
    state = hand_made(game)
    once = Belief(game, 0)
    once.update(state.core)
    replay = game.new_initial_state()
    stepwise = Belief(game, 0)
    for action in state.history():
        if not replay.is_chance_node() and replay.current_player() == 0:
            stepwise.update(replay.core)
        replay.apply_action(action)
    stepwise.update(replay.core)
    a, b = once.hands(), stepwise.hands()
    assert set(a) == set(b)
    for hand in a:
        assert a[hand] == pytest.approx(b[hand], abs=1e-12)


def test_beliefs_do_not_read_hidden_cards():
    """Two games that look the same to P0 but deal P1 different cards give P0 the same
    beliefs."""
    game = game_of(starting_player=0)
    results = []
    for theirs in itertools.permutations(("Assassin", "Contessa")):
        state = game.new_initial_state()
        for card in ("Duke", theirs[0], "Captain", theirs[1]):
            act(state, f"Draw {card}")
        act(state, "Tax (claims Duke)")
        act(state, "No challenge")
        act(state, "Income")
        belief = Belief(game, 0)
        belief.update(state.core)
        results.append(belief.hands())
    assert results[0] == results[1]


def test_a_claim_makes_the_character_likelier():
    """P1 claimed the Duke and was not challenged: P0 thinks a Duke likelier in P1's hand
    than before the claim."""
    game = game_of(starting_player=1)
    state = game.new_initial_state()
    for card in ("Captain", "Contessa", "Captain", "Assassin"):
        act(state, f"Draw {card}")
    before = Belief(game, 0)
    act(state, "Tax (claims Duke)")
    after = Belief(game, 0)
    after.update(state.core)
    prior = game.new_initial_state()
    for card in ("Captain", "Contessa", "Captain", "Assassin"):
        act(prior, f"Draw {card}")
    act(prior, "Income")
    before.update(prior.core)
    assert after.holds(C.DUKE) > before.holds(C.DUKE) + 0.1


def test_more_players_and_other_games_are_refused():
    with pytest.raises(InvalidPositionError):
        Belief(pyspiel.load_game("python_coup", {"players": 3}), 0)
    game = game_of(starting_player=0)
    state = hand_made(game)
    belief = Belief(game, 0)
    belief.update(state.core)
    with pytest.raises(InvalidPositionError):
        belief.update(game.new_initial_state().core)
