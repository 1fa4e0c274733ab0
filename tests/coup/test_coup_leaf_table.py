"""The blueprint's leaf table for the 2-player re-solve: which positions it names, how
it averages, and that it saves, reloads and falls back where it knows nothing."""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest

from analysis.coup.guarantees import position_graph, position_id, position_key, uncapped_roots
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.solvers import leaf_table as L
from analysis.shared.store import CorruptFileError
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker


def test_codes_name_mover_hands_and_coins():
    game = Endgame(3, 11).game()
    core = DecisiveCoupWalker(game.config, history=False).root()
    while core.cur == E.CHANCE:
        core.apply(core.chance_outcomes()[0][0])
    assert core.kind == -1 and core.cur == core.actor
    code = L.leaf_code(core)
    other = L.leaf_code(core.copy())
    assert code == other and 0 <= code < L.SIZE
    # Coins above the cap share its entry; another mover, another entry.
    rich, richer = core.copy(), core.copy()
    rich.coins, richer.coins = (core.coins[0], 13), (core.coins[0], 18)
    assert L.leaf_code(rich) == L.leaf_code(richer) != code  # both past the cap of 12
    mid_turn = core.copy()
    mid_turn.kind = 0  # a turn under way: the next turn is the other player's
    assert L.leaf_code(mid_turn) != code
    exchanging = core.copy()
    exchanging.hands = ((0, 1, 2), core.hands[1])
    assert L.leaf_code(exchanging) is None


def test_turn_start_codes_agree_with_an_independent_walk():
    """The codes found by following the graph's edges equal those of every position
    reached by a breadth-first walk that finds its node by the position's digest."""
    starts = {"1v1": Endgame(2, 2).game()}
    config, roots = uncapped_roots(list(starts.values()))
    walker = DecisiveCoupWalker(config, history=False)
    g = position_graph(walker, roots, key=B.blueprint_key, depth_first=True)
    root = roots[0]
    root.turn = 0
    node = g.index[position_id(position_key(root))]
    codes = L.turn_start_codes(g.edge_start, g.edge_child, [(root, node)], walker)
    seen, queue, turn_starts = {node}, deque([root]), 0
    while queue:
        core = queue.popleft()
        i = g.index[position_id(position_key(core))]
        start = core.kind == -1 and core.cur == core.actor and not core.over
        assert codes[i] == (L.leaf_code(core) if start else -1)
        turn_starts += start
        if core.over:
            continue
        moves = ([a for a, _ in core.chance_outcomes()] if core.cur == E.CHANCE
                 else walker.legal_actions(core))
        for a in moves:
            child = walker.child(core, a)
            child.turn = 0
            j = g.index[position_id(position_key(child))]
            if j not in seen:
                seen.add(j)
                queue.append(child)
    assert len(seen) == len(g.index)  # every position checked
    assert turn_starts > 10 and (codes >= 0).sum() == turn_starts


def test_aggregate_weights_each_entry_by_its_visits():
    codes = np.array([3, 3, -1, 5, 3])
    value = np.array([1.0, -1.0, 9.0, 0.5, 0.0])
    weight = np.array([3.0, 1.0, 7.0, 0.0, 4.0])
    mean, mass = L.aggregate(codes, value, weight, size=8)
    assert mean[3] == pytest.approx((3 - 1 + 0) / 8) and mass[3] == 8
    assert math.isnan(mean[5]) and mass[5] == 0  # reached by no play
    assert math.isnan(mean[0]) and np.isnan(mean).sum() == 7


def test_table_saves_reloads_and_falls_back(tmp_path):
    mean = np.full(L.SIZE, np.nan)
    game = Endgame(2, 2).game()
    core = DecisiveCoupWalker(game.config, history=False).root()
    while core.cur == E.CHANCE:
        core.apply(core.chance_outcomes()[0][0])
    mean[L.leaf_code(core)] = 0.25
    table = L.LeafTable("ambassador", {"basic": mean}, {"basic": np.ones(L.SIZE)},
                        {"basic": 50}, {"version": "v", "commit": "c", "seed": None})
    path = tmp_path / "leaves.npz"
    table.save(path)
    back = L.LeafTable.load(path)
    assert back.setups == ("basic",) and back.trained == {"basic": 50}
    assert back.value(core, "basic") == pytest.approx(0.25)
    leaf = back.leaf("basic", fallback=lambda c: -0.5)
    assert leaf(core) == pytest.approx(0.25)
    other = core.copy()
    other.coins = (9, 9)
    assert back.value(other, "basic") is None and leaf(other) == -0.5
    path.write_bytes(b"not a table")
    with pytest.raises(CorruptFileError, match="not a readable leaf table"):
        L.LeafTable.load(path)


@pytest.mark.parametrize("deck", ("ambassador", "inquisitor"))
def test_each_shipped_table_favours_the_player_a_card_up(deck):
    """Each deck's shipped table covers both dealt setups with values on the win scale,
    from the blueprint it names, and values a card up above a card down: averaged over
    the hands and coins the blueprint's self-play reached, player 0 with two cards
    against one is well ahead, and well behind with one against two."""
    table = L.stored_table(deck)
    assert table is not None and set(table.setups) == {"basic", "standard"}
    summary = B.read_summary(deck)
    mover, h0, h1, _, _ = np.unravel_index(
        np.arange(L.SIZE), (2, len(L.HANDS), len(L.HANDS), L.COIN_CAP + 1, L.COIN_CAP + 1))
    cards = np.array([len(h) for h in L.HANDS])
    for setup in table.setups:
        assert table.trained[setup] == summary["setups"][setup]["iterations"]
        mean, mass = table.mean[setup], table.mass[setup]
        known = np.isfinite(mean)
        assert known.sum() > 100_000 and np.all(np.abs(mean[known]) <= 1 + 1e-6)
        assert np.all(mass[known] > 0)
        at = {(n0, n1, m): known & (cards[h0] == n0) & (cards[h1] == n1) & (mover == m)
              for n0 in (1, 2) for n1 in (1, 2) for m in (0, 1)}
        avg = {k: np.average(mean[a], weights=mass[a]) for k, a in at.items()}
        up = np.average([avg[2, 1, m] for m in (0, 1)])
        down = np.average([avg[1, 2, m] for m in (0, 1)])
        assert up > 0.5 and down < -0.5
        # Whose turn starts matters less than a card; with one card each, the player
        # whose turn it is is ahead (they can strike first).
        for n in (1, 2):
            assert abs(avg[n, n, 0] - avg[n, n, 1]) < up - down
        assert avg[1, 1, 0] > 0 > avg[1, 1, 1]


def test_the_stored_table_is_the_one_under_the_current_data_folder(tmp_path):
    """A table read under one data folder is not served under another (the build joins
    the setups stored where it writes, and nowhere else)."""
    from analysis.shared import store

    shipped = L.stored_table("ambassador")
    assert shipped is not None
    with store.use(tmp_path):
        assert L.stored_table("ambassador") is None
        table = L.LeafTable("ambassador", {"basic": np.zeros(L.SIZE)}, {"basic": np.ones(L.SIZE)},
                            {"basic": 3}, {"version": "v", "commit": "c", "seed": None})
        table.save(L.table_path("ambassador"))
        assert L.stored_table("ambassador").trained == {"basic": 3}
    assert L.stored_table("ambassador").trained == shipped.trained
