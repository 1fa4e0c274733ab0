"""One answer everywhere: a question Farol answers in several places (the guide and its
appendix, the site, ``farol advise`` and its ``--json``, the explorer's API, ``farol
play``'s hint) gets the same answer in each, and where two places answer with different
models on purpose, each says so beside its figure.

``tests/report/test_one_answer.py`` holds the guides and appendices to one answer per
question; this suite holds the other places to them:

- the 2-player Coup bound (how much a best response gains against ``best`` in games from
  the deal): one figure, in one unit (win probability), in the guide, the appendix,
  ``advise coup`` (text and JSON) and the explorer; the best response's test against the
  blueprint is the appendix's own measurement, beside its exact bound;
- a 2-player Coup spot: ``advise coup --json``, the explorer and ``play``'s hint give
  ``best``'s one mix, and each says its model is truncated (the rest of the turn only);
- a ¡Cobardes! battle position: ``advise cobardes --json`` and the explorer give one
  mix and value;
- each guide's headline answers (a Goat Lords and a Coup seat rate among them): the site
  shows the guide's figures.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

import games  # noqa: F401
from analysis.cli import main
from analysis.coup.advice.resolve import best_coach
from analysis.explore.app import create_app
from analysis.play.coaching import as_spot
from analysis.report.guides.write import GUIDES, render_guide
from analysis.report.separate import clear_among
from analysis.shared.params import load_game
from games.history import replay

ROOT = Path(__file__).resolve().parents[2]
HISTORY = "Draw Duke;Draw Contessa;Draw Captain;Draw Assassin;Income"
# "at least +0.318 [+0.291, +0.345] in win probability" and the appendix's "at least
# +0.318 in win probability against it (95% interval +0.291 to +0.345"
BOUND = re.compile(r"at least ([+-]\d\.\d{3}) \[([+-]\d\.\d{3}), ([+-]\d\.\d{3})\] in win "
                   r"probability")
BOUND_APPENDIX = re.compile(r"at least ([+-]\d\.\d{3}) in win probability against it "
                            r"\(95% interval ([+-]\d\.\d{3}) to ([+-]\d\.\d{3})")


@pytest.fixture(scope="module")
def client():
    return create_app(None).test_client()


@pytest.fixture(scope="module")
def coup_guide(tmp_path_factory) -> str:
    return render_guide(GUIDES["coup"], tmp_path_factory.mktemp("guide"))


def _advise(argv: list[str], capsys) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def _explorer_coup(client) -> dict:
    answer = client.post("/api/advice", json={"game": "coup", "params": "",
                                              "history": HISTORY.split(";")}).get_json()
    assert "advice" in answer, answer
    return answer["advice"]


# ---------------------------------------------------------------- the 2-player Coup bound
def test_the_two_player_coup_bound_is_one_figure_in_win_probability(coup_guide, client, capsys):
    text = _advise(["advise", "coup", "--history", HISTORY], capsys)
    record = json.loads(_advise(["advise", "coup", "--history", HISTORY, "--json"], capsys))
    explorer = _explorer_coup(client)
    appendix = (ROOT / "reports" / "coup.md").read_text(encoding="utf-8")
    said = {"advise": BOUND.findall(text), "advise --json": BOUND.findall(record["lower_bound"]),
            "explorer": BOUND.findall(explorer["accuracy"]["text"]),
            "guide": BOUND.findall(coup_guide),
            "appendix": BOUND_APPENDIX.findall(appendix) + BOUND.findall(appendix)}
    assert all(said.values()), {k: v for k, v in said.items() if not v}
    figures = {figure for found in said.values() for figure in found}
    assert len(figures) == 1, said
    # One unit: no place states a best response's gain "of a game".
    for place, words in (("advise", text), ("guide", coup_guide), ("appendix", appendix)):
        assert not re.search(r"best response[^.]*of a game", words), place
    assert explorer["exploitability"] == pytest.approx(float(figures.pop()[0]), abs=5e-4)


def test_the_best_responses_test_on_the_blueprint_is_the_appendixs(coup_guide, tmp_path):
    """The guide's "finds X against the blueprint where at least Y is known" is the
    appendix table's measured figure and exact bound, not another run's."""
    found = re.search(r"finds ([+-]\d\.\d{3}) \[([+-]\d\.\d{3}), ([+-]\d\.\d{3})\] in win "
                      r"probability against the blueprint where at least (\d\.\d{3}) is known "
                      r"\(exact\)", coup_guide)
    assert found, "the guide's test of the best response against the blueprint"
    gain, lo, hi, known = (abs(float(x)) for x in found.groups())
    appendix = (ROOT / "reports" / "coup.md").read_text(encoding="utf-8")
    row = re.search(r"\| ambassador \| basic \| \d+ \| [\d.]+% \| at least (\d\.\d{3}) \(exact "
                    r"lower bound\); (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\]", appendix)
    assert row, "the appendix's blueprint accuracy row"
    assert (known, gain, lo, hi) == tuple(float(x) for x in row.groups())


# ---------------------------------------------------------------- a 2-player Coup spot
def test_a_coup_spot_gets_one_mix_from_advise_the_explorer_and_plays_hint(client, capsys):
    record = json.loads(_advise(["advise", "coup", "--history", HISTORY, "--json"], capsys))
    advise = {m["move"]: (m["probability"], m["value"]) for m in record["moves"]}
    explorer = _explorer_coup(client)
    shown = {a["action"]: (a["probability"], a["value"]) for a in explorer["actions"]}
    state = replay(load_game("python_coup", {}), HISTORY)
    coach = best_coach(state.get_game())
    seat = state.current_player()
    hint = {state.action_to_string(seat, a): (p, v) for a, p, v in as_spot(coach(state)).moves}
    assert set(advise) == set(shown) == set(hint)
    for move, (p, v) in advise.items():
        assert shown[move] == pytest.approx((p, v), abs=1e-9), move
        assert hint[move] == pytest.approx((p, v), abs=1e-9), move
    # The three answer with the same truncated model, and each says so beside its figures.
    assert record["truncated"].startswith("Truncated model: only the rest of this turn")
    assert explorer["limits"] == record["truncated"]
    assert "later turns valued by cards and coins" in coach.note


# ---------------------------------------------------------------- a ¡Cobardes! position
def test_a_cobardes_position_gets_one_answer_from_advise_and_the_explorer(client, capsys):
    record = json.loads(_advise(["advise", "cobardes", "--mine", "0,1,2", "--theirs", "1,2,3",
                                 "--score", "1-2", "--json"], capsys))
    answer = client.post("/api/position", json={"game": "cobardes", "fields": {
        "warriors": 6, "mine": ["Prince", "1", "2"], "theirs": ["1", "2", "3"], "combat": 5,
        "score": "1-2"}}).get_json()
    assert "advice" in answer, answer
    shown = answer["advice"]
    assert answer["command"] == ("farol advise cobardes --warriors 6 --mine Prince,1,2 "
                                 "--theirs 1,2,3 --combat 5 --combats 7 --score 1-2")
    assert shown["value"] == pytest.approx(record["value"], abs=1e-9)
    mix = {a["action"]: a["probability"] for a in shown["actions"]}
    assert mix == pytest.approx(record["strategy"], abs=1e-9)


# ---------------------------------------------------------------- the guides and the site
def _headline_figures(markdown: str) -> list[str]:
    """The figures of a guide's answers: each question's first paragraph's percentages,
    points and values with their intervals (``46.4% [45.9, 47.0]``, ``-3.6 [-4.1, -3.0]``),
    and its bold figures."""
    out = []
    for section in re.split(r"^### ", markdown, flags=re.M)[1:]:
        answer = section.split("\n\n")[1] if "\n\n" in section else ""
        out += re.findall(r"[+-]?\d+\.\d+(?:%| pp)? \[[^\]]+\]", answer)
        out += re.findall(r"\*\*([^*\n]*\d[^*\n]*)\*\*", answer)
    return out


@pytest.mark.parametrize("key", ["coup", "cobardes", "goat_lords"])
def test_the_site_shows_each_guides_headline_answers(key):
    guide = (ROOT / "reports" / f"{key}_guide.md").read_text(encoding="utf-8")
    site = unescape((ROOT / "reports" / "site" / f"{key}_guide.html").read_text(
        encoding="utf-8")).replace("\u00a0", " ")
    figures = _headline_figures(guide)
    assert figures, key
    missing = [f for f in figures if re.sub(r"[`*]", "", f) not in re.sub(r"<[^>]+>", "", site)]
    assert not missing, f"{key}: the site lacks the guide's {missing}"


def test_a_goat_lords_seat_rate_is_the_same_in_the_guide_and_the_site():
    guide = (ROOT / "reports" / "goat_lords_guide.md").read_text(encoding="utf-8")
    rate = re.search(r"seat 1 wins its fair share plus ([+-]\d\.\d pp \[[^\]]+\])", guide)
    assert rate, "the guide's first-seat answer"
    site = unescape((ROOT / "reports" / "site" / "goat_lords_guide.html").read_text(
        encoding="utf-8")).replace("\u00a0", " ")
    assert rate.group(1) in site


# ---------------------------------------------------------------- one rule for "clear"
def test_clear_among_many_is_bonferronis_rule():
    # One interval: the plain rule. +0.9 [+0.2, +1.7] points leaves 0 out...
    assert clear_among((0.002, 0.017), 0.0, 1)
    # ...but not among 12 tables (z = 2.35 < 2.87, Bonferroni's 5%/12), nor among 3 with
    # a wider one; +8.7 [+5.6, +11.8] stays clear among 3 (z = 5.5).
    assert not clear_among((0.002, 0.017), 0.0, 12)
    assert clear_among((0.056, 0.118), 0.0, 3)


def test_the_coup_guide_calls_no_seat_edge_clear_that_its_seat_answer_calls_chance(coup_guide):
    """The first player's answer at 3 to 8 players and the seats' answer judge the same
    intervals by one rule: no edge is clear in one and chance in the other."""
    seats = coup_guide[coup_guide.index("### Does any seat win more"):]
    first = coup_guide[coup_guide.index("### Does the first player win more?"):
                       coup_guide.index("### Does any seat win more")]
    if seats.split("\n\n")[1].startswith("No seat clearly"):
        assert "the edge is clear only at" not in first
        assert not re.search(r"\| [+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\] \|",
                             "\n".join(r for r in first.splitlines()
                                       if re.match(r"\| [3-8] \|", r)))
