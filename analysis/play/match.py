"""Matches between named agents in any OpenSpiel game: seeded games, rotated seats, win rates.

A match plays ``games`` games of one game with one agent name per seat (bots built by
:func:`analysis.play.bots.make_bot`, or by the ``build`` function given).

Seats rotate: in game ``i`` seat ``s`` is taken by ``agents[(s - i) % n]`` (n seats),
so over ``n`` consecutive games every agent sits once in every seat; over ``games``
games each agent sits in each seat ``games // n`` or ``games // n + 1`` times (exactly
``games / n`` when ``n`` divides ``games``).

Game ``i`` is seeded from ``(seed, i)`` alone (chance and every bot), so the result does
not depend on the number of worker processes or on the order games finish in.

Duplicate deals (``deal`` given, e.g. :func:`analysis.coup.studies.duplicate.deal_chance`): games
come in blocks of ``n``, one block per deal. Game ``i`` is rotation ``r = i % n`` of deal
``d = i // n``: the seats rotate as above, and ``deal`` resolves every chance node of the
game from the deal's seed alone (the same cards, dealt to the same agents, whoever sits
first), while the bot of the agent at lineup position ``j`` is seeded from ``(seed, d, j)``
in every rotation. So the luck of the deal falls on every seat alike, and the seats'
win rates differ by the seats. The games are rounded up to whole deals, and the
intervals are taken over deals (:func:`tally`): the rotations of one deal are not
independent, the deals are.

A match given a ``record`` file appends each finished game's win shares to it and, run
again, plays only the games missing (the seeds make the resumed match the same as one
run straight through).

Wins: the seats with the highest return share the game's win equally (a shared win
counts ``1/k`` to each of ``k`` winners); when every seat gets the same return (a draw,
or Coup's turn cap where nobody wins) each seat counts ``1/n``. So every game gives one
win in all, and the wins of the seats sum to the number of games.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel

import games as _farol_games  # noqa: F401  (registers Farol's games in every process)
from analysis.play.bots import Bot, make_bot, sample_chance
from analysis.shared.distribute import local_pool, run_on_dask
from analysis.shared.progress import bar as progress_bar
from analysis.shared.provenance import code_commit, farol_version
from analysis.statistics.intervals import WinRate, mean_interval
from games.errors import FarolError, InvalidParameterError

Build = Callable[[str, pyspiel.Game, int, int], Bot]
# Duplicate deals: (game, the deal's chance seed, rotation) -> the chooser of every chance
# outcome of that game (module level, so worker processes can find it).
Deal = Callable[[pyspiel.Game, int, int], Callable[[pyspiel.State], int]]
# What a study notes of a game: called at each decision until it returns something
# other than None (for example the hands once dealt); saved with the game's result.
Observe = Callable[[pyspiel.State], object]
# A match's own seeding: (match seed, game index, seats) -> game's chance seed, then one
# seed per seat.
Seeds = Callable[[int, int, int], list[int]]
# A match's own chance: (game, the game's chance seed, game index) -> the chooser of
# every chance outcome of that game (module level, or a functools.partial of one).
Chance = Callable[[pyspiel.Game, int, int], Callable[[pyspiel.State], int]]
# What a match's rows note at the end: (final state, game index, decisions made) -> fields.
Finish = Callable[[pyspiel.State, int, int], dict]
# A returned value this close to the best counts as the best (a shared win).
_TIE = 1e-9


def seating(agents: Sequence[str], index: int) -> tuple[str, ...]:
    """Who sits where in game ``index``: seat ``s`` gets ``agents[(s - index) % n]``."""
    n = len(agents)
    return tuple(agents[(s - index) % n] for s in range(n))


def win_shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: the best return's seats split 1 equally."""
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r >= best - _TIE]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(returns))]


def game_seeds(seed: int, index: int, players: int) -> list[int]:
    """The seeds of game ``index``: chance first, then one per seat (from ``(seed, index)``)."""
    state = np.random.SeedSequence([seed, index]).generate_state(players + 1)
    return [int(s) for s in state]


def sampled(game: pyspiel.Game, seed: int, index: int) -> Callable[[pyspiel.State], int]:
    """A plain game's chance: every outcome drawn by its probability, from ``seed``."""
    rng = np.random.default_rng(seed)
    return lambda state: sample_chance(state, rng)


@dataclass(frozen=True)
class Schedule:
    """How a match seeds, seats and deals its games, and what each game's row notes at
    its end; the defaults are a plain match's (see the module's docstring). A study with
    its own seeding or deal (a Goat Lords tournament) gives its hooks here, module level
    so that worker processes find them."""

    seeds: Seeds = game_seeds
    rotate: bool = True  # seats rotate game by game (else ``agents`` sit as given)
    chance: Chance = sampled
    finish: Finish | None = None


PLAIN = Schedule()


# Kept apart from the plain games' seeds: SeedSequence([seed, index]) and
# SeedSequence([seed, deal, _DUPLICATE]) never coincide.
_DUPLICATE = 0x64_75_70  # "dup"


def deal_seeds(seed: int, deal: int, players: int) -> list[int]:
    """The seeds of duplicate deal ``deal``: its chance first, then one per lineup
    position (the same in every rotation)."""
    state = np.random.SeedSequence([seed, deal, _DUPLICATE]).generate_state(players + 1)
    return [int(s) for s in state]


def games_to_play(games: int, players: int, duplicate: bool) -> int:
    """``games``, rounded up to whole deals (``players`` games each) for duplicate deals."""
    return -(-games // players) * players if duplicate else games


def play_one(game_name: str, params: dict, agents: Sequence[str], seed: int, index: int,
             build: Build = make_bot, deal: Deal | None = None,
             schedule: Schedule = PLAIN) -> list[float]:
    """Play game ``index`` of a match; returns each seat's win share."""
    return play_row(game_name, params, agents, seed, index, build, None, deal,
                    schedule=schedule)["shares"]


def play_row(game_name: str, params: dict, agents: Sequence[str], seed: int, index: int,
             build: Build = make_bot, observe: Observe | None = None,
             deal: Deal | None = None, clock: bool = False,
             schedule: Schedule = PLAIN) -> dict:
    """Game ``index`` of a match, played: its row (``index``, each seat's ``shares``,
    ``seen`` when ``observe`` noted something, ``cpu_s`` when clocked, and the fields
    of the schedule's ``finish``)."""
    start = time.process_time()
    state, seen, decisions = _play(game_name, params, agents, seed, index, build, observe,
                                   deal, schedule)
    row = {"index": index, "shares": win_shares(state.returns())}
    if observe is not None:
        row["seen"] = seen
    if clock:
        row["cpu_s"] = round(time.process_time() - start, 4)
    if schedule.finish is not None:
        row |= schedule.finish(state, index, decisions)
    return row


def replay(game_name: str, params: dict, agents: Sequence[str], seed: int, index: int,
           build: Build = make_bot, observe: Observe | None = None,
           deal: Deal | None = None, schedule: Schedule = PLAIN) -> tuple[pyspiel.State, object]:
    """Game ``index`` of a match played again from its seeds: its final state (whose
    history is every move and chance outcome) and what ``observe`` noted."""
    state, seen, _ = _play(game_name, params, agents, seed, index, build, observe, deal,
                           schedule)
    return state, seen


def _play(game_name: str, params: dict, agents: Sequence[str], seed: int, index: int,
          build: Build, observe: Observe | None, deal: Deal | None,
          schedule: Schedule) -> tuple[pyspiel.State, object, int]:
    game = pyspiel.load_game(game_name, params)
    seats = seating(agents, index) if schedule.rotate else tuple(agents)
    n = len(seats)
    if deal is None:
        seeds = schedule.seeds(seed, index, n)
        bots = [build(name, game, s, seeds[s + 1]) for s, name in enumerate(seats)]
        chance = schedule.chance(game, seeds[0], index)
    else:
        number, rotation = divmod(index, n)
        seeds = deal_seeds(seed, number, n)
        bots = [build(name, game, s, seeds[1 + (s - rotation) % n])
                for s, name in enumerate(seats)]
        chance = deal(game, seeds[0], rotation)
    state = game.new_initial_state()
    seen = None
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(chance(state)))
            continue
        if observe is not None and seen is None:
            seen = observe(state)
        state.apply_action(int(bots[state.current_player()](state)))
        decisions += 1
    return state, seen, decisions


def _play_chunk(game_name: str, params: dict, agents: tuple[str, ...], seed: int,
                indices: list[int], build: Build, observe: Observe | None = None,
                deal: Deal | None = None, clock: bool = False,
                schedule: Schedule = PLAIN) -> list[dict]:
    return [play_row(game_name, params, agents, seed, i, build, observe, deal, clock, schedule)
            for i in indices]


@dataclass(frozen=True)
class SeatRecord(WinRate):
    """How one agent did in one seat: its wins (fractional for shared wins) out of its games.

    ``deal_ci95``: with duplicate deals, the 95% interval over deals (each deal's mean
    over its rotations, a Student-t interval over the deals), which ``ci95`` then gives
    in place of the Wilson interval over games.
    """

    agent: str
    seat: int
    wins: float
    games: int
    deal_ci95: tuple[float, float] | None = None

    @property
    def ci95(self) -> tuple[float, float]:
        if self.deal_ci95 is not None:
            return self.deal_ci95
        return WinRate.ci95.fget(self)

    def to_json(self) -> dict:
        out = {"agent": self.agent, "seat": self.seat, "wins": self.wins, "games": self.games,
               "win_rate": self.win_rate, "ci95": list(self.ci95)}
        if self.deal_ci95 is not None:
            out["ci95_over"] = "deals"
        return out

    @classmethod
    def from_json(cls, data: dict) -> SeatRecord:
        over = data.get("ci95_over") == "deals"
        return cls(str(data["agent"]), int(data["seat"]), float(data["wins"]), int(data["games"]),
                   tuple(float(x) for x in data["ci95"]) if over else None)


@dataclass(frozen=True)
class MatchResult:
    """A finished match: one record per agent and seat it sat in, and what made it.

    ``seats`` is ordered by seat, then by the agents' order in the line-up; an agent
    that never sat in a seat (fewer games than seats) has no record there.
    ``duplicate``: the games were duplicate deals (their intervals are over deals, and
    ``overall`` keeps each agent's total with its interval over deals); a record without
    the mark (every record stored before it existed) played plain games.
    """

    game: str
    params: dict
    seats: tuple[SeatRecord, ...]
    games: int
    seed: int
    version: str
    commit: str
    duplicate: bool = False
    overall: tuple[SeatRecord, ...] = ()

    @property
    def deals(self) -> int:
        """The deals played (duplicate deals), else 0."""
        return self.games // (1 + max(r.seat for r in self.seats)) if self.duplicate else 0

    def totals(self) -> list[SeatRecord]:
        """Each agent over all its seats (``seat`` is -1), in order of first appearance."""
        if self.overall:
            return list(self.overall)
        out = []
        for agent in dict.fromkeys(r.agent for r in self.seats):
            rows = [r for r in self.seats if r.agent == agent]
            out.append(SeatRecord(agent, -1, sum(r.wins for r in rows), sum(r.games for r in rows)))
        return out

    def to_json(self) -> dict:
        out = {"seats": [r.to_json() for r in self.seats], "game": self.game,
               "params": dict(self.params), "games": self.games, "seed": self.seed,
               "version": self.version, "commit": self.commit}
        if self.duplicate:
            out |= {"duplicate": True, "deals": self.deals,
                    "totals": [r.to_json() for r in self.overall]}
        return out

    @classmethod
    def from_json(cls, data: dict) -> MatchResult:
        seats = tuple(SeatRecord.from_json(r) for r in data["seats"])
        overall = tuple(SeatRecord.from_json(r) for r in data.get("totals", ()))
        return cls(str(data["game"]), dict(data["params"]), seats, int(data["games"]),
                   int(data["seed"]), str(data["version"]), str(data["commit"]),
                   bool(data.get("duplicate", False)), overall)


def check_match(agents: Sequence[str], games: int, seed: int, players: int) -> None:
    """Refuse a match that cannot be played, naming what is wrong (InvalidParameterError)."""
    if len(agents) != players:
        raise InvalidParameterError(
            f"agents: {len(agents)} names for {players} players (one name per seat)")
    if games < 1:
        raise InvalidParameterError(f"games: at least 1, not {games}")
    if seed < 0:
        raise InvalidParameterError(f"seed: 0 or more, not {seed}")


def play_match(game_name: str, agents: Sequence[str], games: int, seed: int,
               params: dict | None = None, **options) -> MatchResult:
    """Play a match of ``games`` games and tally it; ``options`` are those of
    :func:`play_games` (workers, progress, build, record, observe, scheduler, deal, ...)."""
    rows = play_games(game_name, agents, games, seed, params, **options)
    return tally(game_name, dict(params or {}), tuple(agents), len(rows), seed, rows,
                 duplicate=options.get("deal") is not None)


class RowFile:
    """Where a match keeps its finished games, so that a match run again plays only the
    missing ones: ``read`` gives the rows kept (game index -> row), ``append`` adds
    finished ones. This one is the match's record file (see :func:`read_rows`); a study
    keeping its own format (a Goat Lords tournament's CSV) gives its own."""

    def __init__(self, path: Path, header: dict):
        self.path, self.header = Path(path), header

    def read(self) -> dict[int, dict]:
        return read_rows(self.path, self.header)

    def append(self, rows: list[dict]) -> None:
        with open(self.path, "a") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)


def play_games(
    game_name: str,
    agents: Sequence[str],
    games: int,
    seed: int,
    params: dict | None = None,
    workers: int = 1,
    progress: bool = False,
    build: Build = make_bot,
    record: Path | RowFile | None = None,
    observe: Observe | None = None,
    scheduler=None,
    deal: Deal | None = None,
    clock: bool = False,
    schedule: Schedule = PLAIN,
    chunk: int = 50,
    desc: str | None = None,
) -> dict[int, dict]:
    """Play games ``0 .. games-1`` of a match; ``agents`` names one agent per seat.
    Returns each game's row (game index -> ``shares`` per seat, and ``seen`` when
    ``observe`` noted something).

    ``workers`` processes play chunks of games in parallel (the result is the same for
    any number); ``progress`` shows a bar with the time left on standard error.
    ``build`` makes a bot from its name (default :func:`analysis.play.bots.make_bot`): pass a
    module-level function so worker processes can find it. ``record`` names a file that
    keeps every finished game, so an interrupted match resumes where it stopped (or is
    a :class:`RowFile` of the study's own); ``observe`` (module level, like ``build``)
    notes something of each game into that record (:func:`read_rows` reads it back).
    ``scheduler``: a Dask scheduler address or ``distributed.Client`` plays the chunks
    on that cluster instead of local processes (the same games, so the same result).
    ``deal`` (module level) plays duplicate deals (see the module's docstring):
    ``games`` is rounded up to whole deals, and the record says so in its first line,
    so plain and duplicate games never mix. ``clock`` notes each game's processor
    seconds in its row (``cpu_s``), which :func:`compute_seconds` sums: the compute a
    match cost, across resumes. ``schedule``: the match's own seeding, seating, chance
    and end-of-game fields (default a plain match's); ``chunk``: the most games a
    worker plays at a time.
    """
    params = dict(params or {})
    agents = tuple(agents)
    game = pyspiel.load_game(game_name, params)
    check_match(agents, games, seed, game.num_players())
    for s, name in enumerate(agents):
        build(name, game, s, 0)  # an unknown name fails here, naming the choices
    header = {"game": game_name, "params": params, "agents": list(agents), "seed": seed}
    if deal is not None:
        deal(game, 0, 0)  # a game duplicate deals cannot play fails here, in one line
        games = games_to_play(games, len(agents), True)
        header["deals"] = "duplicate"
    kept = record if isinstance(record, RowFile) or record is None else RowFile(record, header)
    rows: dict[int, dict] = {} if kept is None else kept.read()
    todo = [i for i in range(games) if i not in rows]
    workers = max(1, min(workers, os.cpu_count() or 1, max(1, len(todo))))
    # One game a chunk in this process (each game counted as it ends); chunks across
    # processes keep the hand-overs few.
    chunk = 1 if workers == 1 and scheduler is None else max(
        1, min(chunk, len(todo) // (4 * workers)))
    chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    bar = progress_bar(total=games, initial=games - len(todo), unit=" games",
                       desc=desc or game_name, progress=progress, leave=False)

    def keep(done: list[dict]) -> None:
        rows.update((r["index"], r) for r in done)
        if kept is not None:
            kept.append(done)
        bar.update(len(done))

    work = (game_name, params, agents, seed)
    try:
        if scheduler is not None:
            run_on_dask(scheduler, _play_chunk,
                        [(*work, part, build, observe, deal, clock, schedule)
                         for part in chunks], keep)
        elif workers == 1:
            for part in chunks:
                keep(_play_chunk(*work, part, build, observe, deal, clock, schedule))
        else:
            with local_pool(workers) as pool:
                futures = [pool.submit(_play_chunk, *work, part, build, observe, deal, clock,
                                       schedule) for part in chunks]
                for future in futures:
                    keep(future.result())
    finally:
        bar.close()
    return {i: rows[i] for i in range(games)}


def compute_seconds(rows: dict[int, dict]) -> float | None:
    """The processor seconds the games of ``rows`` took (``None`` unless every row was
    clocked, see :func:`play_games`)."""
    if not rows or any("cpu_s" not in r for r in rows.values()):
        return None
    return round(sum(float(r["cpu_s"]) for r in rows.values()), 3)


def read_rows(path: Path, header: dict) -> dict[int, dict]:
    """The games a match's record file holds (game index -> its row: ``shares``, and
    ``seen`` when the match observed something), starting the file with ``header`` when
    it is new.

    A last line left without its newline (a run killed while writing) is cut, and its
    games are played again. A record of another match (game, parameters, agents or
    seed) is refused naming the file.
    """
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n")
        return {}
    with open(path, "rb+") as fh:
        data = fh.read()
        if not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)
            data = data[: data.rfind(b"\n") + 1]
    lines = data.decode().splitlines()
    try:
        found = json.loads(lines[0])
        rows = [json.loads(line) for line in lines[1:]]
        found_rows = {int(r["index"]): r | {"shares": [float(x) for x in r["shares"]]}
                      for r in rows}
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise FarolError(f"{path} is not a match record ({exc})") from None
    if found != json.loads(json.dumps(header)):
        raise FarolError(f"{path} records another match ({found}); give another file or "
                         "delete it")
    return found_rows


def tally(game_name: str, params: dict, agents: tuple[str, ...], games: int, seed: int,
          rows: dict[int, dict], duplicate: bool = False) -> MatchResult:
    """The match result of the games' rows (game index -> row with ``shares``, the win
    share per seat, as :func:`play_games` returns them); ``duplicate``: the rows are
    duplicate deals, whose intervals are taken over deals (:func:`deal_intervals`)."""
    n = len(agents)
    wins: dict[tuple[int, str], float] = {}
    played: dict[tuple[int, str], int] = {}
    for i in range(games):
        for s, name in enumerate(seating(agents, i)):
            wins[s, name] = wins.get((s, name), 0.0) + rows[i]["shares"][s]
            played[s, name] = played.get((s, name), 0) + 1
    order = list(dict.fromkeys(agents))
    if not duplicate:
        records = tuple(
            SeatRecord(name, s, round(wins[s, name], 9), played[s, name])
            for s in range(n) for name in order if (s, name) in played
        )
        return MatchResult(game_name, params, records, games, seed, farol_version(),
                           code_commit())
    if games % n:
        raise InvalidParameterError(f"games: duplicate deals play whole deals of {n} games, "
                                    f"not {games}")
    by_seat, by_agent = deal_intervals(agents, games, rows)
    records = tuple(
        SeatRecord(name, s, round(wins[s, name], 9), played[s, name], by_seat[s, name])
        for s in range(n) for name in order if (s, name) in played
    )
    overall = tuple(
        SeatRecord(name, -1, round(sum(wins[s, name] for s in range(n) if (s, name) in wins), 9),
                   sum(played[s, name] for s in range(n) if (s, name) in played),
                   by_agent[name])
        for name in order
    )
    return MatchResult(game_name, params, records, games, seed, farol_version(), code_commit(),
                       True, overall)


def deal_values(agents: tuple[str, ...], games: int,
                rows: dict[int, dict]) -> tuple[dict, dict]:
    """Each deal's mean win share, over its rotations: by (seat, agent) and by agent.

    Returns ``(by_seat, by_agent)``, mapping ``(seat, agent)`` and ``agent`` to one value
    per deal (in deal order): the mean of the shares that agent won in that seat (in
    every seat) over the deal's ``n`` games. Every deal seats each agent equally often,
    so the mean of the deal values is the agent's win rate over the games.
    """
    n = len(agents)
    by_seat: dict[tuple[int, str], list[float]] = {}
    by_agent: dict[str, list[float]] = {}
    for d in range(games // n):
        seat_sums: dict[tuple[int, str], list[float]] = {}
        agent_sums: dict[str, list[float]] = {}
        for i in range(d * n, (d + 1) * n):
            for s, name in enumerate(seating(agents, i)):
                share = float(rows[i]["shares"][s])
                seat_sums.setdefault((s, name), []).append(share)
                agent_sums.setdefault(name, []).append(share)
        for key, shares in seat_sums.items():
            by_seat.setdefault(key, []).append(sum(shares) / len(shares))
        for key, shares in agent_sums.items():
            by_agent.setdefault(key, []).append(sum(shares) / len(shares))
    return by_seat, by_agent


def deal_intervals(agents: tuple[str, ...], games: int, rows: dict[int, dict]) -> tuple[dict, dict]:
    """The 95% intervals over deals of :func:`deal_values` (Student t over the deals)."""
    by_seat, by_agent = deal_values(agents, games, rows)
    return ({k: mean_interval(v)[1:] for k, v in by_seat.items()},
            {k: mean_interval(v)[1:] for k, v in by_agent.items()})
