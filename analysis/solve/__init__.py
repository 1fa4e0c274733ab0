"""Farol's solver engine: compile a two-player zero-sum game once, iterate CFR fast.

:func:`solve` compiles a game (or loads it from the disk cache) and solves it into a
:class:`SolveResult`; :func:`compile_cached` / :func:`compile_game` give the compiled
arrays, :class:`CFRSolver` controls the iterations, :func:`exploitability` and
:func:`best_response` measure a strategy exactly, :func:`solve_lp` values small games.
``docs/solve.md`` tells how it works.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyspiel

from analysis.shared import store
from analysis.shared.params import load_game
from analysis.shared.store import CorruptFileError
from analysis.solve import cache as cache_module
from analysis.solve.best_response import (
    Exploitability,
    best_response,
    expected_value,
    exploitability,
    uniform_strategy,
)
from analysis.solve.cfr import METHODS, CFRSolver
from analysis.solve.compile import CompiledGame, check_supported, compile_game
from analysis.solve.errors import (
    GameTooLargeError,
    SolveError,
    UnsupportedGameError,
)
from analysis.solve.fingerprint import game_code_fingerprint
from analysis.solve.lp import solve_lp
from analysis.solve.result import SolveResult
from games.errors import InvalidParameterError

__all__ = [
    "METHODS",
    "CFRSolver",
    "CompiledGame",
    "Exploitability",
    "GameTooLargeError",
    "SolveError",
    "SolveResult",
    "UnsupportedGameError",
    "best_response",
    "compile_cached",
    "compile_game",
    "expected_value",
    "exploitability",
    "load_game_arg",
    "make_result",
    "solve",
    "solve_lp",
    "uniform_strategy",
]


def load_game_arg(game: pyspiel.Game | str, params: dict[str, Any] | None = None) -> pyspiel.Game:
    """A ``pyspiel.Game`` from a game, a registered name (with ``params``) or a full game
    string such as ``turn_based_simultaneous_game(game=goofspiel(num_cards=4))``."""
    if not isinstance(game, str):
        return game
    if "(" in game:
        if params:
            raise SolveError("give parameters either in the game string or separately")
        try:
            return pyspiel.load_game(game)
        except pyspiel.SpielError as exc:
            raise InvalidParameterError(f"cannot load {game}: {str(exc).strip()}") from None
    return load_game(game, params)


def compile_cached(
    game: pyspiel.Game | str,
    graph: bool = False,
    *,
    use_cache: bool = True,
    rebuild: bool = False,
    max_memory: int | None = None,
    progress: bool | None = None,
    directory: str | Path | None = None,
) -> CompiledGame:
    """Compile ``game``, through the on-disk cache.

    Parameters
    ----------
    use_cache
        Read and write the cache (``directory``, default ``$FAROL_CACHE_DIR`` or
        ``.farol_cache``).
    rebuild
        Ignore (and overwrite) a cached copy.

    A cached file that is damaged or holds something else is named in one line on
    stderr ("... is damaged; rebuilding it") and replaced by a fresh compile.
    """
    game = load_game_arg(game)
    check_supported(game)
    if not use_cache:
        return compile_game(game, graph=graph, max_memory=max_memory, progress=progress)
    mode = "graph" if graph else "tree"
    key = cache_module.cache_key(str(game), mode, game_code_fingerprint(game))
    root = Path(directory) if directory is not None else store.cache_root()
    path = root / "compiled" / f"{key}.npz"
    if path.exists() and not rebuild:
        try:
            return cache_module.load_compiled(path, key)
        except CorruptFileError as exc:
            # A cache is ours to rebuild: say so in one line, then compile again.
            store.say_damaged(path, exc.reason)
    compiled = compile_game(game, graph=graph, max_memory=max_memory, progress=progress)
    cache_module.save_compiled(compiled, path, key)
    return compiled


def solve(
    game: pyspiel.Game | str,
    *,
    params: dict[str, Any] | None = None,
    method: str = "cfr+",
    target_exploitability: float | None = None,
    iterations: int | None = None,
    seconds: float | None = None,
    graph: bool = False,
    use_cache: bool = True,
    rebuild_cache: bool = False,
    checkpoint: str | Path | None = None,
    resume: bool = True,
    max_memory: int | None = None,
    progress: bool | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    gamma: float | None = None,
) -> SolveResult:
    """Solve a two-player zero-sum game; see the module docstring.

    Parameters
    ----------
    game, params
        A ``pyspiel.Game``, or a game name and its parameters.
    method
        ``"cfr+"``, ``"dcfr"``, ``"lcfr"``, ``"pcfr+"`` or ``"pdcfr+"`` (see
        :class:`CFRSolver`); ``alpha``, ``beta``, ``gamma`` override DCFR's, LCFR's and
        PDCFR+'s parameters.
    target_exploitability, iterations, seconds
        Stopping rules (any that holds stops; none given: 1000 iterations).
    graph
        State-graph mode (merge transpositions through ``state_key()``).
    checkpoint, resume
        Checkpoint path; with ``resume`` an existing checkpoint there is continued.
    max_memory
        Memory budget in bytes for the compiled game (default half the available memory).

    Returns
    -------
    SolveResult
    """
    if method not in METHODS:
        raise SolveError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    game = load_game_arg(game, params)
    compiled = compile_cached(
        game,
        graph=graph,
        use_cache=use_cache,
        rebuild=rebuild_cache,
        max_memory=max_memory,
        progress=progress,
    )
    solver = CFRSolver(compiled, method, alpha=alpha, beta=beta, gamma=gamma)
    if checkpoint is not None and resume and Path(checkpoint).exists():
        solver.load_checkpoint(checkpoint)
    report = solver.run(
        target_exploitability=target_exploitability,
        iterations=iterations,
        seconds=seconds,
        checkpoint=checkpoint,
        progress=progress,
    )
    return make_result(game, compiled, solver, report)


def make_result(
    game: pyspiel.Game, compiled: CompiledGame, solver: CFRSolver, report: Exploitability
) -> SolveResult:
    """Freeze a solver's state into a :class:`SolveResult`."""
    return SolveResult(
        game=str(game),
        parameters=_plain(game.get_parameters()),
        method=solver.method,
        iterations=solver.iteration,
        seconds=solver.seconds,
        exploitability=report.exploitability,
        value=report.value,
        nash_conv=report.nash_conv,
        best_response=report.best_response,
        mode=compiled.mode,
        abstraction=compiled.imperfect_recall,
        compiled_game=compiled.game,
        method_parameters=solver.method_parameters,
        engine=solver.engine,
        compile_seconds=compiled.compile_seconds,
        num_nodes=compiled.num_nodes,
        infoset_keys=list(compiled.infoset_keys),
        infoset_player=compiled.infoset_player,
        infoset_offset=compiled.infoset_offset,
        infoset_actions=compiled.infoset_actions,
        strategy=solver.average_strategy(),
        action_names=compiled.action_names,
    )


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """Game parameters as JSON-friendly values (nested games become their strings)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        out[key] = value if isinstance(value, (bool, int, float, str)) else str(value)
    return out
