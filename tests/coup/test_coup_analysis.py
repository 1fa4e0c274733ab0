"""Coup endgames solved: values checked by an LP, by hand and by OpenSpiel; advice; the bot."""

from __future__ import annotations

import json

import numpy as np
import pytest
from coup_helpers import data_without

import analysis.coup.agents  # noqa: F401  (registers the solved bot)
from analysis.cli import main
from analysis.coup.model import Endgame
from analysis.coup.solvers.endgames import analyse, cap_study, solve_endgame
from analysis.play.bots import make_bot, sample_chance
from analysis.solve import compile_game, solve_lp


def _solve(eg: Endgame, **kw):
    return solve_endgame(eg, use_cache=False, **kw)


@pytest.mark.parametrize("deck", ["ambassador", "inquisitor"])
def test_tiny_endgame_value_matches_the_sequence_form_lp(deck):
    """One turn, the mover holds 3 coins: they may Assassinate (bluffing or not), the other
    may challenge or claim a Contessa. CFR+'s value agrees with the LP's exact value."""
    eg = Endgame(3, 0, deck, turn_cap=1)
    record, result = _solve(eg, target=1e-6)
    exact = solve_lp(compile_game(eg.game()))
    assert record["exploitability"] <= 1e-6
    assert record["value"] == pytest.approx(exact, abs=1e-5)
    assert 0.0 < exact < 1.0  # the Assassin threat helps the mover, but not surely


def test_no_claim_can_decide_a_one_turn_endgame_without_coins():
    """By hand: with 0 coins and one turn, the mover can neither Coup nor Assassinate. The
    mover can take Income (nothing to challenge), so the other cannot win; the other can
    decline every challenge, so the mover cannot win: the value is exactly 0."""
    record, _ = _solve(Endgame(0, 0, "inquisitor", turn_cap=1), target=1e-6)
    assert record["value"] == pytest.approx(0.0, abs=1e-5)
    assert record["win"] == pytest.approx(0.0, abs=1e-4)


@pytest.mark.parametrize("mover,other", [(7, 0), (8, 5), (9, 9), (7, 7)])
def test_seven_coins_against_one_influence_wins_for_sure(mover, other):
    """«pagas 7 monedas y una persona pierde una carta; no se puede bloquear ni desafiar»:
    with 7+ coins the player to move launches a Coup against the last card and wins."""
    for deck in ("ambassador", "inquisitor"):
        record, _ = _solve(Endgame(mover, other, deck, turn_cap=1), target=1e-6)
        assert record["win"] == pytest.approx(1.0, abs=1e-5)
        assert record["value"] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("mover,other", [(3, 0), (1, 4), (5, 8)])
def test_swapping_seats_gives_the_same_values(mover, other):
    """The same endgame written with seat 1 to move has the same value for the mover."""
    eg = Endgame(mover, other, "inquisitor", ("duke", "captain"), turn_cap=1)
    as_seat0 = solve_lp(compile_game(eg.game(move=0)))
    as_seat1 = solve_lp(compile_game(eg.game(move=1)))
    assert as_seat0 == pytest.approx(-as_seat1, abs=1e-6)


def test_symmetric_position_values_by_seat():
    """Equal coins and equal revealed cards: P0 to move has value v, then P1 to move (same
    position otherwise) has value -v for P0, i.e. v for the mover."""
    eg = Endgame(4, 4, "inquisitor", ("captain", "captain"), turn_cap=1)
    v0 = solve_lp(compile_game(eg.game(move=0)))
    v1 = solve_lp(compile_game(eg.game(move=1)))
    assert v0 == pytest.approx(-v1, abs=1e-6)


def test_openspiel_exploitability_agrees_with_the_engine():
    record, _ = _solve(Endgame(5, 2, "inquisitor", turn_cap=2), openspiel_check=True)
    assert record["exploitability"] <= 1e-3
    assert record["openspiel_exploitability"] == pytest.approx(record["exploitability"],
                                                               abs=1e-7)


def test_walk_adds_up():
    """Outcome probabilities sum to 1 and give the solver's value; per-card rows too."""
    eg = Endgame(3, 2, "inquisitor", turn_cap=2)
    record, result = _solve(eg)
    assert record["win"] + record["draw"] + record["lose"] == pytest.approx(1.0)
    assert record["win"] - record["lose"] == pytest.approx(record["value"], abs=1e-9)
    movers = {k: v for k, v in record["card_values"].items() if k.startswith("mover:")}
    assert sum(v["mass"] for v in movers.values()) == pytest.approx(1.0)
    mixed = sum(v["mass"] * (v["win"] - v["lose"]) for v in movers.values())
    assert mixed == pytest.approx(record["value"], abs=1e-9)
    for label, row in record["claims"].items():
        if row["bluff_rate"] is not None:
            assert 0.0 <= row["bluff_rate"] <= 1.0, label
    # An Assassin claimed by a holder of the Assassin is never a bluff; the walk sees both.
    walk = analyse(eg.game(), result)
    assert walk.outcome["win"] == pytest.approx(record["win"])


def test_turn_cap_study_values_settle_when_the_game_ends_in_time():
    """With 9 coins the mover wins on turn 1: the value is 1 at every cap, no draws."""
    rows = cap_study(Endgame(9, 0, "inquisitor"), caps=(1, 2))
    assert [r["turn_cap"] for r in rows] == [1, 2]
    assert all(r["value"] == pytest.approx(1.0, abs=1e-4) for r in rows)
    assert all(r["draw"] == pytest.approx(0.0, abs=1e-4) for r in rows)


@pytest.mark.slow
def test_turn_cap_three_changes_nothing_when_the_other_will_coup():
    """The other holds 9 coins: a Steal leaves them 7, so whatever the mover does the game
    ends by turn 2 (a Coup, if no challenge ended it before): caps 2 and 3 agree."""
    rows = cap_study(Endgame(1, 9, "inquisitor"), caps=(2, 3))
    assert rows[0]["value"] == pytest.approx(rows[1]["value"], abs=2e-3)
    assert rows[1]["draw"] == pytest.approx(0.0, abs=1e-3)


# --------------------------------------------------------------------------- advice
POSITION = "assassin/contessa/3;?/contessa/0;move:0"


def test_advise_prints_the_mix_and_value(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    assert main(["advise", "coup", POSITION, "--exact", "--deck", "inquisitor",
                 "--turn-cap", "1"]) == 0
    out = capsys.readouterr().out
    assert "You are P0 holding Assassin" in out
    assert "Assassinate P1 (claims Assassin)" in out and "Value for you" in out
    assert "exploitability" in out


def test_advise_json(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    assert main(["advise", "coup", POSITION, "--exact", "--deck", "inquisitor", "--turn-cap",
                 "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand"] == ["Assassin"] and data["player"] == 0
    assert sum(m["probability"] for m in data["mix"]) == pytest.approx(1.0)
    assert data["win"] + data["draw"] + data["lose"] == pytest.approx(1.0)
    assert data["exploitability"] <= 1e-3
    # A true Assassin with 3 coins and one turn: assassinating is the whole point.
    best = max(data["mix"], key=lambda m: m["probability"])
    assert best["action"].startswith("Assassinate")
    assert data["value"] > 0.0


LOW = "captain/contessa/1;?/contessa/2;move:0"


@pytest.mark.parametrize("cap", [1, 2])
def test_advise_prices_the_cap_as_the_brackets_do(tmp_path, monkeypatch, cap):
    """The default advice prices the cap by Markov guarantees: its uncapped bracket is the
    Markov bracket the sweep computes for the same endgame and cap, inside the plain
    bracket (the cap as a loss, then as a win), and the mover's mix is a distribution."""
    from analysis.coup.advice.endgame import advise
    from analysis.coup.solvers.brackets import solve_bracket

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    advice = advise(LOW, "inquisitor", cap)
    markov = solve_bracket(Endgame(1, 2, "inquisitor", turn_cap=cap), markov=True)
    plain = solve_bracket(Endgame(1, 2, "inquisitor", turn_cap=cap))
    lo, hi = advice.bracket
    assert (lo, hi) == pytest.approx((markov["lower_win"], markov["upper_win"]), abs=2e-4)
    assert plain["lower_win"] - 1e-9 <= lo < hi <= plain["upper_win"] + 1e-9
    assert hi - lo < plain["upper_win"] - plain["lower_win"] - 0.05  # and far tighter
    assert sum(p for _, p in advice.mix) == pytest.approx(1.0)
    assert advice.win + advice.draw + advice.lose == pytest.approx(1.0)
    assert 0.0 <= advice.cap_win <= advice.draw + 1e-12


def test_advise_for_the_second_seat_mirrors_the_first(tmp_path, monkeypatch):
    """The same endgame written with seat 1 to move (its own deal's guarantees) gives the
    mover the same uncapped bracket as with seat 0 to move."""
    from analysis.coup.advice.endgame import advise

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    first = advise(LOW, "inquisitor", 1)
    second = advise("?/contessa/2;duke/contessa/1;move:1", "inquisitor", 1)
    assert second.player == 1 and second.hand == ("Duke",)
    assert second.bracket == pytest.approx(first.bracket, abs=1e-3)


def test_advise_refuses_to_price_the_cap_of_a_full_game_position(capsys):
    """Two face-down cards each would need the whole game's guarantees: one clear line
    pointing to --cap-pricing draw, before any long computation."""
    position = "duke+captain/-/2;?+?/-/2;move:0"
    assert main(["advise", "coup", position, "--exact", "--turn-cap", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--cap-pricing draw" in err


def test_advise_with_seven_coins_is_to_coup(tmp_path, monkeypatch):
    """«*Golpe de Estado* (pagas 7 monedas y una persona pierde una carta; no se puede
    bloquear ni desafiar)»: against one influence the mover coups and wins for sure, so
    the bracket is closed at 1."""
    from analysis.coup.advice.endgame import advise

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    advice = advise("duke/contessa/7;?/contessa/3;move:0", "inquisitor", 1)
    assert advice.mix == (("Coup P1", 1.0),)
    assert advice.bracket == pytest.approx((1.0, 1.0))
    assert advice.win == pytest.approx(1.0)


def test_advise_with_the_cap_as_a_draw_keeps_the_capped_game(tmp_path, monkeypatch, capsys):
    """``--cap-pricing draw`` solves the capped game as the endgame tables do: at 1 coin
    against 2 nothing is decided within two turns (the table's P(draw) of 1.000)."""
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    assert main(["advise", "coup", LOW, "--exact", "--deck", "inquisitor", "--cap-pricing",
                 "draw", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cap_pricing"] == "draw" and "uncapped_win" not in data
    assert data["draw"] == pytest.approx(1.0, abs=1e-3)
    assert main(["advise", "coup", LOW, "--exact", "--deck", "inquisitor"]) == 0
    out = capsys.readouterr().out
    assert "priced by Markov guarantees" in out and "Without a cap" in out


@pytest.mark.parametrize("position,needle", [
    ("?/contessa/3;?/contessa/0;move:0", "your own face-down cards"),
    ("duke/contessa/3;captain/contessa/0;move:0", "hidden from you"),
    ("joker/contessa/3;?/contessa/0;move:0", "unknown card"),
    ("duke/contessa/3;?/contessa/-1;move:0", "negative coins"),
    ("duke/duke+duke/3;?/duke/0;move:0", "exactly two in all"),
])
@pytest.mark.parametrize("how", [[], ["--exact", "--turn-cap", "1"]], ids=["best", "exact"])
def test_advise_bad_positions_give_one_clear_error(capsys, position, needle, how):
    assert main(["advise", "coup", position, *how]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err


def test_the_exact_solve_of_a_three_player_position_is_refused_in_one_line(capsys):
    """A 3-player position is advised by play-outs; the exact solve is for two players."""
    position = "duke/contessa/3;?/contessa/0;?/duke/1;move:0"
    assert main(["advise", "coup", position, "--exact", "--turn-cap", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--exact is for 2 players" in err


# --------------------------------------------------------------------------- the bot
def test_solved_bot_plays_an_endgame_to_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    from games.coup import endgame_game

    game = endgame_game("captain/contessa/4;?/contessa/2;move:0", deck="inquisitor",
                        turn_cap=2)
    bot = make_bot("solved", game, 1)
    rng = np.random.default_rng(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.current_player() == 1:
                state.apply_action(bot(state))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
        assert sum(state.returns()) == pytest.approx(0.0)


def test_solved_bot_plays_a_real_endgame_past_the_solved_turns(tmp_path, monkeypatch):
    """With the game's own turn cap (200) the bot plays the cap-priced equilibrium for two
    turns and its Markov policy afterwards: games run past two turns, end in a win or a
    loss, and the bot's win rate against random play is at least the guarantee of its
    seat (the bracket's lower end) up to three standard errors."""
    from analysis.coup import guarantees as GU
    from analysis.coup.solvers.position_endgames import DEFAULT_CAP, priced_endgame
    from games.coup import endgame_game
    from games.coup.positions import parse_position

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    text = "?/contessa/1;?/contessa/2;move:0"
    game = endgame_game(text, deck="inquisitor")
    assert game.config.turn_cap > DEFAULT_CAP
    markov_moves = []
    mix = GU.Guarantees.mix
    monkeypatch.setattr(GU.Guarantees, "mix",
                        lambda self, s, p: markov_moves.append(s.turn) or mix(self, s, p))
    bot = make_bot("solved", game, 0)
    rng = np.random.default_rng(5)
    wins, games = 0, 150
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.current_player() == 0:
                state.apply_action(bot(state))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
        assert abs(state.returns()[0]) == 1.0  # decided, not stopped by the cap
        wins += state.returns()[0] > 0
    assert markov_moves and min(markov_moves) >= DEFAULT_CAP
    guarantee = (1 + priced_endgame(parse_position(text, "inquisitor"), "inquisitor",
                                    DEFAULT_CAP).bounds[0]) / 2
    rate = wins / games
    assert rate >= guarantee - 3 * np.sqrt(guarantee * (1 - guarantee) / games)


def test_solved_bot_refuses_a_full_game():
    import pyspiel

    from games.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="endgames only"):
        make_bot("solved", pyspiel.load_game("python_coup"), 1)


def test_farol_play_seats_the_solved_opponent(monkeypatch, capsys, tmp_path):
    """``farol play python_coup --opponent solved`` in an endgame position, to the end."""
    import itertools

    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path))
    answers = itertools.cycle(["a", "b"])
    monkeypatch.setattr("builtins.input", lambda _prompt="": next(answers))
    argv = ["play", "python_coup", "--param", "position=duke/contessa/3;?/contessa/2;move:0",
            "--param", "turn_cap=2", "--param", "deck=inquisitor", "--opponent", "solved",
            "--seed", "4"]
    assert main(argv) == 0
    assert "Game over. Returns:" in capsys.readouterr().out


def test_farol_play_solved_opponent_of_a_2v2_position_needs_a_small_cap(capsys):
    argv = ["play", "python_coup", "--param", "position=duke+captain/-/2;?+?/-/2;move:0",
            "--opponent", "solved", "--seed", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "turn_cap=1" in err and len(err.splitlines()) == 1


def test_farol_play_solved_opponent_needs_an_endgame(capsys):
    assert main(["play", "python_coup", "--opponent", "solved", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "endgames only" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("eg", [Endgame(1, 2, "inquisitor", turn_cap=2),
                                Endgame(3, 0, "ambassador", turn_cap=1)])
def test_the_priced_study_walks_each_players_safe_strategy(eg):
    """The cap-priced record's bracket is the bracket sweep's, and the safe profile sits
    inside it: along it the mover wins at least their guarantee (the bracket's lower end:
    their strategy holds it against anything, the other's safe strategy included) and at
    most the upper end; its own range (guarantees at the cap) lies between the two."""
    from analysis.coup.solvers.brackets import solve_bracket
    from analysis.coup.solvers.endgames import solve_priced_endgame

    record = solve_priced_endgame(eg)
    bracket = solve_bracket(eg, markov=True)
    assert (record["lower_win"], record["upper_win"]) == pytest.approx(
        (bracket["lower_win"], bracket["upper_win"]), abs=2e-4)
    low, high = record["win_range"]
    assert record["lower_win"] - 1e-9 <= low <= high <= record["upper_win"] + 1e-9
    assert record["win"] + record["draw"] + record["lose"] == pytest.approx(1.0)
    assert 0.0 <= record["cap_win"] + record["cap_lose"] <= record["draw"] + 1e-12
    assert record["exploitability"] <= 1e-4
    for claim in record["claims"].values():
        for key in ("bluff_rate", "challenge_rate"):
            assert claim[key] is None or 0.0 <= claim[key] <= 1.0 + 1e-9
    for v in record["card_values"].values():
        assert v["win"] + v["cap_win"] <= 1.0 - v["lose"] - v["cap_lose"] + 1e-9


def test_farol_coup_sweep_prices_the_cap(tmp_path):
    argv = ["coup", "sweep", "--coins", "7", "--decks", "inquisitor", "--cap-pricing",
            "markov", "--directory", str(tmp_path), "--workers", "1"]
    assert main(argv) == 0
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    assert record["cap_payoffs"] == "markov" and record["win"] == pytest.approx(1.0)


def test_sweep_resumes_refuses_damaged_records_and_redoes_deleted_ones(tmp_path):
    """A second sweep solves nothing already on disk; an unreadable record is refused
    naming it (a stored result is never taken as missing); once deleted it is solved
    again."""
    from analysis.coup import model
    from analysis.coup.studies import sweep
    from analysis.shared.store import CorruptFileError

    endgames = sweep.grid(coins=(0, 7), decks=("inquisitor",), cap=1)
    assert [eg.turn_cap for eg in endgames] == [1, 1, 1, 1]
    records = sweep.sweep(endgames, tmp_path, workers=1, progress=False)
    assert [r.endgame.mover_coins for r in records] == [0, 0, 7, 7]
    assert records[2].win == pytest.approx(1.0, abs=1e-4)
    paths = [model.record_path(tmp_path, eg) for eg in endgames]
    stamps = [p.stat().st_mtime_ns for p in paths]
    paths[1].write_text("{not json")
    with pytest.raises(CorruptFileError, match="is damaged") as info:
        sweep.sweep(endgames, tmp_path, workers=1, progress=False)
    assert str(paths[1]) in str(info.value) and paths[1].read_text() == "{not json"
    paths[1].unlink()
    again = sweep.sweep(endgames, tmp_path, workers=1, progress=False)
    assert [p.stat().st_mtime_ns for p in paths][::2] == stamps[::2]
    assert again[1].value == pytest.approx(records[1].value, abs=1e-6)
    # every third endgame is checked twice
    assert "openspiel_exploitability" in records[0].to_json()


def test_farol_coup_sweep_command(tmp_path, capsys):
    argv = ["coup", "sweep", "--coins", "7,8", "--decks", "inquisitor", "--caps", "1",
            "--directory", str(tmp_path), "--workers", "1"]
    assert main(argv) == 0
    assert len(list(tmp_path.glob("*.json"))) == 4
    assert main(["coup", "sweep", "--coins", "seven"]) == 2
    assert "--coins" in capsys.readouterr().err


def test_report_sections_render_from_the_committed_data(tmp_path):
    """Every Coup section writes Markdown (and its figures) from the committed data alone."""
    from analysis.report import ReportContext
    from analysis.report.coup.balance import section_balance
    from analysis.report.coup.benchmark import section_benchmark
    from analysis.report.coup.bluffing import section_bluffing, section_priced_bluffing
    from analysis.report.coup.endgames import (
        section_cap3,
        section_endgames,
        section_revealed,
        section_turn_cap,
    )
    from analysis.report.coup.findings import section_findings
    from analysis.report.coup.larger import section_larger
    from analysis.report.coup.revealed import section_revealed_brackets
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path, quick=True)
    for section in (section_findings, section_endgames, section_cap3, section_revealed,
                    section_turn_cap, section_bluffing, section_balance,
                    section_larger, section_benchmark,
                    section_priced_bluffing, section_revealed_brackets):
        text = section(ctx)
        assert text.startswith("## "), section.__name__
    assert all((tmp_path / name).exists() for name in ctx.figures)


def test_the_priced_study_section_compares_with_the_cap_zero_study(tmp_path, monkeypatch):
    """One row per deck and claim of the priced records, with the cap-0 study's rates
    beside it; each card's range to the end lies inside [0, 1] with its low end first.
    Without records, how to run them."""
    from analysis.coup.studies import bluffing
    from analysis.report import ReportContext
    from analysis.report.coup.bluffing import section_priced_bluffing
    from analysis.report.facts.coup.readers import priced_records
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path, quick=True)
    records = priced_records()
    text = section_priced_bluffing(ctx)
    assert text.startswith("## The bluffing study with the cap priced")
    if records:
        summary = bluffing.claim_summary(records)
        rows = [line for line in text.splitlines()
                if line.startswith(("| ambassador | ", "| inquisitor | ")) and "(" in line]
        assert len(rows) == len(summary)
        ranges = bluffing.card_win_ranges(records, coins=range(7))
        assert ((ranges["low"] <= ranges["high"] + 1e-9) & (ranges["low"] >= 0)
                & (ranges["high"] <= 1 + 1e-9)).all()
    with data_without(tmp_path, "endgames_priced"):
        assert "--cap-pricing markov" in section_priced_bluffing(ctx)


def test_sweeps_in_worker_processes_match_the_serial_sweep(tmp_path):
    """The endgame and bracket sweeps give the same records in 2 processes as in one."""
    from analysis.coup.studies import sweep

    endgames = sweep.grid(coins=(0, 7), decks=("inquisitor",), cap=1)
    serial = sweep.sweep(endgames, tmp_path / "a", workers=1, progress=False)
    pooled = sweep.sweep(endgames, tmp_path / "b", workers=2, progress=False)
    assert [r.value for r in pooled] == pytest.approx([r.value for r in serial], abs=1e-9)
    brackets = sweep.bracket_sweep(endgames, tmp_path / "c", workers=2, progress=False)
    assert len(brackets) == len(endgames) and all(b is not None for b in brackets)
