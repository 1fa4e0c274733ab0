"""Every position string is answered: a parsed position or a one-line FarolError.

Property-based (hypothesis, bounded) fuzzing of the position parsers of Coup, Goat Lords
and ¡Cobardes!, directly, through ``pyspiel.load_game`` and through ``farol advise coup``.
"""

from __future__ import annotations

import pyspiel
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analysis.cli import main
from games.coup import cards as C
from games.coup.positions import format_position, parse_position
from games.errors import FarolError
from games.goat_lords.cards import KINDS
from games.goat_lords.table import Config, from_position

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def one_line(exc: BaseException) -> None:
    """A user-facing error: a FarolError (or OpenSpiel's) whose message is one non-empty line."""
    assert isinstance(exc, FarolError | pyspiel.SpielError), repr(exc)
    message = str(exc).strip()
    assert message and "\n" not in message, repr(message)


def junk(alphabet: str = "") -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, max_size=12) if alphabet else st.text(max_size=12)


def texts(tokens: list[str]) -> st.SearchStrategy[str]:
    """Strings built from the grammar's own tokens, numbers and junk, joined at random."""
    numbers = st.integers(-(10**20), 10**20).map(str)
    piece = st.one_of(st.sampled_from(tokens), numbers, junk(), st.sampled_from(["nan", "inf", "-0", " ", "\x00", "é", "٣"]))
    return st.one_of(st.lists(piece, max_size=14).map("".join), st.text(max_size=40))


# ------------------------------------------------------------------------- Coup
COUP_NAMES = ["duke", "Assassin", "captain", "contessa", "ambassador", "inquisitor", "DUQUE", "capitán", "?"]
COUP_TOKENS = COUP_NAMES + ["/", "+", ";", "-", "move:", "move:0", "move:1", "move:-1", "0", "2", "7", "50", "99"]


def coup_entry() -> st.SearchStrategy[str]:
    cards = st.lists(st.sampled_from(COUP_NAMES + ["-", "", "joker"]), max_size=3).map("+".join)
    coins = st.one_of(st.integers(-5, 60).map(str), junk())
    return st.tuples(cards, cards, coins).map("/".join)


def coup_positions() -> st.SearchStrategy[str]:
    structured = st.tuples(
        st.lists(coup_entry(), max_size=7),
        st.one_of(st.just(""), st.integers(-3, 8).map(lambda k: f"move:{k}"), junk().map(lambda t: "move:" + t)),
    ).map(lambda t: ";".join([*t[0], t[1]]))
    return st.one_of(structured, texts(COUP_TOKENS))


@FUZZ
@given(text=coup_positions(), deck=st.sampled_from([*C.DECKS, "nonsense", ""]),
       total=st.integers(-10, 200))
def test_coup_position_parse_answers(text, deck, total):
    try:
        position = parse_position(text, deck, total)
    except Exception as exc:  # noqa: BLE001 - the property is about which exceptions
        one_line(exc)
        return
    assert deck in C.DECKS
    # A parsed position prints back to one that parses to the same thing.
    assert parse_position(format_position(position, deck), deck, total) == position


@FUZZ
@given(text=coup_positions(), players=st.integers(1, 7), deck=st.sampled_from(C.DECKS))
def test_coup_position_game_parameter_answers(text, players, deck):
    try:
        game = pyspiel.load_game("python_coup", {"position": text, "players": players, "deck": deck})
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
        return
    game.new_initial_state()


def _parses(text: str, deck: str) -> bool:
    try:
        parse_position(text, deck)
    except FarolError:
        return False
    return True


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=coup_positions().filter(lambda t: not t.startswith("-") or "/" in t),
       deck=st.sampled_from(C.DECKS))
def test_advise_coup_refuses_bad_positions_in_one_line(text, deck, capsys):
    # Only positions that fail to parse: a valid one would be solved.
    assume(not _parses(text, deck))
    code = main(["advise", "coup", "--no-cache", "--deck", deck, "--", text])
    out, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err


# ------------------------------------------------------------------ Goat Lords
GOAT_NAMES = [k.key for k in KINDS] + [k.name for k in KINDS] + ["", "goat", "🐐", "GOAT_LORD"]
names = st.lists(st.one_of(st.sampled_from(GOAT_NAMES), junk()), max_size=12)


@FUZZ
@given(players=st.integers(2, 6),
       hands=st.lists(names, max_size=7),
       herds=st.one_of(st.none(), st.lists(st.lists(names, max_size=3), max_size=7)),
       discard=st.one_of(st.none(), names),
       to_move=st.integers(-3, 8))
def test_goat_lords_position_answers(players, hands, herds, discard, to_move):
    try:
        table = from_position(Config(players=players), hands, herds, discard, to_move)
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
        return
    assert all(left >= 0 for left in table.draw)


# ------------------------------------------------------------------ ¡Cobardes!
COBARDES_TOKENS = ["hand0:", "hand1:", "court0:", "court1:", "combat:", "unharmed:", ";", ".", ":",
                   "0", "1", "2", "3", "4", "5", "6", "7", "9", "-1", "prince", "king", "queen"]


@FUZZ
@given(text=texts(COBARDES_TOKENS), kinds=st.sampled_from(["all", "warriors"]))
def test_cobardes_position_game_parameter_answers(text, kinds):
    try:
        game = pyspiel.load_game("python_cobardes_battle", {"position": text, "kinds": kinds})
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
        return
    game.new_initial_state()


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])
