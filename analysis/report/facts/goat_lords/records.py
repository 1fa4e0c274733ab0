"""What the Goat Lords guide reads: the stored tournaments (one round each, the greedy bot
in every seat), the balance games with the strong agent in every seat (both scorings), and
the stored matches of the strongest agent (the rulebook's game).

An answer comes from the strong agent's games once every table it needs is complete, and
from the greedy tournaments until then."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.goat_lords.studies.plan import STRONG_BOT, PlanResults, all_greedy, strong_plan
from analysis.goat_lords.studies.plan import plan as experiments
from analysis.goat_lords.studies.tournament import Experiment, csv_path, played_rows
from analysis.play.match import MatchResult
from analysis.shared import store
from analysis.shared.params import game_parameter_spec
from analysis.shared.store import read_json

GAME = "python_goat_lords"
# Bot strength is stated only from this many games or more.
MIN_GAMES = 1000
PLAN = "farol report goat_lords"
MATCH = ("farol goat-lords match --agents lord,greedy --games 1000 --save lord_vs_greedy_2p")


_READ: dict[tuple, PlanResults] = {}


def _stored(groups: dict[str, list[Experiment]]) -> PlanResults:
    """The stored games of every experiment of ``groups``, read once per report and again
    if a file changed (a game not stored is not played here)."""
    paths = [csv_path(e) for exps in groups.values() for e in exps]
    key = (str(store.data_root()), tuple(str(p) for p in paths),
           tuple(p.stat().st_mtime if p.exists() else 0.0 for p in paths))
    if key not in _READ:
        _READ[key] = {group: [(exp, played_rows(exp)) for exp in exps]
                      for group, exps in groups.items()}
    return _READ[key]


def plan(outdir: Path) -> PlanResults:
    """The tournaments' stored games, by question (``farol report goat_lords`` plays what
    is missing)."""
    return _stored(experiments(False))


def strong_results() -> PlanResults:
    """The strong agent's balance games stored so far, by question."""
    return _stored(strong_plan(False))


def strong_group(group: str, label: str | None = None) -> list[tuple[Experiment, pd.DataFrame]] | None:
    """The strong agent's tables of one question (those of one ``label`` only, if given:
    a scoring, a value set) if every one is complete, else ``None``."""
    tables = [(e, df) for e, df in strong_results()[group] if label in (None, e.label)]
    return tables if all(len(df) >= exp.games for exp, df in tables) else None


@dataclass(frozen=True)
class SeatTables:
    """The seat tables an answer reads: ``main`` (the strong agent's rulebook scoring, or
    the greedy tournaments), ``one_round`` (the strong agent's one-round tables, or the
    greedy tournaments: one round each), and who sat at them, in words."""

    main: list[tuple[Experiment, pd.DataFrame]]
    one_round: list[tuple[Experiment, pd.DataFrame]]
    who: str
    strong: bool


def seat_tables(outdir: Path) -> SeatTables:
    strong = strong_group("seats")
    if strong is None:
        greedy = greedy_tables(outdir)
        return SeatTables(greedy, greedy, "the greedy bot in every seat", False)
    return SeatTables([(e, df) for e, df in strong if e.label == "rounds"],
                      [(e, df) for e, df in strong if e.label == "single"], strong_words(), True)


def strong_words() -> str:
    name, _, sims = STRONG_BOT.partition(":")
    return f"the strong agent `{name}` at {sims} simulations a move in every seat"


def count_words(by_players: dict[int, int]) -> str:
    """Games per player count in words: ``3,000 games per player count`` when they are all
    equal, else ``1,550 games at 2 players to 750 at 6``."""
    if not by_players:
        return ""
    if len(set(by_players.values())) == 1:
        return f"{next(iter(by_players.values())):,} games per player count"
    lo, hi = min(by_players), max(by_players)
    return f"{by_players[lo]:,} games at {lo} players to {by_players[hi]:,} at {hi}"


def games_words(tables: list[tuple[Experiment, pd.DataFrame]]) -> str:
    return count_words({exp.players: len(df) for exp, df in tables})


def greedy_tables(outdir: Path) -> list[tuple[Experiment, pd.DataFrame]]:
    return all_greedy(plan(outdir))


def matches() -> list[tuple[str, MatchResult]]:
    """The stored matches (name, result), by name."""
    folder = store.data("goat_lords", "matches")
    paths = sorted(folder.glob("*.json")) if folder.exists() else []
    return [(p.stem, MatchResult.from_json(read_json(p))) for p in paths]


def scoring_words(params: dict) -> str:
    """The scoring a game was played with, in words."""
    spec = game_parameter_spec(GAME)
    merged = spec | params
    if merged["scoring"] == "single":
        return "one round, most herd points wins (`scoring=single`)"
    return (f"rounds until a player reaches {merged['target_score']:,} points, the rulebook's "
            f"game (`scoring=rounds`, `target_score={merged['target_score']}`)")
