"""Is Coup balanced? Seat win rates at 2-8 players, played by strong agents.

A *table* is a player count, a deck and, with 2 players, a setup. On each table:

- self-play: the strongest agent in every seat, so each seat's win rate (with its 95%
  interval) measures the seat, not the players;
- robustness: that agent in one seat against a table of one panel agent (seats
  rotated), so the seat answers do not rest on one way of playing;
- starting hands: in the self-play games, how often each pair of characters dealt wins.

Games are played by :func:`analysis.play.match.play_match` (each game seeded on its own, so
any number of processes, or a Dask cluster, gives the same numbers). With ``duplicate``
they are duplicate deals (:mod:`analysis.coup.studies.duplicate`): each deal is played once in
every rotation of the seats, so every seat holds every hand of the deal, and the seats'
intervals are taken over deals; those games and records are kept apart from the plain
ones (``-duplicate`` in their names), and a record says which it holds. Every finished game
is kept in a record in the cache, so a stopped sweep resumes; each table's answer is a
:class:`TableRecord` under the data store.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import pyspiel

import analysis.coup.agents  # noqa: F401  (registers every Coup agent in every process)
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.bots import bots_for, make_bot
from analysis.play.match import Build, MatchResult, compute_seconds, play_games, seating, tally
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text, read_record
from analysis.statistics.intervals import WinRate, cluster_interval
from games.coup import cards as C
from games.errors import InvalidParameterError

GAME = "python_coup"
PANEL = ("random", "honest", "bluffer", "bluffer-bold")
HAND_PLAYERS = C.PLAYER_COUNTS  # the tables whose starting hands are valued: all


@dataclasses.dataclass(frozen=True)
class Table:
    """Who plays with which cards: ``setup`` is a 2-player setup, ``"-"`` for more."""

    players: int
    deck: str
    setup: str = "-"

    def __post_init__(self) -> None:
        if self.players not in C.PLAYER_COUNTS:
            raise InvalidParameterError(
                f"players: {self.players}; Coup is played by {C.PLAYER_COUNTS[0]}-{C.PLAYER_COUNTS[-1]}")
        if self.deck not in C.DECKS:
            raise InvalidParameterError(f"deck {self.deck!r}: choose one of {', '.join(C.DECKS)}")
        if self.players == 2 and self.setup not in C.SETUPS:
            raise InvalidParameterError(
                f"setup {self.setup!r}: choose one of {', '.join(C.SETUPS)}")
        if self.players > 2 and self.setup != "-":
            raise InvalidParameterError("setups are for 2 players; more play the one setup")

    @property
    def name(self) -> str:
        base = f"{self.players}p-{self.deck}"
        return base if self.players > 2 else f"{base}-{self.setup}"

    @property
    def title(self) -> str:
        """The table in words, e.g. "2 players, Ambassador deck, basic setup"."""
        text = f"{self.players} players, {self.deck.capitalize()} deck"
        return text if self.players > 2 else f"{text}, {self.setup} setup"

    def params(self) -> dict:
        params = {"players": self.players, "deck": self.deck}
        if self.players == 2:
            params["two_player_setup"] = self.setup
        return params


def tables(players: Iterable[int] = C.PLAYER_COUNTS, decks: Iterable[str] = C.DECKS,
           setups: Iterable[str] = C.SETUPS) -> list[Table]:
    """Every table of ``players`` x ``decks`` (x ``setups`` for 2 players)."""
    out = []
    for n in players:
        for deck in decks:
            out += [Table(n, deck, s) for s in setups] if n == 2 else [Table(n, deck)]
    return out


def starting_hands(state: pyspiel.State) -> list[list[str]] | None:
    """Each player's two characters once every hand is complete (the deal, or the
    draft's pick); ``None`` before."""
    core = state.core
    if not all(len(h) == 2 for h in core.hands):
        return None
    deck = core.cfg.deck
    return [sorted(C.card_name(c, deck) for c in hand) for hand in core.hands]


@dataclasses.dataclass(frozen=True)
class HandRecord(WinRate):
    """How often a starting pair of characters won, over every seat of the self-play.

    ``deal_ci95``: with duplicate deals (a hand is played in every rotation of its
    deal, so its games are not independent) the 95% interval over deals, which
    ``ci95`` then gives in place of the Wilson interval.
    """

    hand: str
    wins: float
    games: int
    deal_ci95: tuple[float, float] | None = None

    @property
    def ci95(self) -> tuple[float, float]:
        return self.deal_ci95 if self.deal_ci95 is not None else WinRate.ci95.fget(self)

    def to_json(self) -> dict:
        out = {"hand": self.hand, "wins": self.wins, "games": self.games,
               "win_rate": self.win_rate, "ci95": list(self.ci95)}
        if self.deal_ci95 is not None:
            out["ci95_over"] = "deals"
        return out

    @classmethod
    def from_json(cls, data: dict) -> HandRecord:
        over = data.get("ci95_over") == "deals"
        return cls(str(data["hand"]), float(data["wins"]), int(data["games"]),
                   tuple(float(x) for x in data["ci95"]) if over else None)


@dataclasses.dataclass(frozen=True)
class TableRecord:
    """One table's answer: the self-play match (each seat's win rate), a robustness
    match against each panel agent, and the starting hands' win rates."""

    table: Table
    agent: str
    self_play: MatchResult
    robustness: tuple[MatchResult, ...]
    hands: tuple[HandRecord, ...]
    version: str
    commit: str
    seed: int
    agent_about: str = ""  # what the agent was when played (``best`` names the strongest)
    plays: str = ""  # the kind of bot an alias such as ``best`` stood for ("SearchAgent")
    duplicate: bool = False  # duplicate deals (records stored before the mark: plain games)
    cpu_seconds: float | None = None  # processor seconds its games took (None: not clocked)

    def to_json(self) -> dict:
        return {"table": dataclasses.asdict(self.table), "name": self.table.name,
                "agent": self.agent, "agent_about": self.agent_about, "plays": self.plays,
                "duplicate": self.duplicate,
                "self_play": self.self_play.to_json(),
                "robustness": [m.to_json() for m in self.robustness],
                "hands": [h.to_json() for h in self.hands], "version": self.version,
                "commit": self.commit, "seed": self.seed} | (
                    {} if self.cpu_seconds is None else {"cpu_seconds": self.cpu_seconds})

    @classmethod
    def from_json(cls, data: dict) -> TableRecord:
        return cls(Table(**data["table"]), str(data["agent"]),
                   MatchResult.from_json(data["self_play"]),
                   tuple(MatchResult.from_json(m) for m in data["robustness"]),
                   tuple(HandRecord.from_json(h) for h in data["hands"]),
                   str(data["version"]), str(data["commit"]), int(data["seed"]),
                   str(data.get("agent_about", "")),
                   str(data["plays"]) if "plays" in data else _plays_in(data),
                   bool(data.get("duplicate", False)),
                   None if data.get("cpu_seconds") is None else float(data["cpu_seconds"]))


def _plays_in(data: dict) -> str:
    # Records stored before ``plays`` was a field said it in the prose: "... (here: X)".
    _, sep, tail = str(data.get("agent_about", "")).rpartition("(here: ")
    return tail.rstrip(")") if sep else ""


def record_path(table: Table, duplicate: bool = False) -> Path:
    """Where a table's record is kept (duplicate deals beside the plain games)."""
    tail = "-duplicate" if duplicate else ""
    return store.data("coup", "balance", f"{table.name}{tail}.json")


def games_path(table: Table, lineup: Sequence[str], seed: int, plays: str = "",
               duplicate: bool = False) -> Path:
    """Where a match's games are kept; ``plays`` tells apart the agents an alias such as
    ``best`` stood for, so games of different agents are never resumed together, and
    duplicate deals are kept apart from plain games."""
    tail = (f"-{plays}" if plays else "") + ("-duplicate" if duplicate else "")
    return store.cache("coup", "balance", f"{table.name}-{'+'.join(lineup)}-{seed}{tail}.jsonl")


def what_plays(table: Table, agent: str, build: Build = make_bot) -> str:
    """The kind of bot ``agent`` is at ``table`` (``best`` depends on what is built)."""
    return type(build(agent, pyspiel.load_game(GAME, table.params()), 0, 0)).__name__


def hand_values(rows: Iterable[dict], agents: Sequence[str],
                duplicate: bool = False) -> tuple[HandRecord, ...]:
    """Each starting pair's wins and games over the rows' seats (self-play rows);
    ``duplicate``: the rows are duplicate deals, and the intervals are over deals."""
    wins: dict[str, float] = {}
    games: dict[str, int] = {}
    by_deal: dict[str, dict[int, list[float]]] = {}  # hand -> deal -> [wins, games]
    for row in rows:
        if row.get("seen") is None:
            continue
        deal = row["index"] // len(agents)
        for seat, _ in enumerate(seating(agents, row["index"])):
            hand = "+".join(row["seen"][seat])
            wins[hand] = wins.get(hand, 0.0) + row["shares"][seat]
            games[hand] = games.get(hand, 0) + 1
            cell = by_deal.setdefault(hand, {}).setdefault(deal, [0.0, 0])
            cell[0] += row["shares"][seat]
            cell[1] += 1

    def interval(hand: str) -> tuple[float, float] | None:
        if not duplicate:
            return None
        deals = by_deal[hand].values()
        return cluster_interval([w for w, _ in deals], [g for _, g in deals])[1:]

    return tuple(HandRecord(h, round(wins[h], 9), games[h], interval(h)) for h in sorted(games))


def check_agents(table: Table, agent: str, panel: Sequence[str], build: Build = make_bot) -> None:
    """Refuse unknown agent names up front, in one line naming the choices."""
    game = pyspiel.load_game(GAME, table.params())
    for name in (agent, *panel):
        build(name, game, 0, 0)


def play_table(table: Table, agent: str, games: int, seed: int, panel: Sequence[str] = PANEL,
               robustness_games: int | None = None, workers: int = 1, scheduler=None,
               progress: bool = False, build: Build = make_bot,
               duplicate: bool = False) -> TableRecord:
    """Play ``table``'s matches (resuming any recorded games), save its record and
    return it: ``games`` self-play games, ``robustness_games`` (default ``games``)
    against each agent of ``panel``. ``build`` makes the bots (module level, see
    :func:`analysis.play.match.play_match`). ``duplicate``: duplicate deals (the games
    rounded up to whole deals of ``table.players`` games)."""
    check_agents(table, agent, panel, build)
    params = table.params()
    run = dict(seed=seed, params=params, workers=workers, scheduler=scheduler,
               progress=progress, build=build, deal=deal_chance if duplicate else None,
               clock=True)
    lineup = (agent,) * table.players
    observe = starting_hands if table.players in HAND_PLAYERS else None
    plays = what_plays(table, agent, build) if agent == "best" else ""
    path = games_path(table, lineup, seed, plays, duplicate)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = play_games(GAME, lineup, games, record=path, observe=observe, **run)
    self_play = tally(GAME, params, lineup, len(rows), seed, rows, duplicate)
    hands = hand_values(list(rows.values()), lineup, duplicate) if observe is not None else ()
    matches = []
    costs = [compute_seconds(rows)]
    for rival in panel:
        mixed = (agent,) + (rival,) * (table.players - 1)
        found = play_games(GAME, mixed, robustness_games or games,
                           record=games_path(table, mixed, seed, plays, duplicate), **run)
        matches.append(tally(GAME, params, mixed, len(found), seed, found, duplicate))
        costs.append(compute_seconds(found))
    about = next((b.description for b in bots_for(GAME) if b.name == agent), "")
    if plays:
        about += f" (here: {plays})"
    record = TableRecord(table, agent, self_play, tuple(matches), hands, farol_version(),
                         code_commit(), seed, about, plays, duplicate,
                         None if None in costs else round(sum(costs), 3))
    save_record(record)
    return record


def save_record(record: TableRecord) -> None:
    path = record_path(record.table, record.duplicate)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(record.to_json(), indent=1) + "\n")


def load_records(chosen: Iterable[Table] | None = None,
                 duplicate: bool = False) -> list[TableRecord]:
    """The stored records of ``chosen`` tables (default every table), those played
    (``duplicate``: those of duplicate deals)."""
    paths = [record_path(t, duplicate) for t in (tables() if chosen is None else chosen)]
    return [TableRecord.from_json(read_record(path)) for path in paths if path.exists()]


def load_answers(chosen: Iterable[Table] | None = None) -> list[TableRecord]:
    """Each table's record the reports answer from: its duplicate-deal record where one
    is stored (the same games' luck falls on every seat, so its intervals are tighter),
    else its plain one."""
    out = []
    for table in tables() if chosen is None else chosen:
        for duplicate in (True, False):
            path = record_path(table, duplicate)
            if path.exists():
                out.append(TableRecord.from_json(read_record(path)))
                break
    return out


def run_balance(chosen: Sequence[Table], agent: str, games: int, seed: int,
                panel: Sequence[str] = PANEL, robustness_games: int | None = None,
                workers: int = 1, scheduler=None, progress: bool = False,
                build: Build = make_bot, duplicate: bool = False) -> list[TableRecord]:
    """Every table of ``chosen`` in turn (see :func:`play_table`)."""
    for table in chosen:
        check_agents(table, agent, panel, build)
    return [play_table(t, agent, games, seed, panel, robustness_games, workers, scheduler,
                       progress, build, duplicate) for t in chosen]
