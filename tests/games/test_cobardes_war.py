"""The war: tokens, the Crown, renewal between battles, decks, the cap."""

from __future__ import annotations

import pyspiel

from analysis import cli
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import war as W


def war(**params):
    return pyspiel.load_game("python_cobardes_war", params).new_initial_state()


def test_three_victory_tokens_win_the_war():
    """"The first to do either of the following wins the war and the Crown token: gain 3
    Victory tokens or defeat the enemy prince in a combat." """
    s = war(kinds="warriors", tokens0=2)
    s.apply_action(6)
    s.apply_action(4)
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.war.tokens == (3, 0)


def test_the_crown_wins_the_war_at_once():
    """"You can take the Crown token even in the first battle!" """
    s = war(kinds="warriors")
    s.apply_action(0)
    s.apply_action(3)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


def test_a_drawn_battle_gives_no_token_and_the_cap_is_worth_zero():
    """Seven combats without a winner: "the battle ends in a draw"; at the cap the war
    ends with 0 for both."""
    s = war(kinds="warriors", max_battles=2)
    for _battle in range(2):
        for a in range(7):
            s.apply_action(a)
            s.apply_action(a)
    assert s.is_terminal() and s.returns() == [0.0, 0.0]
    assert s.war.tokens == (0, 0) and s.war.nbattle == 2


def _deal(s, *cards):
    for c in cards:
        assert s.is_chance_node()
        s.apply_action(c)


def test_renewal_played_villain_goes_under_and_unplayed_may_be_kept():
    """"Discard the villain and courtier cards that are on the battlefield, placing them
    under the corresponding deck, and renew them with others of the same type. If you
    did not play your villain or courtier you may decide not to replace them and keep
    them for the next battle." """
    s = war(kinds="warriors+villains", villain_deck="Thug/Beggar/Sheep")
    _deal(s, C.THUG, C.BEGGAR)
    s.apply_action(C.THUG)
    s.apply_action(4)  # the Thug beats the 4: P0 wins the battle
    w = s.war
    assert w.tokens == (1, 0)
    assert w.vdeck == (1 << C.SHEEP, (C.THUG,)), "the Thug is under the deck"
    assert w.phase == W.RENEW and s.current_player() == 1
    assert s.legal_actions() == [W.REPLACE_V, W.KEEP_V0 + C.BEGGAR - 7]
    s.apply_action(W.KEEP_V0 + C.BEGGAR - 7)
    # P0 played theirs and must draw: the shuffled part still holds the Sheep.
    assert s.is_chance_node() and s.chance_outcomes() == [(C.SHEEP, 1.0)]
    s.apply_action(C.SHEEP)
    b = s.position
    assert s.war.nbattle == 2 and b.combat == 1
    assert b.h[0] & C.VILLAIN_MASK == 1 << C.SHEEP
    assert b.h[1] & C.VILLAIN_MASK == 1 << C.BEGGAR


def test_cards_under_the_deck_are_drawn_in_order_once_the_shuffled_part_is_gone():
    """"placing them under the corresponding deck": no chance once only they remain."""
    s = war(kinds="warriors+villains", villain_deck="Thug/Beggar")
    _deal(s, C.THUG, C.BEGGAR)
    s.apply_action(C.THUG)
    s.apply_action(4)  # P0's Thug wins; the Thug goes under
    s.apply_action(W.REPLACE_V)  # P1 puts the Beggar under too
    # P0 draws first (the Thug), P1 then gets the Beggar back: no chance node.
    assert not s.is_chance_node()
    b = s.position
    assert b.h[0] & C.VILLAIN_MASK == 1 << C.THUG
    assert b.h[1] & C.VILLAIN_MASK == 1 << C.BEGGAR


def test_replaced_villain_is_hidden_from_the_rival():
    s = war(kinds="warriors+villains", villain_deck="Thug/Beggar/Sheep/Friar")
    _deal(s, C.THUG, C.BEGGAR)
    s.apply_action(C.THUG)
    s.apply_action(4)
    s.apply_action(W.REPLACE_V)
    info0 = s.information_state_string(0)
    info1 = s.information_state_string(1)
    assert "you put the Beggar under the villain deck" in info1
    assert "Beggar" not in info0 and "P1 puts 1 villain(s) under the villain deck" in info0
    other = war(kinds="warriors+villains", villain_deck="Thug/Beggar/Sheep/Friar")
    _deal(other, C.THUG, C.SHEEP)
    other.apply_action(C.THUG)
    other.apply_action(4)
    other.apply_action(W.REPLACE_V)
    assert other.infoset_key(0) == s.infoset_key(0)
    assert other.state_key() != s.state_key()


def test_used_courtier_is_replaced_and_unused_may_be_kept():
    """"Each player must have a villain in hand and a courtier on the table for the next
    battle." """
    s = war(kinds="warriors+courtiers", court_deck="Squire/Wolf/Archer")
    _deal(s, C.SQUIRE, C.WOLF)
    s.apply_action(5)
    s.apply_action(3)
    assert s.current_player() == 1
    s.apply_action(E.SEND)  # the Wolf protects the 3
    for mine, theirs in ((6, 6), (4, 5), (3, 4), (2, 2), (1, 1), (0, 0)):
        s.apply_action(mine)
        s.apply_action(theirs)
    w = s.war
    assert w.tokens == (0, 0) and w.phase == W.RENEW
    assert w.cdeck == (1 << C.ARCHER, (C.WOLF,))
    assert s.current_player() == 0 and s.legal_actions() == [W.KEEP_C, W.REPLACE_C]
    s.apply_action(W.KEEP_C)
    assert s.chance_outcomes() == [(C.ARCHER, 1.0)]
    s.apply_action(C.ARCHER)
    assert s.position.court == (C.SQUIRE, C.ARCHER)


def test_war_score_parameters_start_from_any_score():
    s = war(kinds="warriors", tokens0=1, tokens1=2)
    assert s.war.tokens == (1, 2)
    assert "score 1-2" in s.information_state_string(0)


def test_two_unplayed_villains_at_renewal_keep_at_most_one():
    """Ruling 7: "Each player must have a villain in hand" — a player holding two keeps
    one (or none) and puts the rest under the villain deck, in order."""
    s = war(kinds="warriors+villains", villain_deck="Thug/Beggar/Sheep/Friar")
    _deal(s, C.THUG, C.BEGGAR)
    s.apply_action(C.THUG)
    s.apply_action(4)  # the Thug wins battle 1; P1 still holds the Beggar
    rules = s.get_game().rules
    w = s.war.copy()
    # Give P1 a second unplayed villain, as a starting position could.
    w.held = (w.held[0], w.held[1] | 1 << C.SHEEP)
    w.vdeck = (w.vdeck[0] & ~(1 << C.SHEEP), w.vdeck[1])
    assert W.legal_actions(rules, w) == [W.REPLACE_V, W.KEEP_V0 + C.BEGGAR - 7,
                                         W.KEEP_V0 + C.SHEEP - 7]
    after = W.apply(rules, w, W.KEEP_V0 + C.SHEEP - 7)
    assert after.held[1] == 1 << C.SHEEP
    assert after.vdeck[1] == (C.THUG, C.BEGGAR)
    assert after.vknown == (3, 0b10), "only P1 knows which villain went under"


def test_farol_cobardes_renewal_solves_and_resumes(tmp_path, capsys):
    """``farol cobardes renewal`` solves a small renewal war, and a rerun reads the cache."""
    argv = ["cobardes", "renewal", "--warriors", "3", "--combats", "4", "--courtiers",
            "Squire,Archer,Wolf,Sentinel", "--workers", "1", "--dir", str(tmp_path)]
    assert cli.main(argv) == 0
    first = capsys.readouterr().out.strip().splitlines()[-1]
    assert first.startswith("108 states, residual")
    residual = float(first.split("residual ")[1].split(",")[0])
    assert residual < 1e-8
    assert any(tmp_path.iterdir())
    assert cli.main(argv) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == first


def test_farol_cobardes_renewal_names_an_unknown_courtier(tmp_path, capsys):
    code = cli.main(["cobardes", "renewal", "--courtiers", "Squire/Bogus/Archer/Wolf",
                     "--dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "unknown ¡Cobardes! courtier 'Bogus'" in err and "Traceback" not in err
