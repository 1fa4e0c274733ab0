"""How the strongest Goat Lords agent plays: seeded games of ``best`` in every seat, each
kept whole (every draw and every move), and what its decisions show: when it duels,
when it spends a wild, what it keeps.

A run (:class:`HabitRun`) is a match of the rulebook's game (rounds until 1,000 points)
with the same agent in every seat; each finished game is appended to
``goat_lords/habits/<name>.games.jsonl`` in the data folder with its moves and the
processor seconds it took, so a stopped run resumes where it stopped, and the run's
summary (games, seed, version, commit, CPU time) is stored beside it as ``<name>.json``.
The games are read back by replaying their moves (:func:`decisions`): nothing of the
agent is needed to read them, and a new question of its play needs no new games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from analysis.goat_lords import GAME
from analysis.goat_lords.bots import build_bot, pinned
from analysis.play.match import Schedule, compute_seconds, play_games, read_rows
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text

SEED = 20261207
AGENT = pinned("best")  # the strongest agent at the budget it plays by default


@dataclass(frozen=True)
class HabitRun:
    """``games`` seeded games of ``agent`` in each of ``players`` seats."""

    players: int
    games: int
    scoring: str = "rounds"
    agent: str = AGENT
    seed: int = SEED

    @property
    def name(self) -> str:
        return f"{self.agent.replace(':', '')}_{self.scoring}_{self.players}p"

    def params(self) -> dict:
        return {"players": self.players, "scoring": self.scoring}

    def agents(self) -> tuple[str, ...]:
        return (self.agent,) * self.players

    def header(self) -> dict:
        """The first line of its games' file (as the match runner writes it)."""
        return {"game": GAME, "params": self.params(), "agents": list(self.agents()),
                "seed": self.seed}


# The runs the guide reads: the rulebook's game at 2 and at 4 players (about 5 and 10
# CPU-seconds a game).
RUNS = (HabitRun(2, 240), HabitRun(4, 80))


def games_path(run: HabitRun):
    return store.data("goat_lords", "habits", f"{run.name}.games.jsonl")


def summary_path(run: HabitRun):
    return store.data("goat_lords", "habits", f"{run.name}.json")


def keep_moves(state, index: int, decisions: int) -> dict:
    """What a game's row keeps: every action of the game, chance's included."""
    return {"history": [int(a) for a in state.history()], "decisions": decisions}


SCHEDULE = Schedule(finish=keep_moves)


def play(run: HabitRun, workers: int = 1, progress: bool | None = None) -> dict:
    """Play the games of ``run`` not stored yet (resumable), then store its summary;
    returns the summary."""
    path = games_path(run)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = play_games(GAME, run.agents(), run.games, run.seed, run.params(), workers=workers,
                      progress=progress, build=build_bot, record=path, clock=True,
                      schedule=SCHEDULE, chunk=5, desc=run.name)
    summary = {"game": GAME, "params": run.params(), "agent": run.agent,
               "games": len(rows), "seed": run.seed, "version": farol_version(),
               "commit": code_commit(), "cpu_seconds": compute_seconds(rows)}
    atomic_write_text(summary_path(run), json.dumps(summary, indent=1) + "\n")
    return summary


def stored(run: HabitRun) -> dict[int, dict]:
    """The games of ``run`` stored so far (game index -> row); none if no file."""
    path = games_path(run)
    if not path.exists():
        return {}
    return {i: r for i, r in read_rows(path, run.header()).items() if i < run.games}


def summary(run: HabitRun) -> dict | None:
    """The stored summary of ``run`` (None: not played to the end yet)."""
    path = summary_path(run)
    return store.read_json(path) if path.exists() else None
