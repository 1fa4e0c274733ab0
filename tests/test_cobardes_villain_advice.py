"""Advice with a hidden villain says which value it gives: yours holding your villain,
and the value before the villains are dealt, each labelled."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.cobardes.advise import Query, advise
from games.cobardes import cards as C

SMALL = dict(variant="villains", warriors=2, combats=2, mine=(0, 1, 2), theirs=(0, 1, 2),
             iterations=150)
VILLAINS = [C.CARD_NAMES[v] for v in C.VILLAINS]


def test_the_value_depends_on_your_villain_and_averages_to_the_value_before_the_deal():
    values = {}
    for name in VILLAINS:
        out = advise(Query(my_villain=name, **SMALL)).to_json()
        assert out["value_given"] == f"holding the {name}"
        values[name] = out["value"]
        before = out["value_before_deal"]
    # Your villain is one of nine, equally likely: the value before the deal is the mean.
    assert sum(values.values()) / len(values) == pytest.approx(before, abs=1e-9)
    assert max(values.values()) - min(values.values()) > 0.1
    # The Executioner beats the rival's villain wherever they meet: the best to hold here.
    assert max(values, key=values.get) == "Executioner"


def test_advice_without_your_villain_is_refused_in_one_line(capsys):
    args = ["advise", "cobardes", "--variant", "villains", "--warriors", "2", "--combats",
            "2", "--mine", "0,1,2", "--theirs", "0,1,2"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "say which with --my-villain" in err and "Executioner" in err


def test_the_text_and_the_json_label_both_values(capsys):
    args = ["advise", "cobardes", "--variant", "villains", "--warriors", "2", "--combats",
            "2", "--mine", "0,1,2", "--theirs", "0,1,2", "--my-villain", "Thug",
            "--iterations", "50"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Value for you, holding the Thug:" in text
    assert "Value before the villains are dealt:" in text
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value_given"] == "holding the Thug"
    assert {"value", "value_before_deal"} <= set(data)
