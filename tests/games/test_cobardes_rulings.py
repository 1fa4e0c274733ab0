"""The rulebook's "Example of a Battle", and every ruling of docs/rules/cobardes.md."""

from __future__ import annotations

import pyspiel
import pytest
from cobardes_util import ADVANCE, PASS, SEND, battle, card, face_off, outcome

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidPositionError


def test_example_of_a_battle_combat_by_combat():
    """The rulebook's "Example of a Battle": Claudia (P0: Troubadour, Archer) against
    Héctor (P1: Executioner, Squire)."""
    s = battle(v0="Troubadour", v1="Executioner", c0="Archer", c1="Squire")

    # "Combat 1: Claudia plays the 5, Héctor dares with his 3. He would lose, but thanks
    # to the Squire (3 + 1 = 4) he defends against the 5."
    face_off(s, 5, 3)
    assert s.current_player() == 1 and s.legal_actions() == [PASS, SEND]
    s.apply_action(SEND)
    assert outcome(s) is None and s.position.combat == 2

    # "Combat 2: Both play the 6. They do not surprise each other. The battle continues."
    face_off(s, 6, 6)
    assert outcome(s) is None and s.position.combat == 3

    # "Combat 3: Claudia prepares the 4 and Héctor the 5. ... The 4 can defend against the 5."
    face_off(s, 4, 5)
    assert outcome(s) is None and s.position.combat == 4

    # "Combat 4: Claudia plays the 3, Héctor launches the Executioner. Too bad, he does not
    # catch the enemy villain, but it lets him play the 2."
    face_off(s, 3, "Executioner")
    assert s.position.phase == E.FOLLOW and s.current_player() == 1
    s.apply_action(2)
    assert outcome(s) is None and s.position.combat == 5

    # "Combat 5: Claudia plays the Princess, Héctor the 4. Victory? Not so fast. The Archer
    # makes the 4 flee, and Héctor changes it for his Prince. We go on."
    face_off(s, 0, 4)
    assert s.current_player() == 0
    s.apply_action(SEND)
    assert s.current_player() == 1 and s.legal_actions() == [0, 1]  # his 4 fled to hand
    s.apply_action(0)
    assert outcome(s) is None and s.position.combat == 6
    assert s.position.unh & 1, "Claudia's princess got out of combat 5 unharmed"

    # "Combat 6: Claudia triumphantly shows her Troubadour. Victory, 2-2. Héctor's 4 cannot
    # avoid the defeat."
    face_off(s, "Troubadour", 4)
    assert outcome(s) == (E.VICTORY, 0)
    # "(Héctor's hand: Warrior 1 ...; Claudia's hand: Warriors 1 and 2 ...)"
    assert E.bits(s.position.h[0]) == [1, 2]
    assert E.bits(s.position.h[1]) == [1]


def test_example_in_the_war_brings_the_score_to_two_all():
    """"Claudia has 1 Victory against Héctor's 2" ... "Victory, 2-2": the war goes on."""
    game = pyspiel.load_game("python_cobardes_war", {"kinds": "warriors", "tokens0": 1, "tokens1": 2})
    s = game.new_initial_state()
    s.apply_action(5)
    s.apply_action(3)  # no courtiers here: 5 against 3 wins at once
    assert s.war.tokens == (2, 2) and not s.is_terminal()


# ------------------------------------------------------------------ ruling 2: follow-ups


def test_followup_can_be_declined_and_the_combat_has_no_winner():
    """Ruling 2: "then you may play the warrior you want from your hand" — declining
    (followup=optional) ends the combat with no winner."""
    s = battle(v0="Beggar")
    face_off(s, "Beggar", 0)
    assert PASS in s.legal_actions()
    s.apply_action(PASS)
    assert outcome(s) is None and s.position.combat == 2
    assert s.position.unh == 0b10, "P1's prince got out of the combat unharmed"


def test_followup_mandatory_when_asked():
    """Ruling 2, followup=mandatory: a warrior must follow if the owner holds one."""
    s = battle(v0="Beggar", followup="mandatory")
    face_off(s, "Beggar", 0)
    assert PASS not in s.legal_actions() and s.legal_actions() == [0, 1, 2, 3, 4, 5, 6]


def test_no_warrior_to_follow_up_ends_the_combat():
    """Ruling 2: a player with no warrior in hand cannot follow up."""
    s = battle(position="hand0:Beggar.0;hand1:3.4;combat:7;unharmed:1")
    face_off(s, 0, 3)  # 0 against 3 would lose...
    assert outcome(s) == (E.CROWN, 1)
    s = battle(warriors=5, position="hand0:Beggar;hand1:3;combat:7;unharmed:0.1")
    face_off(s, "Beggar", 3)
    assert outcome(s) == (E.DRAW, -1), "no follow-up, no winner, and it was the 7th combat"


# ------------------------------------------------------------------ ruling 3: exchanges


def test_insisting_on_exchanges_withdraws_the_villains():
    """Ruling 3: "If you insist on exchanging villains, withdraw them under the Villain deck." """
    s = battle(v0="Beggar", v1="Thug")
    face_off(s, "Beggar", "Thug")
    face_off(s, "Thug", "Beggar")  # the same villains meet again in the same combat
    pos = s.position
    assert not (pos.h[0] | pos.h[1]) & C.VILLAIN_MASK
    assert sorted(pos.out) == sorted([card("Beggar"), card("Thug")])
    assert pos.phase == E.COMMIT and pos.combat == 1


def test_exchange_limit_zero_withdraws_at_once():
    """Ruling 3, exchange_limit=0: meeting villains are withdrawn straight away."""
    s = battle(v0="Beggar", v1="Thug", exchange_limit=0)
    face_off(s, "Beggar", "Thug")
    assert len(s.position.out) == 2


# ------------------------------------------------------------------ rulings 4-7: villains


def test_executioner_beats_the_seductress():
    """Ruling 4: "his ability takes precedence over that of any other villain." """
    s = battle(v0="Seductress", v1="Executioner")
    face_off(s, "Seductress", "Executioner")
    assert outcome(s) == (E.VICTORY, 1)


def test_seductress_captures_the_sheep():
    """Ruling 5: "When a character's action seems to go against the general rules, the
    character's action prevails." """
    s = battle(v0="Sheep", v1="Seductress")
    face_off(s, "Sheep", "Seductress")
    pos = s.position
    assert pos.h[1] >> card("Sheep") & 1 and not pos.h[0] & C.VILLAIN_MASK


def test_captured_villain_can_be_played_later():
    """Ruling 6: the captured villain is in the owner's hand, known to both, and playable."""
    s = battle(v0="Seductress", v1="Thug")
    face_off(s, "Seductress", "Thug")
    assert card("Thug") in s.legal_actions()
    assert "P0 holds: Thug" in s.observation_string(1)
    face_off(s, "Thug", 4)
    assert outcome(s) == (E.VICTORY, 0)


def test_two_villains_in_one_hand_are_refused_but_the_engine_plays_them():
    """Ruling 6: "As the Seductress herself leaves the hand, a standard battle never puts
    two villains in one hand", so such a starting position is refused in one line; the
    engine still plays one (ruling 12: the Procuress's owner chooses what to give)."""
    with pytest.raises(InvalidPositionError, match="player 0 holds 2 villains"):
        battle(c1="Procuress", position="hand0:0.1.Thug.Beggar;hand1:0.1.Friar.Sheep")
    cfg = E.Config()
    two = (1 << card("Thug")) | (1 << card("Beggar")), (1 << card("Friar")) | (1 << card("Sheep"))
    pos = E.begin(cfg, E.new_pos((0b11 | two[0], 0b11 | two[1]), (-1, C.PROCURESS)))
    assert pos.actor == 1
    pos = E.apply(cfg, pos, ADVANCE)
    pos = E.apply(cfg, pos, E.TAKE0 + card("Beggar") - 7)
    assert pos.phase == E.PROC_GIVE
    assert E.legal_actions(cfg, pos) == [E.GIVE0 + card("Friar") - 7, E.GIVE0 + card("Sheep") - 7]
    pos = E.apply(cfg, pos, E.GIVE0 + card("Sheep") - 7)
    assert E.bits(pos.h[0]) == [0, 1, card("Thug"), card("Sheep")]
    assert E.bits(pos.h[1]) == [0, 1, card("Friar"), card("Beggar")]


# ------------------------------------------------------------------ ruling 8: King's Ghost


def test_kings_ghost_when_the_rival_has_no_other_warrior():
    """Ruling 8: with no other warrior to replace it, the frightened warrior stays."""
    s = battle(v1="King's Ghost", position="hand0:5;hand1:0.King's Ghost;combat:7;unharmed:0")
    face_off(s, 5, "King's Ghost")
    assert s.position.phase == E.FOLLOW and s.current_player() == 1
    s.apply_action(0)
    assert outcome(s) == (E.CROWN, 0), "the 5 stayed and beats the prince"


# ------------------------------------------------------------------ rulings 9-12: vanguard


def test_quicker_alternates_by_combat():
    """Ruling 9: "If both of you wish to play it, the quicker one does so first." """
    s = battle(c0="Standard-Bearer", c1="Fortune-Teller")
    assert s.current_player() == 0
    s.apply_action(PASS)
    assert s.current_player() == 1
    s.apply_action(PASS)
    face_off(s, 3, 3)
    assert s.position.phase == E.VANGUARD and s.current_player() == 1, "combat 2: P1 first"


def test_quicker_random_is_a_chance_node():
    """Ruling 9, quicker=random."""
    s = battle(c0="Standard-Bearer", c1="Fortune-Teller", quicker="random")
    assert s.is_chance_node() and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert s.child(1).current_player() == 1


def test_fortune_teller_against_maiden():
    """Ruling 10: the Maiden's owner plays first and face up; the Fortune-Teller's owner
    then plays their strongest warrior."""
    s = battle(c0="Fortune-Teller", c1="Maiden")
    s.apply_action(ADVANCE)
    s.apply_action(ADVANCE)
    assert s.current_player() == 1 and len(s.legal_actions()) == 7
    s.apply_action(4)
    assert s.current_player() == 0 and s.legal_actions() == [6]
    s.apply_action(6)
    assert outcome(s) == (E.VICTORY, 0)


def test_two_fortune_tellers_cancel():
    """Ruling 22 (hypothetical mirror): Fortune-Teller: "your rival must play a card from
    their hand before you". When both advance one, each demand cancels the other: the
    combat is revealed as usual, player 0 preparing a card face down first."""
    s = battle(c0="Fortune-Teller", c1="Fortune-Teller", allow_mirror=True)
    s.apply_action(ADVANCE)
    s.apply_action(ADVANCE)
    pos = s.position
    assert pos.phase == E.COMMIT and pos.first == 0 and not pos.open
    s.apply_action(3)
    assert "3" not in s.information_state_string(1).split("|")[-1]


def test_maiden_binds_the_repeated_confrontation():
    """Ruling 10: vanguard effects last the whole combat."""
    s = battle(v0="Thug", v1="Beggar", c1="Maiden", warriors=5,
               position="hand0:Thug;hand1:Beggar;combat:7;unharmed:0.1")
    s.apply_action(ADVANCE)
    assert s.current_player() == 0 and s.legal_actions() == [card("Thug")]


def test_inquisitor_not_against_an_empty_hand():
    """Ruling 11: the Inquisitor needs a card to draw."""
    pos = battle(c0="Inquisitor").position
    assert E._can_advance(pos, 0)
    empty = pos.copy()
    empty.h = (pos.h[0], 0)
    assert not E._can_advance(empty, 0)


def test_procuress_without_own_villain_only_looks():
    """Ruling 12."""
    s = battle(v1="Thug", c0="Procuress")
    s.apply_action(ADVANCE)
    assert "P1 shows you: Thug" in s.information_state_string(0)
    assert s.position.phase == E.COMMIT


# ------------------------------------------------------------------ rulings 13-15: rearguard


def test_archer_then_the_rival_answers_with_the_royal_guard():
    """Rulings 13-14: the Archer forces a change to the prince, which now loses; the rival
    answers with the Royal Guard."""
    s = battle(c0="Archer", c1="Royal Guard", position="hand0:0.3;hand1:0.5;combat:6")
    face_off(s, 3, 5)
    s.apply_action(SEND)  # P0's Archer
    s.apply_action(0)     # P1 must change the 5: only the prince is left
    assert s.position.phase == E.REAR and s.current_player() == 1
    s.apply_action(SEND)  # Royal Guard: 0 + 2 = 2 against 3
    assert outcome(s) is None
    assert s.position.h[1] == 1 << 5, "the 5 is back in hand"


def test_sentinel_can_flip_and_the_rival_answers():
    """Ruling 14: a Sentinel change that flips the result lets the other side answer."""
    s = battle(c0="Squire", c1="Sentinel")
    face_off(s, 4, 2)
    s.apply_action(SEND)   # P1's Sentinel: change the 2
    s.apply_action(6)      # 6 against 4
    assert s.current_player() == 0 and s.position.phase == E.REAR
    s.apply_action(SEND)   # Squire: 5 against 6
    assert outcome(s) is None


def test_archer_needs_another_warrior():
    """Ruling 13: the Archer cannot be sent if the rival has no other warrior."""
    s = battle(c0="Archer", position="hand0:2;hand1:5.Thug;combat:7;unharmed:0.1", v1="Thug")
    face_off(s, 2, 5)
    assert outcome(s) == (E.VICTORY, 1)


def test_standard_bearer_helps_the_follow_up_warrior():
    """Ruling 15: the +1 goes to "the warrior who is going to fight this combat"."""
    s = battle(v0="Beggar", c0="Standard-Bearer")
    s.apply_action(ADVANCE)
    face_off(s, "Beggar", 3)
    s.apply_action(4)
    assert outcome(s) == (E.VICTORY, 0), "4 + 1 against 3"


# ------------------------------------------------------------------ rulings 16-20


def test_troubadour_counts_a_prince_that_faced_a_villain():
    """Ruling 16: a prince facing a villain whose owner declined the follow-up got out
    unharmed."""
    s = battle(v0="Troubadour", v1="Beggar")
    face_off(s, 0, "Beggar")
    s.apply_action(PASS)
    assert s.position.unh & 1
    face_off(s, "Troubadour", 2)
    assert outcome(s) == (E.VICTORY, 0)


def test_troubadour_flag_from_the_position():
    """Ruling 16: the flag is part of a starting position."""
    s = battle(v0="Troubadour", position="hand0:1.2.Troubadour;hand1:0.5.6;combat:6;unharmed:0")
    face_off(s, "Troubadour", 5)
    assert outcome(s) == (E.VICTORY, 0)


def test_troubadour_against_a_villain_is_an_exchange():
    """Ruling 16: "When two villains meet, however, they are simply exchanged." """
    s = battle(v0="Troubadour", v1="Beggar",
               position="hand0:1.2.Troubadour;hand1:0.5.Beggar;combat:6;unharmed:0")
    face_off(s, "Troubadour", "Beggar")
    assert outcome(s) is None and s.position.h[1] >> card("Troubadour") & 1


def test_no_card_left_is_a_draw():
    """Ruling 17: a combat needs a card from each player."""
    s = battle(kinds="warriors", warriors=1, draw_value=0.5)
    face_off(s, 0, 1)
    face_off(s, 1, 0)
    assert outcome(s) == (E.NO_CARDS, -1)
    assert s.returns() == [0.5, -0.5]


def test_sheep_loses_no_crown():
    """Ruling 18: losing with the Sheep is not losing the prince."""
    s = battle(v0="Sheep")
    face_off(s, "Sheep", 5)
    assert outcome(s) == (E.VICTORY, 1)


def test_seven_combats_then_a_draw():
    """"If after seven combats there is no winner, the battle ends in a draw." """
    s = battle(kinds="warriors")
    for a in range(7):
        assert outcome(s) is None
        face_off(s, a, a)
    assert outcome(s) == (E.DRAW, -1)


@pytest.mark.parametrize("values,expected", [
    ({"win_value": 2.0}, [2.0, -2.0]),
    ({"loss_value": -0.5}, [-0.5, 0.5]),
])
def test_payoffs_are_parameters(values, expected):
    """Payoffs for the war analysis: "battle won / lost"."""
    s = battle(kinds="warriors", **values)
    face_off(s, 5, 3) if "win_value" in values else face_off(s, 3, 5)
    assert s.returns() == expected
