"""The war with villains in the ¡Cobardes! guide (:mod:`analysis.report.guides.cobardes`):
it answers first once every dealt courtier matchup is solved with how each battle ends,
the war without villains becoming the variant; until then the guide says how many are."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.cobardes.model import OUTCOME_NAMES, outcome_totals
from analysis.cobardes.solvers.war import composed_values
from analysis.cobardes.studies import balance
from analysis.report.facts.cobardes import records as R
from analysis.report.guides.cobardes import courtiers, first_player, play
from analysis.report.guides.common import GuideContext

NAMES = balance.COURTIERS


class Record:
    """A stand-in matchup record: the holder's value of each villain."""

    def __init__(self, values):
        self.values = values

    def villain_values(self, player):
        return self.values


def complete_war(lead: str, error_max: float = 0.04) -> R.VillainWar:
    """Every dealt matchup solved; ``lead`` wins its wars from both seats."""
    table = pd.DataFrame(0.0, index=NAMES, columns=NAMES)
    for name in NAMES:
        table.loc[name, name] = np.nan
    for rival in NAMES:
        if rival != lead:
            table.loc[lead, rival], table.loc[rival, lead] = 0.1, -0.1
    rival = NAMES[0] if lead != NAMES[0] else NAMES[1]
    table.loc[lead, rival], table.loc[rival, lead] = 1.0, -1.0  # its biggest move
    return R.VillainWar(table, 90, 90, 0.01, 0.02, error_max)


def test_the_partial_war_with_villains_is_counted_not_answered(monkeypatch, tmp_path):
    if courtiers.facts()["strength"] is None:
        pytest.skip("the renewal war is not stored")
    war = complete_war(NAMES[2])
    monkeypatch.setattr(R, "villain_war", lambda: R.VillainWar(war.table, 40, 90, 0.01))
    f = courtiers.facts()
    assert not f["vw"].complete and f["villain_wins"] is None
    said = courtiers.reply(GuideContext("cobardes", tmp_path))
    assert f"solved; {f['vw'].matchups} are" in said.more and "with villains" not in said.answer
    assert said.answer.startswith(f"The {f['best']}: it wins **")


def test_the_complete_war_with_villains_answers_first(monkeypatch, tmp_path):
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
    said = courtiers.reply(GuideContext("cobardes", tmp_path))
    assert said.answer.startswith(f"The {lead}: it wins **60.0%** of wars with villains")
    assert f"Without villains (courtiers renewed, exact): strongest {renewal['best']}" in said.more
    assert f"against the {rival} moves most" in said.more
    assert "the Assassin is worth most" in said.more
    assert said.shown.splitlines()[2].startswith(f"| {lead} | 60.0% |")
    # The range beside the figures: half the composition's largest miss, in win points.
    assert "at most\n2.0 points" in first_player.caveat(GuideContext("cobardes", tmp_path))
    assert "lower bound" in R.villain_war_model(vw)
    wins = vw.wins()
    assert wins[lead] == pytest.approx((1 + (0.1 * 16 + 2.0) / 18) / 2)


def test_no_courtier_is_called_strongest_within_the_compositions_error(monkeypatch, tmp_path):
    """The lead wins 60% of wars, the next 49.4%: with the composition's largest miss at
    0.30 in P(win) - P(lose) (15 points of win probability) their ranges overlap."""
    if courtiers.facts()["strength"] is None:
        pytest.skip("the renewal war is not stored")
    lead = NAMES[4]
    monkeypatch.setattr(R, "villain_war", lambda: complete_war(lead, error_max=0.30))
    f = courtiers.facts()
    assert len(f["v_top"]) > 1 and f["v_top"][0] == lead and f["why"] == ""
    said = courtiers.reply(GuideContext("cobardes", tmp_path))
    assert said.answer.startswith(f"No clear strongest with villains: **the {lead} 60.0%")
    assert "strongest" not in said.more.partition("Without villains")[0]
    assert "15.0 points" in first_player.caveat(GuideContext("cobardes", tmp_path))


def test_the_first_player_answer_reads_the_war_with_villains_when_complete(monkeypatch,
                                                                           tmp_path):
    if first_player.facts()["win"] is None:
        pytest.skip("the renewal war is not stored")
    vw = complete_war(NAMES[3])
    monkeypatch.setattr(R, "villain_war", lambda: vw)
    f = first_player.facts()
    cells = vw.table.stack().dropna()
    assert len(cells) == 90
    assert f["villain_win"] == pytest.approx((1 + cells.mean()) / 2)
    said = first_player.reply(GuideContext("cobardes", tmp_path))
    assert said.answer.startswith("No clear edge: with villains the first player wins **")
    assert "(±2.0 points)" in said.answer
    assert "Without villains (courtiers renewed, exact)" in said.more
    assert said.shown.startswith("![") and "with villains" in said.shown
    # 10 points off a fair 50% is an edge even with the range.
    table = vw.table.copy()
    table[table.notna()] = 0.2
    monkeypatch.setattr(R, "villain_war", lambda: R.VillainWar(table, 90, 90, 0.01, 0.02, 0.04))
    assert first_player.reply(GuideContext("cobardes", tmp_path)).answer.startswith(
        "Yes: with villains the first player wins **60.0%**")


class EndingsRecord:
    """A stand-in matchup record that says how its battle ends and which courtiers it
    plays (``endings``, the 20 endings' probabilities)."""

    def __init__(self, endings, pairing):
        self.endings = endings
        self.outcomes = {}
        self.exploitability_lower_bound = 0.004
        self.pairing = pairing

    def battle_endings(self):
        return self.endings

    def war_value(self):  # courtiers kept
        ends = dict(zip(OUTCOME_NAMES, outcome_totals(self.endings).tolist(), strict=True))
        return composed_values(ends)[(0, 0)]


def test_the_complete_sweep_composes_the_war_with_courtiers_kept_or_renewed(monkeypatch,
                                                                           tmp_path):
    """All 90 dealt matchups say which courtiers their battles play: the war with villains
    lets each player keep or renew (solved for those battles), its table is that war's,
    and the guide's keep-or-renew rule of thumb reads it first. Stand-in battles: the
    Squire's holder wins without playing it, every other battle is even and plays both."""
    coin = np.zeros(20)
    coin[0 * 4 + 3] = coin[1 * 4 + 3] = 0.5  # win or loss, both courtiers played
    records = {}
    for a in NAMES:
        for b in NAMES:
            if a == b:
                continue
            ends = np.zeros(20)
            if a == "Squire":
                ends[0 * 4 + 2] = 1.0   # player 0 wins, only player 1 played its courtier
            elif b == "Squire":
                ends[1 * 4 + 1] = 1.0
            else:
                ends = coin
            records[(a, b)] = EndingsRecord(ends, (a, b))
    monkeypatch.setattr(R, "hidden_sweep", lambda: records)
    vw = R.villain_war()
    assert vw.complete and vw.renewed and vw.solution is not None
    assert vw.table.loc["Squire", "Wolf"] == pytest.approx(1.0)
    assert vw.wins().index[0] == "Squire" and vw.wins()["Squire"] == pytest.approx(1.0)
    assert np.isnan(vw.table.loc["Wolf", "Wolf"])
    assert "keeps an unplayed courtier or renews it" in R.villain_war_model(vw)
    keep = play.keep_rates(vw.solution)
    assert keep["Squire"] == pytest.approx(1.0)
    monkeypatch.setattr(R, "villain_war", lambda: vw)
    said = play.keep_reply(GuideContext("cobardes", tmp_path))
    assert said.answer.startswith("Keep an unplayed Squire") and "with villains" in said.answer
    heads = said.shown.splitlines()[0]
    assert "with villains" in heads and "without villains (exact)" in heads
    assert said.shown.splitlines()[2].startswith("| Squire | 100% |")
    monkeypatch.undo()
    monkeypatch.setattr(R, "hidden_sweep", lambda: records)
    partial = dict(list(records.items())[1:])
    monkeypatch.setattr(R, "hidden_sweep", lambda: partial)
    kept = R.villain_war()
    assert not kept.renewed and not kept.complete and kept.solution is None
    assert kept.table.loc["Squire", "Wolf"] == pytest.approx(1.0)
