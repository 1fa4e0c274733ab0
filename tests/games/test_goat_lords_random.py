"""Random Goat Lords games keep the invariants: every card in exactly one place, scores equal
the herds' points, hand sizes within the deal, every game ends.

A lean loop drives the rules table directly (no OpenSpiel wrapper, no event log), so
10^5 games fit in the slow suite; a small version runs in the default suite.
"""

from __future__ import annotations

import functools
import random

import pytest

from games.goat_lords import rules
from games.goat_lords.cards import DECK_COUNTS, NUM_KINDS
from games.goat_lords.table import DUEL, OVER, Config, Table

DECK = list(DECK_COUNTS)


@functools.lru_cache(maxsize=200_000)
def herd_counts(herd: rules.Herd) -> tuple[int, ...]:
    """Cards of each kind in a herd, after checking its piles (herds are immutable: cached)."""
    counts = [0] * NUM_KINDS
    for kind, cards in herd:
        assert len(cards) >= 2 and rules.is_pair(cards[0], cards[1])
        assert kind == rules.pair_kind(cards[0], cards[1])
        assert all(rules.matches(c, kind) for c in cards[2:]), "a duel card did not match its pile"
        for k in cards:
            counts[k] += 1
    return tuple(counts)


def card_places(t: Table) -> list[int]:
    """Cards of each kind over hands, herds, draw pile, discard pile and a running duel."""
    counts = [sum(col) for col in zip(t.draw, *t.hands, *map(herd_counts, t.herds), strict=True)]
    for k in t.discard:
        counts[k] += 1
    if t.duel is not None:
        for k in t.duel["cards"]:
            counts[k] += 1
    return counts


def check(t: Table) -> None:
    assert card_places(t) == DECK, "a card is lost or duplicated"
    assert all(min(h) >= 0 and sum(h) <= t.cfg.hand_size for h in t.hands)
    assert min(t.draw) >= 0
    assert (t.duel is not None) == (t.phase == DUEL)


def play_random_game(cfg: Config, rng: random.Random) -> Table:
    t = Table(cfg, record=False)
    steps = 0
    round_no = 0
    bound = cfg.max_game_length()
    while t.phase != OVER:
        if t.to_move < 0:
            kinds, probs = zip(*t.chance_outcomes(), strict=True)
            t.apply_chance(rng.choices(kinds, probs)[0])
        else:
            legal = t.legal_actions()
            assert legal
            t.apply_action(rng.choice(legal))
        steps += 1
        assert steps <= bound
        if t.round_no != round_no:  # a new round was dealt: the previous one is scored
            round_no = t.round_no
            assert len(t.round_points) == round_no
        if t.to_move >= 0:  # at every decision (cards only move by rules; a loss persists)
            check(t)
    check(t)
    # Scores equal the herd's points (the last round's herds stay on the table).
    assert t.round_points[-1] == [rules.herd_points(h, cfg.values) for h in t.herds]
    assert t.totals == [sum(r[p] for r in t.round_points) for p in range(cfg.players)]
    scores = t.round_points[-1] if cfg.scoring == "single" else t.totals
    assert t.winning == rules.winners(scores)
    if cfg.scoring == "rounds":
        assert max(t.totals) >= cfg.target_score or t.round_no + 1 == cfg.max_rounds
    if t.turns < cfg.max_turns:
        assert all(sum(h) == 0 for h in t.hands) and t.draw_size() == 0
    return t


def run_games(players: int, n_games: int, seed: int, **cfg) -> dict:
    config = Config(players=players, scoring=cfg.pop("scoring", "single"), **cfg)
    rng = random.Random(seed)
    turns = []
    for _ in range(n_games):
        t = play_random_game(config, rng)
        turns.append(t.turns)
    return {"max_turns": max(turns), "mean_turns": sum(turns) / len(turns)}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_invariants(players):
    summary = run_games(players, 60, seed=players)
    assert summary["max_turns"] < 600  # the safety cap is never what ends a round


@pytest.mark.parametrize("duel_answer", ["pile", "last"])
def test_random_multi_round_games(duel_answer):
    run_games(3, 10, seed=11, scoring="rounds", duel_answer=duel_answer)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(5))
def test_100k_random_games_keep_invariants(chunk):
    """10^5 single-round games in five chunks over 2–6 players (20,000 each)."""
    players = 2 + chunk
    summary = run_games(players, 20_000, seed=1000 + chunk)
    assert summary["max_turns"] < 600
