"""Re-solving a 2-player Coup spot over the public beliefs
(:mod:`analysis.coup.solvers.belief_resolve`, :class:`~analysis.coup.solvers.beliefs.PublicBelief`):
with no depth limit the re-solve of a small endgame is an equilibrium of the real game
(OpenSpiel's exploitability of its strategy is zero); the public beliefs are Bayes'
rule over both hands; the re-solving agent plays legal games."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as osp
from open_spiel.python.algorithms import exploitability

import games  # noqa: F401  (registers the games)
from analysis.coup.agents.resolve import ResolveAgent
from analysis.coup.solvers.belief_resolve import heuristic, resolve, unroll
from analysis.coup.solvers.beliefs import ClaimModel, PublicBelief, visible_events
from analysis.play.bots import make_bot
from analysis.solve.cyclic import CyclicCFR
from games.coup.view import infoset_key

SMALL = ("?/duke/3;?/captain/2;move:0", "?/assassin/3;?/contessa/0;move:1")


def first_decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


class ResolvedPolicy(osp.Policy):
    """The re-solved strategies of both players as an OpenSpiel policy: a state's
    information set in the small game is what its player knew at the spot plus the
    events it saw since."""

    def __init__(self, game, sub, strategies):
        super().__init__(game, [0, 1])
        self.sub, self.strategies = sub, strategies

    def action_probabilities(self, state, player_id=None):
        core, p = state.core, state.current_player()
        legal = core.legal_actions()
        if len(legal) == 1:
            return {legal[0]: 1.0}
        spot = _spot(state)
        since = visible_events(core, p)[len(visible_events(spot, p)):]
        seen = (infoset_key(spot, p),) + tuple(since)
        _, first, width = self.sub.infosets[(p, seen)]
        return dict(zip(self.sub.moves[(p, seen)],
                        self.strategies[p][first:first + width].tolist(), strict=True))


def _spot(state):
    # The spot in this state's own game: its history replayed up to the first decision.
    s = state.get_game().new_initial_state()
    for a in state.history():
        if not s.is_chance_node():
            break
        s.apply_action(a)
    return s.core


@pytest.mark.parametrize("position", SMALL)
def test_unlimited_resolve_of_an_endgame_is_an_equilibrium(position):
    game = pyspiel.load_game("python_coup", {"position": position, "turn_cap": 1})
    spot = first_decision(game)
    belief = PublicBelief(game, (ClaimModel(), ClaimModel()))
    belief.update(spot.core)
    assert len({world.hands for _, world in belief.worlds}) == len(belief.worlds) > 1
    sub = unroll(belief.worlds, turns=None, horizon=None)
    root = np.zeros(sub.graph.num_nodes)
    root[0] = 1.0
    solver = CyclicCFR(sub.graph, root)
    solver.run(2000)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    gap = exploitability.exploitability(game, ResolvedPolicy(game, sub, strategies))
    assert gap < 2e-3
    # The resolve function reads the same strategy at the mover's hands.
    solved = resolve(belief.worlds, turns=None, horizon=None, iterations=2000, measure=True)
    assert solved.exploitability < 2e-3
    key = infoset_key(spot.core, spot.current_player())
    assert set(solved.mixes[key]) == set(spot.legal_actions())
    assert sum(solved.mixes[key].values()) == pytest.approx(1.0)


def test_public_beliefs_are_bayes_over_both_hands():
    """On a short history, the public posterior over the pair of hands is the prior
    times both models' chances of the public moves, computed by enumeration."""
    game = pyspiel.load_game("python_coup", {"position": "?+?/-/2;?+?/-/2;move:0",
                                             "turn_cap": 2})
    model = ClaimModel()
    spot = first_decision(game)
    tax = next(a for a in spot.legal_actions() if spot.action_to_string(a).startswith("Tax"))
    spot.apply_action(tax)
    assert spot.current_player() == 1  # may challenge the Duke claim
    belief = PublicBelief(game, (model, model))
    belief.update(spot.core)
    got = belief.joint()
    # Enumerate: every deal's chance times player 0's chance of claiming the Duke.
    want: dict = {}
    start = game.new_initial_state()
    stack = [(1.0, start)]
    while stack:
        w, s = stack.pop()
        if s.is_chance_node():
            for a, p in s.chance_outcomes():
                child = s.clone()
                child.apply_action(a)
                stack.append((w * p, child))
            continue
        hands = s.core.hands
        want[hands] = want.get(hands, 0.0) + w * dict(model(s.core, 0))[tax]
    total = sum(want.values())
    assert set(got) == set(want)
    for hands, w in want.items():
        assert got[hands] == pytest.approx(w / total, abs=1e-12)


def test_heuristic_leaf_is_the_strength_gap():
    from analysis.coup.solvers.strength import score

    game = pyspiel.load_game("python_coup", {})
    rng = random.Random(0)
    for _ in range(20):
        s = game.new_initial_state()
        while not s.is_terminal():
            if not s.is_chance_node():
                assert heuristic(s.core) == pytest.approx(score(s.core, 0) - score(s.core, 1))
            actions = ([a for a, _ in s.chance_outcomes()] if s.is_chance_node()
                       else s.legal_actions())
            s.apply_action(rng.choice(actions))


def play_out(game, bots, rng):
    """A game to its end, chance drawn from ``rng``, each move checked legal."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
            continue
        action = bots[state.current_player()](state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("setup", ("basic", "standard", "draft"))
@pytest.mark.parametrize("deck", ("ambassador", "inquisitor"))
def test_the_resolving_agent_plays_legal_games(deck, setup):
    game = pyspiel.load_game("python_coup", {"deck": deck, "two_player_setup": setup,
                                             "turn_cap": 12})
    bots = [ResolveAgent(game, 0, seed=1, iterations=30), make_bot("bluffer", game, 1, 2)]
    play_out(game, bots, random.Random(1))
    last = bots[0].last
    assert last is None or abs(sum(next(iter(last.mixes.values())).values()) - 1) < 1e-9


def test_the_agent_refuses_more_than_two_players():
    from games.errors import InvalidParameterError

    game = pyspiel.load_game("python_coup", {"players": 3})
    with pytest.raises(InvalidParameterError):
        ResolveAgent(game, 0)


def test_advice_from_the_resolve_reads_the_mix_at_the_players_hand():
    from analysis.coup.advice.resolve import LIMIT, RULE, advise_state
    from games.errors import InvalidPositionError

    game = pyspiel.load_game("python_coup", {})
    state = game.new_initial_state()
    for a in (0, 3, 2, 4):  # P0 Duke+Captain, P1 Ambassador+Contessa
        state.apply_action(a)
    advice = advise_state(state)
    assert advice.text().splitlines()[0] == LIMIT
    assert advice.hand == "Duke+Captain" and advice.player == 0
    assert sum(p for _, p, _ in advice.moves) == pytest.approx(1.0)
    assert {m for m, _, _ in advice.moves} == {state.action_to_string(a)
                                              for a in state.legal_actions()}
    assert sum(p for _, p in advice.opponent_hands) == pytest.approx(1.0)
    # Before the opponent has moved, their hand is the deal's odds from the 13 cards
    # left: two of the two other Dukes, or one of three Ambassadors and one of three
    # Contessas, out of 78 pairs.
    hands = dict(advice.opponent_hands)
    assert hands["Duke+Duke"] == pytest.approx(1 / 78)
    assert hands["Ambassador+Contessa"] == pytest.approx(9 / 78)
    assert 0.0 <= advice.exploitability < 1e-2
    assert advice.to_json()["truncated"] == LIMIT
    # Which card to lose changes neither cards nor coins: best's plain rule, no values.
    lose = pyspiel.load_game("python_coup", {"position": "duke+captain/-/2;?+?/-/7;move:1"})
    s = lose.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action(next(a for a in s.legal_actions() if s.action_to_string(a).startswith("Coup")))
    ruled = advise_state(s)
    assert ruled.rule == RULE and all(v is None for _, _, v in ruled.moves)
    assert sorted(p for _, p, _ in ruled.moves) == [0.0, 1.0]
    assert "no move has a value" in ruled.text() and LIMIT not in ruled.text()
    # The game over: no one decides.
    over = pyspiel.load_game("python_coup", {}).new_initial_state()
    with pytest.raises(InvalidPositionError, match="no player decides"):
        advise_state(over)


def _histories(game, count, spots, monkeypatch):
    """The move lists of ``count`` re-solving games (both seats), with ``spots`` as the
    process's store of solved spots."""
    from analysis.coup.agents import resolve as resolve_agent

    monkeypatch.setattr(resolve_agent, "SOLVED", spots)
    out = []
    for g in range(count):
        bots = [ResolveAgent(game, 0, seed=2 * g, iterations=30),
                ResolveAgent(game, 1, seed=2 * g + 1, iterations=30)]
        out.append(play_out(game, bots, random.Random(g)).history())
    return out


def test_reusing_solved_spots_plays_the_same_moves(monkeypatch):
    # A re-solve is a function of the public history, the seat and the settings, so a
    # spot met again is answered from the store with the very same mix.
    from analysis.coup.agents.resolve import SolvedSpots

    game = pyspiel.load_game("python_coup", {"turn_cap": 10})
    kept = SolvedSpots()
    fresh = _histories(game, 6, SolvedSpots(size=0), monkeypatch)
    reused = _histories(game, 6, kept, monkeypatch)
    assert reused == fresh
    assert kept.hits > 0 and kept.misses > 0
    assert len(kept) == kept.misses


def test_the_store_of_solved_spots_forgets_the_oldest():
    from analysis.coup.agents.resolve import SolvedSpots

    spots = SolvedSpots(size=2)
    for key in "abc":
        spots.put(key, key)
    assert len(spots) == 2 and spots.get("a") is None and spots.get("c") == "c"
    spots.get("b")
    spots.put("d", "d")
    assert spots.get("c") is None and spots.get("b") == "b"
    assert (spots.hits, spots.misses) == (3, 2)


def test_the_blueprint_leaf_agent_stops_its_resolves_on_the_table(tmp_path):
    """``resolve-blueprint`` reads the deck's shipped leaf table: a position the table
    names is worth the table's value, any other the card-and-coin heuristic (its name keys
    its re-solves apart from the plain agent's); a setup the table lacks is refused in a
    line."""
    import numpy as np

    from analysis.coup.solvers import leaf_table as L
    from analysis.shared import store
    from games.errors import InvalidParameterError

    game = pyspiel.load_game("python_coup", {"two_player_setup": "basic", "turn_cap": 12})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    core = state.core
    mean = np.full(L.SIZE, np.nan)
    mean[L.leaf_code(core)] = 0.75
    table = L.LeafTable("ambassador", {"basic": mean}, {"basic": np.ones(L.SIZE)},
                        {"basic": 50}, {"version": "v", "commit": "c", "seed": None})
    with store.use(tmp_path):
        table.save(L.table_path("ambassador"))
        L.stored_table.cache_clear()
        try:
            bot = make_bot("resolve-blueprint", game, 0, 1)
            assert bot.leaf_name == "blueprint ambassador basic 50"
            assert bot.leaf(core) == 0.75
            poorer = core.copy()
            poorer.coins = (0, 7)
            assert bot.leaf(poorer) == heuristic(poorer) != 0.75
            bot.iterations = 30
            play_out(game, [bot, make_bot("bluffer", game, 1, 2)], random.Random(3))
            draft = pyspiel.load_game("python_coup", {"two_player_setup": "draft"})
            with pytest.raises(InvalidParameterError,
                               match="no blueprint leaf values for the ambassador deck's "
                                     "draft setup") as refused:
                make_bot("resolve-blueprint", draft, 0, 1)
            assert "\n" not in str(refused.value)
        finally:
            L.stored_table.cache_clear()


@pytest.mark.parametrize("setup", ("basic", "standard"))
@pytest.mark.parametrize("deck", ("ambassador", "inquisitor"))
def test_the_blueprint_leaf_agent_plays_legal_games_on_the_shipped_tables(deck, setup):
    """``resolve-blueprint`` plays every deck's dealt setups from the tables that ship
    with Farol, with no build first; its mixes are distributions."""
    game = pyspiel.load_game("python_coup", {"deck": deck, "two_player_setup": setup,
                                             "turn_cap": 12})
    bot = make_bot("resolve-blueprint", game, 0, 1)
    assert bot.leaf_name.startswith(f"blueprint {deck} {setup} ")
    bot.iterations = 30
    play_out(game, [bot, make_bot("honest", game, 1, 2)], random.Random(5))
    last = bot.last
    assert last is None or abs(sum(next(iter(last.mixes.values())).values()) - 1) < 1e-9
