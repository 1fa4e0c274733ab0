"""Goat Lords rules, situation by situation, against the Spanish rules text (simple version).

Each test quotes the sentence it checks; rulings on ambiguous points are in
docs/rules/goat_lords.md.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from analysis.play.bots import sample_chance
from analysis.shared.params import load_game
from games.errors import (
    IllegalActionError,
    InvalidParameterError,
    InvalidPositionError,
    UnknownCardError,
)
from games.goat_lords import rules
from games.goat_lords.cards import (
    DECK_COUNTS,
    DEFAULT_VALUES,
    GOAT_VALUE_RANGE,
    IS_WILD,
    KINDS,
    WILD_PILE,
    WILD_VALUE_RANGE,
    kind_index,
)
from games.goat_lords.game import GoatLordsState
from games.goat_lords.table import DUEL, OVER, PLAY, REFILL, STARTER, Config, Table, from_position

K = kind_index


def pos(hands, herds=None, discard=None, to_move=0, **cfg):
    players = cfg.pop("players", len(hands))
    return from_position(Config(players=players, **cfg), hands, herds, discard, to_move)


def birth(a, b):
    return rules.BIRTH_ID[tuple(sorted((K(a), K(b))))]


def duel(target, card):
    return rules.DUEL0 + target * len(KINDS) + K(card)


def answer(card):
    return rules.ANSWER0 + K(card)


def discard(card):
    return rules.DISCARD0 + K(card)


def assisted(card):
    return rules.ASSIST0 + K(card)


def test_published_deck():
    """"110 Cartas de Cabra": 12 wilds (Goat Lord ×4, Magical Goatini ×8), ten goat kinds."""
    assert sum(DECK_COUNTS) == 110
    assert len(KINDS) == 12
    assert sum(c for c, w in zip(DECK_COUNTS, IS_WILD, strict=True) if w) == 12
    assert DECK_COUNTS[K("goat_lord")] == 4 and DECK_COUNTS[K("goatini")] == 8
    assert DECK_COUNTS[K("goatacorn")] == 8
    for v, w in zip(DEFAULT_VALUES, IS_WILD, strict=True):
        lo, hi = WILD_VALUE_RANGE if w else GOAT_VALUE_RANGE
        assert lo <= v <= hi


@pytest.mark.parametrize("players,size", [(2, 5), (3, 5), (4, 4), (5, 4), (6, 4)])
def test_deal(players, size):
    """"reparta 4 cartas a cada jugador (5 si juega con 2-3 jugadores)"; the player left of
    the dealer (seat 0) starts."""
    game = pyspiel.load_game("python_goat_lords", {"players": players})
    state = game.new_initial_state()
    rng = np.random.default_rng(players)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    t = state.table
    assert [sum(h) for h in t.hands] == [size] * players
    assert len(t.discard) == 1 and state.current_player() == 0
    assert t.draw_size() == 110 - size * players - 1


def test_starter_is_never_a_wild():
    """"esto actuará como el comienzo si la pila de descarte (un comodín no puede comenzar)"."""
    table = Table(Config(players=2))
    rng = random.Random(1)
    while table.phase != STARTER:
        kinds, probs = zip(*table.chance_outcomes(), strict=True)
        table.apply_chance(rng.choices(kinds, probs)[0])
    outcomes = dict(table.chance_outcomes())
    assert not any(IS_WILD[k] for k in outcomes)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError):
        table.apply_chance(K("goat_lord"))


def test_birth_of_identical_goats():
    """1. ¡Nacimiento!: "Dé la bienvenida a las cabras al rebaño tomando dos cartas idénticas
    ... de su mano y colocándolas frente a usted"."""
    t = pos([["ninja", "ninja", "kraken", "fairy", "foodie"], ["tgoat"]], discard=["ladypug"])
    assert birth("ninja", "ninja") in t.legal_actions()
    assert (K("kraken"), K("fairy")) not in rules.birth_options(t.hands[0])
    assert not rules.is_pair(K("kraken"), K("fairy"))
    t.apply_action(birth("ninja", "ninja"))
    assert t.herds[0] == ((K("ninja"), (K("ninja"), K("ninja"))),)
    assert sum(t.hands[0]) == 3 and t.hands[0][K("ninja")] == 0
    assert t.phase == REFILL and t.pending == [0, 0, 1, 1, 1, 1]


def test_birth_with_a_wild():
    """"tomando dos cartas idénticas (o una salvaje)": a wild pairs with any card; the pile is
    made of the goat, two wilds make a pile only wilds match (ruling 2)."""
    t = pos([["goat_lord", "kraken", "goatini", "fairy"], ["tgoat"]])
    legal = t.legal_actions()
    for pair in [("goat_lord", "kraken"), ("goat_lord", "goatini"), ("goatini", "fairy")]:
        assert birth(*pair) in legal
    assert not rules.is_pair(K("kraken"), K("fairy"))
    assert len(legal) == 5  # Goat Lord + Goatini, and each wild with the Kraken or the Fairy
    assert rules.pair_kind(K("goat_lord"), K("kraken")) == K("kraken")
    assert rules.pair_kind(K("goat_lord"), K("goatini")) == WILD_PILE
    assert rules.birth_options([1] + [0] * 11) == []  # one wild alone is not a pair


def test_assisted_birth_with_the_discard_top():
    """2. ¡Parto asistido!: "Si la carta superior de la pila de descarte coincide con una carta
    de la mano de un jugador, el jugador puede optar por utilizarla para crear un par en su
    cabrero"."""
    t = pos([["foodie", "kraken", "fairy", "tgoat", "ninja"], ["tgoat"]], discard=["ladypug", "foodie"])
    assert t.legal_actions() == [assisted("foodie")]
    t.apply_action(assisted("foodie"))
    assert t.herds[0] == ((K("foodie"), (K("foodie"), K("foodie"))),)
    assert t.discard == [K("ladypug")]
    # A wild in hand matches any top card (ruling 4).
    t2 = pos([["goatini", "kraken", "fairy", "tgoat", "ninja"], ["tgoat"]], discard=["ladypug"])
    assert assisted("goatini") in t2.legal_actions()


def test_assisted_birth_needs_a_discard_pile():
    """"Si la pila de descarte se agota, no la reponga automáticamente. Espere hasta que ocurran
    más descartes de jugadores"."""
    t = pos([["foodie", "kraken", "fairy", "tgoat", "ninja"], ["tgoat"]], discard=["foodie"])
    t.apply_action(assisted("foodie"))
    assert t.discard == []
    assert rules.assisted_options(t.hands[0], t.discard_top()) == []


def duel_table(**cfg):
    """Seat 0 holds two Ninjas and a Goat Lord; seat 1's top pile is Ninjas over a first pile."""
    return pos(
        [["ninja", "ninja", "goat_lord", "fairy", "tgoat"], ["ninja", "goatini", "kraken", "foodie", "ladypug"]],
        herds=[[["ladypug", "ladypug"]], [["dragon", "dragon"], ["ninja", "ninja"]]],
        **cfg,
    )


def test_duel_attack_is_legal_with_a_matching_goat_or_a_wild():
    """3. ¡Duelo!: "Puedes atacar la pila (o pila) de cabras superior de un oponente produciendo
    una cabra de tu mano (o un salvaje) que coincida con la Cabra superior de tu oponente"."""
    t = duel_table()
    legal = t.legal_actions()
    assert duel(1, "ninja") in legal and duel(1, "goat_lord") in legal
    assert duel(1, "fairy") not in legal


def test_duel_rule_1_attacker_needs_a_birth_pair():
    """Duel rule 1: "Debes tener al menos una pareja de nacimiento frente a ti antes de batirte
    en duelo"."""
    t = pos(
        [["ninja", "kraken", "goat_lord", "fairy", "tgoat"], ["foodie"]],
        herds=[[], [["dragon", "dragon"], ["ninja", "ninja"]]],
    )
    assert not any(rules.DUEL0 <= a < rules.ANSWER0 for a in t.legal_actions())


def test_duel_rule_2_target_needs_two_pairs():
    """Duel rule 2: "El duelo no puede ocurrir hasta que haya al menos dos pares de cabras en la
    pila del jugador contrario. El primer nacimiento está protegido."; also "La primera pareja
    que juegue nunca podrá serle robada"."""
    t = pos(
        [["ninja", "ninja", "goat_lord", "fairy", "tgoat"], ["foodie"]],
        herds=[[["ladypug", "ladypug"]], [["ninja", "ninja"]]],
    )
    assert not any(rules.DUEL0 <= a < rules.ANSWER0 for a in t.legal_actions())


def test_duel_rule_3_attacker_needs_a_matching_card():
    """Duel rule 3: "El jugador debe tener una carta de cabra en su mano que coincida con las
    cabras en la pila superior del oponente, o un comodín"."""
    t = pos(
        [["kraken", "fairy", "tgoat", "foodie", "ghoast"], ["foodie"]],
        herds=[[["ladypug", "ladypug"]], [["dragon", "dragon"], ["ninja", "ninja"]]],
    )
    assert t.legal_actions() == sorted(discard(c) for c in ["kraken", "fairy", "tgoat", "foodie", "ghoast"])
    # A pile of two wilds is matched by wilds only (ruling 5).
    wild_pile = (K("goat_lord"), (K("goat_lord"), K("goatini")))
    assert not rules.matches(K("ninja"), rules.pair_kind(*wild_pile[1]))
    assert rules.matches(K("goatini"), WILD_PILE)


def test_duel_rule_4_only_the_top_pile():
    """Duel rule 4: "SOLO puedes atacar la pila superior de un oponente, las pilas de abajo
    están protegidas por la pila de cabras superior"."""
    t = pos(
        [["dragon", "kraken", "fairy", "tgoat", "foodie"], ["ghoast"]],
        herds=[[["ladypug", "ladypug"]], [["foodie", "foodie"], ["dragon", "dragon"], ["ninja", "ninja"]]],
    )
    assert not any(rules.DUEL0 <= a < rules.ANSWER0 for a in t.legal_actions())


def test_duel_alternates_and_the_attacker_wins():
    """"Si puede o elige, el oponente puede defenderse con una cabra idéntica o un salvaje. El
    duelo continúa alternando hasta que alguien ya no puede jugar o elige no hacerlo."
    "Si el atacante gana, recoge todas las cartas en duelo, incluida la pila superior del
    oponente, y las añade como una pila a su cabrero.\""""
    t = duel_table()
    t.apply_action(duel(1, "ninja"))
    assert t.phase == DUEL and t.to_move == 1
    assert t.legal_actions() == sorted([answer("ninja"), answer("goatini"), rules.YIELD])
    t.apply_action(answer("goatini"))
    assert t.to_move == 0
    t.apply_action(answer("ninja"))
    t.apply_action(answer("ninja"))  # the defender's only Ninja
    t.apply_action(answer("goat_lord"))  # the defender now has no match: it yields at once
    assert t.herds[1] == ((K("dragon"), (K("dragon"), K("dragon"))),)
    kind, cards = t.herds[0][-1]
    assert kind == K("ninja")
    assert sorted(cards) == sorted(K(c) for c in ["ninja"] * 5 + ["goatini", "goat_lord"])
    assert t.stats["attacker_wins"] == 1
    # "El jugador que completó el turno elige primero": the attacker refills, then the defender.
    assert t.phase == REFILL and t.pending == [0] * 3 + [1] * 2


def test_duel_defender_wins():
    """"Si el defensor gana, recoge las cartas utilizadas en el duelo y las añade a la pila
    superior (defendida)"."""
    t = duel_table()
    t.apply_action(duel(1, "goat_lord"))
    t.apply_action(answer("ninja"))
    t.apply_action(rules.YIELD)  # the attacker chooses to stop
    assert t.herds[0] == ((K("ladypug"), (K("ladypug"), K("ladypug"))),)
    kind, cards = t.herds[1][-1]
    assert kind == K("ninja") and sorted(cards) == sorted(K(c) for c in ["ninja"] * 3 + ["goat_lord"])
    assert t.stats["defender_wins"] == 1 and t.pending == [0, 1]


def test_duel_defender_may_choose_not_to_answer():
    """"Si puede o elige, el oponente puede defenderse": defending is a choice."""
    t = duel_table()
    t.apply_action(duel(1, "ninja"))
    t.apply_action(rules.YIELD)
    assert len(t.herds[0]) == 2 and len(t.herds[1]) == 1


def test_duel_answer_modes_after_a_wild():
    """"el oponente puede defenderse con una cabra idéntica o un salvaje": with
    duel_answer=pile a wild counts as the duelled goat; with duel_answer=last only a wild
    answers a wild (ruling 6)."""
    t = duel_table()
    t.apply_action(duel(1, "goat_lord"))
    assert answer("ninja") in t.legal_actions()
    t = duel_table(duel_answer="last")
    t.apply_action(duel(1, "goat_lord"))
    assert t.legal_actions() == [answer("goatini"), rules.YIELD]


def test_discard_only_when_nothing_else_is_possible():
    """4. ¡Descarte!: "Si no se puede hacer nada de lo anterior, el jugador descarta una carta y
    roba una nueva carta de la pila de robo"."""
    t = pos([["ninja", "kraken", "fairy", "tgoat", "foodie"], ["ghoast"]], discard=["ladypug"])
    assert t.legal_actions() == sorted(discard(c) for c in ["ninja", "kraken", "fairy", "tgoat", "foodie"])
    t.apply_action(discard("kraken"))
    assert t.discard == [K("ladypug"), K("kraken")]
    assert t.phase == REFILL and t.pending == [0, 1, 1, 1, 1]
    t.apply_chance(K("dragon"))
    assert sum(t.hands[0]) == 5
    # With a pair in hand, discarding is not allowed.
    t2 = pos([["ninja", "ninja", "fairy", "tgoat", "foodie"], ["ghoast"]])
    assert not any(a >= rules.DISCARD0 for a in t2.legal_actions())


def test_refill_waits_for_the_end_of_the_turn():
    """"Al final de cada turno, los jugadores roban del montón de cartas hasta que tengan la
    misma cantidad de cartas que tenían inicialmente ... No reponga su mano hasta que termine
    su turno": no draw during a duel, every short hand refills after it."""
    t = duel_table()
    t.apply_action(duel(1, "ninja"))
    t.apply_action(answer("ninja"))
    assert t.phase == DUEL and t.pending == []
    t.apply_action(rules.YIELD)
    assert t.pending == [0, 1]
    t.apply_chance(K("fairy"))
    t.apply_chance(K("kraken"))
    assert [sum(h) for h in t.hands] == [5, 5] and t.phase == PLAY and t.to_move == 1


def test_reshuffle_when_the_draw_pile_empties_with_five_discards():
    """"Si la pila de descarte contiene 5 o más cartas de cabra en el momento en que la pila de
    robo se vacía, baraja la pila de descarte restante y continúa extrayendo de ella"."""
    t = pos([["ninja", "kraken", "fairy", "tgoat", "foodie"], ["ghoast"] * 5],
            discard=["dragon", "ladypug", "tgoat", "fainting"])
    t.draw = [0] * 12
    t.draw[K("goatacorn")] = 1
    t.apply_action(discard("kraken"))  # the discard pile now holds 5
    t.apply_chance(K("goatacorn"))
    assert t.discard == [] and t.stats["reshuffles"] == 1
    assert t.draw_size() == 5 and t.draw[K("kraken")] == 1


def test_no_reshuffle_under_five_then_play_until_hands_run_out():
    """"Cuando se acaba el Draw Pile, los jugadores continúan jugando hasta que se agotan las
    manos." With fewer than 5 discards the draw pile stays empty (ruling 12)."""
    t = pos([["ninja", "kraken", "fairy", "tgoat", "foodie"], ["ghoast", "dragon"]],
            discard=["dragon", "ladypug"], scoring="single")
    t.draw = [0] * 12
    t.draw[K("goatacorn")] = 1
    t.apply_action(discard("kraken"))
    t.apply_chance(K("goatacorn"))  # the pile empties with 3 discards: no reshuffle
    assert t.draw_size() == 0 and t.pending == [] and t.to_move == 1
    assert sum(t.hands[1]) == 2  # seat 1 could not refill
    # Hands shrink every turn now; empty hands are skipped and the round ends.
    rng = random.Random(0)
    while not t.is_terminal():
        assert t.draw_size() == 0
        t.apply_action(rng.choice(t.legal_actions()))
    assert all(sum(h) == 0 for h in t.hands)


def test_scores_are_herd_points_and_wilds_score_their_own_value():
    """"Cada jugador suma el valor total de su rebaño contando los puntos de cada cabra":
    the herd is scored (ruling 13); a wild scores its own value."""
    herd = ((K("ninja"), (K("ninja"), K("goat_lord"))), (K("foodie"), (K("foodie"), K("foodie"))))
    assert rules.herd_points(herd, DEFAULT_VALUES) == 15 + 50 + 5 + 5
    t = pos([["ninja"], []], herds=[[["ninja", "goat_lord"]], [["kraken", "kraken"]]], scoring="single")
    t.draw = [0] * 12
    t.apply_action(discard("ninja"))
    assert t.phase == OVER and t.round_points == [[65, 30]] and t.winning == [0]


def test_single_round_scoring_and_ties():
    """"Puntaje alternativo: ¡Juega solo una ronda a la vez y el jugador con más puntos gana!";
    tied winners share the win (zero-sum returns)."""
    assert rules.returns_for([0], 2) == [1.0, -1.0]
    assert rules.returns_for([0, 1], 2) == [0.0, 0.0]
    assert rules.returns_for([2], 4) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    assert sum(rules.returns_for([1, 3], 4)) == pytest.approx(0.0)
    t = pos([["ninja"], []], herds=[[["kraken", "kraken"]], [["kraken", "kraken"]]], scoring="single")
    t.draw = [0] * 12
    t.apply_action(discard("ninja"))
    assert t.winning == [0, 1]


def test_rounds_until_the_target_and_the_highest_total_wins():
    """"Puede jugar varias rondas manteniendo un total acumulado de puntos hasta que un jugador
    alcance 1000 puntos de cabra. Si en la misma ronda varias personas pasan de 1,000, entonces
    gana la puntuación más alta.\""""
    t = pos([["ninja"], []], herds=[[["kraken", "kraken"]], [["dragon", "dragon"]]],
            scoring="rounds", target_score=100)
    t.totals = [80, 90]
    t.draw = [0] * 12
    t.apply_action(discard("ninja"))
    # Both pass 100 in the same round (110 and 120): the higher total wins.
    assert t.phase == OVER and t.totals == [110, 120] and t.winning == [1]
    t = pos([["ninja"], []], herds=[[["kraken", "kraken"]], [["dragon", "dragon"]]],
            scoring="rounds", target_score=1000)
    t.draw = [0] * 12
    t.apply_action(discard("ninja"))
    # Nobody reached the target: a new round is dealt, its first player one seat to the left.
    assert t.phase != OVER and t.round_no == 1 and t.totals == [30, 30] and t.start_seat == 1
    assert t.draw_size() == 110


def test_multi_round_game_reaches_the_target():
    game = pyspiel.load_game("python_goat_lords", {"players": 3, "target_score": 1000})
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    t = state.table
    assert max(t.totals) >= 1000 or t.round_no + 1 == 30
    assert t.totals == [sum(r[p] for r in t.round_points) for p in range(3)]
    assert sum(state.returns()) == pytest.approx(0.0)


def test_information_state_hides_other_draws():
    """Hands are private: a seat's information state holds its own draws and public events."""
    game = pyspiel.load_game("python_goat_lords", {"players": 2})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    own = state.information_state_string(0)
    assert own.count("+") == 5 and "start:" in state.information_state_string(1)
    hand1 = [KINDS[k].key for k in range(12) for _ in range(state.table.hands[1][k])]
    text = state.observation_string(0)
    assert "p1 cards 5" in text
    assert all(f"+{card}" in state.information_state_string(1) for card in hand1)


def test_resample_from_infostate_keeps_what_the_player_knows():
    game = pyspiel.load_game("python_goat_lords", {"players": 3, "scoring": "single"})
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = False
    for _ in range(20):
        other = state.resample_from_infostate(p, sampler)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.legal_actions() == state.legal_actions()
        a, b = state.table, other.table
        assert [sum(h) for h in a.hands] == [sum(h) for h in b.hands]
        pool_a = [x + sum(h[k] for q, h in enumerate(a.hands) if q != p) for k, x in enumerate(a.draw)]
        pool_b = [x + sum(h[k] for q, h in enumerate(b.hands) if q != p) for k, x in enumerate(b.draw)]
        assert pool_a == pool_b
        changed |= a.hands != b.hands
        for q in range(3):
            if q != p:
                assert other.observation_string(q) != "" and other.information_state_string(q)
    assert changed


def test_bad_input_raises_farol_errors():
    with pytest.raises(InvalidParameterError, match="2 to 6 players"):
        load_game("python_goat_lords", {"players": 7})
    with pytest.raises(InvalidParameterError, match="scoring"):
        load_game("python_goat_lords", {"scoring": "sometimes"})
    with pytest.raises(InvalidParameterError, match="duel_answer"):
        load_game("python_goat_lords", {"duel_answer": "maybe"})
    with pytest.raises(InvalidParameterError, match="value_ladypug"):
        load_game("python_goat_lords", {"value_ladypug": 5000})
    with pytest.raises(UnknownCardError, match="unicorn"):
        kind_index("unicorn")
    with pytest.raises(InvalidPositionError, match="deck has 4"):
        pos([["goat_lord"] * 5, ["goat_lord"]])
    with pytest.raises(InvalidPositionError, match="pair"):
        pos([["ninja"], ["kraken"]], herds=[[["ninja", "kraken"]], []])
    t = pos([["ninja", "kraken", "fairy", "tgoat", "foodie"], ["ghoast"]])
    with pytest.raises(IllegalActionError):
        t.apply_action(birth("ninja", "ninja"))
    state = GoatLordsState(pyspiel.load_game("python_goat_lords"), t)
    with pytest.raises(IllegalActionError):
        state.table.apply_action(rules.YIELD)
