"""How much a 2-player Coup agent loses to a best response, from below: the local best
response (:mod:`analysis.coup.solvers.local_response`) played against it.

For an agent that can say its mix for every hand at every spot (a mix oracle,
:data:`analysis.coup.agents.ORACLES`: ``resolve``, ``resolve-blueprint``, the
blueprint), the responder plays it on duplicate deals (every deal from both seats,
:mod:`analysis.coup.studies.duplicate`), keeping the agent's range by Bayes' rule from
the agent's own mixes and taking, at each of its decisions, the move with the best
value against that range. Its win rate less 50%, with the 95% interval over deals, is
what a best response gains *at least*, in win probability averaged over the two seats:
a lower bound on how much the agent's strategy loses, never an estimate of it (a
stronger response could gain more). A bound below 0 bounds nothing (no strategy loses
less than 0).

Every finished game is kept in a record file, so a stopped measurement resumes;
:class:`LowerBound` is the stored result (``coup/lower_bounds.json`` in the data store, read
by :func:`load_bounds`), one per agent, deck and setup, with version, commit and seed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from pathlib import Path
from typing import Any

import pyspiel

from analysis.coup import agents as A
from analysis.coup.agents.blueprint import blueprint_oracle
from analysis.coup.model import GAME
from analysis.coup.solvers.local_response import Continuation, LocalBestResponseAgent
from analysis.coup.solvers.mix_oracle import WithValues
from analysis.coup.studies.duplicate import deal_chance
from analysis.play.bots import make_bot
from analysis.play.match import compute_seconds, play_games, read_rows, tally
from analysis.shared import store
from analysis.shared.provenance import provenance
from analysis.shared.store import atomic_write_text
from games.errors import FarolError, InvalidParameterError

RESPONDER = "lbr"  # the responder's name in a line-up: lbr:AGENT:DEPTH:ROLLOUTS:TURNS:VALUES
FORMAT = 1
CHUNK = 10  # games kept at a time: a stopped measurement loses at most this many
VALUES = ("own", "blueprint")


@dataclasses.dataclass(frozen=True)
class Settings:
    """How the responder searches: ``depth`` of its own decisions, then ``rollouts``
    roll-outs of ``turns`` turns under the agent's strategy per world; with none, the
    ``values`` of a position past the search: ``own``, the agent's exact values where
    its oracle has them (the blueprint's), else cards and coins; ``blueprint``, the
    blueprint's values (both playing the blueprint on) beside the agent's mixes."""

    depth: int = 1
    rollouts: int = 0
    turns: int = 2
    values: str = "own"

    def __post_init__(self):
        if self.depth < 1 or self.rollouts < 0 or self.turns < 1:
            raise InvalidParameterError(
                f"local best response: depth 1 or more ({self.depth}), roll-outs 0 or more "
                f"({self.rollouts}), turns 1 or more ({self.turns})")
        if self.values not in VALUES:
            raise InvalidParameterError(f"local best response: values {self.values!r}; "
                                        f"choose from {', '.join(VALUES)}")

    def name(self, agent: str) -> str:
        """The responder's name in a line-up against ``agent``."""
        return (f"{RESPONDER}:{agent}:{self.depth}:{self.rollouts}:{self.turns}:"
                f"{self.values}")

    @classmethod
    def of_name(cls, name: str) -> tuple[str, Settings]:
        """The agent and settings of a line-up name of :meth:`name`."""
        _, agent, depth, rollouts, turns, values = name.split(":")
        return agent, cls(int(depth), int(rollouts), int(turns), values)

    def text(self) -> str:
        if self.rollouts:
            after = (f"{self.rollouts} roll-outs of {self.turns} turns, both seats playing "
                     "the agent's strategy")
        elif self.values == "blueprint":
            after = "the blueprint's values (both playing the blueprint on)"
        else:
            after = "the agent's exact values where known, else cards and coins"
        return f"searching {self.depth} of its own decisions, then {after}"


@dataclasses.dataclass(frozen=True)
class LowerBound:
    """What the local best response won against ``agent`` on ``deck``/``setup``:
    ``games`` games (``deals`` deals, each from both seats), ``win_rate`` with its 95%
    interval over deals, and ``gain`` = win rate - 0.5 with ``gain_ci95``: a best
    response gains at least that much, in win probability averaged over the seats.
    ``cpu_seconds``: the processor time the games took (both players); ``planned``: the
    games it was to play (fewer in ``games``: a stopped run, see :attr:`complete`)."""

    agent: str
    deck: str
    setup: str
    games: int
    deals: int
    win_rate: float
    win_ci95: tuple[float, float]
    gain: float
    gain_ci95: tuple[float, float]
    depth: int
    rollouts: int
    turns: int
    cpu_seconds: float | None
    provenance: dict
    values: str = "own"
    planned: int = 0  # the games the measurement was to play (0: as many as it has)

    @property
    def complete(self) -> bool:
        """Whether every planned game was played (a stopped run's bound is partial)."""
        return self.games >= self.planned

    @property
    def at_least(self) -> float:
        """The bound at 95%: the interval's low end, never below 0."""
        return max(0.0, self.gain_ci95[0])

    def text(self) -> str:
        lo, hi = self.gain_ci95
        return (f"a best response gains at least {self.gain:+z.3f} [95% interval {lo:+z.3f}, "
                f"{hi:+z.3f}] in win probability against {self.agent} ({self.games:,} games, "
                f"wins {self.win_rate:z.1%})")

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> LowerBound:
        try:
            return cls(**(dict(d) | {"win_ci95": tuple(d["win_ci95"]),
                                     "gain_ci95": tuple(d["gain_ci95"])}))
        except (KeyError, TypeError) as exc:
            raise store.CorruptFileError(f"not a lower bound record ({exc})") from None


def build(name: str, game: pyspiel.Game, seat: int, seed: int):
    """A match's bot: the responder for a line-up name of :meth:`Settings.name`, else the
    registered bot ``name`` (module level, so worker processes find it)."""
    if not name.startswith(RESPONDER + ":"):
        return make_bot(name, game, seat, seed)
    agent, settings = Settings.of_name(name)
    oracle = A.mix_oracle(agent, game, 1 - seat)
    if settings.values == "blueprint" and agent != "blueprint":
        oracle = WithValues(oracle, blueprint_oracle(game))
    # roll-outs play the agent's strategy in both seats: its own oracle for this seat too
    own = A.mix_oracle(agent, game, seat) if settings.rollouts else None
    return LocalBestResponseAgent(
        game.config, seat, oracle, settings.depth,
        Continuation(seat, oracle, settings.rollouts, settings.turns, own=own, seed=seed))


def measure(agent: str, games: int, seed: int, settings: Settings = Settings(),
            params: dict | None = None, record: Path | None = None,
            progress: bool = False) -> LowerBound:
    """Play the local best response against ``agent`` for ``games`` games (rounded up to
    whole deals) of 2-player Coup with ``params`` (default: ambassador deck, basic
    setup), keeping finished games in ``record`` (resumed when run again)."""
    params = dict(params or {})
    game = pyspiel.load_game(GAME, params)
    if game.num_players() != 2:
        raise InvalidParameterError("the local best response plays 2-player Coup")
    A.mix_oracle(agent, game, 1)  # an agent that is no oracle fails here, saying why
    lineup = (settings.name(agent), agent)
    start = time.process_time()
    rows = play_games(GAME, lineup, games, seed, params, build=build, record=record,
                      deal=deal_chance, clock=True, progress=progress, chunk=CHUNK,
                      desc=f"local best response vs {agent}")
    bound = bound_of(agent, settings, game, seed, rows)
    if bound.cpu_seconds is None:
        bound = dataclasses.replace(bound, cpu_seconds=time.process_time() - start)
    return bound


def finished(agent: str, seed: int, settings: Settings, record: Path,
             params: dict | None = None) -> LowerBound | None:
    """The bound over the games a stopped measurement finished (the whole deals from the
    first game on, as :func:`measure` keeps them in ``record``), without playing any;
    ``None`` when no deal is finished."""
    params = dict(params or {})
    game = pyspiel.load_game(GAME, params)
    lineup = (settings.name(agent), agent)
    header = {"game": GAME, "params": params, "agents": list(lineup), "seed": seed,
              "deals": "duplicate"}
    rows = read_rows(record, header)
    games = 0
    while games in rows and games + 1 in rows:
        games += 2
    if not games:
        return None
    return bound_of(agent, settings, game, seed, {i: rows[i] for i in range(games)})


def bound_of(agent: str, settings: Settings, game: pyspiel.Game, seed: int,
             rows: dict[int, dict]) -> LowerBound:
    """The bound the duplicate games ``rows`` of the responder against ``agent`` give."""
    lineup = (settings.name(agent), agent)
    p = game.get_parameters()
    result = tally(GAME, {}, lineup, len(rows), seed, rows, duplicate=True)
    total = next(r for r in result.totals() if r.agent == lineup[0])
    lo, hi = total.ci95
    return LowerBound(agent, p["deck"], p["two_player_setup"], total.games, result.deals,
                      total.win_rate, (lo, hi), total.win_rate - 0.5, (lo - 0.5, hi - 0.5),
                      settings.depth, settings.rollouts, settings.turns, compute_seconds(rows),
                      provenance(seed), settings.values)


def bounds_path() -> Path:
    return store.data("coup", "lower_bounds.json")


def load_bounds(path: Path | None = None) -> list[LowerBound]:
    """The stored lower bounds (none when the file is missing)."""
    path = path or bounds_path()
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text())
        return [LowerBound.from_json(d) for d in data["bounds"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise store.CorruptFileError(f"{store.shown(path)}: not a lower bounds file "
                                     f"({exc})") from None


def stored_bound(agent: str, deck: Any, setup: Any) -> dict | None:
    """The stored lower bound on how much ``agent``'s strategy loses to a best response,
    for ``deck`` and ``setup``, as the answers that show it read it: its ``gain``,
    ``text`` (:func:`bound_words`) and whether its interval ``shown`` a loss (excludes
    0); ``None`` where none is stored or it cannot be read (a row is read only for the
    fields the words need, so nothing is made up from a damaged file)."""
    path = bounds_path()
    if not path.is_file():
        return None
    try:
        data = store.read_json(path)
    except FarolError:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    rows = data.get("bounds")
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict) or (row.get("agent"), row.get("deck"),
                                         row.get("setup")) != (agent, deck, setup):
            continue
        gain, ci, games = row.get("gain"), row.get("gain_ci95"), row.get("games")
        if not (_finite(gain) and isinstance(ci, list) and len(ci) == 2
                and all(_finite(c) for c in ci) and isinstance(games, int) and games > 0):
            continue
        return {"gain": float(gain), "shown": ci[0] > 0,
                "text": bound_words(gain, ci, games, row.get("planned"))}
    return None


def _finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def bound_words(gain: float, ci, games: int, planned: Any) -> str:
    """A stored lower bound in words: the gain with its 95% interval and its games (a run
    stopped short of its plan says so). An interval holding 0 shows no loss: then the
    words say what the run found, not a bound."""
    games_text = f"over {games:,} games"
    if isinstance(planned, int) and not isinstance(planned, bool) and planned > games:
        games_text += f", a run stopped at {games:,} of {planned:,}"
    figure = f"{gain:+z.3f} [{ci[0]:+z.3f}, {ci[1]:+z.3f}] in win probability"
    if ci[0] <= 0:
        return (f"a local best response gained {figure} in games from the deal "
                f"({games_text}), an interval that holds 0")
    return (f"in games from the deal a best response gains at least {figure} (a lower "
            f"bound with its 95% interval: a local best response {games_text})")


def save_bounds(new: list[LowerBound], path: Path | None = None) -> Path:
    """Store ``new`` beside the bounds kept (one per agent, deck and setup: a new
    measurement replaces the old one)."""
    path = path or bounds_path()
    fresh = {(b.agent, b.deck, b.setup) for b in new}
    kept = [b for b in load_bounds(path) if (b.agent, b.deck, b.setup) not in fresh]
    bounds = sorted(kept + list(new), key=lambda b: (b.deck, b.setup, b.agent))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({
        "format": FORMAT,
        "what": "lower bounds on how much each agent's strategy loses to a best response "
                "(win probability averaged over the seats): a local best response's win "
                "rate less 50%, with its 95% interval over duplicate deals",
        "bounds": [b.to_json() for b in bounds]}, indent=1) + "\n")
    return path
