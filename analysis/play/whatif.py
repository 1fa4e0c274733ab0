"""The designer's what-if, for any game played by agents: the same seeded games under the
printed rules and under a variant, side by side, each metric with its 95% interval and
the difference with its own.

Game ``i`` of a match is seeded from ``(seed, i)`` under both rule sets
(:func:`analysis.play.match.game_seeds`), so the two games of a pair share their
chance's and their agents' seeds: where the variant changes little, they play alike, and
the difference's interval, taken over the pairs, is narrower than two separate
measurements would give. Matches stop by precision, not by a fixed count: after each
round the games still needed for every metric's interval to reach its half-width aim are
estimated from the spread so far, and played (up to a ceiling). Every finished game is
kept in a record file under the data folder, named by the game, its parameters, the
agents and the seed, so an interrupted what-if resumes where it stopped, and the printed
rules' games are played once for every variant that asks the same question.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pyspiel

from analysis.play.bots import make_bot
from analysis.play.match import PLAIN, Build, RowFile, Schedule, play_games
from analysis.shared import store
from analysis.shared.params import game_parameter_spec
from analysis.shared.provenance import code_commit, farol_version
from analysis.statistics.intervals import cluster_interval, difference, mean_interval

WHATIF_VERSION = 1
INF = float("inf")

# What an estimate's number is (:attr:`Estimate.kind`).
INTERVAL = "95% interval"   # measured over games: ``low``/``high`` bound its 95% interval
EXACT = "exact"             # solved exactly for the rules: ``low == high == value``
# Exact given a model whose own parts are approximate (e.g. a war composed exactly from
# battles solved by CFR on an abstraction): no interval is known, ``low == high ==
# value``, and the metric's ``source`` names the model and its measured accuracy.
ON_MODEL = "exact on the model"
KINDS = (INTERVAL, EXACT, ON_MODEL)


@dataclass(frozen=True)
class Estimate:
    """A metric's value and what kind of number it is (``kind``, one of :data:`KINDS`):
    with its 95% interval ``low``-``high``, exact, or exact on an approximate model (then
    the interval is the value: its error is the model's, named by the metric's source).
    ``spread``: the least and greatest of the cases the value averages (e.g. the courtier
    matchups), where that says something; not an uncertainty."""

    value: float
    low: float
    high: float
    kind: str = INTERVAL
    spread: tuple[float, float] | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"an estimate is one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def exact(self) -> bool:
        """Solved exactly for the rules (not on an approximate model)."""
        return self.kind == EXACT

    @property
    def solved(self) -> bool:
        """Solved, exactly or exactly on a model: no sampling interval."""
        return self.kind != INTERVAL

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def holds(self, x: float, tol: float = 1e-9) -> bool:
        """Whether ``x`` lies in the interval (within ``tol`` for a solved value)."""
        return self.low - tol <= x <= self.high + tol

    def to_json(self) -> dict:
        # A rate of nothing (no bluff was made) is not a number: kept as null.
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x
        out = {"value": num(self.value), "low": num(self.low), "high": num(self.high),
               "kind": self.kind}
        if self.spread is not None:
            out["spread"] = [num(x) for x in self.spread]
        return out

    @classmethod
    def from_json(cls, data: dict) -> Estimate:
        def num(x) -> float:
            return float("nan") if x is None else float(x)
        # Records written before ``kind``: ``exact`` true or false.
        kind = data.get("kind", EXACT if data.get("exact") else INTERVAL)
        spread = data.get("spread")
        return cls(num(data["value"]), num(data["low"]), num(data["high"]), kind,
                   None if spread is None else (num(spread[0]), num(spread[1])))


def exact(value: float) -> Estimate:
    """A solved value: its interval is the value itself."""
    return Estimate(float(value), float(value), float(value), EXACT)


def on_model(value: float, spread: tuple[float, float] | None = None) -> Estimate:
    """A value exact on an approximate model (see :data:`ON_MODEL`), with the spread of
    the cases it averages if given."""
    value = float(value)
    return Estimate(value, value, value, ON_MODEL,
                    None if spread is None else (float(spread[0]), float(spread[1])))


@dataclass(frozen=True)
class Metric:
    """One balance question answered for both rule sets: ``label`` in the user's words,
    ``unit`` (share, turns, battles, value), who answered it (``source``: the agent or
    solver, with its accuracy) and the half-width aimed at (``aim``; None: exact)."""

    key: str
    label: str
    unit: str
    printed: Estimate
    variant: Estimate
    difference: Estimate
    source: str
    aim: float | None = None

    @property
    def reached(self) -> bool:
        """Whether both rule sets' intervals are as narrow as aimed at."""
        return self.aim is None or max(self.printed.half_width,
                                       self.variant.half_width) <= self.aim + 1e-12

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label, "unit": self.unit,
                "printed": self.printed.to_json(), "variant": self.variant.to_json(),
                "difference": self.difference.to_json(), "source": self.source,
                "aim": self.aim}

    @classmethod
    def from_json(cls, data: dict) -> Metric:
        return cls(data["key"], data["label"], data["unit"],
                   Estimate.from_json(data["printed"]), Estimate.from_json(data["variant"]),
                   Estimate.from_json(data["difference"]), data["source"], data.get("aim"))


@dataclass(frozen=True)
class WhatIf:
    """A what-if's answer: the variant's parameters beside the printed rules', every
    metric, notes on who answered and what was left out, the games played on each side,
    and what reproduces it (seed, version, commit)."""

    game: str
    name: str
    variant: dict
    base: dict
    metrics: tuple[Metric, ...]
    notes: tuple[str, ...]
    games: dict
    seed: int
    version: str
    commit: str
    seconds: float
    record_version: int = WHATIF_VERSION

    def metric(self, key: str) -> Metric:
        """The metric called ``key`` (KeyError when absent)."""
        for m in self.metrics:
            if m.key == key:
                return m
        raise KeyError(key)

    def to_json(self) -> dict:
        return {"record_version": self.record_version, "game": self.game, "name": self.name,
                "variant": self.variant, "base": self.base,
                "metrics": [m.to_json() for m in self.metrics], "notes": list(self.notes),
                "games": self.games, "seed": self.seed, "version": self.version,
                "commit": self.commit, "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: dict) -> WhatIf:
        return cls(data["game"], data["name"], dict(data["variant"]), dict(data["base"]),
                   tuple(Metric.from_json(m) for m in data["metrics"]), tuple(data["notes"]),
                   dict(data["games"]), int(data["seed"]), data["version"], data["commit"],
                   float(data["seconds"]), int(data.get("record_version", WHATIF_VERSION)))


# --------------------------------------------------------------------------- measuring
# A measure reads one number from a game's row (``index`` tells the seating), or None
# where the game does not count for it; a ratio measure reads (numerator, denominator).
Reading = Callable[[dict, int], "float | tuple[float, float] | None"]


@dataclass(frozen=True)
class Measure:
    """One metric read from a match's rows: ``ratio`` measures read (count, out of) per
    game and are estimated over games as clusters; ``lower``/``upper`` bound the value."""

    key: str
    label: str
    unit: str
    read: Reading
    aim: float | None = None
    ratio: bool = False
    lower: float = 0.0
    upper: float = 1.0


# Readings every game's what-if uses; module level (named), so that they pickle for
# worker processes.
class SeatShare:
    """Seat ``seat``'s win share of a game (minus ``minus``: the fair share, for the edge)."""

    def __init__(self, seat: int, minus: float = 0.0):
        self.seat, self.minus = seat, minus

    def __call__(self, row: dict, index: int) -> float:
        return row["shares"][self.seat] - self.minus


class AgentShare:
    """The win share of the agent first in the lineup, wherever it sits in game ``index``."""

    def __init__(self, seats: int):
        self.seats = seats

    def __call__(self, row: dict, index: int) -> float:
        return row["shares"][index % self.seats]


class Field:
    """A number the game's facts hold (``turns``, ``capped``)."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, row: dict, index: int) -> float:
        return float(row[self.name])


class Shared:
    """1 when no seat won the game alone (a shared win, or nobody's), else 0."""

    def __call__(self, row: dict, index: int) -> float:
        return float(max(row["shares"]) < 1.0 - 1e-9)


class Ratio:
    """``(facts[num], facts[den])`` of a game, for a rate over games."""

    def __init__(self, num: str, den: str):
        self.num, self.den = num, den

    def __call__(self, row: dict, index: int) -> tuple[float, float] | None:
        return (float(row[self.num]), float(row[self.den])) if row[self.den] else None



@dataclass(frozen=True)
class Lineup:
    """A match played under both rule sets: its agents (one per seat, rotating), what it
    measures, who answers (``source``), and how many games it may play."""

    key: str
    agents: tuple[str, ...]
    measures: tuple[Measure, ...]
    source: str
    min_games: int = 40
    max_games: int = 4000


def skill_lineups(players: Sequence[int], strong: str, weaker: Sequence[str],
                  precision: float, max_games: int) -> list[tuple[int, Lineup]]:
    """The strong agent in one seat against each weaker agent in every other seat, at
    each count of ``players``."""
    out = []
    for n in players:
        for weak in weaker:
            measure = Measure(f"skill_{weak}_{n}p",
                              f"{strong}'s win rate against {n - 1} {weak} ({n} players; "
                              f"fair share {100 / n:z.0f}%)", "share", AgentShare(n), precision)
            out.append((n, Lineup(f"skill_{weak}_{n}p", (strong,) + (weak,) * (n - 1),
                                  (measure,), f"{strong} against {weak}, seats rotating",
                                  min_games=10 * n, max_games=max_games)))
    return out


def estimate(measure: Measure, rows: dict[int, dict]) -> Estimate:
    """``measure`` over the games of ``rows`` with its 95% interval (Student t over games,
    or over games as clusters for a ratio)."""
    readings = [measure.read(row, i) for i, row in sorted(rows.items())]
    readings = [r for r in readings if r is not None]
    if measure.ratio:
        value, lo, hi = cluster_interval([r[0] for r in readings], [r[1] for r in readings],
                                         measure.lower, measure.upper)
    else:
        value, lo, hi = mean_interval(readings, measure.lower, measure.upper)
    return Estimate(value, lo, hi)


def paired_difference(measure: Measure, printed: dict[int, dict], variant: dict[int, dict],
                      a: Estimate, b: Estimate) -> Estimate:
    """The variant's value minus the printed rules', with its 95% interval: over the pairs
    of games played from the same seeds where the measure reads a number in both, else
    (a ratio) from the two intervals as independent."""
    if measure.ratio:
        d, lo, hi = difference(b.value, (b.low, b.high), a.value, (a.low, a.high))
        return Estimate(d, lo, hi)
    diffs = []
    for i in sorted(set(printed) & set(variant)):
        x, y = measure.read(printed[i], i), measure.read(variant[i], i)
        if x is not None and y is not None:
            diffs.append(y - x)
    span = measure.upper - measure.lower
    d, lo, hi = mean_interval(diffs, -span, span)
    return Estimate(d, lo, hi)


def measured(lineup: Lineup, printed: dict[int, dict], variant: dict[int, dict]) -> list[Metric]:
    """Every measure of ``lineup`` over both rule sets' games."""
    out = []
    for m in lineup.measures:
        a, b = estimate(m, printed), estimate(m, variant)
        out.append(Metric(m.key, m.label, m.unit, a, b, paired_difference(m, printed, variant, a, b),
                          lineup.source, m.aim))
    return out


def games_needed(metrics: Sequence[Metric], played: int) -> int:
    """Games for every metric's interval to reach its aim, from the spread so far (the
    half-width falls as one over the root of the games), a tenth more for safety."""
    need = played
    for m in metrics:
        if m.aim is None:
            continue
        wide = max(m.printed.half_width, m.variant.half_width)
        if not math.isfinite(wide) or wide <= 0:
            continue
        need = max(need, math.ceil(played * (wide / m.aim) ** 2 * 1.1))
    return need


def significant(game: str, params: dict, keep: tuple[str, ...] = ()) -> dict:
    """``params`` without those given at their default: the same rules name the same
    record, however they were spelled (the printed rules given as parameters read the
    printed rules' games)."""
    spec = game_parameter_spec(game)
    return {k: v for k, v in sorted(params.items()) if k in keep or spec.get(k) != v}


# The code that decides a game's moves, by game: its rules' package and its wing's agents
# (with what they search with), beside the match runner and the bots' table.
PLAYING_CODE = {"python_coup": ("games/coup", "analysis/coup/agents", "analysis/coup/solvers"),
                "python_goat_lords": ("games/goat_lords", "analysis/goat_lords/agents")}
COMMON_CODE = ("analysis/play/match.py", "analysis/play/bots.py")


@functools.cache
def code_fingerprint(game: str) -> str:
    """A digest of the source of the code that plays ``game`` (:data:`PLAYING_CODE`): games
    kept under other code are not read as this code's, so the same command and seed give
    the same figures whatever was kept before (a change to an agent plays them again)."""
    root = Path(__file__).resolve().parents[2]
    files = [root / c for c in COMMON_CODE]
    for folder in PLAYING_CODE.get(game, ()):
        files += sorted((root / folder).rglob("*.py"))
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def record_file(game: str, params: dict, agents: Sequence[str], seed: int, tag: str) -> Path:
    """Where a match's games are kept: named by everything that decides them, in the cache
    (a what-if writes its page where its --out says, and nothing else beside the code)."""
    key = json.dumps({"game": game, "params": params, "agents": list(agents), "seed": seed,
                      "tag": tag, "v": WHATIF_VERSION, "code": code_fingerprint(game)},
                     sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return store.cache("whatif", "games", f"{game}_{digest}.jsonl")


@dataclass
class Play:
    """How the matches are played: game name, workers or a Dask scheduler, progress,
    the bot builder and the schedule (whose ``finish`` notes each game's facts)."""

    game: str
    seed: int
    workers: int = 1
    scheduler: object = None
    progress: bool | None = None
    build: Build = make_bot
    schedule: Schedule = PLAIN
    tag: str = ""
    played: dict = field(default_factory=dict)

    def rows(self, params: dict, agents: tuple[str, ...], games: int, desc: str) -> dict[int, dict]:
        params = significant(self.game, params)
        path = record_file(self.game, params, agents, self.seed, self.tag)
        header = {"game": self.game, "params": params, "agents": list(agents), "seed": self.seed,
                  "tag": self.tag}
        return play_games(self.game, agents, games, self.seed, params, workers=self.workers,
                          progress=self.progress, build=self.build,
                          record=RowFile(path, header), scheduler=self.scheduler,
                          schedule=self.schedule, desc=desc)


def run_lineup(play: Play, lineup: Lineup, printed: dict, variant: dict) -> list[Metric]:
    """Play ``lineup`` under both rule sets, round after round, until every measure's
    interval reaches its aim or the ceiling of games; returns the metrics."""
    n = len(lineup.agents)
    games = _whole(lineup.min_games, n)
    while True:
        rows_p = play.rows(printed, lineup.agents, games, f"{lineup.key}, printed rules")
        rows_v = play.rows(variant, lineup.agents, games, f"{lineup.key}, variant")
        metrics = measured(lineup, rows_p, rows_v)
        if all(m.reached for m in metrics) or games >= lineup.max_games:
            play.played[lineup.key] = games
            return metrics
        # Grow by at least a half, so that a few rounds reach the aim.
        games = min(_whole(max(games_needed(metrics, games), games * 3 // 2), n),
                    _whole(lineup.max_games, n))


def _whole(games: int, seats: int) -> int:
    """``games`` rounded up to whole rotations of the seats."""
    return -(-games // seats) * seats


def variant_name(variant: dict) -> str:
    """A folder name for a variant: its parameters, sorted, as ``k=v`` joined by ``,``."""
    text = ",".join(f"{k}={v}" for k, v in sorted(variant.items())) or "printed"
    return "".join(c if c.isalnum() or c in "=,._-" else "_" for c in text)[:120]


def provenance_fields() -> tuple[str, str]:
    """Farol's version and the commit, for a what-if's record."""
    return farol_version(), code_commit()


# --------------------------------------------------------------------------- one request
@dataclass(frozen=True)
class WhatIfRequest:
    """What a designer asks (``farol whatif``), for any game: the variant's parameters,
    the table's size, the agents, the precision aimed at, the seed and how to play.
    ``None`` leaves a choice to the game's defaults."""

    variant: dict
    players: int | None = None
    agent: str | None = None
    strong: str | None = None
    skill_players: tuple[int, ...] | None = None
    seed: int = 1
    precision: float | None = None
    skill_precision: float | None = None
    max_games: int = 4000
    workers: int = 1
    scheduler: object = None
    progress: bool | None = None
    name: str | None = None


@dataclass(frozen=True)
class PlayedWhatIf:
    """A game's what-if answered by agents' games: what it plays and reads, the rest is
    :func:`run_played_whatif`'s, the same for every game. ``table`` builds the self-play
    lineup from ``(players, agent, precision, max_games, game)`` (``game``: the variant's
    OpenSpiel game, for what it reads of the rules); ``notes`` says who answered, from
    ``(agent, strong, metrics, skill counts)``."""

    key: str                  # the game's wing (``coup``), for the record and the page
    game: str                 # the OpenSpiel game
    schedule: Schedule
    table: Callable
    notes: Callable
    table_agent: str
    strong_agent: str | None  # None: the table's agent is the strong one too
    weaker: tuple[str, ...]
    players: int              # the table's size when none is asked
    precision: float
    skill_precision: float
    skill_max_games: int | None = None  # None: the request's max_games
    build: Build | None = None          # None: bots by name (make_bot)


def run_played_whatif(spec: PlayedWhatIf, request: WhatIfRequest,
                      build: Build | None = None) -> WhatIf:
    """The variant against the printed rules, both played by agents: every metric of the
    game's table lineup at the table's size and the skill measure (the strong agent
    against each weaker one) at each count of ``skill_players`` (default: the table's).
    The parameters are checked first (one line naming a bad one), and every agent is
    asked whether it plays the variant before a game is played."""
    start = time.perf_counter()
    players = request.players or spec.players
    agent = request.agent or spec.table_agent
    strong = request.strong or spec.strong_agent or agent
    precision = request.precision or spec.precision
    skill_precision = request.skill_precision or spec.skill_precision
    base = {"players": players}
    params = base | dict(request.variant)
    for p in (base, params):
        pyspiel.load_game(spec.game, p)
    counts = tuple(request.skill_players or (players,))
    build = build or spec.build
    play = Play(spec.game, request.seed, request.workers, request.scheduler, request.progress,
                schedule=spec.schedule, tag=f"whatif-{spec.key.replace('_', '-')}",
                **({"build": build} if build else {}))
    for n in counts:
        game = pyspiel.load_game(spec.game, {**params, "players": n})
        for who in (agent, strong, *spec.weaker):
            play.build(who, game, 0, 0)  # an agent that cannot play the variant says so here
    table = spec.table(players, agent, precision, request.max_games,
                       pyspiel.load_game(spec.game, params))
    metrics = run_lineup(play, table, base, params)
    skill_games = spec.skill_max_games or request.max_games
    for n, lineup in skill_lineups(counts, strong, spec.weaker, skill_precision, skill_games):
        metrics += run_lineup(play, lineup, base | {"players": n}, params | {"players": n})
    version, commit = provenance_fields()
    return WhatIf(spec.key, request.name or variant_name(request.variant),
                  dict(request.variant), base, tuple(metrics),
                  tuple(spec.notes(agent, strong, metrics, counts)), dict(play.played),
                  request.seed, version, commit, round(time.perf_counter() - start, 1))


def played_whatif(spec: PlayedWhatIf, variant: dict, build: Build | None = None,
                  skill_max_games: int | None = None, **settings) -> WhatIf:
    """:func:`run_played_whatif` with the request spelled as keywords (``players=3,
    agent="honest", ...``, the fields of :class:`WhatIfRequest`), as scripts and notebooks
    call it; ``skill_max_games`` caps the skill measure's games."""
    if skill_max_games is not None:
        spec = replace(spec, skill_max_games=skill_max_games)
    if "skill_players" in settings and settings["skill_players"] is not None:
        settings["skill_players"] = tuple(settings["skill_players"])
    return run_played_whatif(spec, WhatIfRequest(dict(variant), **settings), build)
