"""Which Coup agent is strongest at 3 to 6 players: a round robin of duplicate deals.

No equilibrium is meaningful with three players or more (a player's best play depends
on how the others play, and two players can gang up on a third), so strength is measured
by play: at a table of ``n`` players every lineup of ``n`` different agents of the
ladder (:data:`AGENTS`) plays the same number of duplicate deals
(:mod:`analysis.coup.studies.duplicate`: each deal once in every rotation of the seats,
so every agent holds every hand of the deal from every seat). An agent's *line* is its
win rate over every deal of every lineup it sits in, with a 95% interval over those
deals (each (lineup, deal) is one independent unit: the agent's mean share over the
deal's rotations). The fair share is ``1/n``.

Head to head, agent ``a`` against ``b``: over the deals of the lineups where both sit,
the mean of ``a``'s share less ``b``'s (a paired difference, interval over deals).

A *challenger* (a candidate for ``best``) is measured by playing every lineup that holds
``fast`` again with the challenger in ``fast``'s place: the same seeds, so the same
deals, the same seats and the same opponents' seeds. Its line beside ``fast``'s is then
a paired comparison deal by deal, against each opponent (the lineups holding that
opponent) and overall.

Every finished game is kept in a record in the cache (one file per lineup), so a stopped
run resumes; the answer, one :class:`LadderRecord` per table, goes under the data store
with the version, the commit and the seed.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Sequence
from pathlib import Path

import analysis.coup.agents  # noqa: F401  (registers every Coup agent in every process)
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.bots import make_bot
from analysis.play.match import Build, compute_seconds, play_games, seating
from analysis.shared import store
from analysis.shared.provenance import code_commit, farol_version
from analysis.shared.store import atomic_write_text, read_record
from analysis.statistics.intervals import mean_interval
from games.errors import InvalidParameterError

GAME = "python_coup"
AGENTS = ("fast", "search", "honest", "bluffer", "bluffer-bold", "random")
PLAYERS = (3, 4, 6)
LINE = 1000  # deals an agent's line needs at least
SEED = 20261207
BASE = "fast"  # the agent a challenger replaces


def lineups(players: int, agents: Sequence[str] = AGENTS) -> list[tuple[str, ...]]:
    """Every lineup of ``players`` different agents, in the ladder's order."""
    if not 3 <= players <= len(agents):
        raise InvalidParameterError(f"players: the ladder seats 3 to {len(agents)} different "
                                    f"agents, not {players}")
    return list(itertools.combinations(agents, players))


def deals_per_lineup(players: int, line: int = LINE, agents: Sequence[str] = AGENTS) -> int:
    """Deals each lineup plays so that every agent's line holds at least ``line`` deals
    (an agent sits in C(k-1, n-1) of the C(k, n) lineups)."""
    return -(-line // math.comb(len(agents) - 1, players - 1))


def swapped(lineup: tuple[str, ...], challenger: str | None) -> tuple[str, ...]:
    """``lineup`` with the challenger in ``fast``'s place (unchanged without one)."""
    return tuple(challenger if a == BASE and challenger else a for a in lineup)


def games_path(players: int, lineup: tuple[str, ...], seed: int, tag: str = "") -> Path:
    """Where a lineup's games are kept; ``tag`` names the challenger's version, so games
    of an older challenger are never resumed with a newer one."""
    tail = f"-{tag}" if tag else ""
    return store.cache("coup", "ladder", f"{players}p-{'+'.join(lineup)}-{seed}{tail}.jsonl")


def play_lineup(players: int, lineup: tuple[str, ...], deals: int, seed: int = SEED,
                tag: str = "", build: Build = make_bot, progress: bool = False) -> dict[int, dict]:
    """``deals`` duplicate deals of ``lineup`` at ``players`` (resuming its record)."""
    path = games_path(players, lineup, seed, tag)
    path.parent.mkdir(parents=True, exist_ok=True)
    return play_games(GAME, lineup, deals * players, seed, {"players": players},
                      build=build, record=path, deal=deal_chance, clock=True,
                      progress=progress, desc=f"{players}p {'+'.join(lineup)}")


def deal_shares(lineup: tuple[str, ...], rows: dict[int, dict]) -> list[dict[str, float]]:
    """Each deal's mean share per agent over its rotations."""
    n = len(lineup)
    out = []
    for d in range(len(rows) // n):
        sums = dict.fromkeys(lineup, 0.0)
        for i in range(d * n, (d + 1) * n):
            for s, name in enumerate(seating(lineup, i)):
                sums[name] += float(rows[i]["shares"][s])
        out.append({k: v / n for k, v in sums.items()})
    return out


@dataclasses.dataclass(frozen=True)
class Line:
    """An agent's win rate over its deals, with the 95% interval over deals."""

    agent: str
    deals: int
    games: int
    win_rate: float
    ci95: tuple[float, float]

    def to_json(self) -> dict:
        return {"agent": self.agent, "deals": self.deals, "games": self.games,
                "win_rate": self.win_rate, "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, d: dict) -> Line:
        return cls(d["agent"], int(d["deals"]), int(d["games"]), float(d["win_rate"]),
                   tuple(d["ci95"]))


@dataclasses.dataclass(frozen=True)
class Margin:
    """``agent``'s mean share less ``other``'s over the deals where both sit (or, for a
    challenger, its share less ``fast``'s in the same deals, in the lineups holding
    ``other``), with the 95% interval over deals."""

    agent: str
    other: str
    deals: int
    margin: float
    ci95: tuple[float, float]

    def to_json(self) -> dict:
        return {"agent": self.agent, "other": self.other, "deals": self.deals,
                "margin": self.margin, "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, d: dict) -> Margin:
        return cls(d["agent"], d["other"], int(d["deals"]), float(d["margin"]), tuple(d["ci95"]))


def _line(agent: str, values: list[float], players: int) -> Line:
    mean, lo, hi = mean_interval(values)
    return Line(agent, len(values), len(values) * players, mean, (lo, hi))


def _margin(agent: str, other: str, values: list[float]) -> Margin:
    mean, lo, hi = mean_interval(values, -1.0, 1.0)
    return Margin(agent, other, len(values), mean, (lo, hi))


@dataclasses.dataclass(frozen=True)
class LadderRecord:
    """One table's ladder: each agent's line (best first), every head-to-head margin,
    and, when a challenger was played, its line in ``fast``'s place and its paired
    margins over ``fast`` (by opponent, and ``other="all"`` overall)."""

    players: int
    agents: tuple[str, ...]
    deals_per_lineup: int
    lines: tuple[Line, ...]
    head_to_head: tuple[Margin, ...]
    challenger: str
    challenger_lines: tuple[Line, ...]
    over_fast: tuple[Margin, ...]
    version: str
    commit: str
    seed: int
    cpu_seconds: float | None

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    def top(self, with_challenger: bool = False) -> str:
        """The agent with the highest line (the challenger's ladder: with it in place of
        ``fast``)."""
        lines = self.challenger_lines if with_challenger and self.challenger_lines else self.lines
        return max(lines, key=lambda x: x.win_rate).agent

    def challenger_kept(self) -> bool:
        """Whether the challenger tops its ladder and does no worse than ``fast`` against
        any agent: no margin over ``fast`` whose interval lies wholly below 0."""
        if not self.challenger_lines:
            return False
        return (self.top(True) == self.challenger
                and all(m.ci95[1] >= 0 for m in self.over_fast))

    def to_json(self) -> dict:
        return {"players": self.players, "agents": list(self.agents),
                "deals_per_lineup": self.deals_per_lineup,
                "lines": [x.to_json() for x in self.lines],
                "head_to_head": [m.to_json() for m in self.head_to_head],
                "challenger": self.challenger,
                "challenger_lines": [x.to_json() for x in self.challenger_lines],
                "over_fast": [m.to_json() for m in self.over_fast],
                "challenger_kept": self.challenger_kept(),
                "version": self.version, "commit": self.commit, "seed": self.seed,
                "cpu_seconds": self.cpu_seconds}

    @classmethod
    def from_json(cls, d: dict) -> LadderRecord:
        return cls(int(d["players"]), tuple(d["agents"]), int(d["deals_per_lineup"]),
                   tuple(Line.from_json(x) for x in d["lines"]),
                   tuple(Margin.from_json(x) for x in d["head_to_head"]),
                   str(d.get("challenger", "")),
                   tuple(Line.from_json(x) for x in d.get("challenger_lines", ())),
                   tuple(Margin.from_json(x) for x in d.get("over_fast", ())),
                   str(d["version"]), str(d["commit"]), int(d["seed"]),
                   None if d.get("cpu_seconds") is None else float(d["cpu_seconds"]))


def ladder_of(players: int, agents: Sequence[str], deals: int,
              played: dict[tuple[str, ...], dict[int, dict]]) -> tuple[list[Line], list[Margin]]:
    """Each agent's line and every head-to-head margin from the lineups' games."""
    values: dict[str, list[float]] = {a: [] for a in agents}
    pairs: dict[tuple[str, str], list[float]] = {}
    for lineup, rows in played.items():
        for shares in deal_shares(lineup, rows):
            for a in lineup:
                values[a].append(shares[a])
            for a, b in itertools.permutations(lineup, 2):
                pairs.setdefault((a, b), []).append(shares[a] - shares[b])
    lines = sorted((_line(a, v, players) for a, v in values.items() if v),
                   key=lambda x: -x.win_rate)
    margins = [_margin(a, b, v) for (a, b), v in sorted(pairs.items())]
    return lines, margins


def paired_over_fast(challenger: str, base: dict[tuple[str, ...], dict[int, dict]],
                     swapped_games: dict[tuple[str, ...], dict[int, dict]]) -> list[Margin]:
    """The challenger's share less ``fast``'s in the same deals: by opponent and overall."""
    by: dict[str, list[float]] = {"all": []}
    for lineup, rows in base.items():
        if BASE not in lineup:
            continue
        other = swapped_games[swapped(lineup, challenger)]
        mine = deal_shares(swapped(lineup, challenger), other)
        theirs = deal_shares(lineup, rows)
        diffs = [m[challenger] - t[BASE] for m, t in zip(mine, theirs, strict=True)]
        by["all"] += diffs
        for a in lineup:
            if a != BASE:
                by.setdefault(a, []).extend(diffs)
    return [_margin(challenger, other, v) for other, v in by.items()]


def run_ladder(players: int, agents: Sequence[str] = AGENTS, line: int = LINE,
               seed: int = SEED, challenger: str | None = None, tag: str = "",
               build: Build = make_bot, progress: bool = False) -> LadderRecord:
    """Play (or resume) the table's round robin, and the challenger's lineups when one
    is given; save and return its record."""
    deals = deals_per_lineup(players, line, agents)
    played: dict[tuple[str, ...], dict[int, dict]] = {}
    costs = []
    for lineup in lineups(players, agents):
        played[lineup] = play_lineup(players, lineup, deals, seed, "", build, progress)
        costs.append(compute_seconds(played[lineup]))
    lines, margins = ladder_of(players, agents, deals, played)
    challenger_lines: list[Line] = []
    over: list[Margin] = []
    if challenger:
        mixed: dict[tuple[str, ...], dict[int, dict]] = {}
        # The cheap lineups first (the same games whatever the order): without search,
        # whose roll-outs run on the engine.
        for lineup in sorted(lineups(players, agents), key=lambda x: "search" in x):
            if BASE in lineup:
                other = swapped(lineup, challenger)
                mixed[other] = play_lineup(players, other, deals, seed, tag, build, progress)
                costs.append(compute_seconds(mixed[other]))
            else:
                mixed[lineup] = played[lineup]
        challenger_lines, _ = ladder_of(players, [swapped((a,), challenger)[0] for a in agents],
                                        deals, mixed)
        over = paired_over_fast(challenger, played, mixed)
    record = LadderRecord(players, tuple(agents), deals, tuple(lines), tuple(margins),
                          challenger or "", tuple(challenger_lines), tuple(over),
                          farol_version(), code_commit(), seed,
                          None if None in costs else round(sum(costs), 3))
    save_record(record)
    return record


def record_path(players: int) -> Path:
    return store.data("coup", "ladder", f"{players}p.json")


def save_record(record: LadderRecord) -> None:
    path = record_path(record.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(record.to_json(), indent=1) + "\n")


def load_record(players: int) -> LadderRecord | None:
    path = record_path(players)
    return LadderRecord.from_json(read_record(path)) if path.exists() else None
