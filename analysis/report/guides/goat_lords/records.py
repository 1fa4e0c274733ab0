"""What the Goat Lords guide reads: the stored tournaments (one round each, the greedy bot
in every seat) and the stored matches of the strongest agent (the rulebook's game)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analysis import store
from analysis.goat_lords.plan import all_greedy
from analysis.goat_lords.plan import plan as experiments
from analysis.goat_lords.tournament import Experiment, csv_path, load_rows
from analysis.match import MatchResult
from analysis.params import game_parameter_spec
from analysis.solve.cache import read_json

GAME = "python_goat_lords"
# Bot strength is stated only from this many games or more.
MIN_GAMES = 1000
PLAN = "farol report goat_lords"
MATCH = ("farol goat-lords match --agents lord,greedy --games 1000 --save lord_vs_greedy_2p")


_READ: dict[tuple[str, tuple[float, ...]], dict] = {}


def plan(outdir: Path) -> dict[str, list[tuple[Experiment, pd.DataFrame]]]:
    """The tournaments' stored games, by question (read only: a game not stored is not
    played here; ``farol report goat_lords`` plays what is missing)."""
    def stored(exp: Experiment) -> pd.DataFrame:
        rows = load_rows(exp)
        return rows[rows["index"] < exp.games]

    groups = experiments(False)
    paths = [csv_path(e) for exps in groups.values() for e in exps]
    key = (str(store.data_root()), tuple(p.stat().st_mtime if p.exists() else 0.0 for p in paths))
    if key not in _READ:  # read once per report, again if a file changed
        _READ[key] = {group: [(exp, stored(exp)) for exp in exps]
                      for group, exps in groups.items()}
    return _READ[key]


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
