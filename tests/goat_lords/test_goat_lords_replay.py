"""The stored Goat Lords tournaments replay bit for bit: every stored CSV's games, played
again from their seeds by today's match runner, give the same row (winners, returns,
points, wilds drawn, turns, decisions, fights won, reshuffles)."""

from __future__ import annotations

import pytest

from analysis.goat_lords.studies.plan import plan, strong_plan
from analysis.goat_lords.studies.tournament import COLUMNS, csv_path, load_rows, play_one

CHEAP = ("greedy", "random")


def stored(experiments) -> list:
    """(experiment, its stored rows) for every experiment whose CSV is committed."""
    out = []
    for exp in experiments:
        path = csv_path(exp)
        if path.exists():
            rows = load_rows(exp)
            if not rows.empty:
                out.append((exp, rows))
    return out


def every_experiment() -> list:
    groups = list(plan(False).values()) + list(strong_plan(False).values())
    return [exp for group in groups for exp in group]


def as_stored(row: dict) -> list[str]:
    return [str(row[c]) for c in COLUMNS]


def check(exp, rows, indices) -> None:
    for index in indices:
        kept = rows[rows["index"] == index].iloc[0]
        assert as_stored(play_one(exp, index)) == as_stored(kept.to_dict()), (exp.name, index)


def test_every_cheap_stored_tournament_replays_bit_for_bit():
    found = [(e, r) for e, r in stored(every_experiment()) if set(e.bots) <= set(CHEAP)]
    assert len(found) >= 20  # the greedy and random seat, value and extra-wild tables
    for exp, rows in found:
        check(exp, rows, sorted(rows["index"])[:2] + sorted(rows["index"])[-1:])


@pytest.mark.slow
def test_every_stored_tournament_replays_bit_for_bit():
    found = stored(every_experiment())
    assert len(found) >= 50
    for exp, rows in found:
        check(exp, rows, sorted(rows["index"])[:1])
