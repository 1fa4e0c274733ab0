"""The deal-lifted compile (``analysis.solve.lifted``): one walk for all hidden deals.

It must give exactly the state graph the direct walk gives (every deal walked): same
nodes in the same order, same information sets and keys, same action names. The cases
cover what the lifted walk has to get right: villains played face down and face up
(Maiden, Fortune-Teller), two villains meeting (exchanges, the Seductress, the
Executioner), an Inquisitor drawing the hidden villain, the Troubadour's flags, courtiers
dealt at random, a position given mid-battle, one information set holding a dealt
villain and a received one, and the Procuress, whose owner is shown the rival's villain
and may swap it for their own.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from walker_check import ARRAYS

import games  # noqa: F401
from analysis.solve import GameTooLargeError, UnsupportedGameError, compile_game
from analysis.solve.lifted import compile_lifted
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.hidden import masked_state_key, still_hidden

CASES = [
    {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
     "villain_deck": "Thug/Sheep/Executioner"},
    {"kinds": "all", "warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
     "courtier0": "Squire", "courtier1": "Archer"},
    {"kinds": "warriors+villains", "warriors": 3, "combats": 3,
     "villain_deck": "Assassin/Beggar/Seductress/Troubadour"},
    {"kinds": "all", "warriors": 2, "combats": 3, "courtier0": "Inquisitor",
     "courtier1": "Fortune-Teller"},
    {"kinds": "all", "warriors": 2, "combats": 3, "courtier0": "Maiden",
     "courtier1": "Standard-Bearer", "villain_deck": "King's Ghost/Friar/Seductress/Troubadour"},
    {"kinds": "all", "warriors": 2, "combats": 2, "courtier0": "random", "courtier1": "Wolf",
     "court_deck": "Sentinel/Royal Guard/Wolf", "quicker": "random",
     "villain_deck": "Assassin/Thug/Sheep/Executioner"},
    # A position from the middle of a battle, villains still to be dealt at random.
    {"kinds": "all", "courtier0": "Squire", "courtier1": "Inquisitor",
     "position": "hand0:1.2.4.?;hand1:0.2.5.?;court0:Squire;court1:Inquisitor;combat:5;unharmed:0"},
    # The Procuress: "Your rival must show you their villain. Once revealed, if you wish,
    # you may swap it for yours." In either seat, and dealt at random among courtiers.
    {"kinds": "all", "warriors": 2, "combats": 3, "courtier0": "Inquisitor",
     "courtier1": "Procuress", "villain_deck": "King's Ghost/Friar/Seductress/Executioner"},
    {"kinds": "all", "warriors": 2, "combats": 2, "courtier0": "random", "courtier1": "random",
     "court_deck": "Procuress/Squire/Wolf", "villain_deck": "Thug/Sheep/Executioner",
     "quicker": "random"},
]


def _id(params):
    return ",".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("params", CASES, ids=[_id(p) for p in CASES])
def test_lifted_compile_equals_the_direct_walk(params):
    game = pyspiel.load_game("python_cobardes_battle", params)
    assert game.lifted_walker().lifts()
    direct = compile_game(game, graph=True, lifted=False)
    lifted = compile_lifted(game)
    for name in ARRAYS:
        assert np.array_equal(getattr(direct, name), getattr(lifted, name)), name
    assert direct.infoset_keys == lifted.infoset_keys
    assert direct.action_names == lifted.action_names
    assert direct.imperfect_recall and lifted.imperfect_recall
    # ...and graph mode takes the lifted walk by itself, walking fewer positions.
    default = compile_game(game, graph=True, key_names=False)
    assert np.array_equal(default.edge_child, direct.edge_child)
    assert default.walked == lifted.walked < direct.walked == direct.num_internal


def test_an_information_set_can_hold_a_dealt_and_a_received_villain():
    """The abstraction's key names the villains a player holds, not whether the rival
    knows them: after an exchange the received villain (public) shares its information
    set with the same villain dealt (hidden). The lifted compile must merge them too, so
    the direct walk has fewer information sets than dealt/received pairs would give."""
    game = pyspiel.load_game("python_cobardes_battle", CASES[0])
    lifted = compile_lifted(game)
    keys = lifted.infoset_keys
    assert len(keys) == len(set(keys))
    assert len(keys) == compile_game(game, graph=True, lifted=False).num_infosets


def test_the_procuress_shows_a_hidden_villain_in_the_lifted_walk():
    """The Procuress's owner is shown the rival's villain while it is still hidden from
    them (the rival knows their own): both know it from then on, so the lifted walk takes
    the show as a reveal, moving the position to every deal. The battle below meets such
    shows, swaps after them, and gives the same graph as the direct walk (array for
    array), walking fewer positions."""
    params = {"kinds": "all", "warriors": 2, "combats": 2, "courtier0": "Procuress",
              "courtier1": "Inquisitor", "villain_deck": "Thug/Sheep/Executioner"}
    game = pyspiel.load_game("python_cobardes_battle", params)
    walker = game.lifted_walker()
    assert walker.lifts()
    shows, swaps = [], []
    child = walker.child

    def counting(pos, action):
        after = child(pos, action)
        if (pos.phase == E.VANGUARD and action == E.ADVANCE
                and pos.court[pos.actor] == C.PROCURESS and after.phase == E.PROC_TAKE):
            shows.append(after.h[1 - pos.actor] & C.VILLAIN_MASK & ~pos.kv[pos.actor])
        if pos.phase == E.PROC_TAKE and action != E.PASS:
            swaps.append(action)  # takes the shown villain, giving one of theirs
        return after

    walker.child = counting
    lifted = compile_lifted(game, walker=walker)
    assert any(shows) and swaps  # villains the owner had not seen, shown; and swapped
    direct = compile_game(game, graph=True, lifted=False)
    for name in ARRAYS:
        assert np.array_equal(getattr(direct, name), getattr(lifted, name)), name
    assert direct.infoset_keys == lifted.infoset_keys
    assert lifted.walked < direct.walked


def test_games_without_hidden_deals_are_not_lifted():
    game = pyspiel.load_game("python_cobardes_battle", {"kinds": "warriors", "warriors": 2})
    assert not game.lifted_walker().lifts()
    with pytest.raises(UnsupportedGameError, match="no lifted walker"):
        compile_lifted(pyspiel.load_game("kuhn_poker"))


def _dealt(villains=("Thug", "Sheep")):
    """A lifted walker and the position after the random deal gave ``villains``."""
    game = pyspiel.load_game("python_cobardes_battle", {
        "kinds": "warriors+villains", "warriors": 2, "combats": 3,
        "villain_deck": "Thug/Sheep/Friar/Executioner"})
    walker = game.lifted_walker()
    pos = walker.root()
    for name in villains:
        assert walker.conceals(pos) >= 0
        pos = walker.child(pos, C.CARD_NAMES.index(name))
    return walker, pos


def test_transpose_swaps_two_villains_everywhere_and_is_an_involution():
    walker, pos = _dealt()
    thug, sheep, friar = (C.CARD_NAMES.index(n) for n in ("Thug", "Sheep", "Friar"))
    moved = E.transpose(pos, thug, friar)
    assert moved.h[0] >> friar & 1 and not moved.h[0] >> thug & 1
    assert moved.h[1] == pos.h[1]
    back = E.transpose(moved, friar, thug)
    assert back.__dict__ == pos.__dict__
    assert E.transpose(pos, sheep, sheep) is pos


def test_a_villain_stays_hidden_until_shown_to_both():
    """A villain prepared face down is still hidden; played face up or revealed in the
    confrontation it is not."""
    walker, pos = _dealt()
    thug = C.CARD_NAMES.index("Thug")
    assert still_hidden(pos, 0, thug)
    face_down = walker.child(pos, thug)  # player 0 prepares the Thug
    assert face_down.cards[0] == thug and still_hidden(face_down, 0, thug)
    revealed = walker.child(face_down, 0)  # player 1 plays the prince
    assert not still_hidden(revealed, 0, thug)
    face_up = face_down.copy()
    face_up.open = True
    assert not still_hidden(face_up, 0, thug)


def test_the_masked_key_forgets_only_the_hidden_villains():
    walker, pos = _dealt()
    thug, sheep, friar = (C.CARD_NAMES.index(n) for n in ("Thug", "Sheep", "Friar"))
    key = masked_state_key(pos, (thug, sheep))
    assert masked_state_key(E.transpose(pos, thug, friar), (friar, sheep)) == key
    assert masked_state_key(pos, (thug, -1)) != key  # player 1's villain now shows
    assert masked_state_key(pos, (-1, -1)) == walker.state_key(pos)


def test_a_walk_over_the_memory_budget_is_refused_with_its_size():
    game = pyspiel.load_game("python_cobardes_battle", CASES[0])
    with pytest.raises(GameTooLargeError, match="positions to walk"):
        compile_lifted(game, max_memory=100 * 400)
