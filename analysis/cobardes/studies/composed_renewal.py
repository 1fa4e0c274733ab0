"""The war with courtiers renewed, composed from one solved battle a pairing.

The exact renewal war (:mod:`analysis.cobardes.studies.renewal`) re-solves each pairing's battle
at every score, for the values of the states it leads to. With hidden villains a battle
solve is one of the long matchup solves, so this model plays one battle solution at
every score: each pairing's battle ends as its solution says (:class:`FixedBattle`: the
20 endings, outcome and courtiers played), and only the keep-or-renew choices between
battles are solved, by the same fixed point (:func:`~analysis.cobardes.studies.renewal.
solve_renewal`). What that costs is measured on the villain-free pairings, where the
exact war is stored (``benchmarks/cobardes_renewal_composition.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from analysis.cobardes.model import ENDINGS
from analysis.cobardes.solvers.fast_outcomes import OutcomeSolver
from analysis.cobardes.studies.hidden_sweep import HiddenMatchupRecord
from analysis.cobardes.studies.renewal import (
    RenewalBattle,
    RenewalModel,
    RenewalSolution,
    solve_renewal,
)
from analysis.shared import store
from games.cobardes.options import make_rules
from games.errors import InvalidParameterError

# What the composition misses on the villain-free pairings against the exact renewal war
# (benchmarks/cobardes_renewal_composition.py writes it).
COMPOSITION_MISS = store.REPOSITORY / "benchmarks" / "results" / "cobardes_renewal_composition.json"


@dataclass(frozen=True)
class FixedBattle:
    """A battle whose strategies do not change with the war's payoffs: it ends as
    ``endings`` says (``ENDING_NAMES`` order) whatever the score."""

    endings: np.ndarray

    def __post_init__(self):
        ends = np.asarray(self.endings, dtype=float)
        if ends.shape != (ENDINGS,) or ends.min() < -1e-9 or abs(ends.sum() - 1) > 1e-6:
            raise InvalidParameterError(
                f"a battle's endings are {ENDINGS} probabilities summing to 1")
        object.__setattr__(self, "endings", ends)

    def solve(self, payoffs) -> RenewalBattle:
        """The battle's value for player 0 at these terminal payoffs, and its endings."""
        return RenewalBattle(float(self.endings @ np.asarray(payoffs, dtype=float)),
                             self.endings.copy())


def compose_renewal(endings: Mapping[tuple[str, str], np.ndarray], model: RenewalModel,
                    tol: float = 1e-12) -> RenewalSolution:
    """The renewal war of ``model`` with each pairing's battle ending as ``endings``
    says at every score; the keep-or-renew choices solved exactly for it.

    Raises
    ------
    InvalidParameterError
        A pairing of the model has no battle in ``endings``.
    """
    missing = [p for p in model.pairings if p not in endings]
    if missing:
        raise InvalidParameterError(
            f"the composed war needs every pairing's battle; {len(missing)} missing, "
            f"e.g. {missing[0][0]} vs {missing[0][1]}")
    graphs = {p: FixedBattle(endings[p]) for p in model.pairings}
    return solve_renewal(model, tol=tol, max_iterations=200, graphs=graphs)


def villain_renewal(records: Mapping[tuple[str, str], HiddenMatchupRecord],
                    model: RenewalModel | None = None) -> RenewalSolution:
    """The war with villains (both dealt hidden in every battle), courtiers kept or
    renewed: :func:`compose_renewal` over the matchup records' endings (``model``: the
    whole court by default).

    Raises
    ------
    InvalidParameterError
        Some dealt matchup is not stored with which courtiers its battles play.
    """
    model = model or RenewalModel()
    endings = {p: records[p].battle_endings() for p in model.pairings if p in records}
    have = {p: e for p, e in endings.items() if e is not None}
    if len(have) < len(model.pairings):
        raise InvalidParameterError(
            f"the war with villains needs every dealt matchup solved with which courtiers "
            f"its battles play: {len(have)} of {len(model.pairings)} are (farol cobardes "
            f"sweep --kind hidden solves the rest)")
    return compose_renewal(have, model)


def villain_free_endings(pairing: tuple[str, str], warriors: int, combats: int
                         ) -> np.ndarray:
    """How a villain-free battle of ``pairing`` ends under its exact solution (a Victory
    worth 1, the Crown 3): the 20 endings' probabilities."""
    rules = make_rules({"kinds": "warriors+courtiers", "courtier0": pairing[0],
                        "courtier1": pairing[1], "warriors": warriors, "combats": combats})
    return OutcomeSolver(rules.cfg, rules.pay).outcome_probs(rules.initial)
