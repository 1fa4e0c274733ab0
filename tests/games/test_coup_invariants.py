"""Random Coup games with invariants checked after every move.

A lean loop over the state core (:class:`games.coup.engine.Core`), not OpenSpiel
clones: cards are conserved across hands, court, revealed and unused piles;
coins are conserved with the treasury and never negative; eliminated players
never act; every finished game has a winner (or reached the turn cap).
"""

from __future__ import annotations

import random

import pytest

from games.coup import cards as C
from games.coup import engine as E
from games.coup import rules as R
from games.coup.game import make_config

CONFIGS = [
    {"players": 2},
    {"players": 2, "two_player_setup": "draft", "starting_player": -1},
    {"players": 2, "two_player_setup": "standard", "deck": "inquisitor"},
    {"players": 3, "deck": "inquisitor", "challenge_order": "chance"},
    {"players": 4, "block_order": "chance", "refund_challenged_assassination": False},
    {"players": 5, "deck": "inquisitor", "refund_blocked_assassination": True},
    {"players": 6, "starting_player": -1, "challenge_order": "chance", "block_order": "chance"},
    {"players": 7, "deck": "inquisitor"},
    {"players": 8, "total_coins": 20},
    {"players": 3, "position": "duke+?/-/2;-/captain+contessa/0;?/assassin/5;move:2"},
    {"players": 2, "position": "?/duke/3;?/captain/0;move:1", "deck": "inquisitor", "turn_cap": 30},
]

_SETUP_STEPS = (E.S_DEAL, E.S_PICK, E.S_START, E.S_BEGIN)


def _check(core: E.Core, expected_cards: tuple[int, ...]) -> None:
    cfg = core.cfg
    counts = list(core.court)
    for c in range(C.NUM_CHARACTERS):
        counts[c] += core.unused[c] + core.drawn.count(c)
    for hand, shown in zip(core.hands, core.revealed, strict=True):
        for c in hand + shown:
            counts[c] += 1
    assert tuple(counts) == expected_cards, "cards are not conserved"
    assert all(k >= 0 for k in core.coins) and all(k >= 0 for k in core.court)
    assert sum(core.coins) + core.treasury == cfg.total_coins and core.treasury >= 0
    in_setup = core.queue and core.queue[0][0] in _SETUP_STEPS
    if not in_setup:
        for p, (hand, shown) in enumerate(zip(core.hands, core.revealed, strict=True)):
            assert len(hand) + len(shown) == 2, f"P{p} does not hold two cards in all"
            if not hand:
                assert core.coins[p] == 0, "an eliminated player kept coins"
    if core.over:
        living = [p for p, h in enumerate(core.hands) if h]
        if core.winner >= 0:
            assert living == [core.winner]
        else:
            assert core.turn >= cfg.turn_cap and len(living) >= 2
        return
    if core.cur >= 0:
        assert core.hands[core.cur] or core.queue[0][0] == E.S_PICK, "an eliminated player acts"
        assert core.legal_actions(), "a player to move without legal actions"


def play_random_games(params: dict, n_games: int, seed: int) -> dict[str, int]:
    """Play ``n_games`` uniformly random games checking the invariants; returns tallies."""
    cfg = make_config(params)
    rng = random.Random(seed)
    copies = 3 if cfg.setup == "draft" else cfg.copies
    expected = (copies,) * C.NUM_CHARACTERS
    tally = {"games": 0, "capped": 0, "moves": 0}
    for game in range(n_games):
        # Every other game the players rarely challenge or block, so games run long
        # (coins pile up: forced coups, an empty treasury, exchanges, many turns).
        patience = 0.9 if game % 2 else 0.0
        core = E.Core(cfg)
        _check(core, expected)
        while not core.over:
            if core.cur == E.CHANCE:
                outcomes = core.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                r, acc = rng.random(), 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        action = a
                        break
            else:
                legal = core.legal_actions()
                if patience and (C.A_NO_CHALLENGE in legal or C.A_NO_BLOCK in legal) and rng.random() < patience:
                    action = C.A_NO_CHALLENGE if C.A_NO_CHALLENGE in legal else C.A_NO_BLOCK
                else:
                    action = rng.choice(legal)
                tally["moves"] += 1
            core.apply(action)
            _check(core, expected)
        returns = R.terminal_returns(core.winner, cfg.num_players)
        assert abs(sum(returns)) < 1e-9
        tally["games"] += 1
        tally["capped"] += core.winner < 0
    return tally


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_random_games_keep_the_invariants(params):
    tally = play_random_games(params, 60, seed=7)
    assert tally["games"] == 60
    if params.get("turn_cap", 200) >= 200:
        assert tally["capped"] == 0, "random games end long before 200 turns"


@pytest.mark.slow
def test_random_games_keep_the_invariants_100k():
    """10^5 random games over every configuration (players 2–8, both decks, all setups)."""
    total = 100_000
    per = total // len(CONFIGS) + 1
    games = capped = 0
    for i, params in enumerate(CONFIGS):
        tally = play_random_games(params, per, seed=1000 + i)
        games += tally["games"]
        capped += tally["capped"]
    assert games >= total
    assert capped <= games // 100
