"""The Coup reference panel: legal play at every table size, deck and 2-player setup;
the honest agent backs every claim and challenges only proven lies; the bluffer's knobs
do what they say."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from analysis.coup.agents.bluffer import BluffParams, bluffer_bot
from analysis.coup.agents.honest import honest_bot
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.model import GAME
from analysis.play.bots import bots_for, make_bot, sample_chance
from games.coup import cards as C
from games.coup import engine as E
from games.errors import InvalidParameterError

PANEL = ("random", "honest", "bluffer", "bluffer-bold")


def play(game, bots, seed, watch=None):
    """Play one game; ``watch(state, seat, action)`` sees every decision before it is made."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        action = bots[seat](state)
        assert action in state.legal_actions(seat), (seat, action, str(state))
        if watch is not None:
            watch(state, seat, action)
        state.apply_action(action)
    return state


def visible_to(state, seat, card):
    """Copies of ``card`` in ``seat``'s hand or face up anywhere (the test's own count)."""
    core = state.core
    return core.hands[seat].count(card) + sum(r.count(card) for r in core.revealed)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("deck", C.DECKS)
def test_panel_plays_legal_actions_at_every_table(players, deck):
    game = pyspiel.load_game("python_coup", {"players": players, "deck": deck})
    for i in range(4):
        names = [PANEL[(s + i) % len(PANEL)] for s in range(players)]
        bots = [make_bot(name, game, s, 100 * i + s) for s, name in enumerate(names)]
        state = play(game, bots, seed=i)
        assert state.core.winner >= 0  # somebody won before the turn cap


@pytest.mark.parametrize("setup", ("basic", "standard", "draft"))
@pytest.mark.parametrize("deck", C.DECKS)
def test_panel_plays_legal_actions_in_every_two_player_setup(setup, deck):
    game = pyspiel.load_game("python_coup", {"two_player_setup": setup, "deck": deck})
    for i in range(12):
        names = (PANEL[i % 4], PANEL[(i // 4 + 1) % 4])
        bots = [make_bot(name, game, s, 7 * i + s) for s, name in enumerate(names)]
        play(game, bots, seed=i)


def _claim(state, action):
    """The character a decision claims (a turn action or a block), or None."""
    if action < C.A_CHALLENGE:
        return C.KIND_CLAIM[C.decode_turn_action(action)[0]]
    if C.A_BLOCK <= action < C.A_NO_BLOCK:
        return action - C.A_BLOCK
    return None


@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 2, "two_player_setup": "draft"},
    {"players": 3, "deck": "inquisitor"}, {"players": 5}, {"players": 7},
])
def test_honest_backs_every_claim_and_challenges_only_proven_lies(params):
    game = pyspiel.load_game("python_coup", params)
    n = game.num_players()
    seen = {"claims": 0, "challenges": 0, "asked": 0}

    def watch(state, seat, action):
        if names[seat] != "honest":
            return
        core = state.core
        claim = _claim(state, action)
        if claim is not None:
            seen["claims"] += 1
            assert claim in core.hands[seat], (action, core.hands[seat])
        step = core.queue[0]
        if step[0] == E.S_CHAL:
            seen["asked"] += 1
            claimant, claimed = step[1], step[2]
            if action == C.A_CHALLENGE:
                seen["challenges"] += 1
                # A lie, and one that counting proves: every copy that can be in play is seen.
                assert claimed not in core.hands[claimant]
                in_play = core.cfg.copies - core.unused[claimed]  # the draft leaves cards out
                assert visible_to(state, seat, claimed) >= in_play

    for i in range(40):
        names = ["honest" if (s + i) % 2 == 0 else ("bluffer-bold", "random")[s % 2]
                 for s in range(n)]
        bots = [make_bot(name, game, s, 31 * i + s) for s, name in enumerate(names)]
        play(game, bots, seed=1000 + i, watch=watch)
    assert seen["claims"] > 0 and seen["asked"] > 0


def _position_game(position, players=2):
    return pyspiel.load_game("python_coup", {"players": players, "position": position})


def _honest_answer_to_tax(position, players, seat):
    """The honest seat's answer when the player to move claims the Duke for Tax."""
    game = _position_game(position, players)
    state = game.new_initial_state()
    while state.is_chance_node():  # deal the unknown cards
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(C.A_TAX)
    while state.current_player() != seat:
        state.apply_action(C.A_NO_CHALLENGE)
    return honest_bot(game, seat)(state)


def test_honest_challenges_a_duke_when_it_sees_all_three():
    # "Separad tres cartas de cada uno de los cinco personajes (quince en total)": two
    # Dukes in hand and one face up leave none for the player claiming the Duke.
    assert _honest_answer_to_tax("duke+duke/-/2;captain/duke/2;move:1", 2, 0) == C.A_CHALLENGE
    # With only two of the three in sight the claim may be true: no challenge.
    assert _honest_answer_to_tax("duke+captain/-/2;captain/duke/2;move:1", 2, 0) == C.A_NO_CHALLENGE


def test_honest_counts_four_copies_with_seven_players():
    # "Reglas para 7 u 8 jugadores ... se utilizan 4 copias de cada uno de los 5 personajes".
    others = ";".join(["?+?/-/2"] * 5)
    position = f"duke+duke/-/2;captain/duke/2;{others};move:1"
    assert _honest_answer_to_tax(position, 7, 0) == C.A_NO_CHALLENGE
    others = ";".join(["?+?/-/2"] * 4)
    position = f"duke+duke/-/2;captain/duke/2;contessa/duke/2;{others};move:1"
    assert _honest_answer_to_tax(position, 7, 0) == C.A_CHALLENGE


def test_draft_counts_only_the_cards_in_play():
    """«Las 4 cartas restantes de cada montón no se utilizan»: in the draft a character is in
    play once from the dealt pile plus once per player who picked it."""
    game = pyspiel.load_game("python_coup", {"two_player_setup": "draft"})
    view = View.of(game.new_initial_state(), 0)
    assert view.draft
    assert view.most_in_play(C.DUKE, my_pick=C.DUKE) == 3
    assert view.most_in_play(C.DUKE, my_pick=C.CAPTAIN) == 2
    assert view.most_in_play(C.DUKE, my_pick=None) == 3
    standard = View.of(pyspiel.load_game("python_coup", {"players": 8}).new_initial_state(), 0)
    assert not standard.draft and standard.most_in_play(C.DUKE, None) == 4


def test_honest_must_coup_at_ten_and_coups_the_biggest_threat():
    # "Si empiezas tu turno con 10 monedas o más, tu única acción posible es el golpe de Estado."
    game = _position_game("duke+captain/-/10;assassin/captain/1;contessa+captain/-/5;move:0", 3)
    state = game.new_initial_state()
    assert honest_bot(game, 0)(state) == C.A_COUP + 2  # two cards and more coins than P1


def test_honest_blocks_only_with_the_card():
    game = _position_game("contessa+duke/-/2;assassin+captain/-/3;move:1")
    state = game.new_initial_state()
    state.apply_action(C.A_ASSASSINATE + 0)
    state.apply_action(C.A_NO_CHALLENGE)
    assert honest_bot(game, 0)(state) == C.A_BLOCK + C.CONTESSA
    game = _position_game("captain+duke/-/2;assassin+captain/-/3;move:1")
    state = game.new_initial_state()
    state.apply_action(C.A_ASSASSINATE + 0)
    state.apply_action(C.A_NO_CHALLENGE)
    assert honest_bot(game, 0)(state) == C.A_NO_BLOCK


def _bluffer_record(params, games=40, players=3, **extra):
    """Decisions of a custom bluffer (seat rotating) against the panel."""
    game = pyspiel.load_game("python_coup", {"players": players, **extra})
    log = []
    for i in range(games):
        me = i % players
        bots = [bluffer_bot(game, s, 50 * i + s, params) if s == me
                else make_bot(PANEL[(s + i) % 4], game, s, 50 * i + s) for s in range(players)]

        def watch(state, seat, action, me=me):
            if seat == me:
                log.append((state.core.queue[0], state.core.hands[seat], action))

        play(game, bots, seed=i, watch=watch)
    return log


def _bluffs(log):
    return sum(1 for step, hand, a in log
               if step[0] in (E.S_ACTION, E.S_BLOCK) and (c := _claim(None, a)) is not None
               and c not in hand)


def test_bluff_rates_zero_mean_no_bluffs_and_high_rates_bluff():
    calm = _bluffer_record(BluffParams(bluff_rate=0.0, block_bluff_rate=0.0))
    assert _bluffs(calm) == 0
    wild = _bluffer_record(BluffParams(bluff_rate=1.0, block_bluff_rate=1.0))
    assert _bluffs(wild) > 20
    turn_bluffs = [a for step, hand, a in wild if step[0] == E.S_ACTION
                   and (c := _claim(None, a)) is not None and c not in hand]
    assert turn_bluffs


def test_never_challenge_the_duke():
    params = BluffParams(challenge_rate=1.0, never_challenge=(C.DUKE,), caution=1.0)
    log = _bluffer_record(params)
    asked = [(step[2], a) for step, _, a in log if step[0] == E.S_CHAL]
    assert not [1 for claim, a in asked if claim == C.DUKE and a == C.A_CHALLENGE]
    assert any(claim == C.DUKE for claim, _ in asked)
    # Every other claim it was asked about, it challenged (the rate is 1).
    assert all(a == C.A_CHALLENGE for claim, a in asked if claim != C.DUKE)


def test_bluffer_is_seeded():
    params = BluffParams(bluff_rate=0.5, challenge_rate=0.5, block_bluff_rate=0.5)
    assert _bluffer_record(params, games=6) == _bluffer_record(params, games=6)


def test_bluff_rates_are_probabilities():
    with pytest.raises(InvalidParameterError, match="bluff_rate"):
        BluffParams(bluff_rate=1.5)


def test_panel_is_registered_for_coup_only():
    coup = {spec.name for spec in bots_for(GAME)}
    assert {"random", "honest", "bluffer", "bluffer-bold"} <= coup
    assert "honest" not in {spec.name for spec in bots_for("python_goat_lords")}


def test_every_coup_bot_lives_in_the_module_the_agents_table_names():
    """One module per bot, named after it (the bold bluffer is the bluffer's variant), and
    one table from name to module whose order is the order the bots are listed in."""
    from analysis.coup.agents import BOTS

    registered = {spec.name: spec for spec in bots_for(GAME)}
    assert list(BOTS) == list(registered)
    for name, spec in registered.items():
        assert spec.factory.__module__ == BOTS[name].__name__, name
        if name != "random":
            stem = BOTS[name].__name__.removeprefix("analysis.coup.agents.")
            assert stem == name.replace("-", "_") or (name, stem) == ("bluffer-bold", "bluffer")


@pytest.mark.parametrize("shown,answer", [(C.CAPTAIN, C.A_EXAMINE_FORCE), (C.CONTESSA, C.A_EXAMINE_KEEP)])
def test_honest_inquisitor_forces_a_swap_of_a_strong_card_only(shown, answer):
    # "el Inquisidor elige entre devolverla o descartarla"
    game = pyspiel.load_game("python_coup", {"deck": "inquisitor",
                                             "position": "inquisitor+duke/-/2;captain+contessa/-/2;move:0"})
    state = game.new_initial_state()
    state.apply_action(C.A_EXAMINE + 1)
    state.apply_action(C.A_NO_CHALLENGE)
    state.apply_action(C.A_SHOW + shown)
    assert state.current_player() == 0
    assert honest_bot(game, 0)(state) == answer
    # Examined, the honest agent shows the card it values least.
    game = pyspiel.load_game("python_coup", {"deck": "inquisitor",
                                             "position": "captain+contessa/-/2;inquisitor+duke/-/2;move:1"})
    state = game.new_initial_state()
    state.apply_action(C.A_EXAMINE + 0)
    state.apply_action(C.A_NO_CHALLENGE)
    assert honest_bot(game, 0)(state) == C.A_SHOW + C.CONTESSA
