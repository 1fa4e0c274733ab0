"""Loading games by name with user-given parameters, with errors that name the problem."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pyspiel

import games  # noqa: F401  (registers Farol's games with OpenSpiel)
from games.errors import FarolError, InvalidParameterError


def parse_param_value(text: str, default: Any, key: str) -> Any:
    """Convert the text of ``--param key=text`` to the type of the parameter's default."""
    if isinstance(default, bool):
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise InvalidParameterError(f"parameter {key!r} takes true or false, not {text!r}")
    if isinstance(default, int):
        try:
            return _in_int_range(int(text), key, text)
        except ValueError as exc:
            if isinstance(exc, InvalidParameterError):
                raise
            raise InvalidParameterError(
                f"parameter {key!r} takes a whole number, not {text!r}"
            ) from None
    if isinstance(default, float):
        try:
            value = float(text)
        except ValueError:
            raise InvalidParameterError(f"parameter {key!r} takes a number, not {text!r}") from None
        return _finite(value, key, text)
    return text


# Game parameters are C++ ``int``s inside OpenSpiel: a larger number cannot be passed on.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def _in_int_range(value: int, key: str, text: str) -> int:
    if not INT_MIN <= value <= INT_MAX:
        raise InvalidParameterError(
            f"parameter {key!r} takes a whole number from {INT_MIN} to {INT_MAX}, not {text!r}"
        )
    return value


def _finite(value: float, key: str, text: str) -> float:
    """``value``, refused if NaN or infinite (no game rule is written for those)."""
    if not math.isfinite(value):
        raise InvalidParameterError(f"parameter {key!r} takes a finite number, not {text!r}")
    return value


def parse_params(game_name: str, assignments: Iterable[str] | None) -> dict[str, Any]:
    """Parse ``k=v`` strings against ``game_name``'s declared parameters.

    Raises
    ------
    InvalidParameterError
        For an unknown game, a malformed assignment, an unknown key or a value of
        the wrong type; the message names it.
    """
    spec = game_parameter_spec(game_name)
    params: dict[str, Any] = {}
    for item in assignments or ():
        if "=" not in item:
            raise InvalidParameterError(f"parameter {item!r} must be written key=value")
        key, _, text = item.partition("=")
        key = key.strip()
        if key not in spec:
            known = ", ".join(sorted(spec)) or "none"
            raise InvalidParameterError(
                f"{game_name} has no parameter {key!r}; its parameters: {known}"
            )
        params[key] = parse_param_value(text, spec[key], key)
    return params


def game_parameter_spec(game_name: str) -> dict[str, Any]:
    """The declared parameters of a registered game with their default values."""
    if game_name not in pyspiel.registered_names():
        ours = ", ".join(e.name for e in games.entries())
        raise InvalidParameterError(
            f"unknown game {game_name!r}; Farol's games: {ours} (or any OpenSpiel game name)"
        )
    game_type = next(t for t in pyspiel.registered_games() if t.short_name == game_name)
    return dict(game_type.parameter_specification)


def load_game(game_name: str, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """Load a game, turning OpenSpiel's and our games' errors into :class:`FarolError`."""
    game_parameter_spec(game_name)  # unknown names fail here, with the list of ours
    try:
        with _native_stderr_quiet():
            return pyspiel.load_game(game_name, dict(params or {}))
    except FarolError:
        raise
    except (pyspiel.SpielError, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, TypeError) and "max_game_length=" in str(exc):
            raise InvalidParameterError(_too_long(game_name, params or {})) from None
        message = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        message = message.replace("OpenSpiel exception: ", "")
        raise InvalidParameterError(f"cannot load {game_name}: {message}") from None


@contextlib.contextmanager
def _native_stderr_quiet() -> Iterator[None]:
    """Silence the process's stderr (file descriptor 2) inside the block: OpenSpiel's C++
    prints an exception's text there before raising it, and the one-line error that
    follows says the same."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to silence
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _too_long(game_name: str, params: Mapping[str, Any]) -> str:
    """The message for parameters that make a game longer than OpenSpiel's ``GameInfo``
    can hold (a C++ ``int``), naming the largest whole-number parameter given."""
    given = sorted(((abs(v), k) for k, v in params.items()
                    if isinstance(v, int) and not isinstance(v, bool)), reverse=True)
    hint = f"; lower {given[0][1]} (given {params[given[0][1]]})" if given else ""
    return (f"cannot load {game_name}: its parameters make the game longer than OpenSpiel "
            f"can count (at most {INT_MAX} moves){hint}")
