"""What the ¡Cobardes! guide reads, most faithful first: the war with courtiers renewed
(solved exactly), the full battle with hidden villains (every courtier matchup when the
sweep is complete, else the one matchup solved in full), the learning game's positions."""

from __future__ import annotations

import csv
from dataclasses import dataclass

import pandas as pd

from analysis.cobardes import balance
from analysis.cobardes.hidden_sweep import HiddenMatchupRecord, hidden_matchups, load_hidden
from analysis.cobardes.sweep import is_mirror
from analysis.report.cobardes.common import FULL_BATTLE_JSON, load_renewal, villain_frame
from analysis.shared import store
from analysis.shared.store import read_json

RENEWAL = "farol cobardes renewal"
SWEEP = "farol cobardes sweep --kind hidden"


def renewal():
    """The renewal war's solution, or None."""
    return load_renewal()


def renewal_table(sol) -> pd.DataFrame:
    """Player 0's war value at 0-0 by pairing (rows: player 0's courtier)."""
    names = list(sol.model.courtiers)
    table = pd.DataFrame(float("nan"), index=names, columns=names)
    for a, b in sol.model.pairings:
        table.loc[a, b] = sol.value((a, b))
    return table


def hidden_sweep() -> dict[tuple[str, str], HiddenMatchupRecord]:
    """The stored full battles with hidden villains, mirrors (never dealt) left out."""
    return {p: r for p, r in load_hidden().items() if not is_mirror(p)}


def sweep_size() -> int:
    return sum(not is_mirror(p) for p in hidden_matchups())


def full_battle() -> dict | None:
    """The one full battle with hidden villains solved in full (a record), or None."""
    return read_json(FULL_BATTLE_JSON) if FULL_BATTLE_JSON.exists() else None


@dataclass(frozen=True)
class VillainValues:
    """Each villain's mean battle value for its holder (both seats, every rival villain).
    ``source``: "sweep" (every courtier matchup), "partial" (the matchups solved so far:
    ``low``/``high`` its least and greatest value over them) or "battle" (one matchup)."""

    values: pd.Series
    source: str
    matchups: int
    exploitability_at_least: float
    pairing: str = ""
    low: pd.Series | None = None
    high: pd.Series | None = None


def villain_values() -> VillainValues | None:
    sweep = hidden_sweep()
    if len(sweep) >= 2:
        per = pd.DataFrame([(pd.Series(r.villain_values(0)) + pd.Series(r.villain_values(1))) / 2
                            for r in sweep.values()])
        values = per.mean().sort_values(ascending=False)
        worst = max(r.exploitability_lower_bound for r in sweep.values())
        source = "sweep" if len(sweep) == sweep_size() else "partial"
        return VillainValues(values, source, len(sweep), worst, low=per.min(), high=per.max())
    f = full_battle()
    if f is None:
        return None
    values = balance.seat_neutral_strength(villain_frame(f["deal_values"])).dropna()
    return VillainValues(values, "battle", 1, f["slices"][-1]["exploitability_in_abstraction"],
                         f"{f['params']['courtier0']} against {f['params']['courtier1']}")


def learning_opening() -> dict | None:
    """The learning game (warriors only) at its first combat: value and mix."""
    path = store.data("cobardes", "warriors_only_positions.csv")
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as fh:
        first = next(csv.DictReader(fh))
    mix = {card: float(p) for card, p in (x.split(":") for x in first["mix0"].split())}
    return {"value": float(first["value"]), "mix": mix}
