"""Brackets with the cap priced by Markov guarantees beyond the 1v1 endgames: the full
2-player game (``analysis.coup.studies.full_game.run_markov``) and the 2v1/1v2 endgames
(``analysis.coup.studies.larger.run_markov``), their committed records and report rows."""

from __future__ import annotations

import json

import pytest

from analysis.coup import guarantees as M
from analysis.coup.model import Endgame
from analysis.coup.studies import full_game, larger

TOL = 2e-4  # each side is solved to exploitability 1e-4


@pytest.fixture(scope="module")
def rows():
    return json.loads(full_game.markov_path().read_text())


def test_every_committed_row_is_a_bracket_inside_the_deal_guarantees(rows):
    """Each end holds: the capped game's lower end is at least what the first player's
    Markov policy guarantees from the deal (they could play it from the start), its upper
    end at most what the second player's leaves; and lower <= upper."""
    assert {(r["setup"], r["deck"]) for r in rows.values()} >= {
        ("basic", "inquisitor"), ("standard", "inquisitor")}
    for key, r in rows.items():
        w0, w1 = r["markov"]["root_guarantee"]
        assert r["root_bracket"] == pytest.approx([w0, 1 - w1])
        assert 0 <= w0 <= 1 - w1 <= 1, key
        if r["status"] == "bracketed":
            assert r["cap_payoffs"] == "markov"
            assert r["lower_win"] <= r["upper_win"] + TOL, key
            assert r["lower_win"] >= w0 - TOL and r["upper_win"] <= 1 - w1 + TOL, key
            assert max(r["low"]["exploitability"], r["high"]["exploitability"]) <= 1e-3


def test_one_graph_serves_both_setups_of_a_deck(rows):
    """The two setups differ only in the first player's coins at the deal: their rows
    share one position graph (same size), but not their guarantees at the deal."""
    for deck in {r["deck"] for r in rows.values()}:
        by_setup = {r["setup"]: r for r in rows.values()
                    if r["deck"] == deck and r["turn_cap"] == 1}
        if len(by_setup) == 2:
            basic, standard = by_setup["basic"], by_setup["standard"]
            assert basic["markov"]["positions"] == standard["markov"]["positions"]
            assert basic["root_bracket"] != standard["root_bracket"]


def test_the_report_lists_every_row(rows, tmp_path):
    from analysis.report.coup.full_game import full_game_markov

    text = "\n".join(full_game_markov())
    assert text.startswith("**Pricing the cap with Markov guarantees.**")
    table = [line for line in text.splitlines() if line.startswith(("| basic", "| standard"))]
    assert len(table) == len(rows)
    assert "The tightest brackets of the first player's win probability" in text


@pytest.fixture(scope="module")
def larger_rows():
    return json.loads(larger.markov_path().read_text())


def test_every_larger_row_is_a_bracket_inside_the_deal_guarantees(larger_rows):
    """As for the full game, per 2v1/1v2 case; and the brackets of successive caps of one
    case overlap (each holds the same uncapped value)."""
    assert {r["position"] for r in larger_rows.values()} == {
        p for _, p in larger.markov_cases()}
    by_case: dict[tuple, dict] = {}
    for key, r in larger_rows.items():
        w0, w1 = r["markov"]["root_guarantee"]
        assert 0 <= w0 <= 1 - w1 <= 1, key
        if r["status"] == "bracketed":
            assert r["lower_win"] <= r["upper_win"] + TOL, key
            assert r["lower_win"] >= w0 - TOL and r["upper_win"] <= 1 - w1 + TOL, key
            by_case.setdefault((r["deck"], r["position"]), {})[r["turn_cap"]] = r
    for case, caps in by_case.items():
        assert 1 in caps, case
        lower = max(r["lower_win"] for r in caps.values())
        upper = min(r["upper_win"] for r in caps.values())
        assert lower <= upper + TOL, case


def test_the_report_lists_every_larger_row(larger_rows):
    from analysis.report.coup.larger import larger_markov

    text = "\n".join(larger_markov())
    assert text.startswith("**Without a cap.**")
    table = [line for line in text.splitlines() if line.startswith(("| 2v1", "| 1v2"))]
    assert len(table) == len(larger_rows)


def test_guarantees_from_several_roots_cover_each_of_them():
    """``uncapped_roots`` steps each game's own deal under one uncapped config; the graph
    holds every root and prices it."""
    games = [Endgame(a, b, "inquisitor", turn_cap=1).game() for a, b in ((7, 2), (2, 7))]
    config, roots = M.uncapped_roots(games)
    assert config.turn_cap > 10**6 and all(r.cfg is config for r in roots)
    g = M.guarantees_from(config, roots, "inquisitor", ("contessa", "contessa"), rounds=1)
    # 7 coins against the last card: the mover wins, whoever moves.
    assert g.of(roots[0]) == pytest.approx((1.0, 0.0))
    w0, w1 = g.of(roots[1])
    assert w0 >= 0 and w0 + w1 <= 1 + 1e-12


def test_an_unknown_deck_is_refused_by_name(capsys):
    from analysis.cli import main

    assert main(["coup", "full-game", "--markov", "--decks", "joker"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'joker'" in err


def test_the_findings_lines_follow_the_brackets(larger_rows):
    """The two-cards line quotes the weakest 2v1 lower end and the strongest 1v2 upper end
    over the cases (each case's own tightest bracket); the first-mover line lists only
    equal-coin endgames whose tightest lower end is above 1/2."""
    import re

    from analysis.report.coup.full_game import first_mover_bullet
    from analysis.report.coup.larger import larger_bullet
    from analysis.report.facts.coup.readers import markov_brackets, plain_brackets, tightest

    (line,) = larger_bullet()
    two = {}
    for r in larger_rows.values():
        key = (r["case"], r["deck"], r["position"])
        lo = max(r["root_bracket"][0], r.get("lower_win", 0.0))
        hi = min(r["root_bracket"][1], r.get("upper_win", 1.0))
        old = two.get(key, (0.0, 1.0))
        two[key] = (max(old[0], lo), min(old[1], hi))
    weakest = min(lo for (case, _, _), (lo, _) in two.items() if case == "2v1")
    strongest = max(hi for (case, _, _), (_, hi) in two.items() if case == "1v2")
    assert f"at least {weakest:.2f}" in line and f"at most {strongest:.2f}" in line
    (first,) = first_mover_bullet(plain_brackets())
    tight = tightest(plain_brackets(), markov_brackets())
    listed = re.findall(r"(\d)/\d (0\.\d+)-", first)
    assert listed
    for pair, lo in listed:
        assert float(lo) > 0.5
        row = tight[(tight["mover"] == int(pair)) & (tight["other"] == int(pair))]
        assert any(f"{x:.3f}" == lo for x in row["lower_win"])
