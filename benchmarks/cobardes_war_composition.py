"""Benchmark: can the war with hidden villains be composed from one solved battle per
matchup?

The war without villains re-solves the battle at every score (the draw and the tokens
are worth different amounts there), about 30 battle solves a pairing. With hidden
villains a battle solve is one of the long matchup solves, so the cheap model would play
one battle solution at every score and chain its outcome probabilities
(:func:`analysis.cobardes.solvers.war.composed_values`). This script measures what that costs on
the villain-free pairings, where both are stored: the war value from 0-0 composed from
the plain battle's outcome probabilities against the exact war value, per pairing, and
the courtier ranking each gives; and it projects what the exact route would take with
hidden villains, from the stored matchups' solve times. It solves nothing.

Run: ``.venv/bin/python benchmarks/cobardes_war_composition.py``; writes
``benchmarks/results/cobardes_war_composition.{txt,json}``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from results_file import measure_and_save

from analysis.cobardes.solvers.war import composed_values
from analysis.cobardes.studies.balance import seat_neutral_strength
from analysis.cobardes.studies.hidden_sweep import load_hidden
from analysis.cobardes.studies.sweep import NO_COURTIER, is_mirror, load_results
from analysis.shared.provenance import code_commit, farol_version

MATCHUPS = 100
PROCESSES = 2


def ranking(values: dict[tuple[str, str], float]) -> list[tuple[str, float]]:
    """Each courtier's mean war value over its rivals, both seats, strongest first
    (:func:`analysis.cobardes.studies.balance.seat_neutral_strength`)."""
    table = pd.Series(values).unstack()
    return [(k, float(v)) for k, v in seat_neutral_strength(table).items()]


def measure() -> dict:
    records = {p: r for p, r in load_results(war=True).items() if r.war is not None}
    stored = {p: r for p, r in records.items() if not r.derived_from_mirror}
    rows = []
    for p, r in sorted(stored.items()):
        exact = r.war["scores"]["0-0"]["value"]
        composed = composed_values(r.battle["outcome_probs"])[(0, 0)]
        rows.append({"pairing": list(p), "exact": exact, "composed": composed,
                     "error": composed - exact,
                     "solves": sum(s["solves"] for s in r.war["scores"].values())})
    errors = np.abs([r["error"] for r in rows])
    played = {p: r for p, r in records.items()
              if not is_mirror(p) and NO_COURTIER not in p}
    exact_rank = ranking({p: r.war["scores"]["0-0"]["value"] for p, r in played.items()})
    composed_rank = ranking({p: composed_values(r.battle["outcome_probs"])[(0, 0)]
                             for p, r in played.items()})
    hidden = load_hidden()
    with_villains = {f"{a} vs {b}": h.war_value() for (a, b), h in sorted(hidden.items())
                     if h.outcomes is not None}
    seconds = [h.compile_seconds + h.solve_seconds for h in hidden.values()]
    solves = float(np.median([r["solves"] for r in rows]))
    median_seconds = float(np.median(seconds)) if seconds else float("nan")
    return {
        "version": farol_version(), "commit": code_commit(), "seed": None,
        "pairings": len(rows), "rows": rows,
        "error_median": float(np.median(errors)), "error_p90": float(np.quantile(errors, 0.9)),
        "error_max": float(errors.max()),
        "worst": max(rows, key=lambda r: abs(r["error"]))["pairing"],
        "ranked_pairings": len(played),
        "ranking_exact": exact_rank, "ranking_composed": composed_rank,
        "same_order": [k for k, _ in exact_rank] == [k for k, _ in composed_rank],
        "same_ends": (exact_rank[0][0] == composed_rank[0][0]
                      and exact_rank[-1][0] == composed_rank[-1][0]),
        "solves_per_war_median": solves,
        "hidden_matchups_stored": len(seconds), "hidden_seconds_median": median_seconds,
        "exact_route_hours": solves * median_seconds * MATCHUPS / PROCESSES / 3600,
        "processes": PROCESSES, "matchups": MATCHUPS,
        "war_with_villains": with_villains,
    }


def lines(m: dict) -> list[str]:
    def rank(r):
        return ", ".join(f"{k} {v:+.3f}" for k, v in r)
    return [
        f"farol {m['version']}, commit {m['commit']}; reads stored records, solves nothing",
        f"villain-free pairings with both the war and the battle stored: {m['pairings']}",
        "war value from 0-0 (player 0's P(win) - P(lose)), composed from the plain battle's "
        "outcome probabilities (one solution at every score) against the exact war "
        "(re-solved at every score):",
        f"  |error| median {m['error_median']:.4f}, 90th percentile {m['error_p90']:.4f}, "
        f"largest {m['error_max']:.4f} ({' vs '.join(m['worst'])}); in win probability "
        f"half of that",
        f"courtier ranking over {m['ranked_pairings']} matchups (mean war value over rivals, "
        f"both seats):",
        f"  exact    {rank(m['ranking_exact'])}",
        f"  composed {rank(m['ranking_composed'])}",
        f"  same order: {'yes' if m['same_order'] else 'no'}; same strongest and weakest: "
        f"{'yes' if m['same_ends'] else 'no'}",
        f"exact route with hidden villains: a median of {m['solves_per_war_median']:.0f} "
        f"battle solves a war (villain-free records) x {m['hidden_seconds_median']:.0f} s, "
        f"the median stored hidden matchup ({m['hidden_matchups_stored']} stored) x "
        f"{m['matchups']} matchups on {m['processes']} processes: "
        f"{m['exact_route_hours']:.0f} hours",
        f"the cheap model with villains (courtiers kept, villains dealt afresh each battle), "
        f"war value from 0-0 where the record says how each deal ends "
        f"({len(m['war_with_villains'])} of {m['hidden_matchups_stored']} stored): " + (", ".join(f"{k} {v:+.3f}" for k, v in
                                                  m["war_with_villains"].items()) or "none"),
    ]


def main(argv=None) -> None:
    measure_and_save(__doc__, "cobardes_war_composition", measure, lines, argv)


if __name__ == "__main__":
    main()
