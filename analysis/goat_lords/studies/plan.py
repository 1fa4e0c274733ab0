"""The experiments of the Goat Lords report, grouped by question, with their budgets: the
greedy bots' plan the report plays, and the balance re-measured with the strong agent
(``farol goat-lords balance`` plays it; the report reads what is played)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analysis.goat_lords.studies.tournament import (
    Experiment,
    csv_folder,
    played_rows,
    run_experiment,
)
from games.goat_lords.cards import DEFAULT_VALUES, GOAT_VALUE_RANGE, IS_WILD, KINDS
from games.goat_lords.game import VALUE_PARAMS

VALUE_SETS: dict[str, tuple[int, ...]] = {
    "assumed": DEFAULT_VALUES,
    "flat": tuple(25 if w else 10 for w in IS_WILD),
    # Rarity reversed: the common kinds worth most (not proportional to any other set).
    "reversed": (25, 50, 5, 10, 10, 10, 15, 15, 15, 20, 20, 20),
    "cheap wilds": tuple(25 if w else (20 if k.copies == 8 else 15) for w, k in zip(IS_WILD, KINDS, strict=True)),
    "rich wilds": tuple(50 if w else 5 for w in IS_WILD),
    "random draw": tuple(
        random.Random(7).randint(25, 50) if w else random.Random(100 + i).randint(*GOAT_VALUE_RANGE)
        for i, w in enumerate(IS_WILD)
    ),
}


def value_params(values: Sequence[int]) -> tuple[tuple[str, int], ...]:
    return tuple(zip(VALUE_PARAMS, values, strict=True))


@dataclass
class Budget:
    """Games per experiment: the full report's defaults, or tiny ones under FAROL_QUICK."""

    seats_greedy: int
    seats_random: int
    sensitivity: int
    head_to_head: int
    search: int
    simulations: int
    extra_wild: int
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    sensitivity_players: tuple[int, ...] = (2, 4)
    extra: dict = field(default_factory=dict)


def budget(quick: bool) -> Budget:
    if quick:
        return Budget(seats_greedy=40, seats_random=30, sensitivity=30, head_to_head=20,
                      search=2, simulations=10, extra_wild=40)
    return Budget(seats_greedy=3000, seats_random=1500, sensitivity=1000, head_to_head=1000,
                  search=40, simulations=60, extra_wild=2000)


def plan(quick: bool) -> dict[str, list[Experiment]]:
    """Every experiment of the report, grouped by question."""
    b = budget(quick)
    tag = "quick_" if quick else ""
    seats = []
    for n in b.players:
        seats.append(Experiment(f"{tag}seats_greedy_{n}p", n, ("greedy",) * n, b.seats_greedy,
                                label="greedy"))
        seats.append(Experiment(f"{tag}seats_random_{n}p", n, ("random",) * n, b.seats_random,
                                label="random"))
    sensitivity = [
        Experiment(f"{tag}values_{name.replace(' ', '_')}_{n}p", n, ("greedy",) * n, b.sensitivity,
                   params=value_params(values), label=name)
        for name, values in VALUE_SETS.items() for n in b.sensitivity_players
    ]
    sims = b.simulations
    matchups = [
        Experiment(f"{tag}h2h_greedy_random", 2, ("greedy", "random"), b.head_to_head, rotate=True,
                   label="greedy vs random"),
        Experiment(f"{tag}h2h_mcts_greedy", 2, (f"mcts:{sims}", "greedy"), b.search, rotate=True,
                   label=f"MCTS ({sims} sims, cheats) vs greedy"),
        Experiment(f"{tag}h2h_ismcts_greedy", 2, (f"ismcts:{sims}", "greedy"), b.search, rotate=True,
                   label=f"ISMCTS ({sims} sims) vs greedy"),
    ]
    # The same games as the all-greedy seat experiments, one seat dealt an extra wild.
    extra = [Experiment(f"{tag}extra_wild_{n}p", n, ("greedy",) * n, b.extra_wild, label="greedy",
                        extra_wild=True) for n in b.players]
    return {"seats": seats, "sensitivity": sensitivity, "matchups": matchups, "extra_wild": extra}


# Each group of the plan: its experiments with their rows (one per finished game).
PlanResults = dict[str, list[tuple[Experiment, pd.DataFrame]]]


def run_plan(quick: bool, workers: int | None = None, only: Callable[[Experiment], bool] | None = None,
             data_dir: Path | None = None) -> PlanResults:
    """Run (or load) every experiment of the plan; CSVs in ``data_dir`` (default :func:`csv_folder`)."""
    data_dir = csv_folder(quick) if data_dir is None else data_dir
    results = {}
    for group, experiments in plan(quick).items():
        results[group] = [
            (exp, run_experiment(exp, data_dir, workers=workers))
            for exp in experiments if only is None or only(exp)
        ]
    return results



# Balance measured with the strong agent (lord): a fixed budget, named in the experiments,
# so that a later change of lord's default does not mix two strengths in one table.
STRONG_BOT = "lord:144"
SCORINGS = ("single", "rounds")
ALL_PLAYERS = (2, 3, 4, 5, 6)
SOME_PLAYERS = (2, 4)  # the costlier experiments: point-value sets, the rulebook's wild
HALF_WIDTH = {2: 0.025}  # the widest 95% half-width wanted for a seat's win rate
OTHER_HALF_WIDTH = 0.03
# A seat may win more than its fair share (a first seat, a seat with one more wild): the
# tables are sized for a rate up to this far above 1/players, where the variance is larger.
HEADROOM = 0.05


def all_greedy(res: PlanResults) -> list[tuple[Experiment, pd.DataFrame]]:
    """The all-greedy seat experiments with games (the controls of the extra-wild experiment)."""
    return [(e, df) for e, df in res["seats"] if e.label == "greedy" and not df.empty]


def aim(players: int) -> float:
    """The widest 95% half-width wanted for an answer at this player count."""
    return HALF_WIDTH.get(players, OTHER_HALF_WIDTH)


def games_for(players: int) -> int:
    """Games for a seat's win rate to have a 95% interval no wider than the aim (±2.5
    points at 2 players, ±3 beyond) at any rate up to ``HEADROOM`` above the fair
    1/players, as the normal approximation reckons, in fifties."""
    p = min(0.5, 1.0 / players + HEADROOM)
    need = 1.96 ** 2 * p * (1 - p) / aim(players) ** 2
    return 50 * math.ceil(need / 50)


def strong_plan(quick: bool = False) -> dict[str, list[Experiment]]:
    """The balance experiments with ``lord`` in every seat: seat win rates and duels for
    both scorings and 2-6 players, the paired extra-wild games (one round at 2-6 players,
    the rulebook's game at 2 and 4), and the point-value sets at 2 and 4 players (single
    scoring)."""
    bot = "lord:4" if quick else STRONG_BOT
    tag = "quick_" if quick else ""
    size = (lambda n: 8) if quick else games_for
    seats = [Experiment(f"{tag}strong_seats_{scoring}_{n}p", n, (bot,) * n, size(n),
                        params=(("scoring", scoring),), label=scoring)
             for scoring in SCORINGS for n in ALL_PLAYERS]
    # The same games as the seat tables of each scoring, one seat dealt an extra wild (the
    # one-round tables keep their first names, from before the rulebook's were planned).
    # The rulebook's game costs several times a round, so it is played at 2 and 4 players.
    extra = [Experiment(f"{tag}strong_extra_wild_{'' if scoring == 'single' else scoring + '_'}{n}p",
                        n, (bot,) * n, size(n), params=(("scoring", scoring),), label=scoring,
                        extra_wild=True)
             for scoring in SCORINGS for n in (ALL_PLAYERS if scoring == "single" else SOME_PLAYERS)]
    values = [Experiment(f"{tag}strong_values_{name.replace(' ', '_')}_{n}p", n, (bot,) * n,
                         size(n), params=(("scoring", "single"),) + value_params(v), label=name)
              for name, v in VALUE_SETS.items() if name != "assumed" for n in SOME_PLAYERS]
    return {"seats": seats, "extra_wild": extra, "sensitivity": values}


def load_strong(quick: bool = False, data_dir: Path | None = None) -> PlanResults:
    """The strong-agent experiments' games played so far (nothing is played here)."""
    data_dir = csv_folder(quick) if data_dir is None else data_dir
    return {group: [(exp, played_rows(exp, data_dir)) for exp in experiments]
            for group, experiments in strong_plan(quick).items()}


def run_strong(quick: bool = False, workers: int | None = None, scheduler=None,
               only: Callable[[Experiment], bool] | None = None,
               data_dir: Path | None = None) -> PlanResults:
    """Play the strong-agent experiments' missing games (resumable: each finished chunk
    is kept), on local processes or a Dask cluster."""
    data_dir = csv_folder(quick) if data_dir is None else data_dir
    return {group: [(exp, run_experiment(exp, data_dir, workers=workers, scheduler=scheduler))
                    for exp in experiments if only is None or only(exp)]
            for group, experiments in strong_plan(quick).items()}
