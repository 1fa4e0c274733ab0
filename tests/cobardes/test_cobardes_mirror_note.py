"""A mirror battle (both players holding the same courtier) is never dealt: «each courtier
card exists once» in the court deck. Asked about one (``allow_mirror=true``), the advice
says so beside its answer; any other battle gets no such word."""

from __future__ import annotations

from analysis.cobardes.advice.advise import advise_spot, format_spot
from analysis.shared.params import load_game
from games.history import replay

SMALL = {"kinds": "warriors+courtiers", "warriors": 3, "combats": 3}


def _text(courtiers: tuple[str, str], mirror: bool) -> str:
    params = SMALL | {"courtier0": courtiers[0], "courtier1": courtiers[1]}
    if mirror:
        params["allow_mirror"] = True
    state = replay(load_game("python_cobardes_battle", params), "")
    return format_spot(state, advise_spot(state, False))


def test_a_mirror_battle_says_it_is_never_dealt():
    text = _text(("Wolf", "Wolf"), mirror=True)
    assert ("A hypothetical battle: both players hold the Wolf, which is never dealt "
            "(each courtier card exists once).") in text


def test_a_dealt_battle_says_nothing_of_the_kind():
    assert "hypothetical" not in _text(("Wolf", "Squire"), mirror=True)
    assert "hypothetical" not in _text(("Wolf", "Squire"), mirror=False)
