"""Every decision of ``best`` at 2 players reads a mix from its re-solve
(:mod:`analysis.coup.agents.resolve_mixed`), and its range records it.

- At every decision with a choice (turn actions, challenges, blocks, the card lost, the
  cards kept after an exchange, the draft pick) the move is drawn with the weights of
  the re-solve's mix at the hand held, and that mix is the one its oracle gives (what a
  local best response reads).
- The agent keeps the mix for every hand of its range at that spot, and its own model
  of its play (what its beliefs weigh its past choices by) reads it there: the card it
  loses or keeps is no fixed rule the beliefs do not know.
- The draft pick and the first turn share a public history (a pick is seen only by its
  picker): the re-solves of the two spots are kept apart.
- An exchange cut by the re-solve's end is worth its draw with the exchanger keeping the
  best pair by the leaf values: checked against the sum over the draws by hand.
"""

from __future__ import annotations

import copy
import random

import pyspiel
import pytest

import games  # noqa: F401  (registers the games)
from analysis.coup import agents as A
from analysis.coup.agents.best import best_bot
from analysis.coup.agents.resolve import ResolveOracle
from analysis.coup.agents.resolve_mixed import MixedResolveAgent, mixed_bot
from analysis.coup.solvers import leaf_table
from analysis.coup.solvers.belief_resolve import exchange_played, heuristic
from analysis.play.bots import make_bot
from games.coup import cards as C
from games.coup import engine as E
from games.coup.view import infoset_key

ITERATIONS = 20  # quick re-solves: the test is about where the moves come from


class Recorder(random.Random):
    """A seeded stream that keeps the weights of every draw from a mix."""

    def __init__(self, seed):
        super().__init__(seed)
        self.draws = []

    def choices(self, population, weights=None, **kw):
        self.draws.append((list(population), list(weights)))
        return super().choices(population, weights=weights, **kw)


def agent(game, seat, seed):
    bot = mixed_bot(game, seat, seed)
    return MixedResolveAgent(game, seat, seed, horizon=6, iterations=ITERATIONS,
                             leaf=bot.leaf, leaf_name=bot.leaf_name, quiet=bot.quiet)


def play(params, seeds):
    """Games of the agent in seat 0 against ``bluffer``: each of its decisions with a
    choice, the step, the mix drawn from, the move, its own record and its oracle's mix."""
    game = pyspiel.load_game("python_coup", params)
    out = []
    for seed in seeds:
        me = agent(game, 0, seed)
        me.rng = Recorder(seed)
        oracle = ResolveOracle(agent(game, 0, 0))
        other = make_bot("bluffer", game, 1, seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if state.current_player() == 1:
                state.apply_action(other(state))
                continue
            core = state.core
            legal = state.legal_actions()
            before = len(me.rng.draws)
            move = me(state)
            if len(legal) > 1:
                assert len(me.rng.draws) == before + 1, f"step {core.queue[0]}: no mix drawn"
                population, weights = me.rng.draws[-1]
                key = infoset_key(core, 0)
                out.append((core.queue[0][0], dict(zip(population, weights, strict=True)),
                            move, dict(me.played[key]), dict(oracle.mix(core, 0)),
                            (_at(me.belief, core), dict(me.played), me), core.copy()))
            state.apply_action(move)
    return out


def _at(belief, core):
    # the agent's beliefs brought to this spot (kept short of it at a card to lose)
    belief = copy.copy(belief)
    belief.update(core)
    return list(belief.worlds)


@pytest.fixture(scope="module")
def basic_games():
    return play({}, range(4))


def test_every_decision_is_drawn_from_the_resolved_mix(basic_games):
    steps = set()
    for step, drawn, move, recorded, oracle_mix, _, _ in basic_games:
        steps.add(step)
        assert drawn[move] > 0.0
        assert sorted(drawn) == sorted(oracle_mix)
        for a in oracle_mix:
            assert drawn.get(a, 0.0) == pytest.approx(oracle_mix[a], abs=1e-12)
            assert recorded.get(a, 0.0) == pytest.approx(oracle_mix[a], abs=1e-12)
        assert sum(drawn.values()) == pytest.approx(1.0)
    # card choices are among them, not only the moves the old agent re-solved
    assert {E.S_ACTION, E.S_CHAL, E.S_LOSE} <= steps
    assert E.S_KEEP in steps


def test_the_range_records_every_hand_at_a_card_choice(basic_games):
    """At a card choice, the agent keeps a mix for every hand it could hold, and its own
    model of its play gives that mix: the beliefs weigh its choice as it is made."""
    checked = 0
    for step, _, _, _, _, (worlds, played, me), core in basic_games:
        if step not in (E.S_LOSE, E.S_KEEP):
            continue
        worlds = [w for _, w in worlds if w.hands[0] != core.hands[0]]
        hands = {w.hands[0] for w in worlds}
        for world in worlds:
            key = infoset_key(world, 0)
            assert key in played, "a hand of its range without its mix"
            model = dict(me._own_model(world, 0))
            mix = played[key]
            for a, p in model.items():
                assert p == pytest.approx(mix.get(a, 0.0), abs=1e-8)
        checked += len(hands) > 0
    assert checked


def _dealt(game, hands, moves):
    """The game dealt ``hands`` (seat 0 starts), then ``moves`` played, the redraw of a
    card shown drawing the first card the court offers."""
    core = E.Core(game.config)
    wanted = [list(h) for h in hands]
    while core.cur == E.CHANCE:
        step = core.queue[0]
        if step[0] == E.S_DEAL:
            core.apply(wanted[step[1]].pop(0))
        elif step[0] == E.S_START:
            core.apply(0)
        else:
            core.apply(core.chance_outcomes()[0][0])
    for move in moves:
        core.apply(move)
        while core.cur == E.CHANCE:
            core.apply(core.chance_outcomes()[0][0])
    return core


def test_a_pair_lost_without_a_choice_stays_in_the_range():
    """A player holding a pair loses a card without stopping at a choice, so the spot
    where a player with two different cards chooses is not on every world's way: the
    oracle, asked first there, still answers later for a world that held a pair (seat 0
    challenges a true Duke and loses a card)."""
    game = pyspiel.load_game("python_coup", {})
    oracle = ResolveOracle(agent(game, 0, 0))
    moves = [C.A_INCOME, C.A_TAX, C.A_CHALLENGE]
    two = _dealt(game, [(C.CAPTAIN, C.CONTESSA), (C.DUKE, C.ASSASSIN)], moves)
    pair = _dealt(game, [(C.CAPTAIN, C.CAPTAIN), (C.DUKE, C.ASSASSIN)], moves)
    for core in (two, pair):
        for k in range(len(moves)):  # its earlier decisions, as a range update asks them
            before = _dealt(game, [core.hands[0] + core.revealed[0], (C.DUKE, C.ASSASSIN)],
                            moves[:k])
            if before.cur == 0:
                oracle.mix(before, 0)
    assert two.queue[0][0] == E.S_LOSE and pair.queue[0][0] != E.S_LOSE
    assert sum(p for _, p in oracle.mix(two, 0)) == pytest.approx(1.0)  # solved there first
    after = pair  # its next turn, one Captain left
    assert after.cur == 0 and after.queue[0][0] == E.S_ACTION and after.hands[0] == (C.CAPTAIN,)
    mix = dict(oracle.mix(after, 0))
    assert sum(mix.values()) == pytest.approx(1.0)
    hands = {w.hands[0] for _, w in oracle.belief_at(after).worlds}
    assert (C.CAPTAIN,) in hands


def test_the_draft_pick_is_mixed_and_kept_apart_from_the_first_turn():
    found = play({"two_player_setup": "draft"}, range(1))
    steps = [s for s, *_ in found]
    assert steps[0] == E.S_PICK
    pick = found[0]
    step, drawn, move, recorded, oracle_mix, _, core = pick
    assert set(drawn) == set(core.legal_actions())
    # the first turn's re-solve follows the pick's own: a mix over turn actions there
    action = next(x for x in found if x[0] == E.S_ACTION)
    assert all(a < C.A_PICK for a in action[1])


def test_best_stays_the_measured_agent_until_the_mixed_one_is_measured():
    """best at 2 players is the re-solving agent whose bound is measured; the mixed agent
    is named apart (and its oracle is its own) until a local best response measures it
    less exploitable."""
    game = pyspiel.load_game("python_coup", {})
    assert not isinstance(best_bot(game, 0, 0), MixedResolveAgent)
    assert type(best_bot(game, 0, 0)).__name__ == "ResolveAgent"
    assert not isinstance(A.mix_oracle("best", game, 1).agent, MixedResolveAgent)
    assert isinstance(A.mix_oracle("resolve-mixed", game, 1).agent, MixedResolveAgent)


def test_an_exchange_cut_short_is_worth_the_best_pair_kept():
    """By hand: the value of an exchange's draw, each pair's chance times the best keep
    by the leaf for the exchanger (player 0 here, who maximises player 0's value)."""
    game = pyspiel.load_game("python_coup", {"position": "duke+captain/-/3;contessa+assassin/-/2;move:0"})
    leaf = leaf_table.stored_table("ambassador").leaf("basic", heuristic)
    played = exchange_played(leaf)
    core = game.new_initial_state().core
    core.apply(C.A_EXCHANGE)
    core.apply(C.A_NO_CHALLENGE)
    assert core.queue[0][0] in (E.S_XDRAW, E.S_XDRAW2)
    expected = 0.0
    for draw, p in core.chance_outcomes():
        after = core.copy()
        after.apply(draw)
        expected += p * max(leaf(_kept(after, a)) for a in after.legal_actions())
    assert played(core) == pytest.approx(expected, abs=1e-12)
    # keeping the hand it holds is among the choices: never worth less than that
    assert played(core) >= min(leaf(_kept(_drawn(core, d), a)) for d, _ in core.chance_outcomes()
                               for a in _drawn(core, d).legal_actions()) - 1e-12


def _drawn(core, draw):
    out = core.copy()
    out.apply(draw)
    return out


def _kept(core, action):
    out = core.copy()
    out.apply(action)
    return out
