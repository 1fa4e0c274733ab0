"""¡Cobardes! games as a whole: parameters and positions, keys, observations,
OpenSpiel's CFR and exploitability, the CLI, and random-game invariants."""

from __future__ import annotations

import time

import numpy as np
import pyspiel
import pytest
from cobardes_util import battle, face_off
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from open_spiel.python.observation import make_observation

from analysis import cli
from analysis.play.bots import sample_chance
from analysis.play.session import play_game
from analysis.shared.params import load_game
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes import events as EV
from games.cobardes import options, view
from games.cobardes import war as W
from games.cobardes.battle import render
from games.errors import InvalidParameterError, InvalidPositionError, UnknownCardError

# ------------------------------------------------------------------ parameters and positions


@pytest.mark.parametrize("params,error,needle", [
    ({"villain0": "Bob"}, UnknownCardError, "unknown ¡Cobardes! card 'Bob'"),
    ({"courtier1": "Jester"}, UnknownCardError, "unknown ¡Cobardes! courtier 'Jester'"),
    ({"villain0": "4"}, UnknownCardError, "'4' is not a villain"),
    ({"kinds": "everything"}, InvalidParameterError, "parameter 'kinds'"),
    ({"warriors": 9}, InvalidParameterError, "'warriors' takes 0 to 6"),
    ({"quicker": "fast"}, InvalidParameterError, "parameter 'quicker'"),
    ({"villain_deck": ""}, InvalidParameterError, "names no card"),
    ({"position": "hand0:0.1.1"}, InvalidPositionError, "warrior 1 is listed twice"),
    ({"position": "hand0:0.Thug;hand1:1.Thug"}, InvalidPositionError, "cannot be in both hands"),
    ({"position": "hand0:0.8"}, UnknownCardError, "unknown ¡Cobardes! card '8'"),
    ({"position": "combat:8"}, InvalidPositionError, "combat 8 does not exist"),
    ({"position": "hand0:0.1.2.3.4.5.6;combat:3", "kinds": "warriors"}, InvalidPositionError,
     "cannot have fought 2 combats"),
    ({"position": "unharmed:0"}, InvalidPositionError, "prince cannot have left a combat unharmed"),
    ({"position": "court0:Squire;court1:Squire"}, InvalidPositionError, "Squire cannot be with both"),
    ({"position": "hand1:0.Thug", "kinds": "warriors"}, InvalidPositionError, "villains are not in play"),
    ({"position": "bogus:1"}, InvalidPositionError, "is not one of"),
    ({"position": "hand0:0.?.?.?", "villain_deck": "Thug/Sheep"}, InvalidParameterError, "too few villains"),
])
def test_bad_parameters_and_positions_raise_one_clear_error(params, error, needle):
    with pytest.raises(error, match=None) as info:
        pyspiel.load_game("python_cobardes_battle", params)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_load_game_passes_our_errors_through():
    with pytest.raises(UnknownCardError):
        load_game("python_cobardes_battle", {"villain0": "Nobody"})


def test_position_string_sets_the_whole_start():
    s = battle(position="hand0:0.1.2.3.Beggar;hand1:1.2.4.5.?;court0:Squire*;court1:Archer;combat:4;unharmed:1",
               villain_deck="Thug/Sheep")
    assert s.is_chance_node()
    assert sorted(a for a, _ in s.chance_outcomes()) == [C.THUG, C.SHEEP]
    s.apply_action(C.SHEEP)
    pos = s.position
    assert pos.combat == 4 and pos.unh == 0b10 and pos.used == 0b01
    assert pos.court == (C.SQUIRE, C.ARCHER)
    assert E.bits(pos.h[0]) == [0, 1, 2, 3, C.BEGGAR]
    assert E.bits(pos.h[1]) == [1, 2, 4, 5, C.SHEEP]
    assert "P1 holds: Beggar" not in s.observation_string(0)
    assert "P0 holds: Beggar" in s.observation_string(1), "a named villain is known to both"
    assert "Sheep" not in s.information_state_string(0)
    assert "Sheep" in s.information_state_string(1)


def test_position_with_spanish_names_and_used_courtier():
    s = battle(position="hand0:Princesa.3.4.5.6.Mendigo;hand1:0.1.2.3.4;court0:Escudero*;combat:3")
    assert E.bits(s.position.h[0]) == [0, 3, 4, 5, 6, C.BEGGAR]
    assert s.position.court[0] == C.SQUIRE and s.position.used & 1


# ------------------------------------------------------------------ keys and observations


def test_hidden_first_choice_stays_hidden():
    s = battle(kinds="warriors")
    before = (s.information_state_string(1), s.infoset_key(1))
    s.apply_action(6)
    other = battle(kinds="warriors")
    other.apply_action(0)
    assert s.information_state_string(1) == other.information_state_string(1)
    assert s.infoset_key(1) == other.infoset_key(1)
    assert s.observation_string(1) == other.observation_string(1)
    assert s.information_state_string(0) != other.information_state_string(0)
    assert s.infoset_key(0) != other.infoset_key(0)
    assert before != (s.information_state_string(1), s.infoset_key(1))
    assert list(s.observation_tensor(1)) == list(other.observation_tensor(1))
    assert list(s.information_state_tensor(1)) == list(other.information_state_tensor(1))
    assert list(s.information_state_tensor(0)) != list(other.information_state_tensor(0))


def test_state_key_forgets_the_order_of_past_combats():
    a = battle(kinds="warriors")
    face_off(a, 5, 5)
    face_off(a, 6, 6)
    b = battle(kinds="warriors")
    face_off(b, 6, 6)
    face_off(b, 5, 5)
    assert a.history() != b.history()
    assert a.state_key() == b.state_key()
    assert a.infoset_key(0) == b.infoset_key(0)
    c = battle(kinds="warriors")
    face_off(c, 6, 6)
    face_off(c, 4, 4)
    assert c.state_key() != a.state_key()


def test_infoset_key_hides_the_rival_villain():
    a = battle(v0="random", v1="random", villain_deck="Thug/Sheep")
    b = a.child(C.THUG).child(C.SHEEP)
    c = a.child(C.SHEEP).child(C.THUG)
    assert b.infoset_key(0) != c.infoset_key(0)
    # P0 holds different villains; P1 too: both differ. Same own villain, other rival's:
    d = battle(v0="Beggar", v1="random", villain_deck="Thug/Sheep")
    e1, e2 = d.child(C.THUG), d.child(C.SHEEP)
    assert e1.infoset_key(0) == e2.infoset_key(0)
    assert e1.information_state_string(0) == e2.information_state_string(0)
    assert e1.state_key() != e2.state_key()


def test_public_and_private_observation_strings():
    game = pyspiel.load_game("python_cobardes_battle", {
        "villain0": "Thug", "villain1": "random", "villain_deck": "Sheep",
        "courtier0": "none", "courtier1": "none"})
    s = game.new_initial_state()
    s.apply_action(C.SHEEP)
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    pub = public.string_from(s, 1)
    assert "P1 receives a villain" in pub and "Sheep" not in pub
    assert "you receive the Sheep" in private.string_from(s, 1)


def test_observation_tensor_shape_and_content():
    s = battle(kinds="warriors")
    t = np.asarray(s.observation_tensor(0))
    assert t.shape == (s.get_game().observation_tensor_size(),)
    assert t[:7].sum() == 7  # own hand: seven warriors


def test_clone_shares_the_immutable_position_and_is_fast():
    s = battle()
    c = s.clone()
    assert c.position is s.position
    t = time.perf_counter()
    for _ in range(2000):
        s.clone()
    assert (time.perf_counter() - t) / 2000 < 200e-6


# ------------------------------------------------------------------ OpenSpiel's algorithms

CFR_PARAMS = {"warriors": 1, "combats": 2, "kinds": "warriors+villains",
              "villain_deck": "Assassin/Sheep/Executioner"}


def _cfr_pair(params, iterations):
    game = pyspiel.load_game("python_cobardes_battle", params)
    py = cfr.CFRSolver(game)
    first = None
    for i in range(iterations):
        py.evaluate_and_update_policy()
        if i == 0:
            first = exploitability.exploitability(game, py.average_policy())
    avg = py.average_policy()
    e_py = exploitability.exploitability(game, avg)
    cpp = pyspiel.CFRSolver(game)
    for _ in range(iterations):
        cpp.evaluate_and_update_policy()
    e_cpp = pyspiel.exploitability(game, cpp.average_policy())
    v_py = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0]
    v_cpp = pyspiel.expected_returns(game.new_initial_state(), cpp.average_policy(), -1, True)[0]
    return first, e_py, e_cpp, v_py, v_cpp


def test_openspiel_cfr_and_exploitability_run_and_agree():
    """Python CFR and C++ CFR on a reduced-deck battle with hidden villains: both run,
    exploitability falls, and the two agree on exploitability and value."""
    first, e_py, e_cpp, v_py, v_cpp = _cfr_pair(CFR_PARAMS, 25)
    assert e_py < first
    assert e_py == pytest.approx(e_cpp, abs=1e-9)
    assert v_py == pytest.approx(v_cpp, abs=1e-9)


@pytest.mark.slow
def test_openspiel_cfr_on_a_larger_reduced_deck():
    params = {"warriors": 2, "combats": 2, "kinds": "all", "villain_deck": "Thug/Sheep",
              "court_deck": "Squire/Maiden"}
    first, e_py, e_cpp, v_py, v_cpp = _cfr_pair(params, 30)
    assert e_py < first / 2
    assert e_py == pytest.approx(e_cpp, abs=1e-9)
    assert v_py == pytest.approx(v_cpp, abs=1e-9)


# ------------------------------------------------------------------ the CLI


def test_farol_games_lists_both(capsys):
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    assert "python_cobardes_battle" in out and "python_cobardes_war" in out
    assert "exchange_limit" in out and "max_battles" in out


def _reader(rng):
    def read(_prompt):
        return "abc"[int(rng.integers(0, 3))]
    return read


@pytest.mark.parametrize("name", ["python_cobardes_battle", "python_cobardes_war"])
def test_a_person_plays_to_the_end(name):
    """A scripted person answering a random letter (retrying when out of range)."""
    game = load_game(name)
    lines: list[str] = []
    rng = np.random.default_rng(5)
    returns = play_game(game, seat=1, opponent="random", seed=2, read=_reader(rng),
                        write=lines.append)
    assert returns is not None and sum(returns) == 0
    text = "\n".join(lines)
    assert "Game over" in text
    assert "Your hand:" in text
    if name == "python_cobardes_war":
        assert "Victory tokens" in text


def test_every_event_code_has_its_text():
    """The engines log event codes; the view writes each one out (the ruling "with no
    other warrior to send, the frightened one stays" as an example)."""
    assert set(view._TEXTS) == set(range(EV.NUM_CODES))
    assert view.event_text((3, EV.GHOST_STAYS, 1, 4)) == "P1 has no other warrior: warrior 4 stays"
    assert view.event_text((3, EV.REVEAL, 5, C.PRINCE)) == "reveal: P0 warrior 5, P1 warrior 0 (prince)"
    assert view.event_texts([(1, EV.YOU_PREPARE, 3), (3, EV.PREPARES, 0)], 2) == ["P0 prepares a card"]


def test_render_shows_only_what_the_seat_may_see():
    s = battle(v0="Thug", v1="random", villain_deck="Sheep")
    s.apply_action(C.SHEEP)
    s.apply_action(5)  # P0 prepares the 5, face down
    view = render(s, 1)
    assert "Sheep" in view and "prepared a card face down" in view
    assert "warrior 5" not in view and "You prepared" not in view
    assert "You prepared 5" in render(s, 0)
    assert "Thug" in view, "P0's villain was named in the parameters: public"


def test_action_names_read_well():
    s = battle(v0="Beggar", c0="Standard-Bearer")
    assert s.action_to_string(0, E.ADVANCE) == "advance Standard-Bearer"
    assert s.action_to_string(0, E.PASS) == "pass"
    s.apply_action(E.PASS)
    assert s.action_to_string(0, 4) == "play warrior 4"
    assert s.action_to_string(0, C.BEGGAR) == "play villain Beggar"


# ------------------------------------------------------------------ random-game invariants


def _check_battle(pos: E.Pos, k: int, universe: int) -> None:
    full = (1 << (k + 1)) - 1
    for p in (0, 1):
        on_field = [c for q, c in pos.field if q == p and not C.is_villain(c)]
        assert len(on_field) == len(set(on_field))
        mask = sum(1 << c for c in on_field)
        assert not mask & pos.h[p], "a warrior both in hand and on the battlefield"
        assert mask | (pos.h[p] & C.WARRIOR_MASK) == full, "a warrior went missing"
    villains = (E.bits(pos.h[0] & C.VILLAIN_MASK) + E.bits(pos.h[1] & C.VILLAIN_MASK)
                + [c for _, c in pos.field if C.is_villain(c)] + list(pos.out))
    assert len(villains) == len(set(villains)), f"a villain in two places: {villains}"
    assert not sum(1 << v for v in villains) & ~universe
    assert pos.court[0] < 0 or pos.court[0] != pos.court[1]
    assert 1 <= pos.combat <= 8


def run_battles(n: int, params: dict, seed: int) -> dict:
    game = pyspiel.load_game("python_cobardes_battle", params)
    rules = game.rules
    cfg = rules.cfg
    universe = cfg.villain_deck | ((rules.initial.h[0] | rules.initial.h[1]) & C.VILLAIN_MASK)
    rng = np.random.default_rng(seed)
    limit = game.max_game_length()
    counts: dict = {}
    for _ in range(n):
        pos = rules.initial
        moves = 0
        dealt = 0
        while pos.outcome is None:
            if pos.actor == E.CHANCE:
                outs = E.chance_outcomes(cfg, pos)
                action = outs[rng.integers(len(outs))][0] if len(outs) > 1 else outs[0][0]
                dealt += pos.phase == E.DEAL
            else:
                legal = E.legal_actions(cfg, pos)
                assert legal, f"no legal action in phase {E.PHASE_NAMES[pos.phase]}"
                action = legal[rng.integers(len(legal))]
            pos = E.apply(cfg, pos, action)
            moves += 1
            assert moves <= limit, "the battle did not end"
            if pos.phase != E.DEAL:
                _check_battle(pos, rules.warriors, universe)
        kind, winner = pos.outcome
        assert (winner in (0, 1)) == (kind in (E.VICTORY, E.CROWN))
        assert pos.combat <= cfg.combats + 1
        value = rules.pay.value(pos.outcome)
        assert rules.pay.bounds()[0] <= value <= rules.pay.bounds()[1]
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _check_war(w: W.WarPos, rules: W.WarRules) -> None:
    assert all(0 <= t <= W.TOKENS_TO_WIN for t in w.tokens)
    if w.phase == W.SETUP:
        return
    vdeck = E.bits(w.vdeck[0]) + list(w.vdeck[1])
    cdeck = E.bits(w.cdeck[0]) + list(w.cdeck[1])
    if w.phase == W.BATTLE or (w.phase == W.OVER and w.b is not None and w.outcome is not None
                               and w.b.outcome is not None and not w.queue and w.held == (0, 0)):
        b = w.b
        villains = (E.bits(b.h[0] & C.VILLAIN_MASK) + E.bits(b.h[1] & C.VILLAIN_MASK)
                    + [c for _, c in b.field if C.is_villain(c)] + list(b.out))
        courts = [c for c in b.court if c >= 0]
    else:
        villains = E.bits(w.held[0]) + E.bits(w.held[1])
        courts = [c for c in w.courts if c >= 0]
    if w.phase in (W.BATTLE, W.RENEW, W.DRAW):
        allv = villains + vdeck
        assert sorted(allv) == sorted(set(allv)), "a villain in two places"
        if rules.villains:
            assert sum(1 << v for v in allv) == rules.cfg.villain_deck, "a villain went missing"
        allc = courts + cdeck
        assert sorted(allc) == sorted(set(allc)), "a courtier in two places"
        if rules.courtiers:
            assert sum(1 << c for c in allc) == rules.cfg.court_deck, "a courtier went missing"
    if w.phase == W.BATTLE:
        _check_battle(w.b, rules.k, rules.cfg.villain_deck)


def run_wars(n: int, params: dict, seed: int) -> dict:
    game = pyspiel.load_game("python_cobardes_war", params)
    rules = game.rules
    rng = np.random.default_rng(seed)
    limit = game.max_game_length()
    counts: dict = {}
    for _ in range(n):
        w = rules.initial
        moves = 0
        tokens = w.tokens
        while w.outcome is None:
            if w.actor == E.CHANCE:
                outs = W.chance_outcomes(rules, w)
                action = outs[rng.integers(len(outs))][0] if len(outs) > 1 else outs[0][0]
            else:
                legal = W.legal_actions(rules, w)
                assert legal
                action = legal[rng.integers(len(legal))]
            w = W.apply(rules, w, action)
            moves += 1
            assert moves <= limit, "the war did not end"
            assert w.tokens[0] >= tokens[0] and w.tokens[1] >= tokens[1], "a token was lost"
            assert sum(w.tokens) - sum(tokens) <= 1
            tokens = w.tokens
            _check_war(w, rules)
        assert w.nbattle <= rules.max_battles
        if w.outcome >= 0:
            crown = w.b.outcome[0] == E.CROWN
            assert crown or w.tokens[w.outcome] == W.TOKENS_TO_WIN
            assert w.tokens[1 - w.outcome] < W.TOKENS_TO_WIN
            if crown:
                assert w.b.outcome[1] == w.outcome
        else:
            assert w.nbattle == rules.max_battles and max(w.tokens) < W.TOKENS_TO_WIN
        counts[w.outcome] = counts.get(w.outcome, 0) + 1
    return counts


BATTLE_PARAM_SETS = [
    {},
    {"kinds": "warriors"},
    {"kinds": "warriors+courtiers", "quicker": "random"},
    {"warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner/Seductress",
     "court_deck": "Archer/Sentinel/Procuress"},
    {"followup": "mandatory", "exchange_limit": 0},
    {"villain0": "Seductress", "villain1": "King's Ghost", "courtier0": "Procuress",
     "courtier1": "Archer"},
]
WAR_PARAM_SETS = [
    {},
    {"kinds": "warriors+villains", "villain_deck": "Seductress/Thug", "max_battles": 6},
    {"warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
     "court_deck": "Squire/Maiden/Archer", "max_battles": 5},
]


@pytest.mark.parametrize("params", BATTLE_PARAM_SETS)
def test_random_battles_keep_the_invariants(params):
    counts = run_battles(1000, params, seed=11)
    assert sum(counts.values()) == 1000


@pytest.mark.parametrize("params", WAR_PARAM_SETS)
def test_random_wars_keep_the_invariants(params):
    counts = run_wars(150, params, seed=12)
    assert sum(counts.values()) == 150


@pytest.mark.slow
def test_100k_random_battles_keep_the_invariants():
    per = 100_000 // len(BATTLE_PARAM_SETS) + 1
    total = 0
    for i, params in enumerate(BATTLE_PARAM_SETS):
        total += sum(run_battles(per, params, seed=100 + i).values())
    assert total >= 100_000


@pytest.mark.slow
def test_10k_random_wars_keep_the_invariants():
    per = 10_000 // len(WAR_PARAM_SETS) + 1
    total = 0
    for i, params in enumerate(WAR_PARAM_SETS):
        counts = run_wars(per, params, seed=200 + i)
        total += sum(counts.values())
    assert total >= 10_000


@pytest.mark.parametrize("params", [
    {"kinds": "warriors", "warriors": 3, "combats": 4},
    {"warriors": 2, "combats": 2, "kinds": "all", "villain_deck": "Thug/Sheep/Troubadour",
     "court_deck": "Squire/Maiden/Procuress"},
])
def test_equal_state_keys_have_the_same_future(params):
    """games.keys: "two states with equal keys have the same future" — checked one step
    deep at every node of a small tree (same player, actions, chance outcomes, returns,
    information-set keys, and the same keys after each action)."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    seen: dict = {}
    stack = [game.new_initial_state()]
    merged = 0
    while stack:
        s = stack.pop()
        key = s.state_key()
        if s.is_terminal():
            summary = ("end", tuple(s.returns()))
            children = []
        else:
            actions = ([a for a, _ in s.chance_outcomes()] if s.is_chance_node()
                       else s.legal_actions())
            children = [s.child(a) for a in actions]
            summary = (s.current_player(), tuple(actions),
                       tuple(s.chance_outcomes()) if s.is_chance_node() else (),
                       s.infoset_key(0), s.infoset_key(1),
                       tuple(c.state_key() for c in children))
        if key in seen:
            assert seen[key] == summary
            merged += 1
            continue
        seen[key] = summary
        stack.extend(children)
    assert merged > 0, "the variant should have transpositions"


def test_information_state_tensor_determines_the_information_state():
    """The battle's information-state tensor has perfect recall: two nodes with the same
    tensor for a player have the same information-state string."""
    game = pyspiel.load_game("python_cobardes_battle", {
        "courtier0": "Procuress", "courtier1": "Inquisitor",
        "villain_deck": "Thug/Beggar/Seductress/Executioner"})
    rng = np.random.default_rng(1)
    seen: dict = {}
    for _ in range(60):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(sample_chance(s, rng))
                continue
            for p in (0, 1):
                key = (p, tuple(np.flatnonzero(np.asarray(s.information_state_tensor(p)))))
                info = s.information_state_string(p)
                assert seen.setdefault(key, info) == info
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
    assert len(seen) > 200


def test_the_documented_position_example_loads():
    """The example in docs/rules/cobardes.md and the module docstrings."""
    example = next(line.strip() for line in options.__doc__.splitlines()
                   if line.strip().startswith("hand0:"))
    s = battle(position=example)
    s.apply_action(s.chance_outcomes()[0][0])
    assert s.position.combat == 4 and s.position.unh == 1
