"""``farol advise coup`` answers from ``best`` (analysis/coup/advice/resolve.py): the mix the
re-solving agent plays at the spot, the same however the spot is asked (a history, the
history with ``--hand``, a position, ``farol play``'s hint)."""

from __future__ import annotations

import json
import random

import pyspiel
import pytest

from analysis import cli
from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.coup.advice.resolve import (
    COACH_NOTE,
    RULE,
    advise_state,
    best_coach,
    position_state,
)
from analysis.coup.agents.resolve import ResolveAgent
from analysis.play.coaching import coach_for
from analysis.play.session import play_game
from games.coup.view import action_name, infoset_key

OPENING = "Draw Duke;Draw Contessa;Draw Captain;Draw Assassin"  # P0 Duke+Captain


def _json(capsys, *args) -> dict:
    assert cli.main(["advise", "coup", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _mix(advice: dict) -> dict:
    return {m["move"]: m["probability"] for m in advice["moves"]}


def test_the_advice_is_the_mix_the_agent_plays_along_a_game():
    """Two re-solving agents play; at each of seat 0's re-solved decisions the advice,
    asked afresh from the moves so far, is the mix the agent sampled its move from."""
    game = pyspiel.load_game("python_coup", {})
    agents = [ResolveAgent(game, 0, seed=1), ResolveAgent(game, 1, seed=2)]
    rng = random.Random(5)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        player = state.current_player()
        agent = agents[player]
        agent.last = None
        spot = state.clone()
        action = agent(state)
        if player == 0 and agent.last is not None:
            played = agent.last.mixes[infoset_key(spot.core, 0)]
            advice = advise_state(spot)
            assert advice.rule is None
            assert {m: p for m, p, _ in advice.moves} == pytest.approx(
                {action_name(spot.core, 0, a): p for a, p in played.items()}, abs=1e-12)
            checked += 1
        state.apply_action(action)
    assert checked >= 2


def test_a_position_and_a_history_of_the_same_opening_get_one_answer(capsys):
    by_history = _json(capsys, "--history", OPENING)
    by_position = _json(capsys, "duke+captain/-/1;?+?/-/2;move:0")
    by_hand = _json(capsys, "--hand", "Captain,Duke", "--history", "")
    assert by_history["agent"] == by_position["agent"] == by_hand["agent"] == "best"
    for other in (by_position, by_hand):
        assert _mix(other) == pytest.approx(_mix(by_history), abs=1e-9)
        assert other["opponent_hands"] == pytest.approx(by_history["opponent_hands"])
    # Who holds what: the history dealt both hands (P0, P1, P0, P1) and says so; with
    # --hand the opponent's cards are not known.
    assert by_history["holds"][0].startswith("P0 (you): face down Duke+Captain")
    assert by_history["holds"][1].startswith("P1 (the opponent): face down Assassin+Contessa"
                                             " (as the moves dealt them")
    assert by_hand["holds"][1].startswith("P1 (the opponent): face down 2 hidden from you")


def test_hand_finds_your_seat_and_a_deal_the_moves_allow(capsys):
    later = ";Income;Tax (claims Duke);No challenge"
    full = _json(capsys, "--history", OPENING + later)
    # P0 drew Duke+Captain; after P0's Income, P1's Tax and P0 letting it stand, P0 moves.
    assert full["player"] == 0
    mine = _json(capsys, "--hand", "duke,captain", "--history", later.lstrip(";"))
    assert mine["player"] == 0 and mine["hand"] == "Duke+Captain"
    assert _mix(mine) == pytest.approx(_mix(full), abs=1e-9)
    # The second player asks: P1 holds Contessa+Assassin and is to move after one Income.
    second = _json(capsys, "--hand", "Assassin,Contessa", "--history", "Income")
    assert second["player"] == 1 and second["step"] == "a turn action"


@pytest.mark.parametrize("args,needle", [
    (["--hand", "Duke,Duke,Duke", "--history", ""], "a hand holds 2"),
    (["--hand", "Duke,Joker", "--history", ""], "'Joker' is not a card of the ambassador deck"),
    (["--hand", "Duke,Captain", "--history", "Draw Duke"], "replaces the deal's draws"),
    (["--hand", "Duke,Captain"], "--hand goes with --history"),
    (["--hand", "Duke,Captain", "--history", "Income;Fly"],
     "move 6 'Fly' is not legal here; legal: "),
    (["--history", OPENING, "--turn-cap", "2"], "--turn-cap goes with --exact"),
    (["--history", OPENING, "--rollouts", "5"], "--rollouts goes with --blueprint"),
    (["--history", OPENING, "--exact", "--blueprint"], "--exact or --blueprint"),
    (["--history", "Draw Duke"], "no player decides here"),
])
def test_bad_requests_are_one_line(capsys, args, needle):
    assert cli.main(["advise", "coup", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err


def test_the_help_says_how_the_deal_is_dealt(capsys):
    with pytest.raises(SystemExit):
        cli.main(["advise", "coup", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the deal's draws go P0, P1, P0, P1" in text and "--hand" in text
    assert "--exact" in text


def test_a_choice_by_rule_is_said_and_has_no_hint():
    game = pyspiel.load_game("python_coup", {"position": "duke+captain/-/2;?+?/-/7;move:1"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(next(a for a in state.legal_actions()
                            if state.action_to_string(a).startswith("Coup")))
    coach = best_coach(game)
    assert coach(state) is None and RULE in coach.silent
    assert best_coach(pyspiel.load_game("python_coup", {"players": 3})) is None


def test_play_coaches_coup_from_best():
    game = pyspiel.load_game("python_coup", {})
    assert coach_for(game) is not None
    answers = iter(["hint"] + ["a"] * 300)
    lines: list[str] = []
    play_game(game, 0, "random", seed=3, read=lambda _: next(answers), write=lines.append)
    text = "\n".join(lines)
    assert "Hint: the mix to play here, and each move's value for you:" in text
    assert COACH_NOTE in text
    assert "Review of your decisions" in text and "in all:" in text


def test_a_position_is_weighed_as_freshly_dealt():
    state = position_state("captain/contessa/2;?/contessa/2;move:0", "ambassador")
    advice = advise_state(state)
    # Seen: my Captain and both Contessas; the opponent's card is any of the 12 others.
    hands = dict(advice.opponent_hands)
    assert hands["Duke"] == pytest.approx(3 / 12) and hands["Contessa"] == pytest.approx(1 / 12)
    assert advice.hand == "Captain" and advice.player == 0
