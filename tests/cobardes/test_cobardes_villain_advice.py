"""Advice with a hidden villain says which value it gives: yours holding your villain,
and the value before the villains are dealt, each labelled."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.cobardes.advice.advise import Query, advise
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


def test_the_json_lists_every_move_with_its_value_and_the_rivals_likely_villain():
    out = advise(Query(my_villain="Thug", **SMALL)).to_json()
    assert sum(r["probability"] for r in out["actions"]) == pytest.approx(1.0)
    assert {r["action"] for r in out["actions"]} == set(out["strategy"])
    # Your value is the mix of your moves' values.
    mixed = sum(r["probability"] * r["value"] for r in out["actions"])
    assert mixed == pytest.approx(out["value"], abs=1e-9)
    # Before any move of the rival's, its villain is any of the eight others, alike.
    assert set(out["opponent_hand"]) == set(VILLAINS) - {"Thug"}
    assert all(p == pytest.approx(1 / 8) for p in out["opponent_hand"].values())
    assert out["source"] == "trunk solve, perfect-recall tree"
    named = advise(Query(my_villain="Thug", their_villain="Sheep", **SMALL)).to_json()
    assert named["opponent_hand"] == {"Sheep": 1.0}


def test_a_named_rival_villain_is_certain_and_a_villain_free_battle_is_solved_exactly():
    out = advise(Query(variant="villains", warriors=2, combats=2, mine=(0, 1, 2),
                       theirs=(0, 1, 2), their_villain="Sheep", my_villain="Thug",
                       iterations=10)).to_json()
    assert out["opponent_hand"] == {"Sheep": 1.0}
    bare = advise(Query(variant="warriors", warriors=2, combats=2, mine=(0, 1, 2),
                        theirs=(0, 1, 2))).to_json()
    assert bare["source"] == "exact solve" and bare["opponent_hand"] == {}
    assert bare["exploitability"] == 0.0
