"""The Coup balance answers read from seat-balance records made here: the first player's
edge with its interval (or the largest edge the interval allows), the difference of two
tables' edges, the strongest and weakest starting hands at each player count, who played
and what the games cost, in the guide and in the methods appendix alike."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from analysis.coup.studies import seat_balance as SB
from analysis.play.match import MatchResult, SeatRecord
from analysis.report.context import ReportContext
from analysis.report.coup.from_the_deal import section_from_the_deal
from analysis.report.facts.coup import edges as E
from analysis.report.guides.write import GUIDES, methods, render_guide
from analysis.shared import store
from analysis.statistics.intervals import bound_points, difference, pooled
from games import catalog


def record(players: int, first: tuple[float, tuple[float, float]], deck: str = "ambassador",
           setup: str = "basic", hands=(), plays: str = "", cpu: float | None = None,
           deals: int = 1000) -> SB.TableRecord:
    """A duplicate-deal record whose seat 1 wins ``first`` = (rate, interval over deals);
    the other seats share the rest."""
    table = SB.Table(players, deck, setup if players == 2 else "-")
    games = deals * players
    rate, ci = first
    rest = (1 - rate) / (players - 1)
    seats = (SeatRecord("best", 0, rate * games, games, ci),
             *(SeatRecord("best", k, rest * games, games, (rest - 0.02, rest + 0.02))
               for k in range(1, players)))
    match = MatchResult("python_coup", table.params(), seats, games, 1, "v", "c", True)
    return SB.TableRecord(table, "best", match, (), tuple(hands), "v", "c", 1,
                          "the strongest Coup agent", plays, True, cpu)


def answered(text: str, question: str) -> str:
    """What the guide says under ``### question``, up to the next heading."""
    (_, block) = text.split(f"\n### {question}\n")
    return re.split(r"\n#{2,3} |\n\*\*About these numbers", block)[0].strip()


def row_of(block: str, first: str) -> list[str]:
    (found,) = [[c.strip() for c in line.strip().strip("|").split("|")]
                for line in block.splitlines() if line.startswith(f"| {first} |")]
    return found


def said(text: str, question: str) -> str:
    """How the methods appendix says ``question`` was measured."""
    return text.split(f"**{question}**", 1)[1].split("\n\n")[0]


def guide(tmp_path: Path, *records: SB.TableRecord) -> tuple[str, str]:
    """The Coup guide and its methods appendix's sections (on the deal, and on how the
    guide's answers were measured), from ``records`` only."""
    with store.use(tmp_path):
        for r in records:
            SB.save_record(r)
        text = render_guide(GUIDES["coup"], tmp_path)
        appendix = (section_from_the_deal(ReportContext(catalog.family("coup"), tmp_path))
                    + "\n" + methods("coup", tmp_path))
    return text, appendix


def test_the_difference_of_two_independent_estimates_by_hand():
    # Standard errors 0.02/1.96 and 0.03/1.96: the half-width is sqrt(0.02^2 + 0.03^2).
    d, lo, hi = difference(0.50, (0.48, 0.52), 0.45, (0.42, 0.48))
    half = math.sqrt(0.02**2 + 0.03**2)  # 0.0360555...
    assert d == pytest.approx(0.05)
    assert (lo, hi) == (pytest.approx(0.05 - half), pytest.approx(0.05 + half))
    assert (lo, hi) == (pytest.approx(0.0139445, abs=1e-7), pytest.approx(0.0860555, abs=1e-7))
    # An interval not symmetric about its estimate counts by its mean half-width.
    assert difference(0.3, (0.2, 0.5), 0.0, (0.0, 0.0))[1:] == (
        pytest.approx(0.15), pytest.approx(0.45))


def test_independent_runs_pool_by_hand_and_cover_the_truth_in_simulation():
    # Two runs of 100 and 300 deals, half-widths 0.04 and 0.02: weights 1/4 and 3/4, so
    # the mean is 0.2375 and the half-width sqrt((0.04/4)^2 + (0.02*3/4)^2).
    mean, lo, hi = pooled([(100, 0.20, (0.16, 0.24)), (300, 0.25, (0.23, 0.27))])
    half = math.sqrt(0.01**2 + 0.015**2)
    assert mean == pytest.approx(0.2375)
    assert (lo, hi) == (pytest.approx(0.2375 - half), pytest.approx(0.2375 + half))
    assert pooled([(50, 0.3, (0.2, 0.4))]) == pytest.approx((0.3, 0.2, 0.4))
    # Three runs of 150 Bernoulli(0.22) deals each, pooled: the interval holds 0.22 in
    # about 95% of 2,000 simulated triples.
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(2000):
        runs = []
        for _ in range(3):
            x = rng.random(150) < 0.22
            m, se = x.mean(), x.std(ddof=1) / math.sqrt(150)
            runs.append((150, m, (m - 1.96 * se, m + 1.96 * se)))
        _, lo, hi = pooled(runs)
        hits += lo <= 0.22 <= hi
    assert 0.93 <= hits / 2000 <= 0.97


def test_the_largest_edge_an_interval_allows_is_rounded_up_to_a_tenth():
    assert bound_points((-0.0123, 0.0341)) == 3.5
    assert bound_points((-0.02, 0.01)) == 2.0  # exactly 2 points: not 2.1
    assert bound_points((-0.0251, 0.001)) == 2.6


def test_the_first_players_edge_and_its_words(tmp_path):
    even = record(3, (0.34, (0.3224, 0.3583)), plays="FastSearchAgent", cpu=7200.0)
    ahead = record(4, (0.30, (0.28, 0.32)), plays="FastSearchAgent")
    behind = record(5, (0.15, (0.13, 0.17)), plays="FastSearchAgent")
    e = E.edge(even)
    assert e.value == pytest.approx(0.34 - 1 / 3)
    assert e.ci == (pytest.approx(0.3224 - 1 / 3), pytest.approx(0.3583 - 1 / 3))
    assert e.words == "no edge larger than 2.5 points"  # |0.3583 - 1/3| = 2.497 points
    assert E.edge(ahead).words == "an edge of +5.0 points [+3.0, +7.0]"
    assert E.edge(behind).words == ("an edge of -5.0 points [-7.0, -3.0], the first player "
                                    "is behind")
    text, appendix = guide(tmp_path, even, ahead, behind)
    first = answered(text, "Does the first player win more?")
    assert row_of(first, "3")[2:4] == ["34.0% [32.2, 35.8]", "none clear"]
    assert row_of(first, "4")[2:4] == ["30.0% [28.0, 32.0]", "+5.0 [+3.0, +7.0]"]
    assert ("the edge is clear only at 4 players with the Ambassador deck (+5.0 [+3.0, +7.0] "
            "points), at 5 players with the Ambassador deck (-5.0 [-7.0, -3.0] points)") in first
    # The agent that played is named, and the processor time of the timed table given, in
    # the methods appendix.
    seats = said(appendix, "Does any seat win more at 3 to 8 players?")
    assert "information-set search, compiled" in seats
    assert "2.0 CPU-hours for the 1 of 3 tables timed" in seats
    assert ("| 3 players, Ambassador deck | 3,000, 2.0 CPU-hours | 33.3% | no edge larger "
            "than 2.5 points |") in appendix
    assert "| 4 players, Ambassador deck | 4,000 | 25.0% | an edge of +5.0 points" in appendix


def test_the_two_player_edge_names_the_agent_and_the_cost(tmp_path):
    rec = record(2, (0.45, (0.43, 0.47)), plays="BeliefSearchAgent", cpu=90.0)
    text, appendix = guide(tmp_path, rec)
    first = answered(text, "Does the first player win more?")
    assert first.startswith("At 2 players the first player wins 45.0% [43.0, 47.0] of games, "
                            "behind the fair 50%.")
    assert row_of(first, "2")[3] == "-5.0 [-7.0, -3.0]"
    # The belief agent played it when it was `best`; the reader learns it is no longer.
    method = said(appendix, "Does the first player win more?")
    assert ("2,000 games of `best` (the belief agent; `best` is now the re-solving agent) "
            "against itself") in method
    assert "1.5 CPU-minutes" in method
    assert ("| ambassador | basic | 45.0% [43.0, 47.0] | an edge of -5.0 points [-7.0, -3.0], "
            "the first player is behind |") in appendix


def test_no_cost_is_said_where_the_games_were_not_timed(tmp_path):
    text, appendix = guide(tmp_path, record(2, (0.45, (0.43, 0.47)), plays="BeliefSearchAgent"),
                           record(3, (0.34, (0.32, 0.36))))
    assert "CPU-" not in text and "CPU-" not in appendix


def test_deck_against_deck_and_setup_against_setup(tmp_path):
    recs = [record(2, (0.55, (0.53, 0.57)), "ambassador", "basic"),
            record(2, (0.50, (0.48, 0.52)), "inquisitor", "basic"),
            record(2, (0.50, (0.48, 0.52)), "ambassador", "standard"),
            record(2, (0.54, (0.52, 0.56)), "inquisitor", "standard"),
            record(3, (0.40, (0.38, 0.42)), "ambassador"),
            record(3, (0.30, (0.28, 0.32)), "inquisitor")]
    half = 100 * math.sqrt(2 * 0.02**2)  # 2.83 points
    text, appendix = guide(tmp_path, *recs)
    decks = answered(text, "Does the deck matter?")
    lo, hi = 5 - half, 5 + half
    assert row_of(decks, "2 players, 1 coin to the starter")[3] == f"+5.0 [+{lo:.1f}, +{hi:.1f}]"
    assert f"[+{lo:.1f}, +{hi:.1f}]" == "[+2.2, +7.8]"
    assert row_of(decks, "2 players, 2 coins each")[3] == "-4.0 [-6.8, -1.2]"
    assert row_of(decks, "3 players")[3] == "+10.0 [+7.2, +12.8]"
    assert decks.startswith("At 3 of 3 tables the first player's edge differs clearly between "
                            "the decks")
    setups = answered(text, "Which 2-player setup is fairest?")
    # 2 coins each: 50% [48, 52] at 2 players, an edge of 0.0 [-2.0, +2.0]; 1 coin: +5.0.
    assert setups.startswith("2 coins each is the fairest setup: the first player's edge there "
                             "is +0.0 [-2.0, +2.0] points, clearly smaller than with 1 coin to "
                             "the starter.")
    # Inquisitor: 50% with 1 coin to the starter, 54% with 2 coins each.
    assert row_of(setups, "the starting player takes 1 coin")[3] == "50.0% [48.0, 52.0]"
    assert row_of(setups, "2 coins each")[4] == "+4.0 [+2.0, +6.0]"
    assert ("| Ambassador minus Inquisitor | 3 players | +6.7 points [+4.7, +8.7] | -3.3 points "
            "[-5.3, -1.3] | +10.0 points [+7.2, +12.8] | differs by +10.0 points") in appendix


def test_no_difference_larger_than_the_interval_allows(tmp_path):
    recs = [record(2, (0.55, (0.53, 0.57)), "ambassador", "basic"),
            record(2, (0.54, (0.52, 0.56)), "inquisitor", "basic")]
    text, _ = guide(tmp_path, *recs)
    decks = answered(text, "Does the deck matter?")
    # +1.0 points, half-width 2.83: [-1.83, +3.83], so no clear difference.
    assert decks.startswith("No: at none of the 1 tables compared does the first player's edge "
                            "differ clearly between the decks (+1.0 [-1.8, +3.8] points at 2 "
                            "players).")
    assert row_of(decks, "2 players, 1 coin to the starter")[3] == \
        "none clear (+1.0 [-1.8, +3.8])"
    with store.use(tmp_path):
        (d,) = E.deck_differences()
    assert d.words == "no difference larger than 3.9 points"
    assert d.ci == (pytest.approx(0.01 - 0.0282843, abs=1e-6), pytest.approx(0.01 + 0.0282843, abs=1e-6))


def test_tables_played_by_different_agents_are_not_set_against_each_other(tmp_path):
    # The basic setup replayed by the re-solving agent, the others still the belief
    # agent's: a stronger agent can move an edge on its own, so only like is compared.
    recs = [record(2, (0.55, (0.53, 0.57)), "ambassador", "basic", plays="ResolveAgent"),
            record(2, (0.50, (0.48, 0.52)), "inquisitor", "basic", plays="BeliefSearchAgent"),
            record(2, (0.50, (0.48, 0.52)), "ambassador", "standard", plays="ResolveAgent"),
            record(2, (0.54, (0.52, 0.56)), "inquisitor", "standard", plays="ResolveAgent"),
            record(2, (0.52, (0.50, 0.54)), "inquisitor", "draft", plays="BeliefSearchAgent")]
    text, _ = guide(tmp_path, *recs)
    with store.use(tmp_path):
        decks = E.deck_differences()
        amb = E.setup_differences("ambassador")
        inq = E.setup_differences("inquisitor")
    assert [(d.a.table.setup, d.b.table.setup) for d in decks] == [("standard", "standard")]
    assert [d.a.table.setup for d in amb] == ["standard"]
    assert [d.a.table.setup for d in inq] == ["draft"]  # the standard: another agent
    decks = answered(text, "Does the deck matter?")
    assert [r.split(" |")[0] for r in decks.splitlines() if r.startswith("| 2 players")] == \
        ["| 2 players, 2 coins each"]  # only the tables one agent played with both decks


def test_best_and_worst_hands_at_each_player_count(tmp_path):
    def hand(name, rate, reach, games):
        return SB.HandRecord(name, rate * games, games, (rate - reach, rate + reach))

    two = [hand("Duke+Duke", 0.62, 0.05, 200), hand("Captain+Duke", 0.58, 0.04, 400),
           hand("Contessa+Duke", 0.55, 0.03, 400), hand("Ambassador+Duke", 0.50, 0.03, 400),
           hand("Assassin+Duke", 0.45, 0.03, 400), hand("Assassin+Captain", 0.40, 0.121, 400),
           hand("Ambassador+Assassin", 0.35, 0.04, 400),
           hand("Contessa+Contessa", 0.90, 0.05, 58)]  # 29 deals: too few
    four = [hand("Captain+Contessa", 0.40, 0.03, 1200), hand("Duke+Duke", 0.35, 0.03, 1200),
            hand("Captain+Captain", 0.30, 0.03, 1200), hand("Ambassador+Captain", 0.20, 0.03, 1200),
            hand("Assassin+Assassin", 0.15, 0.03, 1200), hand("Ambassador+Duke", 0.10, 0.03, 1200),
            hand("Contessa+Contessa", 0.60, 0.03, 116)]  # 29 deals of 4 seats: too few
    seven = [hand("Captain+Captain", 0.19, 0.025, 1400), hand("Duke+Duke", 0.17, 0.02, 1400),
             hand("Captain+Duke", 0.15, 0.02, 1400), hand("Ambassador+Duke", 0.13, 0.02, 1400),
             hand("Assassin+Duke", 0.12, 0.02, 1400), hand("Ambassador+Assassin", 0.11, 0.02, 1400)]
    recs = [record(2, (0.5, (0.48, 0.52)), hands=two, plays="BeliefSearchAgent"),
            record(4, (0.25, (0.23, 0.27)), hands=four, plays="FastSearchAgent"),
            record(7, (1 / 7, (0.13, 0.16)), hands=seven, plays="FastSearchAgent")]
    text, appendix = guide(tmp_path, *recs)
    hands = answered(text, "Which starting hands are strongest?")
    # Each cell: the leader, and every hand whose interval overlaps the leader's.
    assert row_of(hands, "2")[1:] == [
        "50.0%", "Duke+Duke 62.0% [57.0, 67.0]; or Captain+Duke, Contessa+Duke",
        "Ambassador+Assassin 35.0% [31.0, 39.0]; or Assassin+Captain"]
    assert row_of(hands, "4")[2:] == ["Captain+Contessa 40.0% [37.0, 43.0]; or Duke+Duke",
                                      "Ambassador+Duke 10.0% [7.0, 13.0]; or Assassin+Assassin"]
    assert row_of(hands, "7")[2:] == [
        "Captain+Captain 19.0% [16.5, 21.5]; or Duke+Duke, Captain+Duke",
        "Ambassador+Assassin 11.0% [9.0, 13.0]; or Assassin+Duke, Ambassador+Duke, Captain+Duke"]
    assert "Contessa+Contessa" not in hands  # dealt in 29 deals only, at either table
    assert hands.startswith("No starting hand is clearly strongest at 2 players: 3 could be, "
                            "led by Duke+Duke at 62.0% [57.0, 67.0] against a fair 50.0%.")
    assert ("Not measured yet at 3, 5, 6 and 8 players: run `farol coup balance --players "
            "3,5,6,8 --duplicate`.") in hands
    # The methods appendix names who played each table.
    method = said(appendix, "Which starting hands are strongest?")
    assert "`best` (the belief agent; `best` is now the re-solving agent)" in method
    assert "`best` (information-set search, compiled)" in method
    assert ("- Starting hands, 4 players, Ambassador deck: best Captain+Contessa 40.0% "
            "[37.0, 43.0]") in appendix
    assert "Ambassador+Duke 10.0% [7.0, 13.0] (hands dealt at least 30 times; each to within " \
        "±3.0 points)." in appendix


def test_the_variance_factors_are_read_from_the_benchmark(tmp_path):
    from analysis.report.coup.from_the_deal import variance_lines

    line = {"agent": "honest", "players": 2, "games": 400, "deals": 200,
            "duplicate_factor": 2.5, "duplicate_factor_ci95": [2.0, 3.0],
            "cv_factor": 0.99, "cv_factor_ci95": [0.95, 1.02]}
    path = tmp_path / "bench.json"
    path.write_text(json.dumps({"seed": 7, "lines": [line], "control_variate_pays": False}))
    text = "\n".join(variance_lines(path))
    assert "| honest ×2 | 400 (200 deals) | 2.50 [2.00, 3.00] | 0.990 [0.950, 1.020] |" in text
    assert "seed 7" in text and "not kept" in text
    path.write_text(json.dumps({"seed": 7, "lines": [line], "control_variate_pays": True}))
    assert "is kept" in "\n".join(variance_lines(path))
    assert variance_lines(tmp_path / "missing.json") == []
