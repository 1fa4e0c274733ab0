"""The combat about to start is read off the hands when ``--combat`` is left out
(games/cobardes/reachable.py: each finished combat took one warrior from each hand)."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from games.cobardes.reachable import infer_combat

FULL = (1 << 7) - 1


def hand(*gone: int) -> int:
    return FULL & ~sum(1 << c for c in gone)


@pytest.mark.parametrize("gone, combat", [((), 1), ((0,), 2), ((0, 3, 5), 4)])
def test_equal_hands_fix_the_combat(gone, combat):
    assert infer_combat(6, (hand(*gone), hand(*reversed(gone))), (0, 0), False) == (combat, "")


def test_a_spent_villain_leaves_two_combats_open():
    found, why = infer_combat(6, (hand(0), hand(1)), (0, 0), True)
    assert found is None and "2, 3" in why and "--combat" in why


def test_hands_no_combat_fits_give_the_rule():
    found, why = infer_combat(6, (hand(0, 1), hand()), (0, 0), False,
                              names=("--mine", "--theirs"))
    assert found is None and "each combat takes a warrior from each hand" in why


def test_advise_infers_the_combat(capsys):
    assert main(["advise", "cobardes", "--mine", "1,2,3,4,5,6", "--theirs", "0,1,2,3,4,6"]) == 0
    assert "combat 2 of 7" in capsys.readouterr().out


def test_advise_inference_matches_the_given_combat(capsys):
    args = ["advise", "cobardes", "--mine", "2,3,4,5,6", "--theirs", "0,1,2,3,4", "--json"]
    assert main(args) == 0
    inferred = json.loads(capsys.readouterr().out)
    assert main([*args, "--combat", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == inferred


def test_advise_refuses_hands_that_fit_no_combat(capsys):
    assert main(["advise", "cobardes", "--mine", "2,3,4,5,6", "--theirs", "0,1,2,3,4,5,6"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("farol advise: error: --theirs")
