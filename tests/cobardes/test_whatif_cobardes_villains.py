"""¡Cobardes!'s what-if with villains (:mod:`analysis.cobardes.studies.villain_whatif`): a variant
that changes only the war is composed from the stored courtier matchups, on the guide's
model. The printed rules given as parameters show no difference at all; a war to one
Victory is worked out by hand; the printed rules' rankings are the guide's, read from
the same records; a variant that changes the battle says what it would take.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.cobardes.model import ENDING_NAMES
from analysis.cobardes.studies import villain_whatif as VW
from analysis.cobardes.studies import whatif as CW
from analysis.cobardes.studies.hidden_sweep import HiddenMatchupRecord, load_hidden
from analysis.cobardes.studies.renewal import RenewalModel
from analysis.play.whatif import EXACT, INTERVAL, ON_MODEL, Estimate, on_model
from analysis.report.facts.cobardes import records as R
from analysis.report.whatif import summary_lines, write_page

DECK = ("Standard-Bearer", "Maiden", "Squire", "Wolf")
STORED = len(load_hidden()) == 100


def _ends(**probs) -> dict[str, float]:
    out = dict.fromkeys(ENDING_NAMES, 0.0)
    out.update({k.replace("__", "/"): v for k, v in probs.items()})
    return out


# Player 0 dealt the Thug (player 1 the Sheep), and the other way round; a drawn battle
# has played both courtiers, so both are renewed. Every matchup is this battle.
THUG_FIRST = _ends(win__none_used=0.5, loss__none_used=0.2, crown__none_used=0.05,
                   draw__both_used=0.25)
SHEEP_FIRST = _ends(win__none_used=0.3, loss__none_used=0.4, crown_loss__none_used=0.05,
                    draw__both_used=0.25)


def _records() -> dict:
    out = {}
    for pairing in RenewalModel(DECK).pairings:
        outcomes = {"Thug": {"Sheep": THUG_FIRST}, "Sheep": {"Thug": SHEEP_FIRST}}
        deals = {"Thug": {"Sheep": 0.35}, "Sheep": {"Thug": -0.15}}
        out[pairing] = HiddenMatchupRecord(
            pairing, 3, 3, 10, 0.1, 0.004, deals, 1, 1, 60.0, 60.0, False, "made by hand",
            {}, outcomes)
    return out


def test_a_war_to_one_victory_is_the_battle_replayed_until_it_is_not_drawn():
    """Worked out by hand. To one Victory the first battle won (or a Crown) wins the war;
    a drawn battle repeats the score with both courtiers renewed, into a war like the
    first. Over the two deals the battle is won or crowned 0.425 of the time, lost 0.325,
    drawn 0.25, so the first player wins the war with 0.425 / 0.75. Dealt the Thug first
    as player 0 the war is won 0.55 + 0.25 x that; as player 1 (player 0 holding the
    Sheep) 0.45 + 0.25 x (1 - that)."""
    war = VW.compose(_records(), RenewalModel(DECK, 3, 3, victories=1))
    first = 0.425 / 0.75
    assert war.first_player == pytest.approx(first, abs=1e-12)
    thug = ((0.55 + 0.25 * first) + (0.45 + 0.25 * (1 - first))) / 2
    sheep = ((0.3 + 0.25 * first) + (0.2 + 0.25 * (1 - first))) / 2
    assert war.villains["Thug"] == pytest.approx((thug, thug, thug), abs=1e-12)
    assert war.villains["Sheep"] == pytest.approx((sheep, sheep, sheep), abs=1e-12)
    assert war.courtiers == pytest.approx(dict.fromkeys(DECK, 0.5), abs=1e-12)
    # The battle is the same whatever the war: a villain's worth in it does not change.
    three = VW.compose(_records(), RenewalModel(DECK, 3, 3))
    assert three.battle_values == war.battle_values
    assert three.first_player != pytest.approx(first, abs=1e-3)


def test_estimates_say_what_kind_of_number_they_are():
    est = on_model(0.55, (0.5, 0.6))
    assert est.kind == ON_MODEL and est.solved and not est.exact and est.holds(0.55)
    assert Estimate.from_json(est.to_json()) == est
    # Records written before the kind: exact true or false.
    assert Estimate.from_json({"value": 1, "low": 1, "high": 1, "exact": True}).kind == EXACT
    assert Estimate.from_json({"value": 1, "low": 0, "high": 2, "exact": False}).kind == INTERVAL
    with pytest.raises(ValueError):
        Estimate(0.0, 0.0, 0.0, "roughly")


needs_records = pytest.mark.skipif(not STORED, reason="the 100 hidden-villain matchups "
                                   "are not stored (farol cobardes sweep --kind hidden)")


@needs_records
def test_the_printed_rules_rankings_are_the_guides():
    """Read from the same records: the courtiers' wars and the first player's, and each
    villain's battle value with its least and greatest over the matchups."""
    war = VW.war_for({})
    guide = R.villain_war()
    assert list(war.courtiers) == list(guide.wins().index)
    assert [war.courtiers[c] for c in guide.wins().index] == pytest.approx(
        guide.wins().tolist(), abs=1e-6)
    assert war.first_player == pytest.approx(guide.first_player_win(), abs=1e-12)
    values = R.villain_values()
    assert list(war.battle_values) == list(values.values.index)
    for name, (mean, low, high) in war.battle_values.items():
        assert (mean, low, high) == pytest.approx(
            (values.values[name], values.low[name], values.high[name]), abs=1e-12)
    assert war.exploitability_at_least == pytest.approx(guide.exploitability_at_least)
    # Dealt in the first battle, each villain's war averages to the war itself.
    assert np.mean([v[0] for v in war.villains.values()]) == pytest.approx(0.5, abs=1e-9)


@needs_records
def test_the_printed_rules_as_parameters_show_no_difference_with_villains():
    result = CW.run_whatif({"victories": 3, "court_deck": "all"}, progress=False)
    villains = [m for m in result.metrics if m.key.startswith("villains_")]
    assert len(villains) == 1 + 10 + 9
    assert all(m.difference.value == 0.0 and m.difference.kind == ON_MODEL for m in villains)
    assert all(m.difference.value == 0.0 for m in result.metrics)
    assert "a lower bound" in villains[0].source


@needs_records
def test_a_war_to_two_victories_moves_the_rankings_and_is_shown(tmp_path):
    printed, war = VW.war_for({}), VW.war_for({"victories": 2})
    assert war.victories == 2 and war.battle_values == printed.battle_values
    assert war.courtiers != pytest.approx(printed.courtiers, abs=1e-4)
    metrics = VW.metrics(printed, war)
    edge = metrics[0]
    assert edge.key == "villains_first_player_edge"
    assert edge.difference.value == pytest.approx(war.first_player - printed.first_player)
    sheep = next(m for m in metrics if m.key == "villains_villain_Sheep")
    assert sheep.variant.spread == pytest.approx(war.villains["Sheep"][1:])
    assert sheep.variant.spread[0] < sheep.variant.value < sheep.variant.spread[1]


@needs_records
def test_the_page_and_the_summary_show_the_war_with_villains(tmp_path):
    result = CW.run_whatif({"victories": 3}, progress=False)
    page = write_page(result, tmp_path).read_text()
    assert "## The war with villains" in page and "exact on the model" in page
    assert "Sheep" in page and "over the matchups" in page
    assert "does not depend on the score" in page
    line = next(x for x in summary_lines(result) if x.startswith("with villains"))
    first = 100 * VW.war_for({}).first_player
    assert f"the first player wins {first:.1f}% → {first:.1f}%" in line


def test_a_variant_that_changes_the_battle_says_what_it_would_take(tmp_path):
    more = VW.war_for({"warriors": 5}, directory=tmp_path)
    assert isinstance(more, str)
    assert "farol cobardes sweep --kind hidden --warriors 5 --combats 7" in more
    assert "(0 stored)" in more
    other = VW.war_for({"quicker": "p0", "victories": 2})
    assert isinstance(other, str) and "quicker=p0" in other and "solves them only" in other
    assert "max_battles=4" in VW.war_for({"max_battles": 4})
    assert "at least 4 courtiers" in VW.war_for({"court_deck": "Squire/Wolf/Maiden"})
