"""Benchmark: can the war with courtiers renewed be composed from one solved battle a
pairing?

The exact renewal war re-solves every pairing's battle at every score. With hidden
villains a battle solve is one of the long matchup solves, so the war with villains
plays one battle solution at every score and solves only the keep-or-renew choices
(:func:`analysis.cobardes.studies.composed_renewal.compose_renewal`). This script measures what
that costs on the villain-free pairings, where the exact renewal war is stored: each
pairing's battle is solved once (a Victory worth 1, the Crown 3) with how it ends and
which courtiers it plays, the war composed from those, and its values, courtier ranking,
first player's edge and keep-or-renew choices set against the exact war's.

Run: ``.venv/bin/python benchmarks/cobardes_renewal_composition.py``; writes
``benchmarks/results/cobardes_renewal_composition.{txt,json}`` (about a minute).
"""

from __future__ import annotations

import time

import numpy as np
from results_file import measure_and_save

from analysis.cobardes.model import SCORES
from analysis.cobardes.studies.balance import seat_neutral_strength
from analysis.cobardes.studies.composed_renewal import compose_renewal, villain_free_endings
from analysis.cobardes.studies.renewal import KEEP, USED, RenewalSolution, keep_shares, value_table
from analysis.report.facts.cobardes.stored import load_renewal
from analysis.shared.progress import bar
from analysis.shared.provenance import code_commit, farol_version


def ranking(sol: RenewalSolution) -> list[tuple[str, float]]:
    """Each courtier's mean war value from 0-0 over its rivals, both seats."""
    return [(k, float(v)) for k, v in seat_neutral_strength(value_table(sol)).dropna().items()]


def choices(sol: RenewalSolution) -> dict:
    """Every keep-or-renew choice with something to choose: (score, pairing, used,
    seat) -> kept."""
    out = {}
    for score in SCORES:
        for pair in sol.model.pairings:
            for used in USED:
                r = sol.renewal(score, pair, used)
                if not used & 1:
                    out[(score, pair, used, 0)] = r.choice0 == KEEP
                if not used & 2:
                    out[(score, pair, used, 1)] = r.reply1[r.choice0] == KEEP
    return out


def measure() -> dict:
    exact = load_renewal()
    if exact is None:
        raise SystemExit("the exact renewal war is not stored: farol cobardes renewal")
    model = exact.model
    start = time.perf_counter()
    endings = {p: villain_free_endings(p, model.warriors, model.combats)
               for p in bar(model.pairings, desc="battles solved", unit="battle")}
    battles_seconds = time.perf_counter() - start
    start = time.perf_counter()
    composed = compose_renewal(endings, model)
    compose_seconds = time.perf_counter() - start
    rows = [{"pairing": list(p), "exact": exact.value(p), "composed": composed.value(p),
             "error": composed.value(p) - exact.value(p)} for p in model.pairings]
    errors = np.abs([r["error"] for r in rows])
    first = {name: float(np.mean([s.value(p) for p in model.pairings]))
             for name, s in (("exact", exact), ("composed", composed))}
    got, want = choices(composed), choices(exact)
    agree = sum(got[k] == want[k] for k in want)
    keep_exact, keep_composed = keep_shares(exact), keep_shares(composed)
    exact_rank, composed_rank = ranking(exact), ranking(composed)
    return {
        "version": farol_version(), "commit": code_commit(), "seed": None,
        "courtiers": list(model.courtiers), "warriors": model.warriors,
        "combats": model.combats, "pairings": len(rows), "rows": rows,
        "error_median": float(np.median(errors)), "error_p90": float(np.quantile(errors, 0.9)),
        "error_max": float(errors.max()),
        "worst": max(rows, key=lambda r: abs(r["error"]))["pairing"],
        "first_player_value": first,
        "ranking_exact": exact_rank, "ranking_composed": composed_rank,
        "same_ends": (exact_rank[0][0] == composed_rank[0][0]
                      and exact_rank[-1][0] == composed_rank[-1][0]),
        "choices": len(want), "choices_agreeing": agree,
        "keep_exact": keep_exact, "keep_composed": keep_composed,
        "composed_residual": composed.residual,
        "battles_seconds": battles_seconds, "compose_seconds": compose_seconds,
    }


def lines(m: dict) -> list[str]:
    def rank(r):
        return ", ".join(f"{k} {v:+.3f}" for k, v in r)

    def kept(shares):
        return ", ".join(f"{c} {100 * share:.0f}%" for c, share in shares.items())
    fp = m["first_player_value"]
    return [
        f"farol {m['version']}, commit {m['commit']}; solves each villain-free battle once, "
        f"composes the war, reads the stored exact war",
        f"villain-free pairings: {m['pairings']} (warriors 0-{m['warriors']}, "
        f"{m['combats']} combats); battles solved in {m['battles_seconds']:.0f} s, war "
        f"composed in {m['compose_seconds']:.0f} s (residual {m['composed_residual']:.1e})",
        "war value from 0-0 (player 0's P(win) - P(lose)), courtiers renewed, composed from "
        "one battle solution a pairing against the exact war (re-solved at every score):",
        f"  |error| median {m['error_median']:.4f}, 90th percentile {m['error_p90']:.4f}, "
        f"largest {m['error_max']:.4f} ({' vs '.join(m['worst'])}); in win probability "
        f"half of that",
        f"first player's war value, every pairing equally likely: exact {fp['exact']:+.4f}, "
        f"composed {fp['composed']:+.4f}",
        "courtier ranking (mean war value over rivals, both seats):",
        f"  exact    {rank(m['ranking_exact'])}",
        f"  composed {rank(m['ranking_composed'])}",
        f"  same strongest and weakest: {'yes' if m['same_ends'] else 'no'}",
        f"keep-or-renew choices with something to choose: {m['choices_agreeing']} of "
        f"{m['choices']} the same "
        f"({100 * m['choices_agreeing'] / m['choices']:.1f}%)",
        f"  kept when unplayed, exact:    {kept(m['keep_exact'])}",
        f"  kept when unplayed, composed: {kept(m['keep_composed'])}",
    ]


def main(argv=None) -> None:
    measure_and_save(__doc__, "cobardes_renewal_composition", measure, lines, argv)


if __name__ == "__main__":
    main()
