"""2-player Coup's exact opening answers at once from the shipped table
(analysis/coup/advice/openings.py, ``farol advise coup --exact``); without the table, and
at later spots with two face-down cards each, the exact solve refuses in one line."""

from __future__ import annotations

import dataclasses
import json

import pytest

from analysis.cli import main
from analysis.coup.advice import openings as coup_openings
from analysis.coup.advice.endgame import advise
from analysis.shared import store
from analysis.shared.provenance import provenance
from games.coup.positions import parse_position

OPENING = "Draw Duke;Draw Contessa;Draw Captain;Draw Assassin"


def test_coup_opening_without_its_table_is_refused_exactly_in_one_line(tmp_path, capsys):
    with store.use(tmp_path):
        status = main(["advise", "coup", "--exact", "--history", OPENING,
                       "--cap-pricing", "draw"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1
    assert "farol coup openings --deck ambassador --setups basic" in err[0]


def test_coup_advice_reads_the_stored_table(tmp_path, capsys):
    spot = "duke/contessa/3;?/contessa/0;move:0"
    truth = advise(spot, "ambassador", 2, cap="draw")
    marked = dataclasses.replace(truth, value=0.4321)  # what only the table says
    with store.use(tmp_path):
        coup_openings.OpeningTable("ambassador", 2, "draw", {spot: dataclasses.asdict(marked)},
                                   provenance(None)).save()
        assert coup_openings.stored_advice(spot, "ambassador", 2, "draw") == marked
        assert coup_openings.stored_advice(spot, "ambassador", 1, "draw") is None
        assert main(["advise", "coup", spot, "--exact", "--cap-pricing", "draw",
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 0.4321


def test_the_shipped_coup_opening_answers(capsys):
    status = main(["advise", "coup", "--exact", "--history", OPENING, "--cap-pricing", "draw"])
    out = capsys.readouterr().out
    assert status == 0 and "You are P0 holding Duke + Captain" in out
    assert "exploitability" in out


def test_the_table_reads_the_same_advice_as_the_solve_walk():
    """The builder reads every hand off the compiled tree; it must agree with
    :func:`analysis.coup.advice.endgame.advise`, which walks OpenSpiel states (a small spot)."""
    general = parse_position("?/duke/3;?/captain/2;move:0", "ambassador")
    answers = coup_openings._answers("ambassador", general, True, 1e-4, None)
    assert len(answers) == 5
    for spot, read in answers.items():
        walked = dataclasses.asdict(advise(spot, "ambassador", 2, cap="draw"))
        assert dict(read["mix"]) == pytest.approx(dict(walked["mix"]), abs=1e-12)
        for key in ("value", "win", "draw", "lose", "exploitability"):
            assert read[key] == pytest.approx(walked[key], abs=1e-9), key
        assert {a: v for a, _, v in read["actions"]} == pytest.approx(
            {a: v for a, _, v in walked["actions"]}, abs=1e-9)
        assert dict(read["opponent_hand"]) == pytest.approx(dict(walked["opponent_hand"]))
