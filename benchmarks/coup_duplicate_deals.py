"""Benchmark: how much duplicate deals (and a starting-hand control variate on top)
shrink the spread of Coup's seat comparisons, against plain games.

For each line ``agent:players:games[:baseline]`` (self-play, Ambassador deck, 2-player basic setup):

- plain: ``games`` games as ``farol coup match`` plays them (each seeded on its own);
- duplicate: the same number of games as duplicate deals (``--duplicate``: each deal
  played in every rotation of the seats, :mod:`analysis.coup.studies.duplicate`);
- control variate: the duplicate games again, each seat's share less the luck of its
  starting hand (:mod:`analysis.statistics.control_variates`), whose baseline (each hand's win
  rate in each seat) is estimated on ``baseline`` (default ``--baseline``) times as many
  plain games played with another seed.

The estimator compared is the gap between the first and the last seat's win rates
(and, beside it, each seat's win rate, averaged over the seats). Its variance is
estimated from the games: plain, the per-game gap's variance over the games; duplicate,
the per-deal gap's (the mean over a deal's rotations) over the deals. The factor is
plain / duplicate on the same number of games: how many times more plain games give
the same precision (an interval ``sqrt(factor)`` times narrower). Each factor has a 95%
bootstrap interval (games, or deals, drawn again 2000 times).

The control variate is kept only if it pays: its factor (duplicate / duplicate with the
correction) must have its interval above 1 on every line and narrow the intervals by 5%
or more on the median line; the verdict is printed and stored.

Run: ``.venv/bin/python benchmarks/coup_duplicate_deals.py [--lines honest:2:4000,...]
[--seed 1]``; writes ``benchmarks/results/coup_duplicate_deals.{txt,json}``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import results_file
from results_file import machine, save

from analysis.cli import bots
from analysis.coup.studies.duplicate import deal_chance, hand_probabilities
from analysis.coup.studies.seat_balance import starting_hands
from analysis.play.match import play_games
from analysis.shared.provenance import code_commit, farol_version
from analysis.statistics.control_variates import corrected, fit_baseline

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "python_coup"
LINES = "honest:2:4000,honest:4:2000,search:2:1000,search:4:200:1"
BOOTSTRAP = 2000
PAYS = 1 / 0.95**2  # a variance factor that narrows the intervals by 5%


def games_of(agent: str, players: int, games: int, seed: int, duplicate: bool) -> tuple:
    """Shares (games x seats) and hand names (games x seats) of a self-play run."""
    params = {"players": players, "deck": "ambassador"}
    if players == 2:
        params["two_player_setup"] = "basic"
    rows = play_games(GAME, (agent,) * players, games, seed, params, build=bots.build,
                      observe=starting_hands, deal=deal_chance if duplicate else None)
    shares = np.array([rows[i]["shares"] for i in range(games)])
    hands = [["+".join(h) for h in rows[i]["seen"]] for i in range(games)]
    return shares, hands


def estimator_variance(values: np.ndarray) -> float:
    """The variance of the mean of ``values`` (independent units)."""
    return float(values.var(ddof=1) / len(values))


def gap_units(shares: np.ndarray, players: int, duplicate: bool) -> np.ndarray:
    """The independent units of the first-minus-last seat gap: games, or deals."""
    gap = shares[:, 0] - shares[:, players - 1]
    return gap.reshape(-1, players).mean(axis=1) if duplicate else gap


def seat_units(shares: np.ndarray, players: int, duplicate: bool) -> np.ndarray:
    """Units x seats of the seats' win rates: games, or deals (mean over the rotations)."""
    return shares.reshape(-1, players, players).mean(axis=1) if duplicate else shares


def bootstrap_ratio(top: np.ndarray, bottom: np.ndarray, rng: np.random.Generator,
                    paired: bool = False) -> list[float]:
    """A 95% bootstrap interval of var(mean top) / var(mean bottom); ``paired``: the
    two are measured on the same units, drawn again together."""
    ratios = []
    for _ in range(BOOTSTRAP):
        i = rng.integers(len(top), size=len(top))
        j = i if paired else rng.integers(len(bottom), size=len(bottom))
        ratios.append(estimator_variance(top[i]) / estimator_variance(bottom[j]))
    lo, hi = np.percentile(ratios, [2.5, 97.5])
    return [float(lo), float(hi)]


def line(agent: str, players: int, games: int, seed: int, baseline_ratio: int) -> dict:
    games = -(-games // players) * players
    start = time.perf_counter()
    base_shares, base_hands = games_of(agent, players, baseline_ratio * games, seed + 1, False)
    plain, _ = games_of(agent, players, games, seed, False)
    dup, dup_hands = games_of(agent, players, games, seed, True)
    baseline = fit_baseline(zip(base_hands, base_shares, strict=True),
                            hand_probabilities(players, "ambassador"), players)
    dup_cv = np.array([corrected(s, h, baseline) for s, h in zip(dup, dup_hands, strict=True)])
    units = {"plain": gap_units(plain, players, False), "duplicate": gap_units(dup, players, True),
             "duplicate_cv": gap_units(dup_cv, players, True)}
    var = {k: estimator_variance(v) for k, v in units.items()}
    seats = {"plain": seat_units(plain, players, False), "duplicate": seat_units(dup, players, True),
             "duplicate_cv": seat_units(dup_cv, players, True)}
    seat_var = {k: float(np.mean([estimator_variance(v[:, s]) for s in range(players)]))
                for k, v in seats.items()}
    rng = np.random.default_rng(seed)
    return {
        "agent": agent, "players": players, "games": games, "deals": games // players,
        "baseline_games": baseline_ratio * games,
        "gap": {k: float(v.mean()) for k, v in units.items()},
        "gap_variance": var,
        "seat_rate_variance": seat_var,
        "duplicate_factor": var["plain"] / var["duplicate"],
        "duplicate_factor_ci95": bootstrap_ratio(units["plain"], units["duplicate"], rng),
        "seat_rate_duplicate_factor": seat_var["plain"] / seat_var["duplicate"],
        "cv_factor": var["duplicate"] / var["duplicate_cv"],
        "cv_factor_ci95": bootstrap_ratio(units["duplicate"], units["duplicate_cv"], rng,
                                          paired=True),
        "seat_rate_cv_factor": seat_var["duplicate"] / seat_var["duplicate_cv"],
        "seconds": time.perf_counter() - start,
    }


def describe(x: dict) -> list[str]:
    lo, hi = x["duplicate_factor_ci95"]
    clo, chi = x["cv_factor_ci95"]
    gap = x["gap"]
    return [
        f"{x['agent']} x{x['players']}, {x['games']} games ({x['deals']} deals), "
        f"{x['seconds']:.0f} s:",
        f"  seat 1 - seat {x['players']} gap: plain {gap['plain']:+.3f}, duplicate "
        f"{gap['duplicate']:+.3f}, duplicate with the control variate {gap['duplicate_cv']:+.3f}",
        f"  duplicate deals: variance factor {x['duplicate_factor']:.2f} [{lo:.2f}, {hi:.2f}] "
        f"(intervals {1 / np.sqrt(x['duplicate_factor']):.2f} as wide); each seat's win rate: "
        f"{x['seat_rate_duplicate_factor']:.2f}",
        f"  control variate on top (baseline from {x['baseline_games']} plain games): "
        f"factor {x['cv_factor']:.3f} [{clo:.3f}, {chi:.3f}]; each seat's win rate: "
        f"{x['seat_rate_cv_factor']:.3f}",
    ]


def verdict(lines: list[dict]) -> tuple[bool, str]:
    """Does the control variate pay on top of duplicate deals?"""
    every = all(x["cv_factor_ci95"][0] > 1 for x in lines)
    median = float(np.median([x["cv_factor"] for x in lines]))
    pays = every and median >= PAYS
    words = (f"control variate: median factor {median:.3f} over the lines (intervals "
             f"{1 / np.sqrt(median):.3f} as wide); interval above 1 on "
             f"{sum(x['cv_factor_ci95'][0] > 1 for x in lines)} of {len(lines)} lines; ")
    words += ("it pays." if pays else "it does not pay (wanted: above 1 on every line and "
              "intervals 5% narrower), so the match and balance tables do not use it.")
    return pays, words


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default=LINES,
                        help=f"agent:players:games[:baseline],... (default {LINES})")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--baseline", type=int, default=2,
                        help="plain games for the baseline, per game measured (default 2)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--name", default="coup_duplicate_deals", help="results' file name")
    args = results_file.parse_args(parser, argv)
    header = [
        f"machine: {machine()}",
        f"farol {farol_version()}, commit {code_commit()}, seed {args.seed}",
        "self-play, Ambassador deck (2 players: basic setup); variance of the seat gap's "
        "estimator, plain / duplicate, on the same number of games",
    ]
    print("\n".join(header), flush=True)
    lines, text = [], list(header)
    for spec in args.lines.split(","):
        agent, players, games, *ratio = spec.split(":")
        x = line(agent, int(players), int(games), args.seed,
                 int(ratio[0]) if ratio else args.baseline)
        lines.append(x)
        text += describe(x)
        print("\n".join(describe(x)), flush=True)
    pays, words = verdict(lines)
    text.append(words)
    print(words)
    record = {"version": farol_version(), "commit": code_commit(), "seed": args.seed,
              "machine": header[0], "lines": lines, "control_variate_pays": pays,
              "verdict": words, "text": text}
    save(args.out, args.name, text, record)


if __name__ == "__main__":
    main()
