"""Sweeps of 1v1 endgames and of their brackets: in parallel, one JSON file per endgame, resumable.

Each task solves one :class:`~analysis.coup.model.Endgame` and writes its record under
the data folder (:mod:`analysis.coup.model` says where), committed so ``farol report
coup`` reuses it. A sweep skips endgames already on disk, so an interrupted sweep
resumes where it stopped; records are written atomically. ``farol coup sweep`` and
``farol coup brackets`` run them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analysis.coup.model import (
    CONVERGED_WIDTH,
    DEFAULT_CAP,
    MAIN_REVEALED,
    Endgame,
    StoredRecord,
    brackets_by_cap,
    brackets_dir,
    data_dir,
    endgames_dir,
    intersect_brackets,
    load_bracket,
    load_record,
    read_typed_rows,
    save_bracket,
    save_record,
)
from analysis.coup.solvers.brackets import solve_bracket
from analysis.coup.solvers.endgames import solve_endgame, solve_priced_endgame
from analysis.coup.studies.runner import run_all
from analysis.shared.store import read_rows, write_rows
from analysis.solve.errors import GameTooLargeError
from games.coup import cards as C
from games.coup.cards import DECKS

COINS = tuple(range(10))
# Endgames also checked by OpenSpiel's own exploitability (the rest by the engine's exact
# best response on the same perfect-recall tree): every third coin pair.
CHECK_EVERY = 3


def grid(coins: Iterable[int] = COINS, decks: Iterable[str] = DECKS,
         revealed: tuple[str, str] = MAIN_REVEALED, cap: int = DEFAULT_CAP) -> list[Endgame]:
    """Every (mover coins, other coins) pair for each deck.

    A mover with 7+ coins wins on the first turn (an unblockable, unchallengeable Coup),
    so those endgames are solved with cap 1: a larger cap changes nothing (tested in
    ``tests/coup/test_coup_analysis.py``) and only adds histories nobody reaches.
    """
    coins = tuple(coins)
    return [Endgame(a, b, deck, revealed, cap if a < C.COUP_COST else 1)
            for deck in decks for a in coins for b in coins]


def run_task(endgame: Endgame, directory: str, check: bool, priced: bool = False) -> dict:
    """Solve one endgame and write its record (the worker function); ``priced``: with the
    cap priced by Markov guarantees (no OpenSpiel check: its game scores the cap 0)."""
    if priced:
        record = solve_priced_endgame(endgame)
    else:
        record, _ = solve_endgame(endgame, openspiel_check=check, use_cache=False)
    save_record(Path(directory), endgame, record)
    return record


def sweep(endgames: list[Endgame], directory: Path | None = None, workers: int = 2,
          progress: bool = True, priced: bool = False) -> list[dict]:
    """Solve every endgame not yet on disk; returns all records in ``endgames`` order
    (``priced``: the cap priced by Markov guarantees, :func:`run_task`; default
    directory: :func:`~analysis.coup.model.endgames_dir`)."""
    directory = endgames_dir() if directory is None else Path(directory)
    todo = [(eg, str(directory), i % CHECK_EVERY == 0, priced)
            for i, eg in enumerate(endgames) if load_record(directory, eg) is None]
    run_all(run_task, todo, workers, progress, "coup endgames")
    return [load_record(directory, eg) for eg in endgames]


# --------------------------------------------------------------------------- turn caps
CAP_STUDY_POSITIONS = ((0, 0), (2, 2), (3, 0), (5, 2), (1, 9), (3, 3), (1, 2))
CAP_STUDY_CAPS = (1, 2, 3)


def cap_study_path() -> Path:
    """Where the turn-cap study's rows live."""
    return data_dir("cap_study.json")


@dataclass(frozen=True)
class CapStudyRow(StoredRecord):
    """One position solved at one cap in the turn-cap study (:func:`cap_study_sweep`)."""

    value: float | None = None
    win: float | None = None
    draw: float | None = None
    lose: float | None = None
    nodes: int | None = None
    infosets: int | None = None
    iterations: int | None = None
    exploitability: float | None = None
    compile_seconds: float | None = None
    solve_seconds: float | None = None
    deck: str | None = None
    mover_coins: int | None = None
    other_coins: int | None = None
    turn_cap: int | None = None
    key_order: tuple[str, ...] = field(default=(), compare=False, repr=False)


def load_cap_study(path: Path | None = None) -> dict[str, CapStudyRow]:
    """The turn-cap study's rows by endgame slug; raises ``OSError``/``ValueError`` when
    the file is missing or unreadable."""
    return read_typed_rows(CapStudyRow, cap_study_path() if path is None else path)


def cap_study_sweep(positions=CAP_STUDY_POSITIONS, caps=CAP_STUDY_CAPS,
                    decks=("inquisitor",), path: Path | None = None) -> dict:
    """Solve each position at each cap (resumable: rows already in ``path`` are kept)."""
    path = cap_study_path() if path is None else path
    rows = read_rows(path)
    for deck in decks:
        for a, b in positions:
            for cap in caps:
                eg = Endgame(a, b, deck, MAIN_REVEALED, cap)
                if eg.slug() in rows:
                    continue
                record, _ = solve_endgame(eg, use_cache=False)
                rows[eg.slug()] = {k: record[k] for k in (
                    "value", "win", "draw", "lose", "nodes", "infosets", "iterations",
                    "exploitability", "compile_seconds", "solve_seconds")} | {
                    "deck": deck, "mover_coins": a, "other_coins": b, "turn_cap": cap}
                write_rows(path, rows)
    return rows


# --------------------------------------------------------------------------- brackets
def run_bracket_task(endgame: Endgame, directory: str, decisive: bool = False,
                     markov: bool = False, max_memory: int | None = None) -> dict | None:
    """Bound one endgame's uncapped value and write its record (the worker function).

    An endgame whose tree is over the memory budget is skipped with a one-line notice
    (``None``), so that one large tree does not stop a sweep.
    """
    try:
        record = solve_bracket(endgame, decisive=decisive, markov=markov,
                               max_memory=max_memory)
    except GameTooLargeError as exc:
        print(f"skipped {endgame.slug()}: {exc} (raise --max-memory)", file=sys.stderr)
        return None
    save_bracket(Path(directory), endgame, record)
    return record


def bracket_sweep(endgames: list[Endgame], directory: Path | None = None, workers: int = 2,
                  progress: bool = True, decisive: bool = False,
                  markov: bool = False, max_memory: int | None = None) -> list[dict]:
    """Bracket every endgame not yet on disk (resumable, in parallel); all records in order
    (``None`` for an endgame skipped as over the memory budget).

    The endgames run in the order given, so a sweep cut short has done the first ones
    (callers put the widest brackets first). ``decisive``: compile with winning Coups
    played (an exact reduction, :func:`analysis.coup.solvers.brackets.compile_endgame`);
    ``markov``: the cap pays the Markov guarantees
    (:func:`analysis.coup.solvers.brackets.compile_markov`); ``max_memory``: each compile's
    budget in bytes (default: half the available memory, per process).
    """
    directory = brackets_dir() if directory is None else Path(directory)
    todo = [(eg, str(directory), decisive, markov, max_memory) for eg in endgames
            if load_bracket(directory, eg) is None]
    run_all(run_bracket_task, todo, workers, progress, "coup brackets")
    return [load_bracket(directory, eg) for eg in endgames]


def _width_below(eg: Endgame, directory: Path, also: Path | None = None) -> float:
    # The width of the endgame's tightest bracket at the caps below its own (-1 without one).
    bracket = intersect_brackets(brackets_by_cap(directory, eg, range(1, eg.turn_cap), also))
    return bracket["width"] if bracket else -1.0


def widest_first(endgames: list[Endgame], directory: Path | None = None,
                 also: Path | None = None) -> list[Endgame]:
    """``endgames`` ordered by the width of their tightest bracket at lower caps (widest
    first; those without a lower-cap record last), so a sweep cut short has narrowed the
    worst. ``also``: a second directory of brackets counted (the other pricing)."""
    directory = brackets_dir() if directory is None else directory
    return sorted(endgames, key=lambda eg: _width_below(eg, directory, also), reverse=True)


def narrowest_open_first(endgames: list[Endgame], directory: Path | None = None,
                         also: Path | None = None) -> list[Endgame]:
    """The endgames whose tightest bracket at lower caps is still open (wider than
    :data:`~analysis.coup.model.CONVERGED_WIDTH`), narrowest first: those a larger cap is
    likeliest to close. Converged ones are left out (a larger cap cannot change them), and
    so are those without a lower-cap record. ``also``: a second directory counted."""
    directory = brackets_dir() if directory is None else directory
    widths = {eg: _width_below(eg, directory, also) for eg in endgames}
    return sorted((eg for eg in endgames if widths[eg] > CONVERGED_WIDTH), key=widths.get)


ORDERS = {"widest": widest_first, "narrowest": narrowest_open_first}


def bracket_grid(coins: Iterable[int] = COINS, decks: Iterable[str] = DECKS,
                 revealed: tuple[str, str] = MAIN_REVEALED, cap: int = DEFAULT_CAP) -> list[Endgame]:
    """:func:`grid` without the movers of 7+ coins at caps above 1: they Coup at once, so
    their cap-1 bracket is already closed (width 0)."""
    return [eg for eg in grid(coins, decks, revealed, cap)
            if eg.mover_coins < C.COUP_COST or cap == 1]


def bracket_caps(caps: Iterable[int], directory: Path, *, coins: Iterable[int] = COINS,
                 pairs: set[tuple[int, int]] | None = None, decks: Iterable[str] = DECKS,
                 revealed: tuple[str, str] = MAIN_REVEALED, order: str = "widest",
                 also: Path | None = None, limit: int = 0, workers: int = 2,
                 decisive: bool = False, markov: bool = False,
                 max_memory: int | None = None) -> int:
    """The bracket sweep cap by cap over the grid of ``coins`` (or only ``pairs``), each
    cap's endgames in ``order`` (:data:`ORDERS`, counting the brackets in ``also`` too) and
    at most ``limit`` of them (0: all); returns how many brackets are on disk."""
    total = 0
    decks = tuple(decks)
    for cap in sorted(caps):
        grid_ = bracket_grid(COINS if pairs else coins, decks, revealed, cap)
        if pairs:
            grid_ = [eg for eg in grid_ if (eg.mover_coins, eg.other_coins) in pairs]
        endgames = ORDERS[order](grid_, directory, also)
        if limit:
            endgames = endgames[:limit]
        records = bracket_sweep(endgames, directory, workers, decisive=decisive,
                                markov=markov, max_memory=max_memory)
        total += sum(r is not None for r in records)
    return total
