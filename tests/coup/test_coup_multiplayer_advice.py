"""Advice at 3-6 player Coup spots (analysis/coup/advice/multiplayer.py): beliefs over the
hidden hands against a hand count, each move's chance of winning against a ten-times
longer play-out, ``farol advise coup --players`` and ``farol play``'s hint and review at
4 players."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pyspiel
import pytest

from analysis import cli
from analysis.cli import bots  # noqa: F401  (registers the bots and coaches)
from analysis.coup.advice import multiplayer as M
from analysis.coup.agents import hand_beliefs as H
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.search import Memory
from analysis.play.coaching import coach_for, judge
from analysis.play.session import play_game
from games.coup import cards as C
from games.history import replay

# The deal goes round the table twice: P0 Captain+Contessa, P1 Contessa+Assassin,
# P2 Duke+Captain.
DEAL = "Draw Captain;Draw Contessa;Draw Duke;Draw Contessa;Draw Assassin;Draw Captain"
CLAIM = DEAL + ";Income;Tax (claims Duke);No challenge;No challenge"
CAUGHT = DEAL + ";Income;Tax (claims Duke);Challenge;Lose Assassin"


def _state(history: str, players: int = 3) -> pyspiel.State:
    return replay(pyspiel.load_game("python_coup", {"players": players}), history)


def _exact(state, seat: int, weight) -> dict[int, dict[int, float]]:
    """P(player holds character) by counting every deal of the cards ``seat`` cannot see
    (each physical card apart), each weighted by ``weight(player, hand)``."""
    core = state.core
    pool = [c for c in C.CHARACTERS for _ in range(3)]
    for c in core.hands[seat]:
        pool.remove(c)
    for shown in core.revealed:
        for c in shown:
            pool.remove(c)
    others = [p for p in range(len(core.hands)) if p != seat and core.hands[p]]
    sizes = [len(core.hands[p]) for p in others]
    held = {p: dict.fromkeys(C.CHARACTERS, 0.0) for p in others}
    total = 0.0
    idx = range(len(pool))
    for first in itertools.combinations(idx, sizes[0]):
        rest = [i for i in idx if i not in first]
        for second in itertools.combinations(rest, sizes[1]):
            hands = {others[0]: [pool[i] for i in first], others[1]: [pool[i] for i in second]}
            w = 1.0
            for p, hand in hands.items():
                w *= weight(p, hand)
            total += w
            for p, hand in hands.items():
                for c in set(hand):
                    held[p][c] += w
    return {p: {c: v / total for c, v in h.items()} for p, h in held.items()}


def _believed(state, seat: int) -> H.Deals:
    memory = Memory(len(state.core.hands), seat)
    memory.read(state.core)
    return H.weigh(View.of_core(state.core, seat), memory, state.core,
                   np.random.default_rng(5), 60000)


def _agree(deals: H.Deals, exact: dict) -> None:
    """Each sampled chance within its interval of the count, the ten chances of a spot
    taken together (Bonferroni: each at 99.5%, 2.81 standard errors)."""
    for p, chances in exact.items():
        for c, want in chances.items():
            got, lo, hi = H.probability(deals, H.holds(deals, p, c))
            se = (hi - lo) / (2 * 1.959963984540054) if lo > 0 and hi < 1 else 0.0
            assert abs(got - want) <= 2.81 * se + 1e-9, (p, c, got, want, lo, hi)


def test_a_claim_reweighs_the_claimers_hands_as_a_hand_count_does():
    state = _state(CLAIM)
    # A claim is true with chance 0.8 before any is challenged: a hand without the Duke
    # is weighed by the bluff chance 0.2.
    exact = _exact(state, 0, lambda p, hand: 1.0 if p != 1 or C.DUKE in hand else 0.2)
    deals = _believed(state, 0)
    _agree(deals, exact)
    prior = _exact(state, 0, lambda p, hand: 1.0)
    assert exact[1][C.DUKE] > prior[1][C.DUKE] + 0.2  # the claim made the Duke likelier
    assert exact[2][C.DUKE] < prior[2][C.DUKE]  # and so less likely in P2's hand


def test_a_caught_bluff_and_its_lost_card_reweigh_the_hands():
    state = _state(CAUGHT)
    assert state.core.revealed[1] == (C.ASSASSIN,) and len(state.core.hands[1]) == 1
    exact = _exact(state, 0, lambda p, hand: 0.0 if p == 1 and C.DUKE in hand else 1.0)
    deals = _believed(state, 0)
    _agree(deals, exact)
    assert H.probability(deals, H.holds(deals, 1, C.DUKE))[0] == 0.0
    # Its one card is any other card still unseen: Assassin 2, Captain 2, Ambassador 3,
    # Contessa 2 of 9.
    assert exact[1][C.EXCHANGER] == pytest.approx(3 / 9)
    assert exact[1][C.ASSASSIN] == pytest.approx(2 / 9)


def _outside(short: M.MultiAdvice, long: M.MultiAdvice) -> list[str]:
    value = {m.move: m.win for m in long.moves}
    return [m.move for m in short.moves if not m.low <= value[m.move] <= m.high]


@pytest.mark.parametrize("history,players", [
    (CLAIM, 3),  # a turn action (compiled play-outs)
    (DEAL + ";Income;Tax (claims Duke)", 3),  # a challenge (the engine, then compiled)
])
def test_each_moves_chance_agrees_with_a_ten_times_longer_play_out(history, players):
    state = _state(history, players)
    short = M.advise_multi(state, 400, seed=1)
    long = M.advise_multi(state, 4000, seed=2)
    assert {m.move for m in short.moves} == {state.action_to_string(a)
                                              for a in state.legal_actions()}
    assert not _outside(short, long)
    for m in short.moves:
        assert m.tie == (m.high >= short.best.low)


def test_the_advice_says_against_whom_and_names_the_ties(capsys):
    assert cli.main(["advise", "coup", "--players", "3", "--history", CLAIM, "--json",
                     "--rollouts", "300"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["against"] == "opponents who play like best" and out["players"] == 3
    moves = out["moves"]
    top = moves[0]
    assert top["win"] == max(m["win"] for m in moves)
    assert out["best_moves"] == [m["move"] for m in moves
                                 if m["ci95"][1] >= top["ci95"][0]]
    assert set(out["opponent_hands"]) == {"P0", "P1"}  # P2 is to move
    assert cli.main(["advise", "coup", "--players", "3", "--history", CLAIM,
                     "--rollouts", "300"]) == 0
    text = capsys.readouterr().out
    assert "against opponents who play like best" in text


def test_hand_finds_your_seat_at_three_players(capsys):
    """P2 (Duke+Captain) is to move after P0's Income and P1's Tax went unchallenged: the
    same advice from the whole history and from --hand with the moves after the deal."""
    later = "Income;Tax (claims Duke);No challenge;No challenge"
    full = json.loads(_cli(capsys, "--players", "3", "--history", f"{DEAL};{later}"))
    mine = json.loads(_cli(capsys, "--players", "3", "--hand", "Captain,Duke", "--history",
                           later))
    assert mine["player"] == full["player"] == 2 and mine["hand"] == "Duke+Captain"
    assert mine["moves"] == full["moves"] and mine["opponent_hands"] == full["opponent_hands"]


def _cli(capsys, *args) -> str:
    assert cli.main(["advise", "coup", *args, "--json", "--rollouts", "200"]) == 0
    return capsys.readouterr().out


def test_a_position_of_four_players_is_advised(capsys):
    assert cli.main(["advise", "coup", "duke+captain/-/2;?+?/-/2;?/assassin/3;?+?/-/2;move:0",
                     "--json", "--rollouts", "200"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 4 and out["hand"] == "Duke+Captain"


@pytest.mark.parametrize("args,needle", [
    (["--players", "7", "--history", ""], "from 2 to 6"),
    (["--players", "4"], "--players goes with --history"),
    (["--players", "4", "--history", "Draw Duke;Fly"], "move 2 'Fly' is not legal here"),
    (["--players", "4", "--history", ""], "no player decides here"),
    (["--players", "4", "--history", DEAL, "--exact"], "--exact is for 2 players"),
    (["--players", "4", "--history", "Income;Fly", "--hand", "Duke,Duke"], "no deal gives"),
    (["--players", "4", "--hand", "Duke,Duke"], "--players goes with --history"),
    (["duke+captain/-/2;duke+contessa/-/2;?+?/-/2;move:0"], "player 1's face-down cards are hidden"),
    (["?+?/-/2;?+?/-/2;?+?/-/2;move:0"], "write your own face-down cards"),
    (["--players", "3", "--param", "players=3", "--history", ""], "give one of the two"),
])
def test_bad_requests_are_one_line(capsys, args, needle):
    assert cli.main(["advise", "coup", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err


def test_the_review_calls_a_mistake_only_where_the_intervals_separate():
    state = _state(CLAIM)
    legal = state.legal_actions()
    a, b, c = legal[:3]
    advice = [(a, 1.0, 0.50, (0.47, 0.53)), (b, 0.0, 0.48, (0.45, 0.51)),
              (c, 0.0, 0.40, (0.37, 0.43))] + [(x, 0.0, 0.1, (0.08, 0.12)) for x in legal[3:]]
    assert judge(state, 2, a, advice).grade == "best"
    assert judge(state, 2, b, advice).grade == "tie"
    mistake = judge(state, 2, c, advice)
    assert mistake.grade == "mistake" and mistake.loss == pytest.approx(0.10)
    if legal[3:]:
        assert judge(state, 2, legal[3], advice).grade == "blunder"


def test_play_gives_hints_and_a_review_at_four_players(monkeypatch):
    monkeypatch.setattr(M, "ROLLOUTS", 150)
    game = pyspiel.load_game("python_coup", {"players": 4})
    assert coach_for(game) is not None
    answers = iter(["hint"] + ["a"] * 400)
    lines: list[str] = []
    play_game(game, 0, "random", seed=4, read=lambda _: next(answers), write=lines.append)
    text = "\n".join(lines)
    assert "Hint: each move's chance of winning for you [95% interval]:" in text
    assert M.COACH_NOTE in text
    review = text[text.index("Review of your decisions"):].splitlines()
    assert "tie: its interval overlaps the best move's" in review[0]
    graded = [line for line in review[1:] if line.startswith("  move ")]
    assert graded and review[-1].startswith("  in all:")
    assert all(line.rsplit(", ", 1)[-1].split(";")[0] in ("best", "tie", "mistake", "blunder")
               for line in graded)


def test_play_takes_the_table_size_once(capsys):
    assert cli.main(["play", "python_coup", "--players", "4", "--param", "players=3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--players or --param players=" in err[0]


def test_a_game_stopped_at_the_turn_cap_shares_the_win():
    """«the turn cap»: a game that reaches it has no winner, and every seat's share of
    the win is 1/n, in the engine's part of a play-out as in the compiled part."""
    game = pyspiel.load_game("python_coup", {"players": 3, "turn_cap": 4})
    state = replay(game, DEAL + ";Income;Income;Income;Income")
    assert state.is_terminal()
    world = state.core.copy()
    assert M.finish(world, 0, [(0.1, 0.1, 0.1, 0.1)] * 3, np.full((3, 4), 0.1),
                    np.zeros(16, dtype=np.int64), 1) == pytest.approx(1 / 3)
    short = replay(game, DEAL + ";Income;Income;Income")
    advice = M.advise_multi(short, 200)
    assert all(m.win == pytest.approx(1 / 3) for m in advice.moves)
