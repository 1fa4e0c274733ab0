"""The ``lord`` search agent: legal whole games on 2–6 players, worlds that agree with
what play has shown, seeded moves, ``best`` naming it, and the commands that seat it."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

from analysis.cli import main
from analysis.goat_lords import GAME
from analysis.goat_lords import agents as goat_bots
from analysis.goat_lords.agents.greedy import greedy_choice
from analysis.goat_lords.agents.lord import DEFAULT, SearchSettings, search
from analysis.goat_lords.model import Belief
from analysis.play.bots import make_bot, sample_chance
from analysis.play.session import play_game
from analysis.shared import store
from analysis.shared.params import load_game
from games.goat_lords import rules
from games.goat_lords.cards import DECK_COUNTS, NUM_KINDS
from games.goat_lords.table import CHANCE, DUEL

FAST = SearchSettings(simulations=6)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_move_is_legal_in_whole_games(players):
    """Two seats search (the others play greedy) from the deal to the last card."""
    game = pyspiel.load_game(GAME, {"players": players, "scoring": "single"})
    rng = np.random.default_rng(players)
    searchers = {0: random.Random(1), players - 1: random.Random(2)}
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if seat in searchers:
            action = search(state.table, seat, searchers[seat], FAST)
            assert action in legal
            searched += 1
        else:
            action = greedy_choice(state.table, seat, legal)
        state.apply_action(action)
    assert searched > 10 and state.table.winning


def test_a_two_player_game_of_rounds_to_the_end():
    """The default game (rounds to 1,000 points) with ``lord`` in both seats."""
    game = pyspiel.load_game(GAME, {"players": 2, "target_score": 300})
    bots = [make_bot("lord", game, seat, seat) for seat in range(2)]
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            action = bots[state.current_player()](state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert max(state.table.totals) >= 300


# --- worlds that agree with the public record ------------------------------------------
class Witness:
    """What the public record proves, collected while the true game is played.

    Written from the rules text, not from the belief's code: a discard means the
    discarder's hand had no birth, assisted birth or duel ("Si no se puede hacer nada de
    lo anterior, el jugador descarta una carta"); a reshuffle turns the discard pile into
    the draw pile ("baraja la pila de descarte restante y continúa extrayendo de ella").
    """

    def __init__(self, players):
        self.players = players
        self.reset()

    def reset(self):
        self.discards = []  # (seat, card, size after, cards no hand could have held with it)
        self.plays = [0] * self.players  # cards each seat has shown this round
        self.reshuffle = None  # (discard pile then, own draws since per seat)

    def before(self, table, action):
        """Note what a move shows (called before it is applied)."""
        p = table.to_move
        if table.phase == DUEL:
            if action != rules.YIELD:
                self.plays[p] += 1
            return
        if action < rules.ASSIST0:
            self.plays[p] += 2
            return
        self.plays[p] += 1
        if action >= rules.DISCARD0:
            card = action - rules.DISCARD0
            size = sum(table.hands[p])
            banned = set()
            for k in range(NUM_KINDS):
                # A hand of the discarded card and k: would it have had any other move?
                hand = [0] * NUM_KINDS
                hand[card] += 1
                hand[k] += 1
                if size >= 2 and (rules.birth_options(hand)
                                  or rules.assisted_options(hand, table.discard_top())
                                  or rules.duel_options(hand, table.herds, p)):
                    banned.add(k)
            self.discards.append((p, card, size - 1, banned, self.plays[p]))

    def chance(self, table, before_reshuffles):
        if table.stats["reshuffles"] > before_reshuffles:
            self.reshuffle = (list(self.last_discard), [[0] * NUM_KINDS for _ in range(self.players)])

    def check(self, world, truth, me):
        """Every fact the record proves holds in ``world`` (a dealt copy of ``truth``)."""
        n = self.players
        assert world.hands[me] == truth.hands[me]
        assert world.herds == truth.herds and world.discard == truth.discard
        assert [sum(h) for h in world.hands] == [sum(h) for h in truth.hands]
        unseen = [sum(world.hands[q][k] for q in range(n) if q != me) + world.draw[k]
                  for k in range(NUM_KINDS)]
        assert unseen == [sum(truth.hands[q][k] for q in range(n) if q != me) + truth.draw[k]
                          for k in range(NUM_KINDS)]
        for p, card, kept, banned, shown in self.discards:
            if p == me:
                continue
            # Cards still held from the discarding hand: distinct, none of them banned.
            still = kept - (self.plays[p] - shown)
            fitting = sum(1 for k in range(NUM_KINDS)
                          if world.hands[p][k] and k not in banned and k != card)
            assert fitting >= still, (p, card, banned, world.hands[p])
        # A count of cards is never negative.
        assert min(world.draw) >= 0 and min(min(h) for h in world.hands) >= 0, (world.draw, world.hands)
        if self.reshuffle is not None:
            pile, drawn = self.reshuffle
            left = [pile.count(k) - drawn[me][k] for k in range(NUM_KINDS)]
            assert all(world.draw[k] <= left[k] for k in range(NUM_KINDS)), (world.draw, left)


def _walk_and_check(players, seed, worlds=4):
    game = pyspiel.load_game(GAME, {"players": players, "scoring": "single"})
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    state = game.new_initial_state()
    witness = Witness(players)
    checked = exact = 0
    while not state.is_terminal():
        t = state.table
        if state.is_chance_node():
            reshuffles = t.stats["reshuffles"]
            witness.last_discard = list(t.discard)
            drawer = t.pending[0] if t.pending else None
            before = list(t.draw)
            state.apply_action(sample_chance(state, rng))
            witness.chance(state.table, reshuffles)
            if witness.reshuffle is not None and drawer is not None and reshuffles == t.stats["reshuffles"]:
                drawn = [b - a for b, a in zip(before, state.table.draw, strict=True)]
                if sum(drawn) == 1:
                    witness.reshuffle[1][drawer][drawn.index(1)] += 1
            continue
        if pick.random() < 0.25:
            me = pick.randrange(players)
            belief = Belief(t, me)
            exact += belief.exact
            witness.check(t, t, me)  # the truth passes the checks it applies
            for _ in range(worlds):
                witness.check(belief.sample(pick), t, me)
            checked += 1
        legal = state.legal_actions()
        action = greedy_choice(t, t.to_move, legal) if pick.random() < 0.85 else pick.choice(legal)
        witness.before(t, action)
        state.apply_action(action)
    return checked, exact


@pytest.mark.parametrize("players,seed", [(2, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (6, 6)])
def test_dealt_worlds_agree_with_the_public_record(players, seed):
    checked, exact = _walk_and_check(players, seed)
    assert checked > 5
    # The record is followed exactly almost always (else every unseen deal is allowed).
    assert exact >= 0.9 * checked


def test_plain_resampling_breaks_the_record():
    """The checks can fail: dealing every unseen card at random, ignoring the record,
    breaks them in some positions (so the worlds above pass for a reason)."""
    broken = 0
    for seed in range(3):
        game = pyspiel.load_game(GAME, {"players": 2, "scoring": "single"})
        rng = np.random.default_rng(seed)
        pick = random.Random(seed)
        state = game.new_initial_state()
        witness = Witness(2)
        while not state.is_terminal():
            t = state.table
            if state.is_chance_node():
                witness.last_discard = list(t.discard)
                reshuffles = t.stats["reshuffles"]
                state.apply_action(sample_chance(state, rng))
                witness.chance(t, reshuffles)
                continue
            for _ in range(3):
                try:
                    witness.check(t.resample(t.to_move, pick), t, t.to_move)
                except AssertionError:
                    broken += 1
            action = greedy_choice(t, t.to_move, state.legal_actions())
            witness.before(t, action)
            state.apply_action(action)
    assert broken > 0


# --- seeds, names and commands ---------------------------------------------------------
def _mid_game(players=3, seed=3, steps=60):
    game = pyspiel.load_game(GAME, {"players": players})
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while steps or state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(greedy_choice(state.table, state.current_player(), state.legal_actions()))
            steps = max(0, steps - 1)
    return game, state


@pytest.mark.parametrize("seed", [0, 1])
def test_a_seed_gives_the_same_moves(seed):
    game, state = _mid_game(seed=seed)
    seat = state.current_player()
    moves = []
    for _ in range(2):
        bot = make_bot("lord", game, seat, 11)
        moves.append([bot(state) for _ in range(3)])
    assert moves[0] == moves[1]
    assert state.table.to_move == seat and state.table.to_move != CHANCE


def test_best_is_the_strongest_agent():
    assert goat_bots.STRONGEST == "lord"
    game, state = _mid_game(seed=4)
    seat = state.current_player()
    best, lord = make_bot("best", game, seat, 7), make_bot("lord", game, seat, 7)
    assert [best(state) for _ in range(3)] == [lord(state) for _ in range(3)]


def test_lord_with_a_budget_by_name():
    game, state = _mid_game(seed=2)
    bot = goat_bots.build_bot("lord:5", game, state.current_player(), 0)
    assert bot(state) in state.legal_actions()


def test_match_command_seats_best(capsys):
    code = main(["goat-lords", "match", "--agents", "best,greedy", "--games", "2", "--json",
                 "--param", "scoring=single"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["agent"] for r in data["seats"]} == {"best", "greedy"}
    assert sum(r["wins"] for r in data["seats"]) == pytest.approx(2)


def test_farol_play_against_best():
    game = load_game(GAME, {"players": 2, "scoring": "single"})
    lines: list[str] = []
    returns = play_game(game, seat=0, opponent="best", seed=3, read=lambda _p: "a",
                        write=lines.append)
    assert returns is not None and "Winner(s):" in "\n".join(lines)


# A game of the strong agent (4 players, one round, value set "cheap wilds"), up to a
# move of seat 3: after the reshuffle seat 1 discards a Foodie, and the belief took it
# from the reshuffled pile, of which seat 3 then draws the last Foodie itself.
RESHUFFLE_CASE = (
    1, 8, 6, 8, 3, 10, 3, 2, 7, 3, 7, 4, 6, 5, 8, 8, 9, 18, 4, 11, 140, 10, 137, 4, 29, 1,
    2, 141, 2, 135, 8, 138, 2, 23, 7, 10, 83, 118, 0, 5, 29, 11, 4, 133, 11, 135, 4, 81, 11,
    140, 6, 132, 6, 25, 0, 9, 85, 117, 1, 5, 85, 1, 27, 2, 11, 137, 1, 58, 118, 5, 9, 136,
    6, 47, 6, 70, 8, 39, 2, 51, 0, 63, 117, 3, 5, 140, 5, 83, 6, 141, 1, 44, 10, 26, 4, 2,
    63, 118, 7, 0, 45, 11, 43, 11, 59, 3, 40, 6, 133, 9, 36, 3, 72, 120, 10, 8, 63, 1, 30,
    7, 11, 32, 11, 7, 66, 9, 70, 128, 128, 4, 10, 10, 56, 4, 138, 4, 41, 2, 72, 9, 137, 9,
    25, 5, 3, 73, 3, 85, 5, 49, 5, 48, 9, 72, 10, 26, 8, 7, 50, 4, 62, 122, 1, 5, 31, 8, 3,
    91, 3, 134, 8, 58, 122, 7, 7, 132, 6, 84, 120, 6, 7, 141, 9, 55, 9, 51, 129, 11, 87, 10,
    30, 10, 7, 66, 11, 78, 126, 5, 9, 78, 126, 4, 8, 28, 3, 2, 64, 2, 62, 10, 61, 5, 140, 7,
    68, 11, 43, 10, 91
)


def test_a_card_drawn_after_the_reshuffle_corrects_the_belief():
    """Seat 3's own draw proves seat 1's Foodie was held from before the reshuffle: the
    belief must not count it twice (the pile's count went negative and the search failed)."""
    from analysis.goat_lords.studies.plan import VALUE_SETS, value_params

    params = {"players": 4, "scoring": "single", **dict(value_params(VALUE_SETS["cheap wilds"]))}
    state = pyspiel.load_game(GAME, params).new_initial_state()
    for action in RESHUFFLE_CASE:
        state.apply_action(action)
    t = state.table
    assert t.stats["reshuffles"] == 1 and state.current_player() == 3
    belief = Belief(t, 3)
    assert belief.exact
    assert all(c >= 0 for pool in belief.pools for c in pool), belief.pools
    rng = random.Random(0)
    for _ in range(50):
        world = belief.sample(rng)
        assert min(world.draw) >= 0 and min(min(h) for h in world.hands) >= 0
        assert world.hands[3] == t.hands[3] and world.draw_size() == t.draw_size()
        assert [sum(h) for h in world.hands] == [sum(h) for h in t.hands]
    assert search(t, 3, random.Random(1), FAST) in t.legal_actions()


def test_dealt_worlds_keep_the_deck():
    game, state = _mid_game(players=4, seed=9)
    world = Belief(state.table, 2).sample(random.Random(0))
    total = [sum(hand[k] for hand in world.hands) + world.draw[k] + world.discard.count(k)
             + sum(cards.count(k) for herd in world.herds for _, cards in herd)
             for k in range(NUM_KINDS)]
    assert total == list(DECK_COUNTS)


def test_a_saved_match_resumes_to_the_same_result(tmp_path, capsys):
    """``--save``: the games kept, a stopped match (even mid-line) resumes to the result
    of one run straight through, stored with version, commit and seed."""
    args = ["goat-lords", "match", "--agents", "greedy,random", "--games", "6", "--seed", "4",
            "--param", "scoring=single", "--save", "t", "--json"]
    with store.use(tmp_path):
        assert main(args) == 0
        whole = json.loads(capsys.readouterr().out)
        games = tmp_path / "goat_lords" / "matches" / "t.games.jsonl"
        lines = games.read_text().splitlines()
        assert len(lines) == 7
        games.write_text("\n".join(lines[:3]) + "\n" + lines[3][:9])  # killed while writing
        assert main(args) == 0
        resumed = json.loads(capsys.readouterr().out)
        stored = json.loads((tmp_path / "goat_lords" / "matches" / "t.json").read_text())
        assert len(games.read_text().splitlines()) == 7
        assert resumed == whole and whole["schema"].startswith("match")
        assert {k: v for k, v in whole.items() if k != "schema"} == stored  # the record
        assert stored["seed"] == 4 and stored["version"] and stored["commit"]
        other = args[:]
        other[other.index("--seed") + 1] = "5"
        assert main(other) == 2
        assert "records another match" in capsys.readouterr().err


def test_a_saved_match_names_the_budget_that_played(tmp_path, capsys):
    """Stored matches say ``lord:N``, not ``lord`` or ``best``, so a later change of the
    default cannot relabel them; the pinned name plays the very same games."""
    assert goat_bots.pinned("best") == goat_bots.pinned(goat_bots.STRONGEST)
    assert goat_bots.pinned("lord") == f"lord:{DEFAULT.simulations}"
    assert goat_bots.pinned("greedy") == "greedy" and goat_bots.pinned("lord:7") == "lord:7"
    args = ["goat-lords", "match", "--agents", "best,greedy", "--games", "1", "--seed", "3",
            "--param", "scoring=single", "--json"]
    with store.use(tmp_path):
        assert main(args + ["--save", "b"]) == 0
        saved = json.loads(capsys.readouterr().out)
        stored = json.loads((tmp_path / "goat_lords" / "matches" / "b.json").read_text())
    assert {r["agent"] for r in stored["seats"]} == {goat_bots.pinned("best"), "greedy"}
    assert main(args) == 0  # not saved: the names as typed
    shown = json.loads(capsys.readouterr().out)
    assert {r["agent"] for r in shown["seats"]} == {"best", "greedy"}
    assert [r["wins"] for r in shown["seats"]] == [r["wins"] for r in saved["seats"]]
