"""The strategy guides: short, one answer per question equal to its record, no process
words, a website whose links all resolve, and output that is the same on every run."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib import colormaps
from matplotlib.figure import Figure

from analysis.cli import main as cli_main
from analysis.cobardes.model import is_mirror
from analysis.cobardes.studies.hidden_sweep import hidden_matchups, load_hidden
from analysis.coup.solvers import blueprint
from analysis.coup.studies import full_game
from analysis.coup.studies import ladder as LADDER
from analysis.coup.studies import seat_balance as SB
from analysis.coup.studies import table_play as TABLE_PLAY
from analysis.coup.studies.blueprint_bluffs import BluffRow, BluffTable, GridRow, save_table
from analysis.goat_lords.studies.plan import plan as goat_plan
from analysis.goat_lords.studies.statistics import duel_success, seat_win_rates
from analysis.goat_lords.studies.tournament import load_rows
from analysis.play.match import MatchResult, SeatRecord
from analysis.report import cells, svg
from analysis.report.context import ReportContext
from analysis.report.coup.from_the_deal import section_from_the_deal
from analysis.report.facts.cobardes.stored import FULL_BATTLE_JSON, load_renewal
from analysis.report.facts.coup.readers import full_game_best
from analysis.report.facts.goat_lords import records as GR
from analysis.report.guides.common import Answer, Guide, GuideContext
from analysis.report.guides.prose import first_sentence, prose_words
from analysis.report.guides.write import GUIDES, methods, render_guide, write_guide
from analysis.report.guides.write import replies as replies_of
from analysis.report.markdown import pct, pct_ci, pp, table
from analysis.report.site import write_site
from analysis.report.templating import TEMPLATES, one_line
from analysis.report.write import write_index
from analysis.shared import store
from games import catalog
from games.coup import cards

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"
KEYS = [f.key for f in catalog.families()]
PROCESS_WORDS = re.compile(r"\b(issues?|targets?|sessions?|helpers?)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def guides(tmp_path_factory) -> dict[str, str]:
    """Every guide rendered from the committed records (charts into a temporary folder)."""
    out = tmp_path_factory.mktemp("guides")
    return {key: write_guide(key, out).read_text(encoding="utf-8") for key in KEYS}


def rows_for(text: str, question: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"| {question} |")]


def the_row(text: str, question: str) -> str:
    rows = rows_for(text, question)
    assert len(rows) == 1, f"{question!r}: {len(rows)} answers"
    return rows[0]


def answered(text: str, question: str) -> str:
    """What a guide of questions says under ``### question``, up to the next heading or the
    section's note (there must be exactly one such question)."""
    parts = text.split(f"\n### {question}\n")
    assert len(parts) == 2, f"{question!r}: {len(parts) - 1} answers"
    return re.split(r"\n#{2,3} |\n\*\*About these numbers", parts[1])[0].strip()


def table_rows(block: str) -> list[list[str]]:
    """The cells of each row of the (first) table in ``block``, the header first."""
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in block.splitlines() if line.startswith("|") and not line.startswith("|---")]


def row_of(block: str, first: str) -> list[str]:
    (found,) = [r for r in table_rows(block) if r[0] == first]
    return found


SECTIONED = [k for k in KEYS if GUIDES[k].sections]  # the guides of questions
PROSE_WORDS = 1200  # a five-minute read
ANSWER_WORDS = 30  # an answer's first sentence
CELL_WORDS = 15  # a table cell is a figure or a few words, never a paragraph


# ---- shape -------------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS)
def test_guide_opens_with_the_answers_and_ends_with_the_appendix(guides, key):
    text = guides[key]
    head, sep, tail = text.partition("\n## Appendix")
    assert sep, "no appendix"
    if key not in SECTIONED:
        assert len(head.splitlines()) <= 150
    assert head.index("## How to play") < head.index("## Is it balanced?")
    assert f"]({key}.md)" in tail  # the methods appendix


@pytest.mark.parametrize("key", SECTIONED)
def test_the_guide_is_a_five_minute_read(guides, key):
    """At most 1,200 words of prose (Markdown outside tables and code blocks), and no
    table cell holding more than a few words."""
    assert prose_words(guides[key]) <= PROSE_WORDS
    long = [cell for row in table_rows(guides[key]) for cell in row
            if len(cell.split()) > CELL_WORDS]
    assert not long, long


@pytest.mark.parametrize("key", SECTIONED)
def test_each_answer_opens_with_one_short_sentence_that_names_its_number(guides, key, tmp_path):
    """Every question is asked once, as a heading; the paragraph under it starts with the
    answer: one sentence of at most 30 words with a figure in it; then one table or one
    chart at most; the caveats come once, at the end of the section."""
    sections = replies_of(GUIDES[key], tmp_path)
    for _, replies, caveat in sections:
        for reply in replies:
            block = answered(guides[key], reply.question)
            assert block.startswith(reply.answer)
            assert first_sentence(reply.answer) == reply.answer, reply.answer
            assert len(reply.answer.split()) <= ANSWER_WORDS, reply.answer
            assert re.search(r"\d", reply.answer), reply.answer
            assert block.count("\n|---") + block.count("](") <= 1, reply.question
            if reply.headline is not None:
                assert reply.headline.split("; ")[0] in block
        assert guides[key].count(caveat) == 1
    assert guides[key].count("**About these numbers.**") == len(sections)


@pytest.mark.parametrize("key", SECTIONED)
def test_the_methods_go_to_the_appendix(guides, key, tmp_path):
    """Each answer's method is said in the appendix's section on the guide, not in the
    guide."""
    section = methods(key, tmp_path)
    for _, replies, _ in replies_of(GUIDES[key], tmp_path):
        for reply in replies:
            if reply.method:
                assert f"**{reply.question}**" in section and reply.method in section
                assert reply.method not in guides[key]
    assert "## How the guide's answers were measured" in (REPORTS / f"{key}.md").read_text()


def as_table_guide(key: str, outdir: Path) -> Guide:
    """The older form of guide (one table of questions and answers), made from the answers
    of the game's guide of sections: every guide today is of sections, and this keeps
    the table form tested on real answers."""
    answers = [Answer(r.question, one_line(r.answer), "the records", r.headline, r.shown)
               for _, answered_replies, _ in replies_of(GUIDES[key], outdir)
               for r in answered_replies]
    return Guide(key, GUIDES[key].title, GUIDES[key].intro,
                 questions=tuple((lambda ctx, a=a: a) for a in answers))


@pytest.mark.parametrize("key", KEYS)
def test_each_question_is_answered_once_with_its_headline(key, tmp_path):
    guide = as_table_guide(key, tmp_path)
    assert not guide.sections and len(guide.questions) >= 5
    text = render_guide(guide, tmp_path)
    ctx = GuideContext(key, tmp_path)
    measured = 0
    for question in guide.questions:
        answer = question(ctx)
        row = the_row(text, answer.question)
        assert f"| {answer.answer.replace('|', chr(92) + '|')} |" in row
        if answer.detail:
            assert answer.detail.strip() in text  # shown below the table
        if answer.headline is not None:
            head = answer.headline.split("; ")[0]
            assert head in row or head in answer.detail
            measured += 1
    assert measured >= 5
    assert text.index("## How to play") < text.index("## Is it balanced?") < text.index(
        "## Appendix")


@pytest.mark.parametrize("key", KEYS)
def test_no_process_words_in_the_guides(guides, key):
    prose = re.sub(r"`[^`]*`", "", guides[key])  # parameter names such as target_score
    assert not PROCESS_WORDS.findall(prose)


def test_no_process_words_in_the_templates():
    """The guides' templates; the methods appendices' (``*/appendix/``, ``base/``) speak of
    a solver's target and an assassin's, as their reports always did."""
    for path in TEMPLATES.rglob("*.j2"):
        if "appendix" in path.parts or path.parent.name == "base":
            continue
        prose = re.sub(r"`[^`]*`", "", path.read_text(encoding="utf-8"))
        assert not PROCESS_WORDS.findall(prose), path.name


def test_markdown_table_helper():
    assert table(["a", "b"], [[1, "x|y"]]) == "| a | b |\n|---|---|\n| 1 | x\\|y |"
    with pytest.raises(ValueError):
        table(["a"], [[1, 2]])


def test_heatmap_annotations_are_readable_on_every_colour():
    """Black or white ink, whichever contrasts more: at least 4.5:1 (WCAG AA) on every
    fill of the colour maps the guides use."""
    for name in ("viridis", "RdBu", "RdBu_r"):
        for x in np.linspace(0, 1, 101):
            rgb = colormaps[name](x)
            ink = (0, 0, 0) if cells.ink(rgb) == "#000000" else (1, 1, 1)
            a, b = cells.luminance(rgb), cells.luminance(ink)
            assert (max(a, b) + 0.05) / (min(a, b) + 0.05) >= 4.5


def test_chart_cells_use_readable_ink_and_explain_blanks():
    """The appendix charts write dark cells in white and light ones in black, and a blank
    cell is hatched with its meaning in the legend."""
    fig = Figure()
    ax = fig.add_subplot()
    data = np.array([[0.0, 1.0], [np.nan, 0.5]])
    image = ax.imshow(data, cmap="viridis", vmin=0, vmax=1)
    assert cells.annotate(ax, image, data, lambda v: f"{v:.2f}", blank="not solved")
    colours = {t.get_text(): t.get_color() for t in ax.texts}
    assert colours == {"0.00": "#ffffff", "1.00": "#000000", "0.50": "#000000"}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["not solved"]
    assert len(ax.patches) == 1


def test_heatmap_cells_show_their_value_on_hover():
    text = svg.heatmap([[0.25, None]], ["row"], ["a", "b"], title="t", xlabel="x", ylabel="y",
                       fmt=lambda v: f"{v:.2f}", hover=lambda i, j, v: f"cell {v:.3f}",
                       vmin=0, vmax=1)
    assert "<title>cell 0.250</title>" in text and ">0.25</text>" in text
    assert "row, b: not measured" in text


# ---- Coup: answers from records made here --------------------------------------------------

def seat_record(players: int, wins: list[float], games: int, hands=(), deck="ambassador"):
    table_ = SB.Table(players, deck, "basic" if players == 2 else "-")
    seats = tuple(SeatRecord("best", s, w, games) for s, w in enumerate(wins))
    match = MatchResult("python_coup", table_.params(), seats, games, 1, "0.1.0", "abc")
    return SB.TableRecord(table_, "best", match, (), tuple(hands), "0.1.0", "abc", 1)


def bluff_table() -> BluffTable:
    def row(q, card, rate, influence=0, coins="any", n=400.0):
        return BluffRow(q, card, influence, coins, n, rate, (rate - 0.05, rate + 0.05))
    rows = [row("claim", "Duke", 0.20), row("claim", "Duke", 0.25, 2),
            row("claim", "Duke", 0.10, 1), row("claim", "Captain", 0.40),
            row("claim", "Captain", 0.45, 2), row("claim", "Captain", 0.30, 1),
            row("claim", "Duke", 0.15, 0, "0-2"), row("claim", "Duke", 0.30, 0, "3-6"),
            row("challenge", "Duke", 0.05), row("challenge", "Captain", 0.35),
            row("block", "Contessa", 0.80), row("block bluff", "Contessa", 0.55),
            row("challenge block", "Contessa", 0.30)]
    # The range grid: every two-card hand of the deck, each turn's moves adding up to 1.
    names = ["Ambassador", "Assassin", "Captain", "Contessa", "Duke"]
    hands = [f"{a}+{b}" for i, a in enumerate(names) for b in names[i:]]
    moves = {"Income": 0.1, "Foreign Aid": 0.2, "Coup": 0.0, "Tax": 0.4, "Assassinate": 0.1,
             "Steal": 0.15, "Exchange": 0.05}
    grid = [GridRow("your turn", h, m, 200.0, r, (max(0.0, r - 0.04), r + 0.04))
            for h in hands for m, r in moves.items()]
    grid.append(GridRow("your turn", "Duke", "Tax", 10.0, 1.0, (0.7, 1.0)))  # one card
    return BluffTable("ambassador", "basic", 2000, tuple(rows), {"seed": 1}, tuple(grid))


def coup_guide(tmp_path: Path) -> str:
    return render_guide(GUIDES["coup"], tmp_path)


FIRST = "Does the first player win more?"
SEATS = "Does any seat win more at 3 to 8 players?"
HANDS = "Which starting hands are strongest?"
DECKS = "Does the deck matter?"
SETUPS = "Which 2-player setup is fairest?"


def test_coup_first_player_from_play_before_the_blueprints_own_value(tmp_path):
    """The answer is the most faithful measurement with an interval (self-play, seats
    swapped); the blueprint's own value (no interval) is shown, labelled, in the appendix
    only."""
    rec = seat_record(2, [700, 300], 1000)
    seat = rec.self_play.seats[0]
    with store.use(tmp_path):
        blueprint.update_summary("ambassador", setups={"basic": {"iterations": 300,
                                                                 "first_player_value": 0.1}},
                                 bounds={"basic": {"exploitability_lower_bound": 0.02}})
        SB.save_record(rec)
        text = coup_guide(tmp_path)
        appendix = section_from_the_deal(ReportContext(catalog.family("coup"), tmp_path))
    first = answered(text, FIRST)
    assert first.startswith(f"At 2 players the first player wins "
                            f"{pct_ci(seat.win_rate, seat.ci95)} of games, ahead of the fair 50%.")
    assert "55.0%" not in text
    assert row_of(first, "2")[2:4] == [pct_ci(seat.win_rate, seat.ci95), "+20.0 [+17.1, +22.8]"]
    assert (f"| ambassador | basic | {pct_ci(seat.win_rate, seat.ci95)} | an edge of +20.0 "
            "points [+17.1, +22.8] | self-play") in appendix
    assert "the blueprint's own value for the first player (no interval)" in appendix
    assert "| ambassador | basic | 300 | 55.0% |" in appendix


def test_coup_first_player_from_the_blueprint_without_play(tmp_path):
    with store.use(tmp_path):
        blueprint.update_summary("ambassador", setups={"basic": {"iterations": 300,
                                                                 "first_player_value": 0.1}},
                                 bounds={"basic": {"exploitability_lower_bound": 0.02}})
        text = coup_guide(tmp_path)
        section = methods("coup", tmp_path)
    first = answered(text, FIRST)
    assert first.startswith("At 2 players the first player wins 55.0% of games when the "
                            "blueprint plays itself (fair: 50%): exact for the blueprint, no "
                            "interval.")
    assert "at least 2.0%" in section


def test_coup_first_player_from_strong_agents_without_a_blueprint(tmp_path):
    rec = seat_record(2, [560, 440], 1000)
    with store.use(tmp_path):
        SB.save_record(rec)
        first = answered(coup_guide(tmp_path), FIRST)
    seat = rec.self_play.seats[0]
    assert f"wins {pct_ci(seat.win_rate, seat.ci95)} of games" in first


def test_coup_first_player_from_the_whole_games_bracket(tmp_path):
    """Without a blueprint or seat records, the answer is the whole game's proven range."""
    committed = full_game.markov_path().read_text()
    lo, hi, _ = full_game_best(full_game.load_markov_rows())[("basic", "ambassador")]
    with store.use(tmp_path):
        full_game.markov_path().parent.mkdir(parents=True, exist_ok=True)
        full_game.markov_path().write_text(committed)
        first = answered(coup_guide(tmp_path), FIRST)
    assert f"between {pct(lo)} and {pct(hi)}" in first


def test_coup_answers_name_the_command_when_nothing_is_stored(tmp_path):
    with store.use(tmp_path):
        text = coup_guide(tmp_path)
    assert "Not measured yet at 2 players: run `farol coup blueprint build --deck ambassador`" \
        in answered(text, FIRST)
    assert "`farol coup balance`" in answered(text, SEATS)
    assert "Not measured yet: run `farol coup play-tables --decks ambassador`" in answered(
        text, "How often do strong players bluff?")


def test_coup_seats_by_player_count(tmp_path):
    recs = [seat_record(3, [420, 300, 280], 1000), seat_record(4, [250, 250, 250, 250], 1000)]
    inquisitor = seat_record(5, [200, 150, 250, 200, 200], 1000, deck="inquisitor")
    with store.use(tmp_path):
        for r in recs:
            SB.save_record(r)
        first = answered(coup_guide(tmp_path), FIRST)
        assert not [r for r in table_rows(first) if r[0] == "5"]  # no 5-player table yet
        SB.save_record(inquisitor)
        text = coup_guide(tmp_path)
    first = answered(text, FIRST)
    assert table_rows(first)[0] == ["players", "fair share", "Ambassador deck: seat 1 wins",
                                    "edge (points)", "Inquisitor deck: seat 1 wins",
                                    "edge (points)"]
    for r in recs + [inquisitor]:
        seat = r.self_play.seats[0]
        row = row_of(first, str(r.table.players))
        col = 2 if r.table.deck == "ambassador" else 4
        assert row[col] == pct_ci(seat.win_rate, seat.ci95)
    assert row_of(first, "3")[3] == "+8.7 [+5.6, +11.8]"  # 42% is out of a third's reach
    assert row_of(first, "4")[3] == "none clear"
    assert "edge is clear only at 3 players with the Ambassador deck" in first
    seats = answered(text, SEATS)
    assert "Ambassador deck, 3 players seat 1" in seats
    chart = (tmp_path / "coup_guide_seats.svg").read_text()
    assert chart.count("<title>") >= 1 + 12 and "seat 5" in chart
    assert "Inquisitor, 5 players" in chart


def test_coup_hands_need_enough_deals(tmp_path):
    hands = [SB.HandRecord("Duke+Assassin", 40, 60), SB.HandRecord("Contessa+Contessa", 10, 50),
             SB.HandRecord("Duke+Duke", 9, 10), SB.HandRecord("Captain+Duke", 30, 60),
             SB.HandRecord("Ambassador+Captain", 25, 60)]
    with store.use(tmp_path):
        SB.save_record(seat_record(2, [500, 500], 1000, hands))
        block = answered(coup_guide(tmp_path), HANDS)
    row = row_of(block, "2")
    assert row[2].startswith("Duke+Assassin 66.7%") and row[3].startswith("Contessa+Contessa")
    assert "Duke+Duke" not in block  # dealt 10 times only


def test_coup_hands_name_every_hand_that_may_lead(tmp_path):
    def hand(name, rate, reach, games=400):
        return SB.HandRecord(name, rate * games, games, (rate - reach, rate + reach))

    apart = [hand("Duke+Duke", 0.70, 0.03), hand("Captain+Duke", 0.55, 0.03),
             hand("Contessa+Duke", 0.50, 0.03), hand("Assassin+Duke", 0.30, 0.03)]
    with store.use(tmp_path):
        SB.save_record(seat_record(2, [500, 500], 1000, apart))
        block = answered(coup_guide(tmp_path), HANDS)
    assert block.startswith("At 2 players Duke+Duke is the strongest starting hand: it wins "
                            "70.0% [67.0, 73.0] of games, against a fair 50.0%.")
    assert row_of(block, "2")[2] == "Duke+Duke 70.0% [67.0, 73.0]"
    close = [hand("Duke+Duke", 0.60, 0.05), hand("Captain+Duke", 0.58, 0.04),
             hand("Contessa+Duke", 0.45, 0.03), hand("Assassin+Duke", 0.44, 0.03)]
    with store.use(tmp_path / "close"):
        SB.save_record(seat_record(2, [500, 500], 1000, close))
        block = answered(coup_guide(tmp_path / "close"), HANDS)
    assert block.startswith("No starting hand is clearly strongest at 2 players: 2 could be, "
                            "led by Duke+Duke at 60.0% [55.0, 65.0]")
    assert row_of(block, "2")[2] == "Duke+Duke 60.0% [55.0, 65.0]; or Captain+Duke"
    assert row_of(block, "2")[3] == "Assassin+Duke 44.0% [41.0, 47.0]; or Contessa+Duke"


def test_coup_decks_and_setups_from_the_blueprint_alone(tmp_path):
    with store.use(tmp_path):
        for deck, value in (("ambassador", 0.1), ("inquisitor", 0.06)):
            blueprint.update_summary(deck, setups={
                "basic": {"iterations": 300, "first_player_value": value},
                "standard": {"iterations": 300, "first_player_value": value / 2}})
        text = coup_guide(tmp_path)
    decks = answered(text, DECKS)
    assert "Ambassador: **55.0%**" in decks and "Inquisitor: **53.0%**" in decks
    assert "win rates differ by 2.0 points; the blueprint's error is not measured" in decks
    setups = answered(text, SETUPS)
    assert "takes 1 coin: **55.0%**" in setups and "2 coins each: **52.5%**" in setups


def test_coup_play_tables_and_their_answers(tmp_path):
    with store.use(tmp_path):
        save_table(bluff_table())
        text = coup_guide(tmp_path)
    bluffs = answered(text, "How often do strong players bluff?")
    assert bluffs.startswith("Strong play bluffs 20% [15, 25] to 40% [35, 45] of its claims, by "
                             "character.")  # no row of all characters in this table
    assert "It bluffs the Captain most (40% [35, 45]) and the Duke least (20% [15, 25])" in bluffs
    assert row_of(bluffs, "Duke")[1:4] == ["20% [15, 25]", "25% [20, 30]", "10% [5, 15]"]
    challenges = answered(text, "When do strong players challenge?")
    assert "the Captain most" in challenges
    assert row_of(challenges, "Captain")[1] == "35% [30, 40]"
    blocks = answered(text, "When do strong players block?")
    assert row_of(blocks, "Contessa") == ["Contessa", "80% [75, 85]", "55% [50, 60]",
                                          "30% [25, 35]"]
    turns = answered(text, "What do strong players do on their turn?")
    assert turns.startswith("Holding a Duke, strong play takes Tax on 40% to 40% of its turns")
    # The range grid: one row per two-card hand, the moves in the order of a turn.
    assert table_rows(turns)[0] == ["hand held", "Income", "Foreign Aid", "Tax", "Steal",
                                    "Assassinate", "Exchange", "Coup"]
    assert row_of(turns, "Captain+Duke") == ["Captain+Duke", "10%", "20%", "40%", "15%", "10%",
                                             "5%", "0%"]
    assert not [r for r in table_rows(turns) if r[0] == "Duke"]  # one-card hands left out
    assert "known to within ±4 points" in turns


def _save_multiplayer_records() -> None:
    """best's play at 3, 4 and 6 players and the ladder, every rate the guide reads."""
    keys = ["bluff|all", "challenge|all|any", "challenge|all|at another", "challenge|all|at it",
            "block|Foreign Aid", "target|any|coin leader", "chance|any|coin leader", "coup|7-9"]
    keys += [f"bluff|{c}" for c in ("Duke", "Captain", "Assassin", "Ambassador")]
    for n in (3, 4, 6):
        rates = tuple(TABLE_PLAY.Rate(k, 100.0, 500.0, 0.2, (0.17, 0.23)) for k in keys)
        record = TABLE_PLAY.PlayRecord(n, "best", "FastSearchAgent", 1000, rates, "0.1.0",
                                       "abc", 1)
        path = TABLE_PLAY.record_path(n)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record.to_json()))
        line = LADDER.Line("fast", 1000, 1000 * n, 0.4, (0.38, 0.42))
        LADDER.save_record(LADDER.LadderRecord(n, ("fast",), 100, (line,), (), "", (), (),
                                               "0.1.0", "abc", 1, None))


def test_coup_guide_with_every_record_stays_short(tmp_path):
    """With the blueprint of both decks and setups, seat records at 2-8 players and the
    play tables, the guide is still a five-minute read."""
    hands = [SB.HandRecord(f"Hand{k}", 10 + k, 60) for k in range(15)]
    with store.use(tmp_path):
        for deck in ("ambassador", "inquisitor"):
            blueprint.update_summary(deck, setups={
                s: {"iterations": 300, "first_player_value": 0.05} for s in cards.SETUPS})
            for players in range(2, 9):
                for setup in (cards.SETUPS if players == 2 else ("-",)):
                    table_ = SB.Table(players, deck, setup)
                    rec = seat_record(players, [1000 / players] * players, 1000, hands, deck)
                    SB.save_record(SB.TableRecord(table_, rec.agent, rec.self_play, (),
                                                  rec.hands, "0.1.0", "abc", 1))
        save_table(bluff_table())
        _save_multiplayer_records()
        text = coup_guide(tmp_path)
    assert prose_words(text) <= PROSE_WORDS
    assert "Not measured yet" not in text
    assert row_of(answered(text, SETUPS), "drafted hands")[1] == "50.0% [46.9, 53.1]"


# ---- ¡Cobardes! and Goat Lords: answers equal to the committed records -------------------

def test_cobardes_first_player_equals_the_renewal_war(guides):
    sol = load_renewal()
    wins = [(1 + sol.value(p)) / 2 for p in sol.model.pairings]
    said = answered(guides["cobardes"], "Does the first player win more?")
    # Alone, or after the war with villains once every matchup is solved.
    win = pct(sum(wins) / len(wins))
    assert (f"without villains the first player wins **{win}**" in said
            or f"Without villains (courtiers renewed, exact): {win}." in said)


def test_cobardes_courtiers_equal_the_renewal_war(guides):
    sol = load_renewal()
    names = sol.model.courtiers
    strength = {}
    for c in names:
        as_first = [(1 + sol.value((c, o))) / 2 for o in names if (c, o) in sol.model.pairings]
        as_second = [(1 - sol.value((o, c))) / 2 for o in names if (o, c) in sol.model.pairings]
        strength[c] = (np.mean(as_first) + np.mean(as_second)) / 2
    best = max(strength, key=strength.get)
    row = answered(guides["cobardes"], "Which courtier is strongest?")
    # Alone, or after the war with villains once every matchup is solved.
    assert (f"The {best}: it wins **{pct(strength[best])}** of wars without villains" in row
            or f"Without villains (courtiers renewed, exact): strongest {best} "
               f"{pct(strength[best])}" in row)


def test_cobardes_villains_equal_the_solved_matchups(guides):
    """The villain answer is the mean over the courtier matchups solved (or, with fewer
    than two, the one full battle), computed here from the records themselves."""
    row = answered(guides["cobardes"], "Which villain is worth most?")
    sweep = {p: r for p, r in load_hidden().items() if not is_mirror(p)}
    if len(sweep) >= 2:
        value = {}
        for r in sweep.values():
            for villain in r.deals:
                mine = np.mean(list(r.deals[villain].values()))
                theirs = np.mean([-row_[villain] for row_ in r.deals.values() if villain in row_])
                value.setdefault(villain, []).append((mine + theirs) / 2)
        value = {v: np.mean(x) for v, x in value.items()}
        size = sum(not is_mirror(p) for p in hidden_matchups())
        assert (f"{len(sweep)} of {size} courtier matchups solved so far" in row) == (
            len(sweep) < size)
    else:
        deals = json.loads(FULL_BATTLE_JSON.read_text())["deal_values"]
        value = {}
        for v in deals:
            mine = list(deals[v].values())
            theirs = [-deals[o][v] for o in deals if v in deals[o]]
            value[v] = (np.mean(mine) + np.mean(theirs)) / 2
    best = max(value, key=value.get)
    assert f"The {best}: **{value[best]:+.2f}**" in row


def test_cobardes_learning_game_equals_its_positions(guides):
    first = pd.read_csv(store.data("cobardes", "warriors_only_positions.csv")).iloc[0]
    row = answered(guides["cobardes"], "Is the learning game (warriors only) fair?")
    assert f"**{first['value']:+.3f}**" in row


def greedy_rows(players: int) -> pd.DataFrame:
    exp = next(e for e in goat_plan(False)["seats"] if e.label == "greedy"
               and e.players == players)
    rows = load_rows(exp)
    return rows[rows["index"] < exp.games]


def answer_rows(players: int) -> pd.DataFrame:
    """The games the guide's seat answers read: the strong agent's (the rulebook's scoring)
    once all its seat tables are complete, else the greedy tournament's."""
    strong = GR.strong_group("seats")
    if strong is None:
        return greedy_rows(players)
    return next(df for e, df in strong if e.label == "rounds" and e.players == players)


GOAT_FIRST = "Does the first player win more?"
GOAT_SEATS = "Does any seat win more?"
GOAT_WILD = "What is one more wild worth?"
GOAT_DUELS = "Do duels favour the attacker?"
GOAT_VALUES = "Do the point values matter?"
GOAT_STRENGTH = "How strong is the player these numbers come from?"


def test_goat_lords_first_player_equals_the_games(guides):
    block = answered(guides["goat_lords"], GOAT_FIRST)
    for n in range(2, 7):
        r = seat_win_rates(answer_rows(n)).set_index("seat").loc[0]
        assert row_of(block, str(n))[2] == pp(r.win_rate - 1 / n, (r.lo - 1 / n, r.hi - 1 / n))
    seats = answered(guides["goat_lords"], GOAT_SEATS)
    assert re.search(r"\b(1 of 20 seat intervals leaves|([02-9]|1\d|20) of 20 seat intervals "
                     r"leave) out the fair share", seats)


def test_goat_lords_seat_chart_hovers_each_seat(tmp_path):
    write_guide("goat_lords", tmp_path)
    chart = (tmp_path / "goat_lords_guide_seats.svg").read_text()
    r = seat_win_rates(answer_rows(6)).set_index("seat").loc[5]
    assert f"6 players, seat 6: wins {pct_ci(r.win_rate, (r.lo, r.hi))}" in chart


def test_goat_lords_duels_equal_the_games(guides):
    block = answered(guides["goat_lords"], GOAT_DUELS)
    for n in range(2, 7):
        df = answer_rows(n)
        rate = df["attacker_wins"].sum() / (df["attacker_wins"] + df["defender_wins"]).sum()
        assert row_of(block, str(n))[1].startswith(pct(rate))


def test_goat_lords_answers_come_from_the_strong_agent_once_its_tables_are_complete(
        tmp_path, monkeypatch):
    """With every strong-agent table of a question complete, its answer gives the strong
    agent's numbers and says so; with one table short, the greedy tournament's again."""
    from analysis.goat_lords.studies.plan import run_strong
    from analysis.goat_lords.studies.statistics import extra_wild_effect

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path / "cache"))
    res = run_strong(True, workers=1, only=lambda e: e.players == 2)
    complete = {group: [(e, df) for e, df in res[group] if e.players == 2] for group in res}
    monkeypatch.setattr(GR, "strong_results", lambda: complete)
    text = write_guide("goat_lords", tmp_path / "strong").read_text(encoding="utf-8")
    section = methods("goat_lords", tmp_path / "strong")
    first = answered(text, GOAT_FIRST)
    rounds = next(df for e, df in complete["seats"] if e.label == "rounds")
    single = next(df for e, df in complete["seats"] if e.label == "single")
    cells = []
    for df in (rounds, single):
        r = seat_win_rates(df).set_index("seat").loc[0]
        cells.append(pp(r.win_rate - 0.5, (r.lo - 0.5, r.hi - 0.5)))
    assert row_of(first, "2")[2:] == cells
    assert "the strong agent `lord`" in text.split("## Is it balanced?")[1]
    assert "Rounds until a player reaches 1,000 points" in section.split(
        "**Does the first player win more?**")[1].split("\n\n")[0]
    duels = answered(text, GOAT_DUELS)
    d = duel_success(single)
    assert row_of(duels, "2")[2] == pct_ci(d["attacker_rate"], (d["lo"], d["hi"]))
    wild = answered(text, GOAT_WILD)
    treated = {e.label: df for e, df in complete["extra_wild"]}
    e = extra_wild_effect(treated["rounds"], rounds, 2)
    measurable = e["win"][1] > 0 or e["win"][2] < 0
    lead = ("In the rulebook's game one more wild in the opening hand adds "
            if measurable else "In the rulebook's game one more wild in the opening hand adds "
            "no clear win rate: ")
    assert wild.startswith(lead + pp(e["win"][0], e["win"][1:]))
    assert row_of(wild, "2")[1] == pp(e["win"][0], e["win"][1:])
    one = extra_wild_effect(treated["single"], single, 2)
    assert ("In one round, where that hand is the only one dealt, it adds "
            f"{pp(one['win'][0], one['win'][1:])}") in wild
    assert "**What is one more wild worth?** The same deals replayed" in section \
        and "the strong agent" in section
    # The rulebook's wild experiment short: the one-round experiment answers alone (the
    # observed slope per wild received is no answer: in one round it is several times the
    # experiment's figure).
    short = {**complete, "extra_wild": [(x, df.iloc[:-1] if x.label == "rounds" else df)
                                        for x, df in complete["extra_wild"]]}
    monkeypatch.setattr(GR, "strong_results", lambda: short)
    wild = answered(write_guide("goat_lords", tmp_path / "short_rounds").read_text(
        encoding="utf-8"), GOAT_WILD)
    assert wild.startswith(f"One more wild in the opening hand adds "
                           f"{pp(one['win'][0], one['win'][1:])}")
    assert "In the rulebook's game" not in wild and "received" not in wild
    monkeypatch.setattr(GR, "strong_results", lambda: complete)
    values = answered(text, GOAT_VALUES)
    assert row_of(values, "2")[1] == "6" and "the strong agent" in section
    scoring = next(line for line in section.splitlines()
                   if line.startswith("| scoring of the answers from the strong agent's games |"))
    assert "`scoring=rounds`" in scoring and "`scoring=single`" in scoring
    # One seat table short of its games: the greedy tournaments answer again.
    short = {**complete, "seats": [(x, df.iloc[:-1]) for x, df in complete["seats"]]}
    monkeypatch.setattr(GR, "strong_results", lambda: short)
    section = methods("goat_lords", tmp_path / "short")
    first = section.split("**Does the first player win more?**")[1].split("\n\n")[0]
    assert "One round" in first and "the greedy bot in every seat" in first
    # The wild experiment short: its answer is the greedy tournament's, with nothing of the
    # strong agent's beside it.
    short = {**complete, "extra_wild": [(x, df.iloc[:-1]) for x, df in complete["extra_wild"]]}
    monkeypatch.setattr(GR, "strong_results", lambda: short)
    text = write_guide("goat_lords", tmp_path / "short_wild").read_text(encoding="utf-8")
    section = methods("goat_lords", tmp_path / "short_wild")
    wild_method = section.split("**What is one more wild worth?**")[1].split("\n")[0]
    assert "the greedy bot in every seat" in wild_method
    assert "In the rulebook's game" not in answered(text, GOAT_WILD)


def test_goat_lords_strength_only_from_long_matches(guides):
    block = answered(guides["goat_lords"], GOAT_STRENGTH)
    folder = store.data("goat_lords", "matches")
    long = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    assert long, "no match stored"
    for m in long:
        wins = sum(s["wins"] for s in m["seats"] if s["agent"].split(":")[0] == "lord")
        stated = f"| {pct_ci(*_wilson(wins, m['games']))} |" in block
        assert stated == (m["games"] >= 1000), m  # shorter matches are not stated
    from analysis.goat_lords.agents import STRONGEST
    from analysis.goat_lords.agents.lord import DEFAULT
    assert STRONGEST == "lord"
    assert block.startswith(f"At 2 players `lord` at {DEFAULT.simulations} simulations a move, "
                            "the agent `best` plays, wins")


def _wilson(wins: float, games: int):
    rec = SeatRecord("lord", -1, wins, games)
    return rec.win_rate, rec.ci95


def test_goat_lords_parameter_table_shows_the_scoring_used(tmp_path):
    exp = next(e for e in goat_plan(False)["seats"] if e.label == "greedy")
    used = exp.game_params()["scoring"]
    line = next(line for line in methods("goat_lords", tmp_path).splitlines()
                if line.startswith("| scoring of the greedy bots' tournaments |"))
    assert f"`scoring={used}`" in line


# ---- the website and reproducibility -------------------------------------------------------

def site_from_committed(tmp_path: Path) -> Path:
    """The site written from the committed appendices and freshly written guides."""
    for key in KEYS:
        shutil.copy(REPORTS / f"{key}.md", tmp_path / f"{key}.md")
        write_guide(key, tmp_path)
    write_index(tmp_path)
    write_site(tmp_path, KEYS)
    return tmp_path / "site"


def test_site_index_links_every_page_and_every_link_resolves(tmp_path):
    site = site_from_committed(tmp_path)
    index = (site / "index.html").read_text()
    pages = sorted(p.name for p in site.glob("*.html"))
    assert len(pages) == 1 + 2 * len(KEYS)
    for name in pages:
        assert f'href="{name}"' in index
        html = (site / name).read_text()
        for target in re.findall(r'(?:href|src)="([^"#:]+)', html):
            if target.startswith("../"):
                if target.endswith((".png", ".svg")):
                    assert (tmp_path / target[3:]).exists() or (REPORTS / target[3:]).exists()
            else:
                assert (site / target).exists(), f"{name} links {target}"
    guide = (site / "cobardes_guide.html").read_text()
    assert "<svg" in guide and "<title>" in guide  # hover values on the heatmap


def test_committed_guides_and_site_are_what_the_records_give(tmp_path):
    """A fresh clone regenerates the same files (run `make report` after new results)."""
    site = site_from_committed(tmp_path)
    for key in KEYS:
        assert (tmp_path / f"{key}_guide.md").read_text() == \
            (REPORTS / f"{key}_guide.md").read_text(), f"reports/{key}_guide.md is stale"
    for chart in tmp_path.glob("*_guide_*.svg"):
        assert filecmp.cmp(chart, REPORTS / chart.name, shallow=False), chart.name
    assert (tmp_path / "index.md").read_text() == (REPORTS / "index.md").read_text()
    for page in site.glob("*.html"):
        assert page.read_text() == (REPORTS / "site" / page.name).read_text(), page.name


@pytest.mark.slow
def test_report_all_twice_is_byte_identical(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert cli_main(["report", "all", "--out", str(first)]) == 0
    assert cli_main(["report", "all", "--out", str(second)]) == 0
    names = sorted(str(p.relative_to(first)) for p in first.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(second)) for p in second.rglob("*") if p.is_file())
    assert "site/index.html" in names and "coup_guide.md" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_goat_lords_appendix_ranks_agents_only_on_matches_of_1000_games(tmp_path):
    from analysis.report.context import ReportContext
    from analysis.report.goat_lords.strength import lineup_words, matchup_section
    from games.catalog import family

    def match(games, players):
        seats = (SeatRecord("lord", 0, games * 0.3, games // 2),
                 SeatRecord("greedy", 0, games * 0.2, games // 2))
        return MatchResult("python_goat_lords", {"players": players}, seats, games, 1,
                           "0.1.0", "abc")

    with store.use(tmp_path):
        folder = store.data("goat_lords", "matches")
        folder.mkdir(parents=True)
        (folder / "long.json").write_text(json.dumps(match(1000, 2).to_json()))
        (folder / "short.json").write_text(json.dumps(match(400, 4).to_json()))
        text = matchup_section(ReportContext(family("goat_lords"), tmp_path, quick=True))
    assert "| long | `lord` against `greedy` | 2 | 1,000 | rounds until a player reaches" in text
    four = MatchResult("python_goat_lords", {"players": 4}, tuple(
        SeatRecord(a, s, 1.0, 10) for s in range(4) for a in ("lord:432", "greedy")
        for _ in range(1 if a == "lord:432" else 3)), 40, 1, "0.1.0", "abc")
    assert lineup_words(four) == "`lord:432` against 3 × `greedy`"
    assert "Match `short` has 400 games so far, fewer than 1,000: not used" in text
    assert "| short |" not in text


def test_goat_lords_wild_answer_says_small_tables_only_when_the_intervals_part():
    from analysis.report.templating import render

    def rows(big_ci):
        return [{"players": 2, "win": 0.05, "ci": (0.03, 0.07)},
                {"players": 6, "win": 0.02, "ci": big_ci}]

    apart = render("goat_lords/wilds.md.j2", rows=rows((0.0, 0.025)), rulebook=[])
    overlap = render("goat_lords/wilds.md.j2", rows=rows((0.0, 0.04)), rulebook=[])
    assert "worth more at small tables" in apart and "worth more" not in overlap
    # With the rulebook's game measured, each scoring's intervals decide for its own part.
    book, one_round = (render("goat_lords/wilds.md.j2", rows=rows(r), rulebook=rows(b),
                              rulebook_measurable=True).split("In one round")
                       for b, r in (((0.0, 0.025), (0.0, 0.04)), ((0.0, 0.04), (0.0, 0.025))))
    assert "worth more at small tables" in book[0] and "worth more" not in book[1]
    assert "worth more" not in one_round[0] and "worth more at small tables" in one_round[1]
    # Every interval of the rulebook's game taking in zero: no clear gain, said first.
    flat = [{"players": 2, "win": 0.01, "ci": (-0.01, 0.03)},
            {"players": 4, "win": -0.01, "ci": (-0.04, 0.02)}]
    text = render("goat_lords/wilds.md.j2", rows=rows((0.0, 0.025)), rulebook=flat,
                  rulebook_measurable=False)
    assert text.startswith("In the rulebook's game one more wild in the opening hand adds no "
                           "clear win rate: +1.0 pp [-1.0, +3.0] at 2 players")


def test_the_seat_count_agrees_with_how_many_miss():
    """One seat interval that misses its share reads "leaves"; two read "leave"; more than
    chance alone gives is said so."""
    from analysis.report.templating import render

    one = render("seats_by_chance.md.j2", unfair=["3 players seat 1"], total=33, expected=1.65,
                 most=4)
    two = render("seats_by_chance.md.j2", unfair=["a", "b"], total=33, expected=1.65, most=4)
    many = render("seats_by_chance.md.j2", unfair=list("abcdefg"), total=33, expected=1.65,
                  most=4)
    assert one.startswith("No seat clearly: 1 of 33 seat intervals leaves out the fair share")
    assert "That seat: 3 players seat 1." in one
    assert "2 of 33 seat intervals leave out the fair share" in two
    assert many.startswith("Some seats do: 7 of 33 seat intervals leave out the fair share, "
                           "more than the 2 chance alone gives.")
