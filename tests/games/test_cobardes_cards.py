"""One test per ¡Cobardes! card effect, each quoting the rule it checks."""

from __future__ import annotations

import pytest
from cobardes_util import ADVANCE, PASS, SEND, battle, card, face_off, outcome

from games.cobardes import cards as C
from games.cobardes import engine as E

# ------------------------------------------------------------------ warriors


def test_warrior_exceeding_by_two_wins_the_battle():
    """"Victory! Your Warrior 5 exceeds its enemy 3 by more than 1 point." """
    s = battle(kinds="warriors")
    face_off(s, 5, 3)
    assert outcome(s) == (E.VICTORY, 0)
    assert s.returns() == [1.0, -1.0]


def test_one_point_is_not_enough():
    """"Only 1 point of difference is not enough to win. The battle continues." """
    s = battle(kinds="warriors")
    face_off(s, 4, 5)
    assert outcome(s) is None
    assert s.position.combat == 2


def test_defeating_the_prince_takes_the_crown():
    """"If the warrior defeated is the enemy prince, you win the war and the Crown token."
    "Remember that the princes are also warriors, of strength 0." """
    s = battle(kinds="warriors")
    face_off(s, 0, 2)
    assert outcome(s) == (E.CROWN, 1)
    assert s.returns() == [-3.0, 3.0]


def test_pure_combat_winner_function():
    """"If one of them exceeds the other by 2 or more points of strength, it wins the combat." """
    assert C.combat_winner(5, 3) == 0
    assert C.combat_winner(3, 5) == 1
    assert C.combat_winner(4, 3) == -1
    assert C.combat_winner(0, 0) == -1


# ------------------------------------------------------------------ villains


def test_assassin_kills_the_prince():
    """Assassin: "If the Assassin faces the enemy prince, she fulfils her mission. You win
    the war and the Crown token." """
    s = battle(v0="Assassin")
    face_off(s, "Assassin", 0)
    assert outcome(s) == (E.CROWN, 0)


def test_assassin_against_another_warrior_gives_a_follow_up():
    """Assassin: "If, however, she faces another enemy warrior, then you may play the
    warrior you want from your hand." """
    s = battle(v0="Assassin")
    face_off(s, "Assassin", 3)
    pos = s.position
    assert pos.phase == E.FOLLOW and pos.actor == 0
    assert s.legal_actions() == [0, 1, 2, 3, 4, 5, 6, PASS]
    s.apply_action(5)
    assert outcome(s) == (E.VICTORY, 0)


def test_kings_ghost_sends_the_warrior_back_and_forces_a_new_one():
    """King's Ghost: "The enemy warrior flees to your rival's hand ... Your rival must
    replace it with a new warrior from their hand. Afterwards, you may play the warrior
    you want from your hand." """
    s = battle(v1="King's Ghost")
    face_off(s, 6, "King's Ghost")
    pos = s.position
    assert pos.phase == E.GHOST and pos.actor == 0
    assert pos.h[0] >> 6 & 1, "the 6 fled back to hand"
    assert 6 not in s.legal_actions() and s.legal_actions() == [0, 1, 2, 3, 4, 5]
    s.apply_action(1)
    assert s.position.phase == E.FOLLOW and s.current_player() == 1
    s.apply_action(3)
    assert outcome(s) == (E.VICTORY, 1)
    assert s.position.h[0] >> 6 & 1, "the 6 stays in P0's hand for a later combat"


def test_friar_stops_the_battle():
    """Friar: "Let there be peace! Stop the battle. Nobody takes the Victory." """
    s = battle(v0="Friar", draw_value=0.25)
    face_off(s, "Friar", 6)
    assert outcome(s) == (E.PEACE, -1)
    assert s.returns() == [0.25, -0.25]


def test_thug_beats_the_four():
    """Thug: "If the Thug faces the enemy Warrior 4, you win the battle and a Victory token." """
    s = battle(v1="Thug")
    face_off(s, 4, "Thug")
    assert outcome(s) == (E.VICTORY, 1)


def test_thug_against_another_warrior_gives_a_follow_up():
    """Thug: "If, however, he faces another enemy warrior, then you may play the warrior
    you want from your hand." """
    s = battle(v1="Thug")
    face_off(s, 5, "Thug")
    assert s.position.phase == E.FOLLOW and s.current_player() == 1
    s.apply_action(5)
    assert outcome(s) is None and s.position.combat == 2


def test_beggar_sees_the_card_then_plays():
    """Beggar: "Once you have seen their card, if it is a warrior, then you may play the
    warrior you prefer from your hand." """
    s = battle(v1="Beggar")
    face_off(s, 4, "Beggar")
    assert "reveal: P0 warrior 4, P1 Beggar" in s.information_state_string(1)
    s.apply_action(6)
    assert outcome(s) == (E.VICTORY, 1)


def test_sheep_fights_with_strength_one():
    """Sheep: "If, however, she faces an enemy warrior, she becomes a warrior and fights
    with strength 1." """
    s = battle(v0="Sheep")
    face_off(s, "Sheep", 2)
    assert outcome(s) is None, "1 against 2: nobody wins"
    s = battle(v0="Sheep")
    face_off(s, "Sheep", 3)
    assert outcome(s) == (E.VICTORY, 1), "1 against 3: a Victory, not the Crown"


def test_sheep_against_a_villain_is_exchanged():
    """Sheep: "If the Sheep faces the enemy villain, remember, villains are exchanged." """
    s = battle(v0="Sheep", v1="Beggar")
    face_off(s, "Sheep", "Beggar")
    pos = s.position
    assert pos.h[0] >> card("Beggar") & 1 and pos.h[1] >> card("Sheep") & 1
    assert pos.phase == E.COMMIT and pos.combat == 1, "a new confrontation begins"


def test_seductress_captures_the_enemy_villain():
    """Seductress: "If she faces the enemy villain, she takes it to your hand. The
    Seductress stays on the battlefield. Next, both players prepare new cards to repeat
    the confrontation." """
    s = battle(v0="Seductress", v1="Thug")
    face_off(s, "Seductress", "Thug")
    pos = s.position
    assert pos.h[0] >> card("Thug") & 1
    assert not pos.h[1] & C.VILLAIN_MASK
    assert (0, C.SEDUCTRESS) in pos.field
    assert pos.phase == E.COMMIT and pos.combat == 1


def test_seductress_against_a_warrior_gives_a_follow_up():
    """Seductress: "If, however, she faces an enemy warrior, then you may play the warrior
    you prefer from your hand." """
    s = battle(v0="Seductress")
    face_off(s, "Seductress", 2)
    assert s.position.phase == E.FOLLOW and s.current_player() == 0
    s.apply_action(4)
    assert outcome(s) == (E.VICTORY, 0)


def test_troubadour_wins_after_the_prince_got_out_unharmed():
    """Troubadour: "If you manage to get your prince out of a combat unharmed and, in a
    later one, you play the Troubadour, he will exaggerate his bravery and you will win
    a Victory token." """
    s = battle(v0="Troubadour")
    face_off(s, 0, 1)  # 0 against 1: the prince gets out unharmed
    assert outcome(s) is None and s.position.unh & 1
    face_off(s, "Troubadour", 6)
    assert outcome(s) == (E.VICTORY, 0)


def test_troubadour_before_the_prince_only_follows_up():
    """Troubadour: "If you play the Troubadour before your prince, then you may afterwards
    play the warrior you want from your hand, but it will no longer give you the Victory." """
    s = battle(v0="Troubadour")
    face_off(s, "Troubadour", 6)
    assert s.position.phase == E.FOLLOW
    s.apply_action(6)
    assert outcome(s) is None
    face_off(s, 0, 1)
    assert s.position.unh & 1
    assert not s.position.h[0] & C.VILLAIN_MASK, "the Troubadour is spent on the battlefield"


def test_executioner_beats_any_villain():
    """Executioner: "If the Executioner faces the enemy villain, you win the battle and a
    Victory token." """
    s = battle(v0="Friar", v1="Executioner")
    face_off(s, "Friar", "Executioner")
    assert outcome(s) == (E.VICTORY, 1)


def test_executioner_against_a_warrior_gives_a_follow_up():
    """Executioner: "If, however, he faces an enemy warrior, then you may play the warrior
    you prefer from your hand." """
    s = battle(v1="Executioner")
    face_off(s, 3, "Executioner")
    assert s.position.phase == E.FOLLOW and s.current_player() == 1


def test_two_villains_are_exchanged():
    """"When two villains face each other, both desert and change sides without carrying
    out their special action ... Each player takes into their hand the villain played by
    their rival. A new confrontation must begin." """
    s = battle(v0="Assassin", v1="Thug")
    face_off(s, "Assassin", "Thug")
    pos = s.position
    assert pos.h[0] >> card("Thug") & 1 and pos.h[1] >> card("Assassin") & 1
    assert pos.phase == E.COMMIT and pos.combat == 1 and outcome(s) is None


def test_every_villain_has_its_rule_in_its_docstring():
    for villain, fn in C.VILLAINY.items():
        assert C.CARD_NAMES[villain].split("'")[0] in fn.__doc__


# ------------------------------------------------------------------ vanguard courtiers


def test_fortune_teller_makes_the_rival_play_first():
    """Fortune-Teller: "your rival must play a card from their hand before you. Afterwards,
    you may play the card you prefer from your hand." """
    s = battle(c0="Fortune-Teller")
    s.apply_action(ADVANCE)
    assert s.current_player() == 1
    s.apply_action(4)
    assert "P1 plays warrior 4 first" in s.information_state_string(0)
    assert s.current_player() == 0
    s.apply_action(6)
    assert outcome(s) == (E.VICTORY, 0)


def test_procuress_sees_and_swaps_the_villain():
    """Procuress: "Your rival must show you their villain. Once revealed, if you wish, you
    may swap it for yours. Finally, the villains return to being hidden in each player's
    hand." """
    s = battle(v0="Friar", v1="Assassin", c0="Procuress")
    s.apply_action(ADVANCE)
    assert "P1 shows you: Assassin" in s.information_state_string(0)
    assert "P1 shows you" not in s.information_state_string(1)
    assert s.position.phase == E.PROC_TAKE
    s.apply_action(E.TAKE0 + card("Assassin") - 7)
    pos = s.position
    assert pos.h[0] >> card("Assassin") & 1 and pos.h[1] >> card("Friar") & 1
    assert pos.phase == E.COMMIT


def test_standard_bearer_adds_one():
    """Standard-Bearer: "That warrior adds 1 more point to its strength." """
    s = battle(c0="Standard-Bearer")
    s.apply_action(ADVANCE)
    face_off(s, 4, 3)  # 4 + 1 = 5 against 3
    assert outcome(s) == (E.VICTORY, 0)


def test_maiden_forces_the_strongest_warrior():
    """Maiden: "Your rival must play the strongest warrior in their hand. Afterwards, you
    may play the card you want from your hand." """
    s = battle(c1="Maiden", position="hand0:0.2.5.Assassin;hand1:0.1.2;combat:5")
    # P0 is quicker in combat 5 but has no vanguard courtier: P1 declares at once.
    assert s.position.phase == E.VANGUARD and s.current_player() == 1
    s.apply_action(ADVANCE)
    assert s.current_player() == 0 and s.legal_actions() == [5]
    s.apply_action(5)
    s.apply_action(0)  # P1 answers knowing the 5: a prince does nothing good, but is legal
    assert outcome(s) == (E.CROWN, 0)


def test_inquisitor_draws_a_random_card():
    """Inquisitor: "Take a card at random from your rival's hand and reveal it. If it is
    the Warrior 2, you win the battle and a Victory token. If it is not, return it to
    your rival's hand." """
    s = battle(c0="Inquisitor", v1="Thug")
    s.apply_action(ADVANCE)
    assert s.is_chance_node()
    outcomes = dict(s.chance_outcomes())
    assert set(outcomes) == {0, 1, 2, 3, 4, 5, 6, card("Thug")}
    assert all(p == pytest.approx(1 / 8) for p in outcomes.values())
    win = s.child(2)
    assert outcome(win) == (E.VICTORY, 0)
    miss = s.child(card("Thug"))
    assert outcome(miss) is None and miss.position.h[1] >> card("Thug") & 1
    # The card is shown and returned, not drawn into the Inquisitor's hand.
    told = miss.information_state_string(1)
    assert "Inquisitor reveals Thug, drawn at random from P1's hand" in told
    assert "draws Thug" not in told


# ------------------------------------------------------------------ rearguard courtiers


def test_archer_forces_the_rival_to_change():
    """Archer: "His arrows force your rival to change their warrior for another warrior
    from their hand." """
    s = battle(c0="Archer")
    face_off(s, 2, 5)
    assert s.position.phase == E.REAR and s.current_player() == 0
    s.apply_action(SEND)
    assert s.current_player() == 1 and 5 not in s.legal_actions()
    s.apply_action(1)
    assert outcome(s) is None, "2 against 1"
    assert s.position.h[1] >> 5 & 1, "the 5 went back to P1's hand"


def test_sentinel_lets_the_owner_change():
    """Sentinel: "He will warn your warrior so that you can change it for another warrior
    from your hand." """
    s = battle(c1="Sentinel")
    face_off(s, 5, 2)
    assert s.current_player() == 1
    s.apply_action(SEND)
    assert s.current_player() == 1 and 2 not in s.legal_actions()
    s.apply_action(6)
    assert outcome(s) is None and s.position.h[1] >> 2 & 1


def test_squire_adds_one():
    """Squire: "Your warrior adds 1 more point to its strength." (Combat 1 of the
    rulebook's example: "thanks to the Squire (3 + 1 = 4) he defends against the 5".)"""
    s = battle(c1="Squire")
    face_off(s, 5, 3)
    s.apply_action(SEND)
    assert outcome(s) is None
    s = battle(c1="Squire")
    face_off(s, 6, 3)
    s.apply_action(SEND)
    assert outcome(s) == (E.VICTORY, 0), "4 against 6 still loses"


def test_royal_guard_adds_two_to_the_prince_only():
    """Royal Guard: "If your prince is going to lose the combat, send the Royal Guard to
    the battlefield. Your prince adds 2 more points to its strength." """
    s = battle(c0="Royal Guard")
    face_off(s, 0, 3)
    s.apply_action(SEND)
    assert outcome(s) is None, "2 against 3"
    s = battle(c0="Royal Guard")
    face_off(s, 1, 3)
    assert outcome(s) == (E.VICTORY, 1), "no rearguard offered for a warrior 1"


def test_wolf_protects_the_three_only():
    """Wolf: "If your Warrior 3 (the girl) is going to lose the combat, send the Wolf ...
    This combat ends with no winner. The battle continues." """
    s = battle(c1="Wolf")
    face_off(s, 6, 3)
    assert s.current_player() == 1
    s.apply_action(SEND)
    assert outcome(s) is None and s.position.combat == 2
    s = battle(c1="Wolf")
    face_off(s, 6, 4)
    assert outcome(s) == (E.VICTORY, 0)


def test_villainy_cannot_be_prevented_by_courtiers():
    """"When a villain faces a warrior, it carries out its special action, and the courtiers
    cannot prevent it." """
    s = battle(v1="Assassin", c0="Royal Guard")
    face_off(s, 0, "Assassin")
    assert outcome(s) == (E.CROWN, 1)
