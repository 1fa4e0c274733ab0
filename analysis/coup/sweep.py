"""Sweeps of 1v1 endgames: in parallel, one JSON file per endgame, resumable.

Each task solves one :class:`~analysis.coup.endgames.Endgame` and writes its record
to ``<directory>/<slug>.json`` (default ``reports/data/coup/endgames``, committed so
``farol report coup`` reuses it). A sweep skips endgames already on disk, so an
interrupted sweep resumes where it stopped; records are written atomically.

``python -m analysis.coup.sweep --caps 2 --workers 2`` runs the main sweep (every
coin pair 0-9, both decks); ``--revealed`` and ``--coins`` change the grid.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from analysis.coup.brackets import CONVERGED_WIDTH
from analysis.coup.endgames import DECKS, DEFAULT_CAP, MAIN_REVEALED, Endgame
from analysis.solve.cache import atomic_write_text, read_rows, write_rows
from games.coup import cards as C

SWEEP_VERSION = 1
DEFAULT_DIR = Path("reports/data/coup/endgames")
# The same endgames with the cap priced by Markov guarantees, walked along the safe
# profile (analysis.coup.endgames.solve_priced_endgame).
PRICED_DIR = Path("reports/data/coup/endgames_priced")
COINS = tuple(range(10))
# Endgames also checked by OpenSpiel's own exploitability (the rest by the engine's exact
# best response on the same perfect-recall tree): every third coin pair.
CHECK_EVERY = 3


def grid(coins: Iterable[int] = COINS, decks: Iterable[str] = DECKS,
         revealed: tuple[str, str] = MAIN_REVEALED, cap: int = DEFAULT_CAP) -> list[Endgame]:
    """Every (mover coins, other coins) pair for each deck.

    A mover with 7+ coins wins on the first turn (an unblockable, unchallengeable Coup),
    so those endgames are solved with cap 1: a larger cap changes nothing (tested in
    ``tests/test_coup_analysis.py``) and only adds histories nobody reaches.
    """
    coins = tuple(coins)
    return [Endgame(a, b, deck, revealed, cap if a < C.COUP_COST else 1)
            for deck in decks for a in coins for b in coins]


def record_path(directory: Path, endgame: Endgame) -> Path:
    return Path(directory) / f"{endgame.slug()}.json"


def load_record(directory: Path, endgame: Endgame) -> dict | None:
    """The cached record of ``endgame``, or ``None`` (missing, unreadable or stale)."""
    path = record_path(directory, endgame)
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("version") == SWEEP_VERSION else None


def run_task(endgame: Endgame, directory: str, check: bool, priced: bool = False) -> dict:
    """Solve one endgame and write its record (the worker function); ``priced``: with the
    cap priced by Markov guarantees (no OpenSpiel check: its game scores the cap 0)."""
    from analysis.coup.endgames import solve_endgame, solve_priced_endgame

    if priced:
        record = solve_priced_endgame(endgame)
    else:
        record, _ = solve_endgame(endgame, openspiel_check=check, use_cache=False)
    record["version"] = SWEEP_VERSION
    atomic_write_text(record_path(Path(directory), endgame), json.dumps(record, indent=1) + "\n")
    return record


def _run_all(task, jobs: list[tuple], workers: int, progress: bool, desc: str) -> None:
    """``task(*job)`` for every job, in this process (``workers <= 1``) or in a pool of
    ``workers`` processes, with a progress bar; a job's error stops the sweep."""
    bar = None
    if progress and jobs:
        from tqdm.auto import tqdm

        # disable=None: no bar when stderr is not a terminal (logs, CI).
        bar = tqdm(total=len(jobs), desc=desc, unit=" endgame", disable=None)
    if workers <= 1:
        for job in jobs:
            task(*job)
            if bar is not None:
                bar.update(1)
    elif jobs:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(task, *job) for job in jobs]
            for future in as_completed(futures):
                future.result()
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()


def sweep(endgames: list[Endgame], directory: Path = DEFAULT_DIR, workers: int = 2,
          progress: bool = True, priced: bool = False) -> list[dict]:
    """Solve every endgame not yet on disk; returns all records in ``endgames`` order
    (``priced``: the cap priced by Markov guarantees, :func:`run_task`)."""
    directory = Path(directory)
    todo = [(eg, str(directory), i % CHECK_EVERY == 0, priced)
            for i, eg in enumerate(endgames) if load_record(directory, eg) is None]
    _run_all(run_task, todo, workers, progress, "coup endgames")
    return [load_record(directory, eg) for eg in endgames]


def cached(endgames: list[Endgame], directory: Path = DEFAULT_DIR) -> list[dict]:
    """The records already on disk (missing ones left out)."""
    out = (load_record(Path(directory), eg) for eg in endgames)
    return [r for r in out if r is not None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The sweep's options (shared by ``python -m`` and ``farol coup sweep``)."""
    parser.add_argument("--caps", default=str(DEFAULT_CAP), help="turn caps, comma-separated")
    parser.add_argument("--coins", default="0-9", help="coin range, e.g. 0-9 or 0,3,6")
    parser.add_argument("--decks", default=",".join(DECKS), help="decks, comma-separated")
    parser.add_argument("--revealed", default="-".join(MAIN_REVEALED),
                        help="mover's and other's revealed card, e.g. contessa-contessa")
    parser.add_argument("--workers", type=int, default=2, help="processes in parallel")
    parser.add_argument("--cap-pricing", default="draw", choices=("draw", "markov"),
                        help="draw (default): the cap scores 0; markov: the cap pays the "
                             "Markov guarantees and the study walks each player's safe "
                             f"strategy (records go to {PRICED_DIR} unless --directory)")
    parser.add_argument("--directory", default=None,
                        help=f"where the records go (one JSON file per endgame; default "
                             f"{DEFAULT_DIR})")


def run_args(args: argparse.Namespace) -> int:
    """Run the sweep the parsed options describe."""
    from games.errors import InvalidParameterError

    try:
        if "-" in args.coins and "," not in args.coins:
            lo, hi = (int(x) for x in args.coins.split("-"))
            coins = tuple(range(lo, hi + 1))
        else:
            coins = tuple(int(x) for x in args.coins.split(","))
        caps = [int(c) for c in args.caps.split(",")]
    except ValueError:
        raise InvalidParameterError(
            f"--coins {args.coins!r} / --caps {args.caps!r}: write numbers like 0-9 or 0,3,6"
        ) from None
    revealed = tuple(args.revealed.split("-"))
    if len(revealed) != 2:
        raise InvalidParameterError(f"--revealed {args.revealed!r}: write two cards, e.g. duke-captain")
    endgames = [eg for cap in caps for eg in grid(coins, args.decks.split(","), revealed, cap)]
    priced = args.cap_pricing == "markov"
    directory = Path(args.directory or (PRICED_DIR if priced else DEFAULT_DIR))
    records = sweep(endgames, directory, args.workers, priced=priced)
    print(f"{len(records)} endgames in {directory}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run_args(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())


# --------------------------------------------------------------------------- turn caps
CAP_STUDY_PATH = Path("reports/data/coup/cap_study.json")
CAP_STUDY_POSITIONS = ((0, 0), (2, 2), (3, 0), (5, 2), (1, 9), (3, 3), (1, 2))
CAP_STUDY_CAPS = (1, 2, 3)


def cap_study_sweep(positions=CAP_STUDY_POSITIONS, caps=CAP_STUDY_CAPS,
                    decks=("inquisitor",), path: Path = CAP_STUDY_PATH) -> dict:
    """Solve each position at each cap (resumable: rows already in ``path`` are kept)."""
    from analysis.coup.endgames import Endgame, solve_endgame

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
BRACKET_DIR = Path("reports/data/coup/brackets")
# Brackets whose cap pays the Markov guarantees (analysis.coup.guarantees).
MARKOV_BRACKET_DIR = Path("reports/data/coup/brackets_markov")


def bracket_path(directory: Path, endgame: Endgame) -> Path:
    return Path(directory) / f"{endgame.slug()}.json"


def load_bracket(directory: Path, endgame: Endgame) -> dict | None:
    """The cached bracket record of ``endgame``, or ``None`` (missing, unreadable or stale)."""
    try:
        record = json.loads(bracket_path(directory, endgame).read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("version") == SWEEP_VERSION else None


def run_bracket_task(endgame: Endgame, directory: str, decisive: bool = False,
                     markov: bool = False, max_memory: int | None = None) -> dict | None:
    """Bound one endgame's uncapped value and write its record (the worker function).

    An endgame whose tree is over the memory budget is skipped with a one-line notice
    (``None``), so that one large tree does not stop a sweep.
    """
    from analysis.coup.brackets import solve_bracket
    from analysis.solve.errors import GameTooLargeError

    try:
        record = solve_bracket(endgame, decisive=decisive, markov=markov,
                               max_memory=max_memory)
    except GameTooLargeError as exc:
        print(f"skipped {endgame.slug()}: {exc} (raise --max-memory)", file=sys.stderr)
        return None
    save_bracket(Path(directory), endgame, record)
    return record


def save_bracket(directory: Path, endgame: Endgame, record: dict) -> None:
    """Store ``record`` as ``endgame``'s bracket in ``directory``, stamped with the sweep's
    version (what :func:`load_bracket` reads back)."""
    record["version"] = SWEEP_VERSION
    atomic_write_text(bracket_path(directory, endgame), json.dumps(record, indent=1) + "\n")


def bracket_sweep(endgames: list[Endgame], directory: Path = BRACKET_DIR, workers: int = 2,
                  progress: bool = True, decisive: bool = False,
                  markov: bool = False, max_memory: int | None = None) -> list[dict]:
    """Bracket every endgame not yet on disk (resumable, in parallel); all records in order
    (``None`` for an endgame skipped as over the memory budget).

    The endgames run in the order given, so a sweep cut short has done the first ones
    (callers put the widest brackets first). ``decisive``: compile with winning Coups
    played (an exact reduction, :func:`analysis.coup.brackets.compile_endgame`);
    ``markov``: the cap pays the Markov guarantees
    (:func:`analysis.coup.brackets.compile_markov`); ``max_memory``: each compile's
    budget in bytes (default: half the available memory, per process).
    """
    directory = Path(directory)
    todo = [(eg, str(directory), decisive, markov, max_memory) for eg in endgames
            if load_bracket(directory, eg) is None]
    _run_all(run_bracket_task, todo, workers, progress, "coup brackets")
    return [load_bracket(directory, eg) for eg in endgames]


def cached_brackets(endgames: list[Endgame], directory: Path = BRACKET_DIR) -> list[dict]:
    """The bracket records already on disk (missing ones left out)."""
    out = (load_bracket(Path(directory), eg) for eg in endgames)
    return [r for r in out if r is not None]


def merge_brackets(records: list[dict]) -> dict:
    """One endgame's brackets at one cap, priced two ways (plain and Markov), as one: the
    larger lower end, the smaller upper end, the worse exploitability of each side."""
    if len(records) == 1:
        return records[0]
    lower = max(r["lower_win"] for r in records)
    upper = min(r["upper_win"] for r in records)
    side = {name: {"exploitability": max(r[name]["exploitability"] for r in records)}
            for name in ("low", "high") if all(name in r for r in records)}
    return {"endgame": records[0]["endgame"], "lower_win": lower, "upper_win": upper,
            "width": upper - lower, "converged": upper - lower <= CONVERGED_WIDTH,
            "cap_payoffs": "+".join(r.get("cap_payoffs", "loss/win") for r in records)} | side


def brackets_by_cap(directory: Path, endgame: Endgame, caps: Iterable[int] = range(1, 10),
                    also: Path | None = None) -> dict[int, dict]:
    """The bracket records on disk of ``endgame`` at each of ``caps`` (missing ones left
    out); ``also``: a second directory (the Markov-priced brackets), whose record at the
    same cap is merged in (:func:`merge_brackets`)."""
    out = {}
    for cap in caps:
        eg = dataclasses.replace(endgame, turn_cap=cap)
        records = [r for r in (load_bracket(directory, eg),
                               load_bracket(also, eg) if also is not None else None)
                   if r is not None]
        if records:
            out[cap] = merge_brackets(records)
    return out


def intersect_brackets(by_cap: dict[int, dict]) -> dict | None:
    """The intersection of one endgame's brackets at several caps (``{cap: record}``).

    Every cap's bracket holds the uncapped value, so their intersection does too:
    ``lower_win`` is the largest lower end, ``upper_win`` the smallest upper end
    (``lower_cap``/``upper_cap``: the smallest caps they come from), ``width``, and the
    ``caps`` used. ``None`` without a record.
    """
    if not by_cap:
        return None
    caps = sorted(by_cap)
    low = max(caps, key=lambda c: by_cap[c]["lower_win"])
    high = min(caps, key=lambda c: by_cap[c]["upper_win"])
    lower, upper = by_cap[low]["lower_win"], by_cap[high]["upper_win"]
    return {"lower_win": lower, "upper_win": upper, "width": upper - lower,
            "lower_cap": low, "upper_cap": high, "caps": caps}


def _width_below(eg: Endgame, directory: Path, also: Path | None = None) -> float:
    # The width of the endgame's tightest bracket at the caps below its own (-1 without one).
    bracket = intersect_brackets(brackets_by_cap(directory, eg, range(1, eg.turn_cap), also))
    return bracket["width"] if bracket else -1.0


def widest_first(endgames: list[Endgame], directory: Path = BRACKET_DIR,
                 also: Path | None = None) -> list[Endgame]:
    """``endgames`` ordered by the width of their tightest bracket at lower caps (widest
    first; those without a lower-cap record last), so a sweep cut short has narrowed the
    worst. ``also``: a second directory of brackets counted (the other pricing)."""
    return sorted(endgames, key=lambda eg: _width_below(eg, directory, also), reverse=True)


def narrowest_open_first(endgames: list[Endgame], directory: Path = BRACKET_DIR,
                         also: Path | None = None) -> list[Endgame]:
    """The endgames whose tightest bracket at lower caps is still open (wider than
    :data:`CONVERGED_WIDTH`), narrowest first: those a larger cap is likeliest to close.
    Converged ones are left out (a larger cap cannot change them), and so are those
    without a lower-cap record. ``also``: a second directory of brackets counted."""
    widths = {eg: _width_below(eg, directory, also) for eg in endgames}
    return sorted((eg for eg in endgames if widths[eg] > CONVERGED_WIDTH), key=widths.get)


def bracket_grid(coins: Iterable[int] = COINS, decks: Iterable[str] = DECKS,
                 revealed: tuple[str, str] = MAIN_REVEALED, cap: int = DEFAULT_CAP) -> list[Endgame]:
    """:func:`grid` without the movers of 7+ coins at caps above 1: they Coup at once, so
    their cap-1 bracket is already closed (width 0)."""
    return [eg for eg in grid(coins, decks, revealed, cap)
            if eg.mover_coins < C.COUP_COST or cap == 1]


def add_bracket_arguments(parser: argparse.ArgumentParser) -> None:
    """The bracket sweep's options (``farol coup brackets``)."""
    parser.add_argument("--caps", default="1,2,3", help="turn caps, comma-separated")
    parser.add_argument("--coins", default="0-9", help="coin range, e.g. 0-9 or 0,3,6")
    parser.add_argument("--pairs", default=None,
                        help="only these mover/other coin pairs, e.g. 1/7,2/7 (instead of "
                             "--coins)")
    parser.add_argument("--decks", default=",".join(DECKS), help="decks, comma-separated")
    parser.add_argument("--revealed", default="-".join(MAIN_REVEALED),
                        help="the two revealed cards, e.g. contessa-contessa")
    parser.add_argument("--limit", type=int, default=0,
                        help="solve at most this many endgames per cap (in --order)")
    parser.add_argument("--order", default="widest",
                        help="widest: the widest brackets at lower caps first (default); "
                             "narrowest: only the still open ones, narrowest first (the "
                             "likeliest to close); with the default directories both "
                             "pricings' brackets count")
    parser.add_argument("--decisive-coup", action="store_true",
                        help="compile with winning Coups played (exact; far smaller trees "
                             "where a player has 7+ coins)")
    parser.add_argument("--markov", action="store_true",
                        help="the cap pays each player's Markov guarantee instead of a loss "
                             "or a win (still rigorous, far tighter; implies --decisive-coup; "
                             f"records go to {MARKOV_BRACKET_DIR} unless --directory)")
    parser.add_argument("--workers", type=int, default=2, help="processes in parallel")
    parser.add_argument("--max-memory", metavar="SIZE", default=None,
                        help="each compile's memory budget, e.g. 20GB (default: half of the "
                             "available memory; an endgame over it is skipped)")
    parser.add_argument("--directory", default=None,
                        help=f"where the records go (one JSON file per endgame and cap; "
                             f"default {BRACKET_DIR})")


def parse_coins(text: str) -> tuple[int, ...]:
    """``"0-9"`` or ``"0,3,6"`` as a tuple of coin counts (one-line error otherwise)."""
    from games.errors import InvalidParameterError

    try:
        if "-" in text and "," not in text:
            lo, hi = (int(x) for x in text.split("-"))
            return tuple(range(lo, hi + 1))
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise InvalidParameterError(f"--coins {text!r}: write numbers like 0-9 or 0,3,6") from None


def run_bracket_args(args: argparse.Namespace) -> int:
    """Run the bracket sweep the parsed options describe, cap by cap."""
    from games.errors import InvalidParameterError

    coins = parse_coins(args.coins)
    try:
        caps = sorted(int(c) for c in args.caps.split(","))
    except ValueError:
        raise InvalidParameterError(f"--caps {args.caps!r}: write numbers like 1,2,3") from None
    revealed = tuple(args.revealed.split("-"))
    if len(revealed) != 2:
        raise InvalidParameterError(f"--revealed {args.revealed!r}: write two cards, e.g. duke-captain")
    from analysis.solve.compile import parse_memory

    max_memory = parse_memory(args.max_memory)
    orders = {"widest": widest_first, "narrowest": narrowest_open_first}
    if args.order not in orders:
        raise InvalidParameterError(f"--order {args.order!r}: choose widest or narrowest")
    directory = Path(args.directory or (MARKOV_BRACKET_DIR if args.markov else BRACKET_DIR))
    # With the default directories the order counts the other pricing's brackets too: an
    # endgame one of them has closed needs no more.
    also = None if args.directory else (BRACKET_DIR if args.markov else MARKOV_BRACKET_DIR)
    total = 0
    pairs = None
    if args.pairs:
        from analysis.coup.abstraction import parse_pairs

        pairs = set(parse_pairs(args.pairs))
    for cap in caps:
        grid_ = bracket_grid(COINS if pairs else coins, args.decks.split(","), revealed, cap)
        if pairs:
            grid_ = [eg for eg in grid_ if (eg.mover_coins, eg.other_coins) in pairs]
        endgames = orders[args.order](grid_, directory, also)
        if args.limit:
            endgames = endgames[:args.limit]
        records = bracket_sweep(endgames, directory, args.workers,
                                decisive=args.decisive_coup, markov=args.markov,
                                max_memory=max_memory)
        total += sum(r is not None for r in records)
    print(f"{total} brackets in {directory}")
    return 0
