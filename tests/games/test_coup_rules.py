"""Coup's rules, situation by situation, against the rules texts.

Each test quotes the sentence of the rules text it checks (Spanish, with a
translation). Positions are written as in ``games.coup.positions``: one
``hidden/revealed/coins`` entry per player and ``move:K``.
"""

from __future__ import annotations

import pytest
from coup_helpers import chance_probability, names, play, position_state

from games.coup import cards as C
from games.coup import rules as R
from games.errors import IllegalActionError, InvalidParameterError

TWO = "captain+contessa/-/2;duke+assassin/-/2;move:0"


def core(state):
    return state.core


# ---- the FAQ of coup_rules_es_basic.txt -------------------------------------------------


def test_faq_you_may_use_a_character_you_do_not_have():
    """«¿Puedo usar un personaje que no tengo? Sí. ... Solo pierdes una carta si alguien
    te desafía y no lo tienes.» (You may; you lose a card only if challenged without it.)"""
    s = position_state(TWO)
    assert "Tax (claims Duke)" in names(s)  # P0 holds no Duke
    play(s, "Tax (claims Duke)", "No challenge")
    assert core(s).coins == (5, 2)
    assert core(s).hands[0] == (C.CAPTAIN, C.CONTESSA)

    s = position_state(TWO)
    play(s, "Tax (claims Duke)", "Challenge")
    assert names(s) == ["Lose Captain", "Lose Contessa"]  # the bluffer chooses
    play(s, "Lose Contessa")
    assert core(s).coins == (2, 2), "a failed claim does not happen"
    assert core(s).revealed[0] == (C.CONTESSA,)
    assert core(s).hands[1] == (C.DUKE, C.ASSASSIN), "the challenger loses nothing"


def test_faq_anyone_still_in_the_game_may_challenge_first_to_speak():
    """«¿Quién puede desafiar? Cualquier persona que siga en la partida, aunque la acción no
    vaya contra ella. Si varias quieren desafiar, desafía la primera que lo diga.»
    (Anyone still in the game, even if not targeted; the first to say so challenges.)"""
    pos = "duke+duke/-/2;captain+captain/-/2;contessa+contessa/-/2;move:0"
    s = position_state(pos)
    play(s, "Steal from P1 (claims Captain)")
    assert s.current_player() == 1  # turn order from the claimant's left
    play(s, "No challenge")
    assert s.current_player() == 2 and names(s) == ["Challenge", "No challenge"]
    play(s, "Challenge")  # P0 had no Captain; P2, not the target, challenged
    # P0's two Dukes make the choice of card moot: it is made for them.
    assert core(s).revealed == ((C.DUKE,), (), ())
    assert core(s).coins == (2, 2, 2)

    # An eliminated player is never asked.
    s = position_state("duke+duke/-/2;-/captain+captain/0;contessa+contessa/-/2;move:0")
    play(s, "Tax (claims Duke)")
    assert s.current_player() == 2


def test_faq_income_foreign_aid_and_coup_cannot_be_challenged():
    """«¿Se puede desafiar el Ingreso, la Ayuda exterior o el Golpe de Estado? No ... La Ayuda
    exterior sí se puede bloquear con el Duque, y ese bloqueo sí se puede desafiar.»"""
    s = position_state(TWO)
    play(s, "Income")
    assert core(s).coins == (3, 2) and s.current_player() == 1
    assert "Challenge" not in names(s)

    s = position_state(TWO)
    play(s, "Foreign Aid")
    assert names(s) == ["Block with Duke", "No block"]  # a block window, no challenge
    play(s, "Block with Duke")
    assert names(s) == ["Challenge", "No challenge"]  # the block can be challenged
    play(s, "Challenge")  # P1 holds the Duke: P0 loses, the aid is blocked
    play(s, "Lose Captain")
    assert s.is_chance_node()  # P1 swaps the Duke shown for a new card
    play(s, "Draw Duke")
    assert core(s).coins == (2, 2)

    s = position_state("captain+contessa/-/7;duke+assassin/-/2;move:0")
    play(s, "Coup P1")
    assert s.current_player() == 1 and names(s) == ["Lose Duke", "Lose Assassin"]
    play(s, "Lose Assassin")
    assert core(s).coins == (0, 2) and core(s).revealed[1] == (C.ASSASSIN,)


def test_faq_blocked_assassination_keeps_the_coins_paid():
    """«Si me bloquean un asesinato con la Condesa, ¿recupero las 3 monedas? No. Pagas las 3
    monedas al anunciar el asesinato y no vuelven aunque la Condesa lo bloquee.»"""
    pos = "assassin+duke/-/3;contessa+captain/-/2;move:0"
    s = position_state(pos)
    play(s, "Assassinate P1 (claims Assassin)")
    assert core(s).coins == (0, 2), "paid when announced"
    play(s, "No challenge", "Block with Contessa", "No challenge")
    assert core(s).coins == (0, 2) and core(s).hands[1] == (C.CAPTAIN, C.CONTESSA)
    assert s.current_player() == 1  # the turn is over
    # The same when the block is challenged and the Contessa is real.
    s = position_state(pos)
    play(s, "Assassinate P1 (claims Assassin)", "No challenge", "Block with Contessa", "Challenge")
    play(s, "Lose Duke", "Draw Contessa")
    assert core(s).coins == (0, 2) and core(s).hands[1] == (C.CAPTAIN, C.CONTESSA)
    # A clone variant gives the coins back on a block.
    s = position_state(pos, refund_blocked_assassination=True)
    play(s, "Assassinate P1 (claims Assassin)", "No challenge", "Block with Contessa", "No challenge")
    assert core(s).coins == (3, 2)


def test_faq_false_contessa_challenged_loses_two_cards():
    """«Si te asesinan y bloqueas con una Condesa falsa, y te desafían, pierdes una carta por el
    desafío y otra por el asesinato. Con dos cartas, quedas fuera de golpe.»"""
    s = position_state("assassin+duke/-/3;captain+duke/-/2;move:0")
    play(s, "Assassinate P1 (claims Assassin)", "No challenge", "Block with Contessa", "Challenge")
    play(s, "Lose Captain")  # for the challenge
    # The assassination then goes through and takes the last card: out at once.
    log = s.information_state_string(0)
    assert log.index("P1 loses Captain") < log.index("P1 loses Duke") < log.index("P1 is out")
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]
    assert core(s).revealed[1] == (C.DUKE, C.CAPTAIN)


def test_faq_shown_card_goes_back_and_a_new_one_is_drawn():
    """«¿Qué hago con la carta que enseño al ganar un desafío? La devuelves al mazo de la corte,
    barajas y robas una nueva. Así los demás no saben si sigues teniendo ese personaje.»"""
    s = position_state("duke+captain/-/2;assassin+contessa/-/2;move:0")
    play(s, "Tax (claims Duke)", "Challenge", "Lose Contessa")
    assert s.is_chance_node()
    # Court: 15 - 4 dealt = 11 cards, 2 Dukes; the shown Duke is shuffled in first.
    assert chance_probability(s, "Draw Duke") == pytest.approx(3 / 12)
    play(s, "Draw Duke")
    assert core(s).hands[0] == (C.DUKE, C.CAPTAIN)
    assert core(s).coins == (5, 2), "the action happens"
    # The other player does not learn the new card.
    assert "draws Duke" in s.information_state_string(0)
    assert "draws Duke" not in s.information_state_string(1)
    assert "draws a card" in s.information_state_string(1)


def test_faq_cannot_pass():
    """«¿Puedo pasar el turno? No. Siempre haces una acción; la más tranquila es el Ingreso.»"""
    for coins in range(10):
        s = position_state(f"duke+captain/-/{coins};assassin+contessa/-/2;move:0")
        legal = names(s)
        assert "Income" in legal
        assert not any("pass" in n.lower() for n in legal)


def test_faq_lost_cards_are_face_up_for_everyone():
    """«¿Puedo mentir sobre las cartas que he perdido o enseñarlas en secreto? No. Las cartas
    perdidas van boca arriba y las que te quedan no se enseñan salvo para responder a un desafío.»"""
    s = position_state(TWO)
    play(s, "Tax (claims Duke)", "Challenge", "Lose Contessa")
    assert "P0 loses Contessa" in s.information_state_string(1)
    assert "revealed Contessa -" in s.observation_string(1)
    assert "Captain" not in s.observation_string(1), "the remaining card stays hidden"


@pytest.mark.parametrize("target_coins,taken", [(5, 2), (2, 2), (1, 1), (0, 0)])
def test_faq_captain_steals_two_or_one_or_nothing(target_coins, taken):
    """«¿Qué pasa si el Capitán roba a alguien que tiene una sola moneda? Se lleva esa moneda. Si
    no tiene ninguna, el robo no tiene efecto.»"""
    s = position_state(f"captain+duke/-/2;assassin+contessa/-/{target_coins};move:0")
    play(s, "Steal from P1 (claims Captain)", "No challenge", "No block")
    assert core(s).coins == (2 + taken, target_coins - taken)
    assert R.steal_amount(target_coins) == taken


def test_ten_coins_force_a_coup():
    """«Si empiezas tu turno con 10 monedas o más, tu única acción posible es el golpe de Estado.»"""
    s = position_state("captain+duke/-/10;assassin+contessa/-/2;ambassador+duke/-/0;move:0")
    assert names(s) == ["Coup P1", "Coup P2"]
    s = position_state("captain+duke/-/9;assassin+contessa/-/2;move:0")
    assert "Coup P1" in names(s) and "Income" in names(s)
    s = position_state("captain+duke/-/6;assassin+contessa/-/2;move:0")
    assert "Coup P1" not in names(s), "a coup costs 7"


def test_assassination_needs_three_coins_and_an_illegal_action_is_refused():
    """«Asesino, paga 3 monedas para que una persona pierda una carta» — Marta «solo tiene 2
    monedas, así que no puede»."""
    s = position_state("captain+duke/-/2;assassin+contessa/-/2;move:0")
    assert "Assassinate P1 (claims Assassin)" not in names(s)
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply_action(C.A_ASSASSINATE + 1)


def test_challenged_assassination_refund_parameter():
    """The texts do not say; the official FAQ: a successfully challenged assassination costs
    nothing (``refund_challenged_assassination``, default true)."""
    pos = "captain+duke/-/3;assassin+contessa/-/2;move:0"
    s = position_state(pos)
    play(s, "Assassinate P1 (claims Assassin)", "Challenge", "Lose Captain")
    assert core(s).coins == (3, 2)
    s = position_state(pos, refund_challenged_assassination=False)
    play(s, "Assassinate P1 (claims Assassin)", "Challenge", "Lose Captain")
    assert core(s).coins == (0, 2)


def test_challenges_come_before_blocks():
    """«¿alguien desafía la acción?, ¿alguien la bloquea?, ¿alguien desafía el bloqueo?» — a
    target who loses a challenge against a real Assassin may still block with the Contessa."""
    s = position_state("assassin+duke/-/3;contessa+captain/-/2;move:0")
    play(s, "Assassinate P1 (claims Assassin)", "Challenge", "Lose Captain", "Draw Assassin")
    assert names(s) == ["Block with Contessa", "No block"]
    play(s, "Block with Contessa", "No challenge")
    assert core(s).hands[1] == (C.CONTESSA,)


def test_target_eliminated_by_its_challenge_ends_the_action():
    """«Con las dos boca arriba queda fuera de la partida y deja sus monedas en el tesoro»."""
    s = position_state("assassin+duke/-/3;captain/contessa/4;ambassador+duke/-/1;move:0")
    play(s, "Assassinate P1 (claims Assassin)", "Challenge")
    assert core(s).hands[1] == () and core(s).coins[1] == 0, "out, coins to the treasury"
    play(s, "Draw Duke")
    assert s.current_player() == 2, "no block, no loss: the next living player moves"
    assert core(s).treasury == 50 - 1


def test_block_steal_with_captain_or_ambassador():
    """«el Capitán o el Embajador bloquean el robo contra ellos»."""
    s = position_state("captain+duke/-/2;assassin+contessa/-/2;move:0")
    play(s, "Steal from P1 (claims Captain)", "No challenge")
    assert names(s) == ["Block with Captain", "Block with Ambassador", "No block"]
    play(s, "Block with Ambassador", "Challenge", "Lose Contessa")  # P1 bluffed
    assert core(s).coins == (4, 0), "a failed block lets the steal happen"


def test_ambassador_exchange_keeps_as_many_as_you_had():
    """«Embajador, roba 2 cartas del mazo de la corte, elige qué dos cartas quedarte entre las
    tuyas y las robadas, y devuelve las otras dos al mazo.»"""
    s = position_state("ambassador+duke/-/2;assassin+contessa/-/2;move:0")
    play(s, "Exchange (claims Ambassador)", "No challenge")
    # Both cards are drawn at once from the 11-card court (3 Captains, 2 Dukes).
    assert chance_probability(s, "Draw Captain+Captain") == pytest.approx(3 * 2 / (11 * 10))
    assert chance_probability(s, "Draw Duke+Captain") == pytest.approx(2 * 2 * 3 / (11 * 10))
    play(s, "Draw Captain+Captain")
    assert "Keep Captain+Captain" in names(s) and "Keep Duke+Ambassador" in names(s)
    assert "Keep Assassin+Contessa" not in names(s)
    court_before = sum(core(s).court)
    play(s, "Keep Duke+Captain")
    assert core(s).hands[0] == (C.DUKE, C.CAPTAIN)
    assert sum(core(s).court) == court_before + 2
    assert "keeps Duke+Captain and returns Captain+Ambassador" in s.information_state_string(0)
    assert "P0 returns 2 cards" in s.information_state_string(1)
    assert "Captain" not in s.information_state_string(1)
    # With one card left you keep one.
    s = position_state("duke/contessa/2;assassin+contessa/-/2;move:0")
    play(s, "Exchange (claims Ambassador)", "No challenge", "Draw Assassin+Captain")
    assert names(s) == ["Keep Duke", "Keep Assassin", "Keep Captain"]
    assert R.exchange_options((C.DUKE,), (C.CAPTAIN, C.CAPTAIN)) == (
        C.KEEP_OPTIONS.index((C.DUKE,)), C.KEEP_OPTIONS.index((C.CAPTAIN,)))


# ---- the worked example round (Ana, Luis, Marta) ----------------------------------------


def test_example_round_ana_luis_marta():
    """«Una ronda de ejemplo»: Ana (P0) Duque+Condesa, Luis (P1) Capitán+Asesino, Marta (P2) sin
    Asesino; dos monedas cada uno."""
    s = position_state("duke+contessa/-/2;captain+assassin/-/2;captain+duke/-/2;move:0")
    # «Anuncia "Soy Duque, cobro impuestos" y nadie la desafía: coge 3 monedas y tiene 5.»
    play(s, "Tax (claims Duke)", "No challenge", "No challenge")
    assert core(s).coins[0] == 5
    # «Luis ... anuncia Ayuda exterior. Ana dice "La bloqueo con el Duque".»
    play(s, "Foreign Aid", "No block", "Block with Duke")
    # «Luis sospecha y la desafía; Ana enseña el Duque, lo devuelve al mazo, baraja y roba otra
    # carta (le sale un Embajador). Luis pierde una carta y elige revelar el Asesino»
    assert s.current_player() == 1, "the actor is asked first whether to challenge the block"
    play(s, "Challenge", "Lose Assassin", "Draw Ambassador")
    assert core(s).hands[0] == (C.EXCHANGER, C.CONTESSA)  # the Ambassador slot
    # «su ayuda exterior queda bloqueada y sigue con 2 monedas.»
    assert core(s).coins == (5, 2, 2)
    assert core(s).revealed[1] == (C.ASSASSIN,)
    # «Marta ... anuncia "Asesino: pago 3 y asesino a Ana", pero solo tiene 2 monedas, así que
    # no puede: debe elegir otra acción.»
    assert s.current_player() == 2
    assert "Assassinate P0 (claims Assassin)" not in names(s)
    # «Decide decir que es Capitán y robar a Ana. Ana ... en lugar de desafiar, bloquea diciendo
    # que es Embajador (y ahora sí lo tiene). Marta no desafía el bloqueo y su robo no se hace.»
    play(s, "Steal from P0 (claims Captain)", "No challenge", "No challenge")
    play(s, "Block with Ambassador", "No challenge", "No challenge")
    assert core(s).coins == (5, 2, 2)
    # «En el siguiente turno, Ana tiene 5 monedas: no le llega para un golpe de Estado (7), pero
    # sí podría pagar un asesinato aunque no tenga el Asesino»
    assert s.current_player() == 0
    legal = names(s)
    assert "Coup P1" not in legal
    assert "Assassinate P1 (claims Assassin)" in legal and C.ASSASSIN not in core(s).hands[0]


# ---- Inquisitor ------------------------------------------------------------------------


def test_inquisitor_exchange_draws_one_and_returns_one():
    """«Inquisidor: Roba una carta de personaje del mazo y elige si deseas intercambiarla con uno
    de tus personajes boca abajo.»"""
    s = position_state("duke+captain/-/2;assassin+contessa/-/2;move:0", deck="inquisitor")
    assert "Exchange one card (claims Inquisitor)" in names(s)
    play(s, "Exchange one card (claims Inquisitor)", "No challenge", "Draw Contessa")
    assert names(s) == ["Return Duke", "Return Captain", "Return Contessa"]
    court = core(s).court
    play(s, "Return Captain")
    assert core(s).hands[0] == (C.DUKE, C.CONTESSA)
    assert core(s).court == R.pile_add(court, C.CAPTAIN)
    # Returning the drawn card keeps the hand.
    s = position_state("duke+captain/-/2;assassin+contessa/-/2;move:0", deck="inquisitor")
    play(s, "Exchange one card (claims Inquisitor)", "No challenge", "Draw Contessa", "Return Contessa")
    assert core(s).hands[0] == (C.DUKE, C.CAPTAIN)


def test_inquisitor_examine_target_chooses_the_card_inquisitor_decides():
    """«permite mirar la carta de personaje de un oponente. El oponente objetivo elige qué carta
    mostrar, entonces el Inquisidor elige entre devolverla o descartarla (en cuyo caso la carta se
    baraja en la Corte y el jugador objetivo roba una nueva carta).»"""
    pos = "inquisitor+duke/-/2;assassin+contessa/-/2;captain+captain/-/2;move:0"
    s = position_state(pos, deck="inquisitor")
    play(s, "Examine P1 (claims Inquisitor)", "No challenge", "No challenge")
    assert s.current_player() == 1, "no block: the target chooses which card to show"
    assert names(s) == ["Show Assassin", "Show Contessa"]
    play(s, "Show Contessa")
    assert s.current_player() == 0 and names(s) == ["Give the card back", "Force an exchange"]
    assert "P1 shows Contessa to P0" in s.information_state_string(0)
    assert "P1 shows Contessa to P0" in s.information_state_string(1)
    assert "P1 shows a card to P0" in s.information_state_string(2)
    assert "Contessa" not in s.observation_string(2)
    play(s, "Force an exchange")
    assert s.is_chance_node() and chance_probability(s, "Draw Contessa") == pytest.approx(3 / 10)
    play(s, "Draw Duke")
    assert core(s).hands[1] == (C.DUKE, C.ASSASSIN)
    assert "draws Duke" in s.information_state_string(1)
    assert "draws Duke" not in s.information_state_string(0)
    # Giving it back changes nothing.
    s = position_state(pos, deck="inquisitor")
    play(s, "Examine P1 (claims Inquisitor)", "No challenge", "No challenge", "Show Assassin",
         "Give the card back")
    assert core(s).hands[1] == (C.ASSASSIN, C.CONTESSA) and s.current_player() == 1


def test_inquisitor_examine_can_be_challenged():
    """«Cuando un jugador usa el poder de un personaje, un oponente puede cuestionarlo»."""
    s = position_state("duke+captain/-/2;assassin+contessa/-/2;move:0", deck="inquisitor")
    play(s, "Examine P1 (claims Inquisitor)", "Challenge", "Lose Duke")
    assert core(s).hands[1] == (C.ASSASSIN, C.CONTESSA) and s.current_player() == 1


def test_inquisitor_blocks_steal_and_replaces_the_ambassador():
    """«Capitán/Embajador/Inquisidor todos contrarrestan al Capitán»; «hay que elegir entre el
    Embajador y el Inquisidor»."""
    s = position_state("captain+duke/-/2;assassin+contessa/-/2;move:0", deck="inquisitor")
    play(s, "Steal from P1 (claims Captain)", "No challenge")
    assert names(s) == ["Block with Captain", "Block with Inquisitor", "No block"]
    assert "Exchange (claims Ambassador)" not in names(position_state(TWO, deck="inquisitor"))
    assert not any(n.startswith("Examine") for n in names(position_state(TWO)))


# ---- setups ------------------------------------------------------------------------------


def test_two_player_basic_setup_starting_player_gets_one_coin():
    """«Con dos jugadores, quien empieza recibe solo una moneda en lugar de dos.»"""
    import pyspiel

    for start, coins in [(0, (1, 2)), (1, (2, 1))]:
        s = pyspiel.load_game("python_coup", {"starting_player": start}).new_initial_state()
        assert core(s).coins == coins
    s = pyspiel.load_game("python_coup", {"two_player_setup": "standard"}).new_initial_state()
    assert core(s).coins == (2, 2)
    s = pyspiel.load_game("python_coup", {"starting_player": -1}).new_initial_state()
    while core(s).queue[0][0] != 2:  # deal the cards, up to the starting-player chance node
        s.apply_action(s.chance_outcomes()[0][0])
    assert names(s) == ["P0 starts", "P1 starts"]
    play(s, "P1 starts")
    assert s.current_player() == 1 and core(s).coins == (2, 1)


def test_two_player_draft_setup():
    """«Separa las cartas en 3 montones que contengan un ejemplar de cada personaje. Después de
    barajar uno de estos montones, reparte una carta de personaje de ese montón a cada jugador,
    boca abajo, y coloca las otras tres cartas en el centro para formar la Corte. ... cada uno
    coge un montón restante y puede elegir otro personaje. Las 4 cartas restantes de cada montón
    no se utilizan.»"""
    import pyspiel

    s = pyspiel.load_game("python_coup", {"two_player_setup": "draft"}).new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 5
    play(s, "Draw Duke")
    assert names(s) == ["Draw Assassin", "Draw Captain", "Draw Ambassador", "Draw Contessa"]
    play(s, "Draw Captain")
    assert core(s).court == (0, 1, 0, 1, 1), "the pile's other three cards are the court"
    assert s.current_player() == 0
    assert names(s) == [f"Pick {n}" for n in ("Duke", "Assassin", "Captain", "Ambassador", "Contessa")]
    play(s, "Pick Duke")
    assert s.current_player() == 1
    assert "Duke" not in s.information_state_string(1), "the other pick is private"
    play(s, "Pick Contessa")
    c = core(s)
    assert c.hands == ((C.DUKE, C.DUKE), (C.CAPTAIN, C.CONTESSA))
    assert sum(c.unused) == 8 and sum(c.court) == 3
    assert c.coins == (2, 2), "the draft changes only the cards"
    assert s.current_player() == 0 and "Income" in names(s)


def test_seven_and_eight_players_use_four_copies():
    """«Reglas para 7 u 8 jugadores: Las reglas son las mismas, salvo que se utilizan 4 copias de
    cada uno de los 5 personajes elegidos (en lugar de 3 copias).»"""
    import pyspiel

    for n, copies in [(6, 3), (7, 4), (8, 4)]:
        s = pyspiel.load_game("python_coup", {"players": n}).new_initial_state()
        assert s.is_chance_node()
        assert sum(core(s).court) == 5 * copies
        assert C.copies_per_character(n) == copies
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        assert sum(core(s).court) + sum(len(h) for h in core(s).hands) == 5 * copies
        assert all(len(h) == 2 for h in core(s).hands) and core(s).coins == (2,) * n


def test_foreign_aid_block_order_and_chance_order():
    """«Si varias quieren desafiar, desafía la primera que lo diga» — ``block_order``: turn order
    from the actor's left, or a chance node picks who is asked first."""
    pos = "duke+duke/-/2;captain+captain/-/2;contessa+contessa/-/2;assassin+assassin/-/2;move:1"
    s = position_state(pos)
    play(s, "Foreign Aid")
    assert s.current_player() == 2
    play(s, "No block")
    assert s.current_player() == 3
    s = position_state(pos, block_order="chance")
    play(s, "Foreign Aid")
    assert s.is_chance_node()
    assert names(s) == ["P0 is asked first", "P2 is asked first", "P3 is asked first"]
    play(s, "P3 is asked first", "No block")
    assert s.current_player() == 0
    play(s, "Block with Duke")
    assert s.current_player() == 1, "the actor is asked first to challenge the block"


def test_who_may_block_and_challenge_pure_functions():
    living = (True, True, False, True)
    assert R.who_may_challenge(0, living) == (1, 3)
    assert R.who_may_challenge(3, living) == (0, 1)
    assert R.who_may_challenge(3, living, first=1) == (1, 0)  # a block by 3 against actor 1
    assert R.who_may_block(C.FOREIGN_AID, 1, -1, living) == (3, 0)
    assert R.who_may_block(C.ASSASSINATE, 1, 3, living) == (3,)
    assert R.who_may_block(C.ASSASSINATE, 1, 2, living) == ()
    assert R.who_may_block(C.TAX, 1, -1, living) == ()
    assert R.block_characters(C.STEAL) == (C.CAPTAIN, C.EXCHANGER)
    assert R.action_cost(C.COUP) == 7 and R.action_cost(C.ASSASSINATE) == 3
    assert R.action_cost(C.STEAL) == 0
    assert R.treasury_gain(3, 1) == 1
    assert R.terminal_returns(2, 4) == [-1 / 3, -1 / 3, 1.0, -1 / 3]
    assert R.terminal_returns(-1, 3) == [0.0, 0.0, 0.0]
    assert R.swap_with_court((C.DUKE, C.CAPTAIN), (1, 1, 1, 1, 1), C.DUKE, C.CONTESSA) == (
        (C.CAPTAIN, C.CONTESSA), (2, 1, 1, 1, 0))
    assert R.swap_with_court((C.DUKE,), (0, 0, 0, 0, 0), C.DUKE, C.DUKE) == ((C.DUKE,), (0,) * 5)


def test_turn_cap_is_a_draw():
    """The texts have no draws («No hay empates»); the turn cap stops the tree: everybody gets 0."""
    s = position_state(TWO, turn_cap=2)
    play(s, "Income", "Income")
    assert s.is_terminal() and s.returns() == [0.0, 0.0]


@pytest.mark.parametrize("cap_payoff", [-1.0, 0.25, 1.0])
def test_cap_payoff_is_what_player_0_gets_at_the_cap(cap_payoff):
    """A tool, not a rule (ruling 19): at the turn cap player 0 gets ``cap_payoff`` and
    the other player its opposite; a win still pays +1/−1."""
    s = position_state(TWO, turn_cap=2, cap_payoff=cap_payoff)
    play(s, "Income", "Income")
    assert s.is_terminal() and s.returns() == [cap_payoff, -cap_payoff]
    assert R.terminal_returns(-1, 3, cap_payoff) == [cap_payoff, -cap_payoff / 2, -cap_payoff / 2]
    s = position_state("contessa/duke/7;duke/assassin/0;move:0", turn_cap=2, cap_payoff=cap_payoff)
    play(s, "Coup P1")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


@pytest.mark.parametrize("bad", [-1.5, 2.0])
def test_cap_payoff_outside_minus_one_to_one_is_refused(bad):
    with pytest.raises(InvalidParameterError, match="cap_payoff"):
        position_state(TWO, cap_payoff=bad)


def test_readable_names_and_render():
    from games.coup import render

    s = position_state("assassin+duke/-/3;contessa+captain/-/2;move:0")
    play(s, "Assassinate P1 (claims Assassin)", "No challenge")
    assert names(s) == ["Block with Contessa", "No block"]
    text = render(s, 1)
    assert "Captain+Contessa" in text and "Assassin+Duke" not in text
    assert "P1 may block with Contessa" in text and "P0: Assassinate P1 (claims Assassin)" in text


def test_challenge_order_chance_picks_who_is_asked_first():
    """«Si más de un jugador quiere cuestionarlo, el jugador que haya hablado más rápido podrá
    hacerlo» — ``challenge_order=chance``: a chance node picks who is asked first."""
    pos = "duke+duke/-/2;captain+captain/-/2;contessa+contessa/-/2;move:0"
    s = position_state(pos, challenge_order="chance")
    play(s, "Tax (claims Duke)")
    assert names(s) == ["P1 is asked first", "P2 is asked first"]
    play(s, "P2 is asked first")
    assert s.current_player() == 2
    play(s, "No challenge")
    assert s.current_player() == 1
    assert "chance: P2 is asked first" in s.information_state_string(1)


def test_eliminated_players_are_not_targets():
    """«Con las dos boca arriba queda fuera de la partida»: nobody can target them."""
    s = position_state("duke+duke/-/7;-/captain+captain/0;contessa+contessa/-/2;move:0",
                       deck="inquisitor")
    assert not any("P1" in n for n in names(s))
    assert {"Coup P2", "Assassinate P2 (claims Assassin)", "Steal from P2 (claims Captain)",
            "Examine P2 (claims Inquisitor)"} <= set(names(s))


# ---- the examples of coup_rules_es_2to8_players.txt ---------------------------------------


def test_2to8_example_second_duchess():
    """«el jugador de la izquierda anuncia que activa el poder Duquesa. Como ya ha perdido un
    personaje, y ese personaje también era una Duquesa, el jugador de la derecha cuestiona su
    personaje. El jugador de la izquierda revela una segunda Duquesa, llevándose así las 3 monedas
    ... y obligando al jugador de la derecha a revelar uno de sus personajes (Asesino). Entonces el
    jugador de la izquierda tiene que barajar su Duquesa en la Corte y dibuja otro personaje.»"""
    s = position_state("duke/duke/1;assassin+captain/-/2;move:0", players=2)
    play(s, "Tax (claims Duke)", "Challenge", "Lose Assassin")
    assert core(s).revealed[1] == (C.ASSASSIN,)
    assert s.is_chance_node()
    # The Duke shown is shuffled in with the court's last Duke: 2 of 12 cards.
    assert chance_probability(s, "Draw Duke") == pytest.approx(2 / 12)
    play(s, "Draw Captain")
    assert core(s).hands[0] == (C.CAPTAIN,)
    assert core(s).coins == (4, 2), "the Tax goes through"


def test_2to8_example_last_turn_coup_wins():
    """«Último turno: sólo quedan los jugadores de arriba a la derecha y de abajo a la derecha,
    pero el jugador de abajo a la derecha tiene ocho monedas, gana realizando la acción Golpe.»"""
    s = position_state("-/duke+captain/0;contessa/assassin/8;-/duke+ambassador/0;captain/contessa/3;move:1")
    play(s, "Coup P3")
    assert s.is_terminal() and s.returns() == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])
