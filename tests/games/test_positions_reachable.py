"""Position strings are accepted only if legal play can reach them (¡Cobardes!, Coup).

¡Cobardes! rulebook: "Both players prepare a card from their hand. When you are ready,
both reveal it at the same time on the battlefield." and (setup) "In hand: their seven
Warriors (0 to 6) and one Villain taken at random from the Villain deck." — so each
finished combat takes at most one warrior from each hand, and exactly one unless the
player's only villain faced a warrior (games/cobardes/reachable.py).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from analysis import cli
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import format_position
from games.cobardes.reachable import hands_problem, position_problem
from games.coup import engine as CE
from games.coup.positions import MAX_COINS, Position
from games.coup.positions import format_position as coup_format
from games.coup.positions import parse_position as coup_parse
from games.errors import InvalidPositionError

FULL = (1 << 7) - 1


def one_line_error(capsys, argv) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("position,message", [
    ("hand0:", "player 0 has 7 warriors out of hand before combat 1, but each combat takes "
     "at most one warrior from a hand (0 finished)"),
    ("hand0:0.1.2;combat:2", "player 0 has 4 warriors out of hand before combat 2, but each "
     "combat takes at most one warrior from a hand (1 finished)"),
    ("hand0:0.1.2.3.4.5.6;hand1:0.1.2.3.4.5.6;combat:3", "player 0 cannot have fought 2 "
     "combats with only 0 warriors played: each combat takes a warrior from each hand"),
    ("hand0:0.1.2.3.4.5.6;hand1:1.2.3.4.5.6;combat:2;unharmed:1",
     "player 0 cannot have fought 1 combat with only 0 warriors played: each combat takes "
     "a warrior from each hand"),
    ("hand0:0.1.2.3.4.5.6.Thug;hand1:1.2.3.4.5.6.Sheep;combat:2;unharmed:1",
     "player 0 cannot have fought 1 combat with only 0 warriors played: each combat takes "
     "a warrior from each hand (a villain still in hand was never played)"),
    ("hand0:1.2.3.4.5.6.Thug;hand1:0.1.2.3.4.5.Sheep;combat:2", "player 0's prince is out "
     "of hand, so it left an earlier combat unharmed: add unharmed:0"),
    ("hand0:0.1.2.3.4.5.6.Thug.Beggar", "player 0 holds 2 villains; a hand holds at most "
     "one (each player is dealt one, and exchanges and captures only trade them)"),
    ("court0:Squire*", "court0: the Squire cannot have been used before combat 1"),
    ("hand0:0.1.2.3.4.6;hand1:0.1.2.3.4.5;court0:Wolf*;combat:2", "court0: the Wolf was "
     "used, so player 0's warrior 3 stayed on the battlefield and cannot be in hand"),
])
def test_unreachable_cobardes_positions_are_one_line_exit_2(capsys, position, message):
    kinds = "all" if "Thug" in position or "court" in position else "warriors"
    err = one_line_error(capsys, ["play", "python_cobardes_battle", "--param", f"kinds={kinds}",
                                  "--param", f"position={position}"])
    assert err.endswith(message)
    with pytest.raises(InvalidPositionError, match="^" + message.replace("(", r"\(")
                       .replace(")", r"\)").replace("*", r"\*") + "$"):
        pyspiel.load_game("python_cobardes_battle", {"kinds": kinds, "position": position})


def test_advise_refuses_hands_inconsistent_with_the_combat(capsys):
    err = one_line_error(capsys, ["advise", "cobardes", "--variant", "warriors", "--mine",
                                  "0,1,2", "--theirs", "0,1,2,3,4,5,6", "--combat", "1"])
    assert err.endswith("--mine has 4 warriors out of hand before combat 1, but each combat "
                        "takes at most one warrior from a hand (0 finished)")
    err = one_line_error(capsys, ["advise", "cobardes", "--variant", "warriors", "--mine",
                                  "0,1,2,3", "--theirs", "0,1,2,3,4,5", "--combat", "4"])
    assert err.endswith("--theirs cannot have fought 3 combats with only 1 warrior played: "
                        "each combat takes a warrior from each hand")


def test_the_rule_in_both_directions_with_and_without_villains():
    """"Confrontation. ... Both players prepare a card from their hand" (one warrior each
    a combat, the Ghost's, Archer's and Sentinel's changes sending one back for another);
    a villain against a warrior: "then you may play the warrior you want from your hand"
    (may: the one combat a player can pass without spending a warrior)."""
    def hand(n):  # a hand with the n highest warriors gone
        return FULL >> n

    for combat in range(1, 8):
        done = combat - 1
        for gone in range(8):
            # Warriors only: exactly one warrior per finished combat.
            ok = hands_problem(6, combat, (hand(gone), hand(done)), (0, 0), False) is None
            assert ok == (gone == done)
            # A villain still in hand was never played against a warrior: the same.
            ok = hands_problem(6, combat, (hand(gone), hand(done)), (1, 0), True) is None
            assert ok == (gone == done)
            # A player without villain may have spent one combat on it.
            ok = hands_problem(6, combat, (hand(gone), hand(done)), (0, 0), True) is None
            assert ok == (done - 1 <= gone <= done)


def _combat_starts(rng, params, games):
    """Positions at the start of each combat reached by random legal play."""
    game = pyspiel.load_game("python_cobardes_battle", params)
    for _ in range(games):
        state = game.new_initial_state()
        combat = 0
        while not state.is_terminal():
            pos = state.position
            if pos.combat != combat and pos.phase != E.DEAL:
                combat = pos.combat
                yield pos
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))


@pytest.mark.parametrize("params", [
    {"kinds": "all"}, {"kinds": "warriors+villains", "exchange_limit": 2},
    {"kinds": "warriors+courtiers"}, {"kinds": "all", "warriors": 3, "followup": "mandatory"},
])
def test_positions_reached_by_random_play_are_written_and_read_back(params):
    rng = np.random.default_rng(7)
    seen = 0
    for pos in _combat_starts(rng, params, 60):
        text = format_position(pos)
        again = pyspiel.load_game("python_cobardes_battle",
                                  {**params, "position": text, "allow_mirror": True})
        start = again.new_initial_state().position
        assert (start.h, start.court, start.used, start.unh, start.combat) == (
            pos.h, pos.court, pos.used, pos.unh, pos.combat), text
        seen += 1
    assert seen > 80


def test_random_play_reaches_the_edges_of_the_rule():
    """The bounds are tight: legal play reaches a combat without a warrior spent, and
    never a hand the rule refuses."""
    rng = np.random.default_rng(11)
    lagging = 0
    for pos in _combat_starts(rng, {"kinds": "warriors+villains"}, 300):
        warriors = tuple(h & FULL for h in pos.h)
        villains = tuple(len(E.bits(h & C.VILLAIN_MASK)) for h in pos.h)
        assert hands_problem(6, pos.combat, warriors, villains, True) is None
        lagging += any(7 - bin(w).count("1") < pos.combat - 1 for w in warriors)
    assert lagging > 0


# ------------------------------------------------------------------ Coup

def test_coup_coins_above_the_most_a_turn_can_leave_are_refused(capsys):
    """«Con diez monedas o más estás obligado a dar un golpe de Estado» and «*Duque*,
    cobra impuestos y coge 3 monedas»: nobody holds more than 9 + 3."""
    assert MAX_COINS == 12
    coup_parse("duke/assassin/12;?/captain/2;move:1")
    err = one_line_error(capsys, ["advise", "coup", "duke/assassin/13;?/captain/2;move:0"])
    assert err.endswith("position: player 0 has 13 coins; nobody can hold more than 12 (with "
                        "10 or more a turn must be a Coup, and the largest gain, Tax, is 3)")


@pytest.mark.parametrize("position,message", [
    ("duke+duke/-/2;duke/duke/2;move:0", "position shows 4 Duke cards; the deck has 3"),
    ("duke/assassin/30;?/captain/30;move:0", "position: players hold 60 coins, more than the "
     "50 in the game"),
    ("duke/-/2;?/captain/2;move:0", "position: player 0 has 1 face-down and 0 revealed cards; "
     "every player has exactly two in all"),
    ("duke/assassin/2;-/captain+contessa/3;captain/duke/1;move:0",
     "position: player 1 is out but holds 3 coins (they go to the treasury)"),
])
def test_coup_conservation_errors_are_one_line_exit_2(capsys, position, message):
    err = one_line_error(capsys, ["advise", "coup", position])
    assert err.endswith(message)


def test_coup_positions_reached_by_random_play_are_written_and_read_back():
    rng = np.random.default_rng(3)
    seen = 0
    for players in (2, 3, 4):
        game = pyspiel.load_game("python_coup", {"players": players})
        for _ in range(15):
            state = game.new_initial_state()
            while not state.is_terminal():
                core = state.core
                if core.queue and core.queue[0][0] == CE.S_ACTION:
                    pos = Position(core.hands, core.revealed, core.coins, core.actor)
                    text = coup_format(pos)
                    back = coup_parse(text, "ambassador")
                    assert tuple(map(sorted, back.hidden)) == tuple(map(sorted, core.hands))
                    assert back.coins == core.coins and back.to_move == core.actor
                    seen += 1
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=probs)))
                else:
                    legal = state.legal_actions()
                    state.apply_action(int(legal[rng.integers(len(legal))]))
    assert seen > 200


@pytest.mark.parametrize("params", [
    {"kinds": "all", "warriors": 1, "combats": 3, "villain_deck": "Thug/Sheep/Seductress",
     "court_deck": "Wolf/Sentinel/Archer"},
    {"kinds": "warriors+villains", "warriors": 2, "combats": 4,
     "villain_deck": "Thug/Sheep/Seductress/Beggar"},
])
def test_every_combat_start_of_a_small_battle_passes_the_rule(params):
    """Every position legal play reaches at the start of a combat (all deals, all moves,
    walked exhaustively) is accepted, and some lag a warrior behind the combat."""
    rules = pyspiel.load_game("python_cobardes_battle", params).rules
    cfg, k = rules.cfg, rules.warriors
    seen, starts, lagging = set(), 0, 0
    stack = [(rules.initial, 0)]
    while stack:
        pos, before = stack.pop()
        key = tuple(getattr(pos, f) for f in E.Pos.FIELDS if f not in ("ev", "seen"))
        if key in seen or pos.outcome is not None:
            continue
        seen.add(key)
        if pos.combat != before and pos.phase != E.DEAL:
            warriors = tuple(h & ((1 << (k + 1)) - 1) for h in pos.h)
            villains = tuple(len(E.bits(h & C.VILLAIN_MASK)) for h in pos.h)
            assert position_problem(k, pos.combat, warriors, villains, rules.villains, pos.unh,
                                    pos.court, pos.used) is None, format_position(pos)
            starts += 1
            lagging += any(k + 1 - bin(w).count("1") < pos.combat - 1 for w in warriors)
        actions = ([a for a, _ in E.chance_outcomes(cfg, pos)] if pos.actor == E.CHANCE
                   else E.legal_actions(cfg, pos))
        stack.extend((E.apply(cfg, pos, a), pos.combat) for a in actions)
    assert starts > 1000 and lagging > 0
