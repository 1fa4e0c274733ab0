"""The fast search agent (``fast``, ``best`` at 3-8 players): legal play at every table of
3 to 8 players with both decks (the Inquisitor exchanging and examined) and both orders
of asking; the same seed gives the same game; its compiled roll-outs score as the search
agent's on the engine (on average); without them it plays exactly as ``search``. And the
bluffing decisions that the panel and the search agent's roll-out players share."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from coup_helpers import play_bots as play

import analysis.coup.agents  # noqa: F401  (registers the Coup agents)
from analysis.coup.agents import bluffer as B
from analysis.coup.agents import fast as F
from analysis.coup.agents import honest as H
from analysis.coup.agents import rollout_sim as sim
from analysis.coup.agents import rules_of_thumb as P
from analysis.coup.agents import search as S
from analysis.coup.agents.rules_of_thumb import View
from analysis.play.bots import make_bot, sample_chance
from games.coup import cards as C
from games.coup import engine as E

PANEL = ("random", "honest", "bluffer", "bluffer-bold")
# A small budget: the tests check what the agent does, not how well.
QUICK = S.Budget(deals_action=2, deals_react=2, horizon=0)


def table(game, seed, fast_seats):
    n = game.num_players()
    return [F.FastSearchAgent(game, s, seed + s, QUICK) if s in fast_seats
            else make_bot(PANEL[(s + seed) % len(PANEL)], game, s, seed + s) for s in range(n)]


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("deck", C.DECKS)
@pytest.mark.parametrize("order", ("turn", "chance"))
def test_fast_agent_plays_legal_actions_at_every_table(players, deck, order):
    game = pyspiel.load_game("python_coup", {"players": players, "deck": deck,
                                             "challenge_order": order, "block_order": order})
    state, _ = play(game, table(game, players, fast_seats=(players % 3, players - 1)), seed=players)
    assert state.is_terminal()


def test_same_seed_same_game_and_another_seed_another():
    game = pyspiel.load_game("python_coup", {"players": 5, "deck": "inquisitor"})
    runs = [play(game, table(game, 3, fast_seats=(0, 2, 4)), seed=9)[1] for _ in range(2)]
    assert runs[0] == runs[1]
    other = play(game, [F.FastSearchAgent(game, s, 50 + s, QUICK) if s in (0, 2, 4)
                        else make_bot(PANEL[(s + 3) % 4], game, s, 3 + s) for s in range(5)], seed=9)
    assert other[1] != runs[0]


def test_without_compiled_roll_outs_it_plays_as_search():
    # The settled challenge windows make the same draws in the same order as quick_move.
    game = pyspiel.load_game("python_coup", {"players": 4})
    budget = S.Budget(3, 3, 0)
    bots = {
        "fast": [F.FastSearchAgent(game, s, s, budget, compiled=False) if s % 2 == 0
                 else make_bot("bluffer", game, s, s) for s in range(4)],
        "search": [S.SearchAgent(game, s, s, budget) if s % 2 == 0
                   else make_bot("bluffer", game, s, s) for s in range(4)],
    }
    assert play(game, bots["fast"], seed=4)[1] == play(game, bots["search"], seed=4)[1]


def _turn_starts(params, count):
    """(position, the actor's view, its legal actions) at the start of some turns of a
    game of bluffers."""
    game = pyspiel.load_game("python_coup", params)
    rng = np.random.default_rng(0)
    bots = [make_bot("bluffer", game, s, s) for s in range(game.num_players())]
    state, out = game.new_initial_state(), []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        core = state.core
        if core.queue[0][0] == E.S_ACTION and core.turn >= 4 * len(out):
            out.append((core.copy(), View.of(state, core.actor), state.legal_actions()))
        state.apply_action(bots[state.current_player()](state))
    return out


@pytest.mark.parametrize("params", [{"players": 6},
                                    {"players": 5, "deck": "inquisitor", "challenge_order": "chance"},
                                    {"players": 8, "refund_blocked_assassination": True},
                                    # A variant: every number of the rules changed reaches
                                    # the compiled roll-outs as it reaches the engine.
                                    {"players": 4, "coup_cost": 5, "assassination_cost": 2,
                                     "forced_coup_coins": 8, "income": 2, "foreign_aid": 3,
                                     "tax": 4, "steal": 3, "starting_coins": 3}])
def test_compiled_roll_outs_score_as_the_engine_roll_outs(params):
    # Each candidate's mean roll-out score at a turn start, engine against compiled, on
    # 600 seeds: the same within four standard errors.
    n, runs = params["players"], 600
    rates = [(0.3, 0.2, 0.15, 0.2)] * n
    for core, view, legal in _turn_starts(params, 2):
        seat, until = core.actor, core.turn + sum(1 for h in core.hands if h)
        moves = S.candidates(view, legal)
        hands, coins, court, up = sim.position(core)
        kinds, targets = zip(*(C.decode_turn_action(m) for m in moves), strict=True)
        compiled = sim.evaluate(np.repeat(hands[None], runs, 0), np.repeat(court[None], runs, 0),
                                coins, up, np.array(rates), sim.rules_of(core.cfg, seat),
                                core.actor, core.turn, until, np.array(kinds), np.array(targets),
                                np.arange(runs))
        for move, new in zip(moves, compiled, strict=True):
            old = []
            for i in range(runs):
                branch = core.copy()
                branch.apply(move)
                old.append(S.rollout(branch, seat, until, rates, random.Random(i)))
            old = np.array(old)
            error = np.sqrt(old.var() / runs + new.var() / runs)
            assert abs(old.mean() - new.mean()) < 4 * error + 1e-9, (move, old.mean(), new.mean())


def test_compiled_turns_keep_every_card_and_coin():
    core = _turn_starts({"players": 7, "deck": "inquisitor"}, 1)[0][0]
    for seed in range(200):
        hands, coins, court, up = sim.position(core)
        rates = np.full((7, 4), 0.3)
        score = sim.play_turns(hands, coins, court, up, rates, sim.rules_of(core.cfg, 0),
                               core.actor, core.turn, core.turn + 7, seed)
        counts = np.bincount(hands[hands >= 0], minlength=5) + court + up
        assert list(counts) == [core.cfg.copies] * 5 and 0.0 <= score <= 1.0
        assert coins.sum() <= core.cfg.total_coins and coins.min() >= 0


@pytest.mark.parametrize("players", range(3, 9))
def test_best_is_the_fast_agent_at_three_players_and_more(players):
    game = pyspiel.load_game("python_coup", {"players": players})
    assert isinstance(make_bot("best", game, 0, 0), F.FastSearchAgent)


# ----------------------------------------------------------------- the shared bluffing decisions
def _never() -> float:
    raise AssertionError("no draw wanted")


def test_acting_hand_bluffs_only_with_a_character_lacked_and_affordable():
    assert P.acting_hand((C.DUKE,), 2, (C.DUKE, C.ASSASSIN), 1.0, lambda: 0.0, lambda k: 0) == (C.DUKE,)
    assert P.acting_hand((C.DUKE,), 3, (C.DUKE, C.ASSASSIN), 1.0, lambda: 0.0,
                         lambda k: 0) == (C.DUKE, C.ASSASSIN)
    assert P.acting_hand((C.DUKE,), 3, (C.ASSASSIN,), 0.0, _never, _never) == (C.DUKE,)


def test_a_proven_lie_is_always_challenged_else_at_the_rate():
    assert P.challenges(True, 0.0, _never)
    assert not P.challenges(False, 0.0, _never)
    assert P.challenges(False, 0.3, lambda: 0.29) and not P.challenges(False, 0.3, lambda: 0.3)


def test_block_answer_blocks_with_a_card_held_first():
    legal = [C.A_BLOCK + C.CAPTAIN, C.A_BLOCK + C.EXCHANGER, C.A_NO_BLOCK]
    assert P.block_answer(legal, (C.EXCHANGER,), 1.0, _never, _never) == C.A_BLOCK + C.EXCHANGER
    assert P.block_answer(legal, (C.DUKE,), 0.0, _never, _never) == C.A_NO_BLOCK
    assert P.block_answer(legal, (C.DUKE,), 0.5, lambda: 0.1, lambda k: 0) == C.A_BLOCK + C.CAPTAIN


def test_the_panel_and_the_roll_out_players_ask_the_same_function(monkeypatch):
    # The bluffing decisions have one owner, the rules of thumb's functions: made to
    # always challenge, the bluffer and quick_move both challenge a claim they would never
    # doubt.
    assert (S.acting_hand, S.block_answer, S.challenges, F.challenges, H.acting_hand,
            H.block_answer, H.challenges) == (
        P.acting_hand, P.block_answer, P.challenges, P.challenges, P.acting_hand,
        P.block_answer, P.challenges)
    monkeypatch.setattr(P, "challenges", lambda proven, rate, draw: True)
    monkeypatch.setattr(S, "challenges", P.challenges)
    monkeypatch.setattr(H, "challenges", P.challenges)
    state = _after_tax(players=3)
    bluffer = B.BluffingAgent(1, 0, B.BluffParams(challenge_rate=0.0, never_challenge=()))
    assert bluffer(state) == C.A_CHALLENGE
    rates = [(0.0, 0.0, 0.0, 0.0)] * 3
    assert S.quick_move(state.core, 1, rates, random.Random(0), 2) == C.A_CHALLENGE


def _after_tax(players):
    from coup_helpers import play as play_moves
    from coup_helpers import position_state
    hidden = ";".join(["contessa+captain/-/2"] * players)
    state = position_state(f"{hidden};move:0", players=players)
    return play_moves(state, "Tax (claims Duke)")
