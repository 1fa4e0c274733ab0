"""The Coup guide's section on 3-6 players (analysis/report/guides/coup/table_play.py): each
answer opens with its number and interval, a habit is called only where the intervals
separate, and the ladder names whether best tops it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from analysis.coup.studies import ladder as L
from analysis.coup.studies import table_play as TP
from analysis.report.guides.prose import prose_words
from analysis.report.guides.write import GUIDES, render_guide
from analysis.shared import store


def _rate(key: str, rate: float, half: float, chances: float = 500.0) -> TP.Rate:
    return TP.Rate(key, rate * chances, chances, rate, (rate - half, rate + half))


def _play(players: int, aimed_other: float, aimed_self: float) -> TP.PlayRecord:
    rates = [_rate("bluff|all", 0.20, 0.02), _rate("bluff|Duke", 0.10, 0.02),
             _rate("bluff|Captain", 0.30, 0.03), _rate("bluff|Assassin", 0.25, 0.04),
             _rate("bluff|Ambassador", 0.22, 0.05),
             _rate("challenge|all|any", 0.05, 0.01),
             _rate("challenge|all|at another", aimed_other, 0.01),
             _rate("challenge|all|at it", aimed_self, 0.02),
             _rate("challenge|all|at nobody", 0.02, 0.01),
             _rate("challenge|all|caught before", 0.30, 0.10, 40),
             _rate("challenge|all|never caught", 0.04, 0.01),
             _rate("block|Foreign Aid", 0.40, 0.05), _rate("block|Assassinate", 0.70, 0.05),
             _rate("block|Steal", 0.50, 0.05),
             _rate("target|any|coin leader", 0.60, 0.05), _rate("chance|any|coin leader", 0.40, 0.01),
             _rate("target|any|two cards", 0.55, 0.08), _rate("chance|any|two cards", 0.52, 0.01),
             _rate("coup|7-9", 0.35, 0.04), _rate("coup|7", 0.30, 0.05),
             _rate("coup|8", 0.35, 0.05), _rate("coup|9", 0.45, 0.06)]
    return TP.PlayRecord(players, "best", "FastSearchAgent", 1000, tuple(rates), "0.1.0",
                         "abc", 1)


def _ladder(players: int) -> L.LadderRecord:
    lines = (L.Line("fast", 1000, 4000, 0.40, (0.38, 0.42)),
             L.Line("search", 1000, 4000, 0.33, (0.31, 0.35)),
             L.Line("honest", 1000, 4000, 0.20, (0.18, 0.22)))
    return L.LadderRecord(players, ("fast", "search", "honest"), 100, lines, (), "", (), (),
                          "0.1.0", "abc", 1, None)


def _guide(tmp_path: Path) -> str:
    return render_guide(GUIDES["coup"], tmp_path)


def _answered(text: str, question: str) -> str:
    parts = text.split(f"\n### {question}\n")
    assert len(parts) == 2, question
    return re.split(r"\n#{2,3} |\n\*\*About these numbers", parts[1])[0].strip()


def _save(players: int, play: TP.PlayRecord) -> None:
    path = TP.record_path(players)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(play.to_json()))


def test_each_answer_opens_with_its_number_and_interval(tmp_path):
    with store.use(tmp_path):
        for n in (3, 4, 6):
            _save(n, _play(n, 0.02, 0.12))
        L.save_record(_ladder(4))
        text = _guide(tmp_path)
    assert "## How strong players play at 3-6 players" in text
    bluff = _answered(text, "How often does strong play bluff at 3-6 players?")
    assert bluff.startswith("At 4 players strong play bluffs 20.0% [18.0, 22.0] of its turn claims.")
    assert "It bluffs the Duke least: 10.0% [8.0, 12.0]." in bluff
    assert "most" not in bluff.split("\n")[0]  # the Captain's interval touches the Assassin's
    aimed = _answered(text, "Does strong play challenge a claim aimed at another player?")
    assert aimed.startswith("At 4 players strong play challenges 2.0% [1.0, 3.0] of the claims "
                            "aimed at another player, against 12.0% [10.0, 14.0] of those "
                            "aimed at it.")
    assert "Rule of thumb: leave a claim aimed at someone else to them" in aimed
    target = _answered(text, "Whom does strong play attack with Coup, Assassinate and Steal?")
    assert target.startswith("At 4 players 60.0% [55.0, 65.0] of strong play's attacks hit the "
                             "coin leader, where a random pick would hit 40.0% [39.0, 41.0].")
    assert "It picks the coin leader more than chance would." in target
    assert "a player with two cards more" not in target  # 55% [47, 63] holds 52%
    coup = _answered(text, "When does strong play Coup rather than save?")
    assert coup.startswith("At 4 players, with 7 to 9 coins, strong play Coups on 35.0% [31.0, 39.0]")
    strength = _answered(text, "How strong is the player these numbers come from at 3-6 players?")
    assert strength.startswith("At 4 players `best` (`fast`) wins 40.0% [38.0, 42.0] of its games")
    assert "It tops the ladder" in strength
    assert prose_words(text) <= 1200


def test_no_rule_of_thumb_where_the_intervals_overlap(tmp_path):
    with store.use(tmp_path):
        _save(4, _play(4, 0.05, 0.06))
        text = _guide(tmp_path)
    aimed = _answered(text, "Does strong play challenge a claim aimed at another player?")
    assert "Rule of thumb" not in aimed
    strength = _answered(text, "How strong is the player these numbers come from at 3-6 players?")
    assert strength.startswith("Not measured yet: run `benchmarks/coup_ladder.py`")


def test_the_section_names_the_command_when_nothing_is_stored(tmp_path):
    with store.use(tmp_path):
        text = _guide(tmp_path)
    bluff = _answered(text, "How often does strong play bluff at 3-6 players?")
    assert bluff.startswith("Not measured yet: run `farol coup play-tables --players 3,4,6`")
