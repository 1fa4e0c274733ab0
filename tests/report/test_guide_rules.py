"""The rules the guides are written by: a ranking word only where the intervals separate,
an edge only where its interval leaves out the fair share (analysis/report/guides/
separate.py), tried on the templates with data that do and do not separate; and the
word counter that keeps each guide a five-minute read (analysis/report/guides/prose.py)."""

from __future__ import annotations

import pytest

from analysis.report import separate as S
from analysis.report.guides.prose import first_sentence, prose, prose_words, sentences, words
from analysis.report.markdown import pct_ci
from analysis.report.templating import render

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


# ---- the templates, with data that do and do not separate -----------------------------------

def r(rate: float, lo: float, hi: float, card: str = "", digits: int = 0, **more) -> dict:
    return {"card": card, "rate": rate, "ci": (lo, hi), "text": pct_ci(rate, (lo, hi), digits),
            **more}


def test_the_bluff_answer_ranks_characters_only_when_they_separate():
    base = {"all": r(0.22, 0.20, 0.23), "one": r(0.07, 0.06, 0.08), "two": r(0.29, 0.26, 0.31),
            "repeat": r(0.14, 0.12, 0.16), "first": r(0.30, 0.28, 0.32)}
    close = [r(0.22, 0.17, 0.27, "Captain"), r(0.22, 0.19, 0.24, "Assassin"),
             r(0.22, 0.20, 0.24, "Duke")]
    text = render("coup/bluff.md.j2", chars=close, **base)
    assert "most" not in text and "least" not in text
    assert "No character is bluffed clearly more than another." in text
    assert text.startswith("Strong play bluffs 22% [20, 23] of its claims, and less with one "
                           "card left: 7% [6, 8], against 29% [26, 31] with two.")
    apart = [r(0.40, 0.35, 0.45, "Captain"), r(0.20, 0.15, 0.25, "Duke"),
             r(0.05, 0.01, 0.09, "Assassin")]
    text = render("coup/bluff.md.j2", chars=apart, **base)
    assert "It bluffs the Captain most (40% [35, 45]) and the Assassin least (5% [1, 9])." in text
    # One card left no different from two: no "less".
    same = base | {"one": r(0.27, 0.20, 0.30)}
    text = render("coup/bluff.md.j2", chars=close, **same)
    assert "less with one card" not in text and "with one card left" not in text


def test_the_challenge_answer_names_a_most_only_when_it_separates():
    pairs = {"duke": {"a": r(0.06, 0.03, 0.09), "b": r(0.02, 0.01, 0.02)},
             "caught": {"a": r(0.09, 0.05, 0.13), "b": r(0.08, 0.08, 0.09)}}
    chars = [r(0.27, 0.24, 0.30, "Assassin"), r(0.09, 0.07, 0.11, "Captain"),
             r(0.02, 0.02, 0.03, "Duke")]
    text = render("coup/challenge.md.j2", all=r(0.08, 0.08, 0.09), chars=chars, **pairs)
    assert text.startswith("Strong play challenges 8% [8, 9] of claims, and the Assassin most: "
                           "27% [24, 30].")
    assert "challenges a Duke claim more often from a player caught bluffing before" in text
    assert "challenges a claim " not in text  # 9% [5, 13] against 8% [8, 9]: no difference
    # The Ambassador, 38% [9, 69] over a few claims, overlaps the Assassin: no most.
    wide = chars + [r(0.38, 0.09, 0.69, "Ambassador")]
    text = render("coup/challenge.md.j2", all=r(0.08, 0.08, 0.09), chars=wide, **pairs)
    assert "most" not in text and "No character is challenged clearly more" in text


def test_the_block_answer_and_the_fairest_setup_only_when_they_separate():
    blocks = [r(0.48, 0.43, 0.53, "Contessa", bluff=r(0.34, 0.28, 0.40)),
              r(0.26, 0.24, 0.29, "Ambassador", bluff=None)]
    assert render("coup/block.md.j2", blocks=blocks).startswith(
        "Strong play blocks with the Contessa most, 48% [43, 53] of the times it may, and "
        "34% [28, 40] of those blocks are bluffs.")
    blocks[1] = r(0.40, 0.35, 0.45, "Ambassador", bluff=None)
    text = render("coup/block.md.j2", blocks=blocks)
    assert "blocks with the" not in text and "with no character clearly most" in text

    def setup(label, ci):
        return {"label": label, "text": "x", "ci": S.absolute(ci)}

    apart = [setup("1 coin to the starter", (-0.041, -0.030)),
             setup("2 coins each", (0.072, 0.109)), setup("drafted hands", (0.051, 0.083))]
    assert render("coup/setups.md.j2", setups=apart).startswith(
        "1 coin to the starter is the fairest setup")
    close = [setup("1 coin to the starter", (-0.041, -0.030)),
             setup("2 coins each", (0.02, 0.06))]
    text = render("coup/setups.md.j2", setups=close)
    assert text.startswith("No setup is clearly fairest") and "fairest setup" not in text


def test_the_deck_answer_says_a_difference_only_where_its_interval_leaves_out_zero():
    def diff(table, clear):
        return {"table": table, "text": "+2.5 [+0.1, +4.8]", "clear": clear}

    none = [diff("2 players, 1 coin to the starter", False), diff("3 players", False)]
    quiet = {"found": 0, "total": 2, "expected": 0.1}  # no interval leaves 0 out
    text = render("coup/decks.md.j2", diffs=none, differ=[], base=none[0], chance=quiet)
    assert text.startswith("No: at none of the 2 tables compared")
    one = none + [diff("2 players, drafted hands", True)]
    text = render("coup/decks.md.j2", diffs=one, differ=one[-1:], base=one[0],
                  chance={"found": 1, "total": 3, "expected": 0.15})
    assert text.startswith("Only at 1 of 3 tables, 2 players, drafted hands")


def test_the_first_player_answer_calls_an_edge_only_when_it_is_clear():
    from types import SimpleNamespace as NS

    def facts(win, ci):
        return {"source": "seats", "seat": NS(win_rate=win, ci95=ci), "others": "3 to 8 players",
                "clear": [], "chance": {"found": 0, "total": 12, "expected": 0.6}}

    assert "behind the fair 50%" in render("coup/first_player.md.j2", **facts(0.464, (0.459, 0.47)))
    text = render("coup/first_player.md.j2", **facts(0.51, (0.4996, 0.52)))  # [50.0, 52.0]
    assert "no clear edge over the fair 50%" in text and "ahead" not in text
    assert "At 3 to 8 players no first-player edge is clear with either deck." in text


def test_the_goat_lords_habits_compare_only_when_they_separate():
    def g(rate, lo, hi):
        return r(rate, lo, hi, digits=1)

    first = {"players": 2, "all": g(0.62, 0.60, 0.63), "spare": g(0.81, 0.78, 0.84),
             "one": g(0.56, 0.54, 0.58), "greedy": g(0.88, 0.86, 0.89),
             "won_spare": g(0.92, 0.90, 0.94), "won_one": g(0.64, 0.62, 0.66)}
    text = render("goat_lords/duel.md.j2", first=first)
    assert first_sentence(text) == ("At 2 players strong play duels on 62.0% [60.0, 63.0] of "
                                    "the turns it could.")
    assert "It duels more often with a spare matching card" in text
    assert "The greedy heuristic would duel more often" in text
    close = first | {"spare": g(0.60, 0.55, 0.65), "greedy": g(0.61, 0.58, 0.64),
                     "won_spare": g(0.66, 0.60, 0.70)}
    text = render("goat_lords/duel.md.j2", first=close)
    assert "more often" not in text and "A spare matching card makes no clear difference" in text
    assert "about as often" in text and "wins it" not in text
    wild = {"players": 4, "all": g(0.70, 0.68, 0.72), "plain": g(0.61, 0.57, 0.64),
            "no_plain": g(0.79, 0.76, 0.81), "opens": g(0.05, 0.04, 0.06),
            "answers": g(0.06, 0.04, 0.07)}
    assert "It spends one more often when no other birth is open" in render(
        "goat_lords/wild.md.j2", first=wild)
    text = render("goat_lords/wild.md.j2", first=wild | {"plain": g(0.75, 0.70, 0.77)})
    assert "more often" not in text and "makes no clear difference" in text
    keep = {"players": 2, "keeps": g(0.85, 0.83, 0.88), "greedy": g(0.77, 0.73, 0.80),
            "cheapest": g(0.65, 0.63, 0.68), "defends": g(0.88, 0.86, 0.90)}
    assert "The greedy heuristic would keep it less often" in render("goat_lords/keep.md.j2",
                                                                      first=keep)
    text = render("goat_lords/keep.md.j2", first=keep | {"greedy": g(0.80, 0.73, 0.84)})
    assert "less often" not in text and "about as often" in text


def test_the_goat_lords_duels_grow_with_the_table_only_when_they_separate():
    def row(n, rate, lo, hi):
        return {"players": n, "rate": rate, "ci": (lo, hi)}

    apart = [row(2, 0.719, 0.715, 0.723), row(6, 0.787, 0.784, 0.789)]
    text = render("goat_lords/duels.md.j2", rows=apart, side="attacker")
    assert text.startswith("Yes: attackers win 71.9% [71.5, 72.3] to 78.7% [78.4, 78.9]")
    assert "They win more at bigger tables" in text
    close = [row(2, 0.72, 0.70, 0.75), row(6, 0.74, 0.72, 0.76)]
    text = render("goat_lords/duels.md.j2", rows=close, side="attacker")
    assert "bigger tables" not in text
    even = [row(2, 0.51, 0.49, 0.53), row(6, 0.52, 0.50, 0.54)]
    assert render("goat_lords/duels.md.j2", rows=even, side=None).startswith("Not clearly")


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
