"""The ¡Cobardes! results the report and the guide read from disk: the committed
benchmark records, the renewal war's solution, a villain table in the villains' order."""

from __future__ import annotations

import pandas as pd

from analysis.cobardes.studies import balance, renewal
from analysis.cobardes.studies.composed_renewal import COMPOSITION_MISS
from analysis.shared import store

BENCHMARKS = store.REPOSITORY / "benchmarks" / "results"
BENCHMARK_JSON = BENCHMARKS / "cobardes_villains.json"
REFINED_KEY_JSON = BENCHMARKS / "cobardes_refined_key.json"
FULL_BATTLE_JSON = BENCHMARKS / "cobardes_full_battle.json"
WAR_COMPOSITION_JSON = BENCHMARKS / "cobardes_war_composition.json"
RENEWAL_COMPOSITION_JSON = COMPOSITION_MISS


def villain_frame(table: dict) -> pd.DataFrame:
    """Player 0's villain -> player 1's -> value as a 9 x 9 frame in the villains' order."""
    return pd.DataFrame(table).T.reindex(index=balance.VILLAINS, columns=balance.VILLAINS)


def load_renewal():
    """The committed renewal-war solution (:mod:`analysis.cobardes.studies.renewal`), or None."""
    cached = renewal.load_renewal(renewal.cache_path(renewal.RenewalModel()))
    if cached is None or cached[1] != "done":
        return None
    return cached[0]
