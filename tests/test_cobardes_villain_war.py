"""The war with villains in the ¡Cobardes! guide (:mod:`analysis.report.guides.cobardes`):
it answers first once every dealt courtier matchup is solved with how each battle ends,
the war without villains becoming the variant; until then the guide says how many are."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.cobardes import balance
from analysis.report.guides.cobardes import courtiers, first_player
from analysis.report.guides.cobardes import records as R
from analysis.report.guides.common import one_line, render

NAMES = balance.COURTIERS


class Record:
    """A stand-in matchup record: the holder's value of each villain."""

    def __init__(self, values):
        self.values = values

    def villain_values(self, player):
        return self.values


def complete_war(lead: str) -> R.VillainWar:
    """Every dealt matchup solved; ``lead`` wins its wars from both seats."""
    table = pd.DataFrame(0.0, index=NAMES, columns=NAMES)
    for name in NAMES:
        table.loc[name, name] = np.nan
    for rival in NAMES:
        if rival != lead:
            table.loc[lead, rival], table.loc[rival, lead] = 0.1, -0.1
    rival = NAMES[0] if lead != NAMES[0] else NAMES[1]
    table.loc[lead, rival], table.loc[rival, lead] = 1.0, -1.0  # its biggest move
    return R.VillainWar(table, 90, 90, 0.01, 0.02, 0.16)


def test_the_partial_war_with_villains_is_counted_not_answered():
    f = courtiers.facts()
    if f["vw"] is None or f["strength"] is None:
        pytest.skip("no stored matchup says how its battles end")
    assert not f["vw"].complete and f["villain_wins"] is None
    text = one_line(render("cobardes/courtiers.md.j2", **f))
    assert f"and {f['vw'].matchups} are" in text and "With villains" not in text


def test_the_complete_war_with_villains_answers_first(monkeypatch):
    renewal = courtiers.facts()
    if renewal["strength"] is None:
        pytest.skip("the renewal war is not stored")
    lead = next(n for n in NAMES if n != renewal["best"])  # a different strongest
    vw = complete_war(lead)
    rival = NAMES[0] if lead != NAMES[0] else NAMES[1]
    records = {(lead, rival): Record({"Thug": 0.1, "Assassin": 0.7, "Friar": -0.2})}
    monkeypatch.setattr(R, "villain_war", lambda: vw)
    monkeypatch.setattr(R, "hidden_sweep", lambda: records)
    f = courtiers.facts()
    assert f["v_best"] == lead and f["headline"].startswith(lead)
    text = one_line(render("cobardes/courtiers.md.j2", **f))
    assert text.startswith(f"With villains, as the game is played: strongest **{lead}")
    assert f"Without villains (courtiers renewed, exact): strongest {renewal['best']}" in text
    assert f"against the {rival} moves most" in text and "the Assassin is worth most" in text
    assert "8.0 points" in text  # half the composition's largest miss, in win points
    assert "lower bound" in R.villain_war_model(vw)
    wins = vw.wins()
    assert wins[lead] == pytest.approx((1 + (0.1 * 16 + 2.0) / 18) / 2)


def test_the_first_player_answer_reads_the_war_with_villains_when_complete(monkeypatch):
    if first_player.facts()["win"] is None:
        pytest.skip("the renewal war is not stored")
    vw = complete_war(NAMES[3])
    monkeypatch.setattr(R, "villain_war", lambda: vw)
    f = first_player.facts()
    cells = vw.table.stack().dropna()
    assert len(cells) == 90
    assert f["villain_win"] == pytest.approx((1 + cells.mean()) / 2)
    text = one_line(render("cobardes/first_player.md.j2", **f))
    assert text.startswith("With villains, as the game is played")
    assert "Without villains (courtiers renewed, exact)" in text
