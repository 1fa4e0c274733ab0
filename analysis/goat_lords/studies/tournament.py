"""Goat Lords tournaments: seeded batches of games played over processes into a resumable CSV.

An :class:`Experiment` names one bot per seat and the rules; game ``i`` is seeded from the
experiment's seed and ``i`` alone, and each finished game is appended to the CSV, so a
rerun plays only the missing games. The games are played by the match runner
(:mod:`analysis.play.match`) with the tournament's own seeding, seating, deal (the
extra wild) and CSV; the stored CSVs replay bit for bit.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents import build_bot
from analysis.play.bots import sample_chance
from analysis.play.match import RowFile, Schedule, play_games, play_row
from analysis.shared import store
from analysis.shared.store import damaged_record
from games.goat_lords.cards import IS_WILD, KINDS, NUM_KINDS
from games.goat_lords.table import STARTER, Table


@dataclass(frozen=True)
class Experiment:
    """A batch of seeded games with the same bots and rules.

    ``bots`` names one bot per seat; with ``rotate`` the seating shifts by one seat
    each game, so every bot sits in every seat equally often. Game ``i`` is seeded
    from ``seed`` and ``i`` only, so any subset of games can be (re)played alone.
    """

    name: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 20261130
    params: tuple[tuple[str, object], ...] = ()
    rotate: bool = False
    label: str = ""
    extra_wild: bool = False

    def treated_seat(self, index: int) -> int | None:
        """With ``extra_wild``, the seat of game ``index`` dealt one more wild (else ``None``)."""
        return index % self.players if self.extra_wild else None

    def game_params(self) -> dict:
        return {"players": self.players, "scoring": "single", **dict(self.params)}

    def key(self) -> str:
        """Identifies the games (not how many): a CSV holds rows of one key only."""
        spec = json.dumps([self.players, self.bots, self.seed, sorted(self.game_params().items()),
                           self.rotate] + (["extra_wild"] if self.extra_wild else []), default=str)
        return hashlib.sha1(spec.encode()).hexdigest()[:10]

    def seating(self, index: int) -> tuple[str, ...]:
        if not self.rotate:
            return self.bots
        shift = index % self.players
        return self.bots[-shift:] + self.bots[:-shift] if shift else self.bots


def _join(values) -> str:
    return ";".join(str(v) for v in values)


def tournament_seeds(seed: int, index: int, players: int) -> list[int]:
    """Game ``index``'s seeds: chance's, then seat ``s``'s (chance's + 17(s + 1))."""
    game_seed = (seed * 1_000_003 + index * 7_919) % (2**31 - 1)
    return [game_seed] + [game_seed + 17 * (seat + 1) for seat in range(players)]


def _chance(exp: Experiment, game: pyspiel.Game, seed: int,
            index: int) -> Callable[[pyspiel.State], int]:
    """Chance drawn from ``seed``; with ``extra_wild``, the treated seat's swap after the deal."""
    rng = np.random.default_rng(seed)
    treated = exp.treated_seat(index)

    def choose(state: pyspiel.State) -> int:
        nonlocal treated
        if treated is not None and state.table.phase == STARTER:
            swap_in_a_wild(state.table, treated, rng)
            treated = None
        return sample_chance(state, rng)

    return choose


def _fields(exp: Experiment, state: pyspiel.State, index: int, decisions: int) -> dict:
    """The CSV row of a finished game."""
    t = state.table
    return {
        "key": exp.key(), "index": index, "seed": tournament_seeds(exp.seed, index, 0)[0],
        "players": exp.players, "seating": _join(exp.seating(index)),
        "winners": _join(t.winning), "returns": _join(f"{r:z.6g}" for r in state.returns()),
        "points": _join(t.round_points[-1]), "wilds": _join(t.stats["wilds_drawn"]),
        "turns": t.turns, "decisions": decisions,
        "attacker_wins": t.stats["attacker_wins"], "defender_wins": t.stats["defender_wins"],
        "reshuffles": t.stats["reshuffles"],
    }


def schedule(exp: Experiment) -> Schedule:
    """How ``exp``'s games are seeded, seated and dealt, and what their rows hold."""
    return Schedule(seeds=tournament_seeds, rotate=exp.rotate, chance=partial(_chance, exp),
                    finish=partial(_fields, exp))


def play_one(exp: Experiment, index: int) -> dict:
    """Play game ``index`` of ``exp``; returns its CSV row."""
    row = play_row(GAME, exp.game_params(), exp.bots, exp.seed, index, build_bot,
                   schedule=schedule(exp))
    return {c: row[c] for c in COLUMNS}


def swap_in_a_wild(table: Table, seat: int, rng: np.random.Generator) -> None:
    """The experiment's intervention: after the deal, ``seat``'s cheapest goat is swapped for a
    wild from the draw pile (Goat Lord or Goatini by their counts there).

    Everything before it (the deal) is the same as in the game without it, so
    comparing the two by game index measures what one more wild is worth.
    """
    goats = [k for k in range(NUM_KINDS) if table.hands[seat][k] and not IS_WILD[k]]
    wilds = [k for k in range(NUM_KINDS) if IS_WILD[k] and table.draw[k]]
    if not goats or not wilds:
        return
    goat = min(goats, key=lambda k: (table.cfg.values[k], k))
    counts = np.array([table.draw[k] for k in wilds], dtype=float)
    wild = wilds[int(rng.choice(len(wilds), p=counts / counts.sum()))]
    table.hands[seat][goat] -= 1
    table.draw[goat] += 1
    table.hands[seat][wild] += 1
    table.draw[wild] -= 1
    table.stats["wilds_drawn"][seat] += 1
    # The seat's own record of its deal says it drew the wild: what it saw is then the
    # hand it holds, and its beliefs about the hidden cards stay true.
    drawn = f"+{KINDS[goat].key}"
    for i in range(len(table.log) - 1, -1, -1):
        if table.log[i] == (seat, drawn):
            table.log[i] = (seat, f"+{KINDS[wild].key}")
            break


COLUMNS = ["key", "index", "seed", "players", "seating", "winners", "returns", "points", "wilds",
           "turns", "decisions", "attacker_wins", "defender_wins", "reshuffles"]


def csv_folder(quick: bool = False) -> Path:
    """Where the tournaments' CSVs live: the game's folder of the store's data root
    (``goat_lords/tournaments``); quick (tiny, noisy) runs go to the cache instead, so
    they never mix with the stored results."""
    return store.cache("goat_lords") if quick else store.data("goat_lords", "tournaments")


def csv_path(exp: Experiment, data_dir: Path | None = None) -> Path:
    """The CSV of ``exp`` in ``data_dir`` (default :func:`csv_folder`)."""
    folder = csv_folder() if data_dir is None else Path(data_dir)
    return folder / f"goat_lords_{exp.name}.csv"


def load_rows(exp: Experiment, data_dir: Path | None = None) -> pd.DataFrame:
    """The finished games of ``exp`` stored in ``data_dir`` (rows of other keys ignored)."""
    path = csv_path(exp, data_dir)
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        return _damaged(path, "not text")
    # A run killed while appending may leave a last line without its newline: not a game.
    text = text[: text.rfind("\n") + 1]
    if not text:
        return pd.DataFrame(columns=COLUMNS)
    try:
        df = pd.read_csv(io.StringIO(text), dtype={"winners": str, "returns": str, "points": str,
                                                   "wilds": str, "seating": str, "key": str})
    except (ValueError, pd.errors.ParserError) as exc:  # bytes that are not our rows
        return _damaged(path, str(exc).strip().splitlines()[0])
    if list(df.columns) != COLUMNS:
        return _damaged(path, "not a tournament's rows (other columns)")
    return df[df["key"] == exp.key()].drop_duplicates("index").sort_values("index")


def _damaged(path: Path, reason: str) -> pd.DataFrame:
    """A damaged CSV: in the cache (quick runs) it is named, removed and played again;
    a stored result is refused naming it."""
    if path.resolve().is_relative_to(store.cache_root().resolve()):
        store.say_damaged(path, reason)
        path.unlink()
        return pd.DataFrame(columns=COLUMNS)
    raise damaged_record(path, reason)


def drop_partial_line(path: Path) -> None:
    """Cut a last line left without its newline (a run killed while appending), so the
    rows appended next start on a line of their own; its game is played again."""
    if not path.exists():
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


class CsvRows(RowFile):
    """An experiment's games in its CSV (rows of other experiments left alone)."""

    def __init__(self, exp: Experiment, data_dir: Path):
        self.exp, self.path = exp, csv_path(exp, data_dir)

    def read(self) -> dict[int, dict]:
        drop_partial_line(self.path)
        return {int(r["index"]): r for r in load_rows(self.exp, self.path.parent).to_dict("records")}

    def append(self, rows: list[dict]) -> None:
        frame = pd.DataFrame(rows, columns=COLUMNS)
        new = not self.path.exists() or self.path.stat().st_size == 0
        frame.to_csv(self.path, mode="a", header=new, index=False)


def run_experiment(
    exp: Experiment,
    data_dir: Path | None = None,
    workers: int | None = None,
    chunk: int = 25,
    progress: bool | None = None,
    scheduler=None,
) -> pd.DataFrame:
    """Play the games of ``exp`` not yet in its CSV, in parallel; returns all its rows.

    The games are a match (:func:`analysis.play.match.play_games`) with the
    tournament's seeding, seating and deal; finished chunks are appended to
    :func:`csv_path` (in ``data_dir``, default the store's data root) as they arrive, so
    an interrupted run resumes where it stopped. ``scheduler``: a Dask scheduler's
    address (or a ``distributed.Client``) to play the chunks on a cluster instead of
    local processes; game ``i`` is the same either way.
    """
    data_dir = csv_folder() if data_dir is None else Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    play_games(GAME, exp.bots, exp.games, exp.seed, exp.game_params(),
               workers=workers or min(2, os.cpu_count() or 1), progress=progress,
               build=build_bot, record=CsvRows(exp, data_dir), scheduler=scheduler,
               schedule=schedule(exp), chunk=chunk, desc=exp.name)
    return played_rows(exp, data_dir)


def played_rows(exp: Experiment, data_dir: Path | None = None) -> pd.DataFrame:
    """The rows of ``exp``'s games played so far (none of a longer run's extra games)."""
    rows = load_rows(exp, data_dir)
    return rows[rows["index"] < exp.games]

