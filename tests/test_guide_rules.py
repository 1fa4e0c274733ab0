"""The rules the guides are written by: a ranking word only where the intervals separate,
an edge only where its interval leaves out the fair share (analysis/report/guides/
separate.py); and the
word counter that keeps each guide a five-minute read (analysis/report/guides/prose.py)."""

from __future__ import annotations

import pytest

from analysis.report.guides import separate as S
from analysis.report.guides.prose import first_sentence, prose, prose_words, sentences, words

# ---- the rule ----------------------------------------------------------------------------


def test_intervals_separate_only_when_they_do_not_overlap_as_printed():
    assert S.apart((0.30, 0.34), (0.20, 0.25))
    assert not S.apart((0.30, 0.34), (0.20, 0.31))
    # [17, 27] and [27, 30] touch once printed to the whole percent: no separation.
    assert not S.apart((0.17, 0.2702), (0.2698, 0.30), digits=0)
    assert S.apart((0.17, 0.2702), (0.2751, 0.30), digits=1)  # [17.0, 27.0] and [27.5, 30.0]
    assert S.above((0.5, 0.6), (0.1, 0.2)) and not S.above((0.1, 0.2), (0.5, 0.6))


def test_an_edge_needs_an_interval_that_leaves_out_the_fair_share_as_printed():
    # 5 players: 21.0% [20.0, 21.9] against a fair 20.0% touches it: no edge.
    assert not S.excludes((0.20004, 0.2194), 0.2)
    assert S.excludes((0.2006, 0.2194), 0.2)  # printed [20.1, 21.9]
    assert not S.excludes((-0.004, 0.019), 0.0)
    assert S.excludes((-0.041, -0.030), 0.0)


def test_compared_says_more_less_or_no_clear_difference():
    assert S.compared((0.5, 0.6), (0.1, 0.2)) == "more"
    assert S.compared((0.1, 0.2), (0.5, 0.6), "higher", "lower") == "lower"
    assert S.compared((0.1, 0.3), (0.2, 0.6)) == S.NO_CLEAR == "no clear difference"


def test_most_and_least_only_where_one_interval_clears_every_other():
    clear = [{"n": "A", "ci": (0.5, 0.6)}, {"n": "B", "ci": (0.2, 0.3)}, {"n": "C", "ci": (0.0, 0.1)}]
    assert S.top(clear)["n"] == "A" and S.bottom(clear)["n"] == "C"
    # The case: Captain, Assassin and Duke all near 22%, intervals overlapping.
    close = [{"n": "Captain", "ci": (0.17, 0.27)}, {"n": "Assassin", "ci": (0.19, 0.24)},
             {"n": "Duke", "ci": (0.20, 0.24)}]
    assert S.top(close, 0) is None and S.bottom(close, 0) is None
    assert S.top(clear[:1]) is None  # nothing to compare with


def test_contenders_are_the_leader_and_whatever_overlaps_it():
    hands = [{"hand": "A", "rate": 0.61, "ci": (0.58, 0.64)},
             {"hand": "B", "rate": 0.59, "ci": (0.576, 0.605)},
             {"hand": "C", "rate": 0.50, "ci": (0.47, 0.53)},
             {"hand": "D", "rate": 0.35, "ci": (0.32, 0.38)}]
    assert [h["hand"] for h in S.contenders(hands)] == ["A", "B"]
    assert [h["hand"] for h in S.contenders(hands, highest=False)] == ["D"]


def test_the_size_of_an_edge_either_way():
    assert S.absolute((-0.041, -0.030)) == pytest.approx((0.030, 0.041))
    assert S.absolute((-0.01, 0.02)) == (0.0, 0.02)
    assert S.absolute((0.05, 0.08)) == (0.05, 0.08)


def test_chance_alone_makes_a_few_intervals_miss():
    expected, most = S.by_chance(66)
    assert expected == pytest.approx(3.3) and most >= 6


# ---- the word counter ----------------------------------------------------------------------

def test_words_count_runs_with_a_letter_or_a_digit():
    assert words("The first player wins 46.4% [45.9, 47.0] – of games.") == 9
    assert words("** - | –") == 0


def test_prose_leaves_out_tables_code_blocks_images_and_addresses():
    text = "\n".join([
        "# A title", "",
        "Some prose with a [link](https://example.org/a/long/address) in it.", "",
        "| a table | of words |", "|---|---|", "| not | counted |", "",
        "```python", "code = 'not counted either'", "```", "",
        "![a chart with a long alt text](chart.svg)", "",
        "- a list item", "<!-- a comment -->", "~~~", "more code", "~~~", "The end."])
    kept = prose(text)
    assert "table" not in kept and "code" not in kept and "chart" not in kept
    assert "example.org" not in kept and "link" in kept
    assert prose_words(text) == 2 + 7 + 3 + 2


def test_sentences_split_at_full_stops_not_at_decimal_points():
    para = "Strong play bluffs 21.8% [20.1, 23.4] of claims. It bluffs less: 7% [6, 8]. *Done.*"
    assert sentences(para) == ["Strong play bluffs 21.8% [20.1, 23.4] of claims.",
                               "It bluffs less: 7% [6, 8].", "*Done.*"]
    assert first_sentence("No: at 2 to 6 players\nseat 1 wins. More.") == \
        "No: at 2 to 6 players seat 1 wins."
