"""Every ``--param`` is answered: parsed values or a one-line FarolError, for every game.

Property-based (hypothesis, bounded) fuzzing of :func:`analysis.shared.params.parse_params`
with random ``k=v`` strings and with each game's own keys given random values (NaN,
infinities, huge and negative numbers, empty and unicode text).
"""

from __future__ import annotations

import math

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from analysis.cli import main
from analysis.shared.params import INT_MAX, INT_MIN, game_parameter_spec, load_game, parse_params
from games.errors import FarolError, InvalidParameterError

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = [e.name for e in games.entries()] + ["kuhn_poker", "leduc_poker"]
SPECS = {name: game_parameter_spec(name) for name in GAMES}

VALUES = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1e309", "", " ", "-1", "0", "1", "true", "no",
                     "2147483648", "-2147483649", "1_000", "0x10", "٣", "é", "\x00", "1.5", "all", "random"]),
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=10),
)


def one_line(exc: BaseException) -> None:
    assert isinstance(exc, FarolError | pyspiel.SpielError), repr(exc)
    message = str(exc).strip()
    assert message and "\n" not in message, repr(message)


def check_values(spec: dict, params: dict) -> None:
    """Parsed values have the type of the parameter's default and are usable."""
    for key, value in params.items():
        default = spec.get(key)
        if isinstance(default, bool):
            assert isinstance(value, bool)
        elif isinstance(default, int):
            assert isinstance(value, int) and INT_MIN <= value <= INT_MAX
        elif isinstance(default, float):
            assert isinstance(value, float) and math.isfinite(value)
        elif isinstance(default, str):
            assert isinstance(value, str)


@FUZZ
@given(game=st.sampled_from(GAMES), items=st.lists(st.text(max_size=20), max_size=4))
def test_random_assignments_answer(game, items):
    try:
        params = parse_params(game, items)
    except Exception as exc:  # noqa: BLE001 - the property is about which exceptions
        one_line(exc)
        return
    check_values(SPECS[game], params)


@st.composite
def assignments(draw):
    game = draw(st.sampled_from(GAMES))
    keys = sorted(SPECS[game]) or ["players"]
    items = draw(st.lists(st.tuples(st.sampled_from(keys), VALUES), min_size=1, max_size=3))
    spaced = draw(st.booleans())
    return game, [f"{k} = {v}" if spaced else f"{k}={v}" for k, v in items]


@FUZZ
@given(case=assignments())
def test_game_keys_with_random_values_answer(case):
    game, items = case
    try:
        params = parse_params(game, items)
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
        return
    check_values(SPECS[game], params)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), key=st.data(),
       value=st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["", "all", "random", "x", "0.5", "-1"])))
def test_loading_with_one_parsed_parameter_answers(game, key, value):
    # Small values only: a huge (valid) size would build a huge game, not a wrong answer.
    keys = sorted(SPECS[game])
    if not keys:
        return
    name = key.draw(st.sampled_from(keys))
    try:
        loaded = load_game(game, parse_params(game, [f"{name}={value}"]))
        loaded.new_initial_state()
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
        return
    assert loaded.num_players() >= 1


def test_unknown_game_is_one_line():
    try:
        parse_params("no_such_game", ["a=1"])
    except Exception as exc:  # noqa: BLE001
        one_line(exc)
    else:
        raise AssertionError("an unknown game was accepted")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=assignments(), command=st.sampled_from(["play", "solve"]))
def test_cli_refuses_bad_params_in_one_line(case, command, capsys):
    # Only assignments that fail to parse: valid ones would play or solve the game.
    game, items = case
    try:
        parse_params(game, items)
    except FarolError:
        pass
    else:
        return
    argv = [command, game]
    for item in items:
        argv += ["--param", item]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(("game", "key"), [("python_coup", "turn_cap"), ("python_goat_lords", "max_rounds"),
                                           ("python_goat_lords", "max_turns")])
def test_a_game_too_long_for_openspiel_names_the_parameter(game, key):
    with pytest.raises(InvalidParameterError, match=f"longer than OpenSpiel can count.*lower {key}") as err:
        load_game(game, parse_params(game, [f"{key}={INT_MAX}"]))
    one_line(err.value)
