"""The blueprint's bluff, challenge and block rates (analysis.coup.studies.blueprint_bluffs)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.model import Endgame
from analysis.coup.solvers import blueprint as B
from analysis.coup.studies import blueprint_bluffs as BB
from analysis.shared import store
from games.coup import cards as C
from games.coup import engine as E


def view(hand, step):
    return View(0, hand, (), (3, 3), ((), ()), (len(hand), 1), 0, -1, -1, step, 3, False)


def tallies(v, mix):
    out = []
    BB.tally_decision(v, mix, lambda q, c, n, d: out.append((q, c, n, d)))
    return out


def test_a_turn_counts_each_claim_and_the_bluffs_among_them():
    mix = {C.A_INCOME: 0.2, C.A_TAX: 0.5, C.A_STEAL + 1: 0.3, C.A_EXCHANGE: 0.0}
    got = tallies(view((C.DUKE,), (E.S_ACTION,)), mix)
    # "claim": bluffs among claims (the Duke is held, the Captain is not).
    assert ("claim", C.DUKE, 0.0, 0.5) in got
    assert ("claim", C.CAPTAIN, 0.3, 0.3) in got
    assert ("claim", C.EXCHANGER, 0.0, 0.0) in got
    # "bluff": a turn without the card, and the chance it is claimed anyway.
    assert ("bluff", C.CAPTAIN, 0.3, 1.0) in got and ("bluff", C.EXCHANGER, 0.0, 1.0) in got
    assert not any(q == "bluff" and c == C.DUKE for q, c, _, _ in got)


def test_challenges_and_blocks_are_counted_by_the_character_claimed():
    step = (E.S_CHAL, 1, C.DUKE, (0,), False)
    assert tallies(view((C.CAPTAIN,), step), {C.A_CHALLENGE: 0.25, C.A_NO_CHALLENGE: 0.75}) \
        == [("challenge", C.DUKE, 0.25, 1.0)]
    step = (E.S_CHAL, 1, C.CONTESSA, (0,), True)
    assert tallies(view((C.CAPTAIN,), step), {C.A_CHALLENGE: 1.0, C.A_NO_CHALLENGE: 0.0}) \
        == [("challenge block", C.CONTESSA, 1.0, 1.0)]
    step = (E.S_BLOCK, (0,), (C.CAPTAIN, C.EXCHANGER))
    mix = {C.A_BLOCK + C.CAPTAIN: 0.5, C.A_BLOCK + C.EXCHANGER: 0.1, C.A_NO_BLOCK: 0.4}
    got = tallies(view((C.CAPTAIN,), step), mix)
    assert ("block", C.CAPTAIN, 0.5, 1.0) in got and ("block bluff", C.CAPTAIN, 0.0, 0.5) in got
    assert ("block bluff", C.EXCHANGER, 0.1, 0.1) in got


def test_the_range_grid_counts_each_move_by_the_hand_held():
    got = []

    def add(situation, move, num, den, card=None):
        got.append((situation.format(card=card), move, num, den))

    mix = {C.A_INCOME: 0.2, C.A_TAX: 0.5, C.A_STEAL + 1: 0.3}
    BB.grid_decision(view((C.DUKE,), (E.S_ACTION,)), mix, add, BB.turn_kinds("ambassador"))
    shares = {move: num for _, move, num, _ in got}
    assert shares == {"Income": 0.2, "Foreign Aid": 0.0, "Coup": 0.0, "Tax": 0.5,
                      "Assassinate": 0.0, "Steal": 0.3, "Exchange": 0.0}  # no Examine
    assert BB.turn_kinds("inquisitor")[-1] == C.EXAMINE
    got.clear()
    step = (E.S_CHAL, 1, C.DUKE, (0,), False)
    BB.grid_decision(view((C.CAPTAIN,), step), {C.A_CHALLENGE: 0.25, C.A_NO_CHALLENGE: 0.75},
                     add, ())
    assert got == [(f"a claim of {C.DUKE}", "Challenge", 0.25, 1.0)]


def test_the_jackknife_interval_holds_the_rate_and_is_zero_when_batches_agree():
    rate, lo, hi = BB.ratio_interval(np.full(20, 2.0), np.full(20, 8.0))
    assert (rate, lo, hi) == pytest.approx((0.25, 0.25, 0.25))
    rng = np.random.default_rng(0)
    den = rng.integers(50, 100, 20).astype(float)
    num = rng.binomial(den.astype(int), 0.3).astype(float)
    rate, lo, hi = BB.ratio_interval(num, den)
    assert lo < rate < hi and hi - lo < 0.1 and lo < 0.3 < hi


def test_self_play_rates_are_seeded_add_up_and_save(endgames, tmp_path):
    dg, _, strategies, _, _ = endgames
    bp = B.Blueprint("ambassador", {"dealt": dg.keys}, {"basic": strategies}, {})
    params = {"position": Endgame(2, 2).position(), "turn_cap": 60}
    table = BB.play_and_tally(bp, "basic", 200, 11, params=params)
    df = table.frame()
    assert set(df["question"]) <= set(BB.QUESTIONS)
    assert ((df["ci95"].str[0] <= df["rate"] + 1e-12)
            & (df["rate"] <= df["ci95"].str[1] + 1e-12)).all()
    assert df["rate"].between(0, 1).all()
    # The overall rows are the sums of the rows by cards left (2 cards never: 1v1).
    overall = df[(df["influence"] == 0) & (df["coins"] == "any")]
    by_one = df[(df["influence"] == 1) & (df["coins"] == "any")]
    assert overall[["question", "card", "decisions"]].values.tolist() == \
        by_one[["question", "card", "decisions"]].values.tolist()
    grid = table.grid_frame()
    turns = grid[grid["situation"] == "your turn"]
    for hand, cells in turns.groupby("hand"):  # every turn chooses one move
        assert cells["rate"].sum() == pytest.approx(1.0), hand
    assert grid["hand"].str.count(r"\+").max() == 0  # one card each in these endgames
    again = BB.play_and_tally(bp, "basic", 200, 11, params=params)
    assert again.rows == table.rows  # seeded
    with store.use(tmp_path):
        BB.save_table(table)
        assert BB.load_tables("ambassador", ["basic", "draft"]) == {"basic": table}
