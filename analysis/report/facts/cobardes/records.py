"""What the ¡Cobardes! guide reads, most faithful first: the war with villains (composed
from every courtier matchup's battle once all are solved, courtiers kept or renewed
between battles), the war with courtiers renewed
(solved exactly, without villains), the full battle with hidden villains (every courtier
matchup when the sweep is complete, else the one matchup solved in full), the learning
game's positions."""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.cobardes.model import is_mirror
from analysis.cobardes.studies import balance
from analysis.cobardes.studies.composed_renewal import compose_renewal
from analysis.cobardes.studies.hidden_sweep import HiddenMatchupRecord, hidden_matchups, load_hidden
from analysis.cobardes.studies.renewal import RenewalModel, RenewalSolution, value_table
from analysis.report.facts.cobardes.stored import (
    FULL_BATTLE_JSON,
    RENEWAL_COMPOSITION_JSON,
    WAR_COMPOSITION_JSON,
    load_renewal,
    villain_frame,
)
from analysis.shared import store
from analysis.shared.store import read_json
from analysis.solve.cfr import METHOD_NAMES

RENEWAL = "farol cobardes renewal"
SWEEP = "farol cobardes sweep --kind hidden"


def method_words(*methods: str) -> str:
    """The CFR methods named as a reader knows them ("CFR+", "Discounted CFR"), each once."""
    return " and ".join(dict.fromkeys(METHOD_NAMES.get(m, m) for m in methods))


def renewal():
    """The renewal war's solution, or None."""
    return load_renewal()


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
    method: str = "CFR+"
    # One row a matchup solved, one column a villain ("partial" and "sweep" only).
    per_matchup: pd.DataFrame | None = None


def villain_values() -> VillainValues | None:
    sweep = hidden_sweep()
    if len(sweep) >= 2:
        per = pd.DataFrame([(pd.Series(r.villain_values(0)) + pd.Series(r.villain_values(1))) / 2
                            for r in sweep.values()])
        values = per.mean().sort_values(ascending=False)
        worst = max(r.exploitability_lower_bound for r in sweep.values())
        source = "sweep" if len(sweep) == sweep_size() else "partial"
        return VillainValues(values, source, len(sweep), worst, low=per.min(), high=per.max(),
                             method=method_words(*sorted(r.method for r in sweep.values())),
                             per_matchup=per)
    f = full_battle()
    if f is None:
        return None
    values = balance.seat_neutral_strength(villain_frame(f["deal_values"])).dropna()
    return VillainValues(values, "battle", 1, f["slices"][-1]["exploitability_in_abstraction"],
                         f"{f['params']['courtier0']} against {f['params']['courtier1']}")


@dataclass(frozen=True)
class VillainWar:
    """The war to 3 victories with villains, by courtier matchup: player 0's war value
    (P(win) - P(lose)) when both villains are dealt hidden in every battle and each
    battle is played as solved, over the dealt matchups whose records say how each
    battle ends. Once every one also says which courtiers its battles play, the war
    lets each player keep an unplayed courtier or renew it (``renewed``; ``solution``:
    the composed war, :func:`analysis.cobardes.studies.composed_renewal.compose_renewal`);
    until then the courtiers are kept (``HiddenMatchupRecord.war_value``).
    ``error_median`` and ``error_max``: how far that composition misses the exact war
    on the villain-free pairings (None: not measured)."""

    table: pd.DataFrame  # rows: player 0's courtier; NaN where not solved
    matchups: int
    size: int
    exploitability_at_least: float
    error_median: float | None = None
    error_max: float | None = None
    renewed: bool = False
    solution: RenewalSolution | None = None

    @property
    def complete(self) -> bool:
        return self.matchups == self.size

    @property
    def win_error(self) -> float | None:
        """The composition's largest miss in win probability (half its miss in P(win) -
        P(lose)): the range the guide writes ± beside the war's figures (None: not
        measured)."""
        return None if self.error_max is None else self.error_max / 2

    def wins(self) -> pd.Series:
        """Each courtier's war win probability, mean over rivals and both seats."""
        return ((1 + balance.seat_neutral_strength(self.table).dropna()) / 2).round(6)

    def first_player_win(self) -> float:
        """The first player's war win probability, every dealt matchup equally likely."""
        values = self.table.stack().dropna()
        return float((1 + values.mean()) / 2)


def villain_war() -> VillainWar | None:
    """The war with villains over the matchups solved with how each battle ends, or None."""
    records = {p: r for p, r in hidden_sweep().items() if r.outcomes is not None}
    if not records:
        return None
    bound = max(r.exploitability_lower_bound for r in records.values())
    endings = {p: r.battle_endings() for p, r in records.items()}
    if len(records) == sweep_size() and all(e is not None for e in endings.values()):
        sol = _composed(tuple(sorted((p, tuple(e.tolist())) for p, e in endings.items())))
        miss = read_json(RENEWAL_COMPOSITION_JSON) if RENEWAL_COMPOSITION_JSON.exists() else {}
        return VillainWar(value_table(sol), len(records), sweep_size(), bound,
                          miss.get("error_median"), miss.get("error_max"), True, sol)
    table = balance.matchup_matrix(records, balance.COURTIERS, lambda r: r.war_value())
    miss = read_json(WAR_COMPOSITION_JSON) if WAR_COMPOSITION_JSON.exists() else {}
    return VillainWar(table, len(records), sweep_size(), bound,
                      miss.get("error_median"), miss.get("error_max"))


@functools.lru_cache(maxsize=2)
def _composed(endings: tuple) -> RenewalSolution:
    # The guide asks for the war several times a report; composing it takes seconds.
    return compose_renewal({p: np.array(e) for p, e in endings}, RenewalModel())


def villain_war_model(vw: VillainWar) -> str:
    """The model of the war with villains, and its accuracy, in two sentences."""
    exact = "renewal war" if vw.renewed else "war"
    miss = ("" if vw.error_median is None else
            f" On the villain-free pairings this composition misses the exact {exact} by a "
            f"median of {vw.error_median:z.3f} and at most {vw.error_max:z.3f} in P(win) - "
            f"P(lose).")
    between = ("each player keeps an unplayed courtier or renews it between battles, "
               "as best for the war (solved exactly for these battles)" if vw.renewed
               else "courtiers kept between battles")
    ends = "how it ends and which courtiers it plays" if vw.renewed else "how it ends"
    return (f"The war to 3 victories with both villains dealt hidden in every battle, over "
            f"all {vw.size} courtier matchups, {between}: each battle is played as solved "
            f"whatever the score (a Victory worth 1, the Crown 3) and the war is composed "
            f"from {ends}; the battles' strategies can be beaten by at least "
            f"{vw.exploitability_at_least:z.3f} a battle within their abstraction (a lower "
            f"bound).{miss}")


def learning_opening() -> dict | None:
    """The learning game (warriors only) at its first combat: value and mix."""
    path = store.data("cobardes", "warriors_only_positions.csv")
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as fh:
        first = next(csv.DictReader(fh))
    mix = {card: float(p) for card, p in (x.split(":") for x in first["mix0"].split())}
    return {"value": float(first["value"]), "mix": mix}
