"""The Coup search agent (``search``, ``best``): legal play at every table, deck and
2-player setup; deals that never give out a card the seat can prove is not available;
the same seed gives the same game; ``best`` is the search agent at 3-8 players (the
belief agent, built on it, at 2)."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pyspiel
import pytest
from coup_helpers import play_bots as play

from analysis import cli
from analysis.cli import bots as cli_bots  # noqa: F401  (registers every bot)
from analysis.coup.agents import search as S
from analysis.coup.agents.rules_of_thumb import View
from analysis.play.bots import bots_for, make_bot, sample_chance
from games.coup import cards as C
from games.coup import engine as E

PANEL = ("random", "honest", "bluffer", "bluffer-bold")
# A small budget: the tests check what the agent does, not how well.
QUICK = S.Budget(deals_action=2, deals_react=2, horizon=1)


def table(game, seed, searchers=(0,), budget=QUICK):
    """Search agents in ``searchers``, panel agents elsewhere."""
    n = game.num_players()
    return [S.SearchAgent(game, s, seed + s, budget) if s in searchers
            else make_bot(PANEL[(s + seed) % len(PANEL)], game, s, seed + s) for s in range(n)]


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("deck", C.DECKS)
def test_search_agent_plays_legal_actions_at_every_table(players, deck):
    game = pyspiel.load_game("python_coup", {"players": players, "deck": deck})
    for i in range(2):
        state, _ = play(game, table(game, i, searchers=(i % players,)), seed=i)
        assert state.is_terminal()


@pytest.mark.parametrize("setup", ("basic", "standard", "draft"))
@pytest.mark.parametrize("deck", C.DECKS)
def test_search_agent_plays_every_two_player_setup(setup, deck):
    game = pyspiel.load_game("python_coup", {"two_player_setup": setup, "deck": deck})
    for i in range(4):
        me = i % 2
        bots = [make_bot("search" if s == me else PANEL[i], game, s, i) for s in range(2)]
        state, _ = play(game, bots, seed=i)
        assert state.core.winner >= 0


def _world_cards(world: E.Core) -> list[int]:
    """Copies of each character in the hands, the court and face up in ``world``."""
    count = list(world.court)
    for hand in world.hands + world.revealed + (world.drawn,):
        for c in hand:
            count[c] += 1
    return count


def _check_deals(agent: S.SearchAgent, state, rng, draft: bool) -> int:
    """Deal 20 times at the agent's decision; check each deal against the true position."""
    core = state.core
    seat = agent.seat
    agent.memory.read(core)
    view = View.of(state, seat)
    for _ in range(20):
        world = S.deal(view, agent.memory, core, rng)
        # What the seat sees is untouched: its cards, the cards face up, the coins.
        assert world.hands[seat] == core.hands[seat]
        assert world.revealed == core.revealed and world.coins == core.coins
        assert [len(h) for h in world.hands] == [len(h) for h in core.hands]
        assert sum(world.court) == sum(core.court)
        total = _world_cards(world)
        if not draft:
            # "Reparte las 15 cartas (3 copias de cada personaje)"; 4 copies with 7-8.
            assert total == [core.cfg.copies] * C.NUM_CHARACTERS, (total, str(state))
        else:
            # "reparte una carta de personaje de ese montón a cada jugador ... coloca las
            # otras tres cartas en el centro para formar la Corte ... cada uno coge un
            # montón restante y puede elegir otro personaje": one pile, plus two picks,
            # one of them the seat's own.
            extra = [k - 1 for k in total]
            extra[agent.memory.my_pick] -= 1
            assert min(extra) == 0 and sum(extra) == 1, (total, agent.memory.my_pick)
    return 1


@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 2, "two_player_setup": "draft"},
    {"players": 2, "two_player_setup": "draft", "deck": "inquisitor"},
    {"players": 4, "deck": "inquisitor"}, {"players": 6}, {"players": 7},
])
def test_deals_never_give_a_card_the_seat_knows_is_not_available(params):
    game = pyspiel.load_game("python_coup", params)
    draft = params.get("two_player_setup") == "draft"
    rng = random.Random(0)
    checked = [0]
    for i in range(3):
        bots = table(game, i, searchers=(i % game.num_players(),))
        agent = bots[i % game.num_players()]

        def watch(state, seat, agent=agent):
            step = state.core.queue[0][0]
            if seat == agent.seat and step in (E.S_ACTION, E.S_CHAL, E.S_BLOCK):
                checked[0] += _check_deals(agent, state, rng, draft)

        play(game, bots, seed=i, watch=watch)
    assert checked[0] > 0


def _after_tax(position: str, players: int = 2):
    """The position's game after the player to move claims the Duke for Tax."""
    game = pyspiel.load_game("python_coup", {"players": players, "position": position})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    state.apply_action(C.A_TAX)
    return game, state


def test_deals_give_no_duke_when_the_seat_sees_all_three():
    # Two Dukes in the seat's hand and one face up: the third player's Tax is a lie.
    game, state = _after_tax("duke+duke/-/2;?/duke/2;move:1")
    agent = S.SearchAgent(game, 0, 0, QUICK)
    agent.memory.read(state.core)
    view = View.of(state, 0)
    rng = random.Random(1)
    for _ in range(200):
        world = S.deal(view, agent.memory, state.core, rng)
        assert C.DUKE not in world.hands[1] and world.court[C.DUKE] == 0
    assert agent(state) == C.A_CHALLENGE


def test_deals_favour_a_character_claimed_without_being_caught():
    game, state = _after_tax("captain+contessa/-/2;?+?/-/2;move:1")
    agent = S.SearchAgent(game, 0, 0, QUICK)
    agent.memory.read(state.core)
    assert agent.memory.claims[1] == {C.DUKE}
    view = View.of(state, 0)
    rng = random.Random(2)

    def duke_share(memory):
        return np.mean([C.DUKE in S.deal(view, memory, state.core, rng).hands[1]
                        for _ in range(2000)])

    claimed = duke_share(agent.memory)
    blank = S.Memory(2, 0)  # the same seat, had it not seen the claim
    counted = duke_share(blank)
    # Counting alone: two of the 13 unseen cards, 3 of them Dukes: 1 - 10/13 * 9/12.
    assert abs(counted - (1 - 10 / 13 * 9 / 12)) < 0.05
    assert claimed > counted + 0.25


def test_challenge_rate_falls_as_a_player_declines_and_rises_as_it_challenges():
    rates = [S.challenge_rate(0, asked) for asked in (0, 3, 10, 30)]
    assert rates == sorted(rates, reverse=True) and rates[-1] < 0.01
    assert S.challenge_rate(4, 10) > S.challenge_rate(1, 10) > S.challenge_rate(0, 10)


def test_same_seed_same_game_and_another_seed_another():
    game = pyspiel.load_game("python_coup", {"players": 4})
    runs = [play(game, table(game, 0, searchers=(0, 2), budget=S.Budget(4, 4, 0)), seed=5)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]
    others = [play(game, [S.SearchAgent(game, s, 100 + s, S.Budget(4, 4, 0)) if s in (0, 2)
                          else make_bot(PANEL[s], game, s, s) for s in range(4)], seed=5)[1]]
    assert others[0] != runs[0]


@pytest.mark.parametrize("players", range(2, 9))
def test_best_is_the_resolving_agent_at_two_players_and_search_beyond(players):
    from analysis.coup.agents.resolve import ResolveAgent

    game = pyspiel.load_game("python_coup", {"players": players})
    bot = make_bot("best", game, 0, 0)
    assert isinstance(bot, ResolveAgent) == (players == 2)
    assert isinstance(bot, S.SearchAgent)
    names = {spec.name for spec in bots_for("python_coup")}
    assert {"search", "best"} <= names


def test_best_sits_at_a_match_table(capsys):
    argv = ["coup", "match", "--agents", "best,honest,bluffer", "--players", "3", "--games", "3",
            "--seed", "2", "--json"]
    assert cli.main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert {row["agent"] for row in data["seats"]} == {"best", "honest", "bluffer"}
    assert sum(row["wins"] for row in data["seats"]) == pytest.approx(3)


def test_a_challenge_that_does_not_concern_the_seat_needs_a_proven_lie():
    # Three players: P1's Tax takes nothing from P0, who sees one Duke: no challenge
    # whatever the deals say.
    game, state = _after_tax("duke+captain/-/2;?+?/-/2;?+?/-/2;move:1", players=3)
    while state.current_player() != 0:
        state.apply_action(C.A_NO_CHALLENGE)
    assert make_bot("search", game, 0, 3)(state) == C.A_NO_CHALLENGE


@pytest.mark.slow
def test_six_search_agents_finish_a_game_within_a_minute_and_a_second_a_move():
    game = pyspiel.load_game("python_coup", {"players": 6})
    bots = [make_bot("best", game, s, s) for s in range(6)]
    slowest = [0.0]

    def timed(bot):
        def act(state):
            start = time.perf_counter()
            action = bot(state)
            slowest[0] = max(slowest[0], time.perf_counter() - start)
            return action
        return act

    start = time.perf_counter()
    state, _ = play(game, [timed(b) for b in bots], seed=1)
    assert time.perf_counter() - start < 60
    assert slowest[0] < 1.0
