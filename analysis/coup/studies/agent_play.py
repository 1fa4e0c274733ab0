"""How a strong 2-player agent plays, counted over its games against itself: how
often it claims, bluffs, challenges and blocks, by character, cards left and coins, its
turn by the hand it holds, and how all that changes with what the opponent has shown
(caught bluffing before or not; a character claimed before or not).

The tables have the blueprint's form (:class:`~analysis.coup.studies.blueprint_bluffs.BluffTable`)
so the guide reads either; each names the agent that played. A rate is a ratio of counts
over the games, with a 95% jackknife interval over batches of games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from concurrent.futures import as_completed
from pathlib import Path

import numpy as np
import pyspiel

import analysis.coup.agents  # noqa: F401  (registers every Coup agent in every process)
from analysis.coup.model import GAME
from analysis.coup.studies import blueprint_bluffs
from analysis.coup.studies.blueprint_bluffs import BATCHES, BluffTable, Tally, table_of, tally_games
from analysis.play.bots import make_bot
from analysis.shared import store
from analysis.shared.distribute import local_pool
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text
from games.errors import InvalidParameterError

# The default agent of ``farol coup play-tables``. ``best`` at 2 players is the
# re-solving agent (``--agent resolve``); each stored table names the agent that played
# it, and the guide says which.
AGENT = "belief"
AGENTS = ("belief", "resolve")  # the 2-player agents whose tables the guide can read
GAMES = 2000
SEED = 20261204


CHUNK = 10  # games a stored chunk: a stopped run loses at most a chunk a process


def play_tables(deck: str, setup: str, games: int = GAMES, seed: int = SEED,
                agent: str = AGENT, progress: bool = False, workers: int = 1,
                folder: str | Path | None = None) -> BluffTable:
    """``games`` seeded games of ``agent`` against itself, tallied (with contexts).

    The games are played in chunks of :data:`CHUNK`, on ``workers`` processes; each
    chunk's tally is kept under ``folder`` (by default the cache, per agent, deck, setup,
    games, seed and Farol version) as it finishes, so a stopped run resumes where it
    was. The table is the same whichever processes played which chunks."""
    game = _game(deck, setup)
    folder = Path(folder) if folder is not None else chunk_folder(deck, setup, games, seed, agent)
    folder.mkdir(parents=True, exist_ok=True)
    parts = chunks(games)
    kept = {part: _read_chunk(_chunk_path(folder, part)) for part in parts}
    todo = [part for part in parts if kept[part] is None]
    calls = [(deck, setup, games, seed, agent, start, stop) for start, stop in todo]
    bar = progress_bar(total=games, initial=games - sum(b - a for a, b in todo),
                       desc=f"{agent} play {deck} {setup}", unit=" games", progress=progress)

    def keep(chunk: dict) -> None:
        part = (chunk["start"], chunk["stop"])
        atomic_write_text(_chunk_path(folder, part), json.dumps(chunk))
        kept[part] = chunk
        bar.update(part[1] - part[0])

    try:
        if workers <= 1:
            for call in calls:
                keep(play_chunk(*call))
        elif calls:
            with local_pool(workers) as pool:
                for fut in as_completed([pool.submit(play_chunk, *call) for call in calls]):
                    keep(fut.result())
    finally:
        bar.close()
    tally = Tally()
    for part in parts:
        tally.add(Tally.from_json(kept[part]["tally"]))
    commits = sorted({kept[part]["commit"] for part in parts})
    return table_of(game, games, seed, tally, agent,
                    {"chunk_commits": commits} if commits != [code_commit()] else None)


def chunks(games: int) -> list[tuple[int, int]]:
    """The games ``[start, stop)`` of each chunk: at most :data:`CHUNK`, none across a
    batch of the intervals (so every chunk adds to one batch)."""
    if games % BATCHES:
        raise InvalidParameterError(f"games must be a multiple of {BATCHES}")
    size = games // BATCHES
    return [(a, min(a + CHUNK, b * size + size))
            for b in range(BATCHES) for a in range(b * size, b * size + size, CHUNK)]


def play_chunk(deck: str, setup: str, games: int, seed: int, agent: str, start: int,
               stop: int) -> dict:
    """Games ``start`` to ``stop`` of the run, tallied, with the commit that played them."""
    game = _game(deck, setup)
    tally = tally_games(game, games, seed, _mixes(game, games, seed, agent),
                        range(start, stop), contexts=True)
    return {"start": start, "stop": stop, "commit": code_commit(), "tally": tally.to_json()}


def chunk_folder(deck: str, setup: str, games: int, seed: int, agent: str) -> Path:
    return store.cache("coup", "play-tables",
                       f"{agent}-{deck}-{setup}-{games}games-seed{seed}-v{farol_version()}")


def _chunk_path(folder: Path, part: tuple[int, int]) -> Path:
    return folder / f"games-{part[0]:06d}-{part[1]:06d}.json"


def _read_chunk(path: Path) -> dict | None:
    # A chunk cut short by a stop (or damaged) is played again.
    try:
        chunk = json.loads(path.read_text())
        return chunk if {"start", "stop", "commit", "tally"} <= set(chunk) else None
    except (OSError, ValueError):
        return None


def _game(deck: str, setup: str) -> pyspiel.Game:
    return pyspiel.load_game(GAME, {"players": 2, "deck": deck, "two_player_setup": setup})


def _mixes(game: pyspiel.Game, games: int, seed: int, agent: str):
    seeds = np.random.SeedSequence([seed, 1]).generate_state(games)

    def mixes(i: int):
        players = [make_bot(agent, game, s, int(seeds[i]) + s) for s in range(2)]
        return lambda state: {int(players[state.current_player()](state)): 1.0}

    return mixes


def table_path(deck: str, setup: str) -> Path:
    return store.data("coup", "agent", f"{deck}-{setup}-play.json")


def save_table(table: BluffTable) -> None:
    blueprint_bluffs.save_table(table, table_path)


def load_tables(deck: str, setups: Iterable[str]) -> dict[str, BluffTable]:
    """The stored tables of ``deck`` for those of ``setups`` played."""
    return blueprint_bluffs.load_tables(deck, setups, table_path)
