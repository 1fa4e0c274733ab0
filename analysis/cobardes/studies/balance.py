"""Balance answers: courtier tier list and matchups, villain matchups, card importance.

Read from solved battles: the pairing sweep's stored results
(:mod:`analysis.cobardes.studies.sweep`) and the exact warriors-only solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cobardes.model import BattleSpec, canonical_key, initial_position, payoff_values
from analysis.cobardes.solvers.exact import ExactSolver
from analysis.cobardes.studies import sweep
from games.cobardes import cards as C
from games.cobardes import engine as E

COURTIERS = list(C.COURTIER_NAMES)
VILLAINS = [C.CARD_NAMES[v] for v in C.VILLAINS]


# --------------------------------------------------------------------------- matchups
def matchup_matrix(results: dict, names: list[str], value) -> pd.DataFrame:
    """``names`` x ``names`` table of ``value(result)`` (rows: player 0, columns: player
    1); missing cells are NaN."""
    table = pd.DataFrame(np.nan, index=names, columns=names)
    for (a, b), data in results.items():
        if a in names and b in names:
            table.loc[a, b] = value(data)
    return table


def courtier_tables(directory: str | Path | None = None, warriors: int = C.MAX_WARRIOR,
                    combats: int = C.MAX_COMBATS, mirrors: bool = False) -> dict[str, pd.DataFrame]:
    """``battle`` (value with win 1, crown 3), ``war`` (war value from 0-0) and
    ``war_win`` (player 0's probability of winning the war) for every cached pairing.

    With ``mirrors`` the diagonal holds the hypothetical mirror battles
    (:func:`analysis.cobardes.studies.sweep.mirror_pairings`) when cached; leave them out of
    strengths and tier lists (no real deal gives them)."""
    battles = sweep.load_results(None, warriors, combats, directory, war=False)
    wars = sweep.load_results(None, warriors, combats, directory, war=True)
    if mirrors:
        wars.update(sweep.load_results(sweep.mirror_pairings(), warriors, combats,
                                       directory, war=True))
    battles.update({k: v for k, v in wars.items() if k not in battles})
    war_value = matchup_matrix(wars, COURTIERS, lambda d: d.war["scores"]["0-0"]["value"])
    return {
        "battle": matchup_matrix(battles, COURTIERS, lambda d: d.battle["value"]),
        "war": war_value,
        "war_win": (1.0 + war_value) / 2.0,
    }


def mirror_table(directory: str | Path | None = None, warriors: int = C.MAX_WARRIOR,
                 combats: int = C.MAX_COMBATS) -> pd.DataFrame:
    """The hypothetical mirror matchups (both players with the same courtier type), one
    row per cached courtier: battle value (``quicker=alternate``, player 0 quicker in odd
    combats), war value and win probability from 0-0, and the battle value with
    player 0 always quicker (``p0``), player 1 always (``p1``) and a coin (``random``).
    Seat symmetry says ``p0 = -p1`` and ``random = 0`` (rearguards: every value 0)."""
    results = sweep.load_results(sweep.mirror_pairings(), warriors, combats, directory,
                                 war=True)
    rows = {}
    for (name, _), data in results.items():
        war = data.war["scores"]["0-0"]["value"] if data.war else np.nan
        check = data.seat_check or {}
        rows[name] = {"battle": data.battle["value"], "war": war,
                      "war_win": (1 + war) / 2, "p0": check.get("p0", np.nan),
                      "p1": check.get("p1", np.nan), "random": check.get("random", np.nan),
                      "kind": "vanguard" if C.is_vanguard(C.courtier_id(name)) else
                      "rearguard"}
    return pd.DataFrame.from_dict(rows, orient="index")


def without_diagonal(table: pd.DataFrame) -> pd.DataFrame:
    """The table with its diagonal (mirror matchups) blanked."""
    out = table.copy()
    for name in out.index.intersection(out.columns):
        out.loc[name, name] = np.nan
    return out


def seat_neutral_strength(table: pd.DataFrame) -> pd.Series:
    """Each courtier's mean result over opponents, both seats: the row value as player
    0 and minus the column value as player 1 (zero-sum), averaged over cells present.

    For win probabilities (in [0, 1]) pass ``2 p - 1`` and convert back."""
    rows = table.mean(axis=1, skipna=True)
    cols = (-table).mean(axis=0, skipna=True)
    return ((rows + cols) / 2).sort_values(ascending=False)


@dataclass(frozen=True)
class Tier:
    name: str
    strength: float
    tier: str


def tier_list(strength: pd.Series, labels: str = "SABCD") -> list[Tier]:
    """Tiers by rank: the strengths sorted and cut into ``len(labels)`` equal groups
    (10 courtiers: two a tier)."""
    ordered = strength.sort_values(ascending=False)
    size = max(1, int(np.ceil(len(ordered) / len(labels))))
    return [Tier(name, float(v), labels[min(i // size, len(labels) - 1)])
            for i, (name, v) in enumerate(ordered.items())]


def villain_table(directory: str | Path | None = None, warriors: int = C.MAX_WARRIOR,
                  combats: int = C.MAX_COMBATS) -> pd.DataFrame:
    """9 x 9 battle values with both villains named (rows: player 0's villain)."""
    results = sweep.load_results(None, warriors, combats, directory, war="villains")
    return matchup_matrix(results, VILLAINS, lambda d: d.battle["value"])


# --------------------------------------------------------------------------- warriors
@dataclass
class PlayStats:
    """How the warriors-only equilibrium plays, combat by combat (player 0's side)."""

    reach: np.ndarray           # probability the battle reaches combat c (index c - 1)
    play: np.ndarray            # [combat - 1, card]: P(card played in that combat)
    importance: np.ndarray      # [combat - 1, card]: reach-weighted value of holding it
    held: np.ndarray            # [combat - 1, card]: P(card still in hand at that combat)
    value: float


def _children(solver: ExactSolver, pos: E.Pos):
    """``(probability, child)`` pairs of ``pos`` under the solved strategies, and the
    matrix mixes when ``pos`` is a face-down confrontation."""
    cfg = solver.cfg
    node = solver.node(pos)
    out = []
    if node.kind == "matrix":
        for a, x in zip(node.actions, node.strategy, strict=True):
            if x <= 1e-12:
                continue
            mid = E.apply(cfg, pos, a)
            for b, y in zip(node.actions1, node.strategy1, strict=True):
                if y > 1e-12:
                    out.append((x * y, E.apply(cfg, mid, b)))
    elif node.kind == "chance":
        out = [(p, E.apply(cfg, pos, a)) for a, p in zip(node.actions, node.strategy,
                                                          strict=True)]
    else:
        out = [(p, E.apply(cfg, pos, a)) for a, p in zip(node.actions, node.strategy,
                                                          strict=True) if p > 1e-12]
    return node, out


def play_stats(spec: BattleSpec | None = None) -> PlayStats:
    """Reach-weighted play of each warrior and value of holding it, by combat.

    ``importance[c, k]``: over the face-down confrontations of combat ``c`` reached in
    equilibrium, the average of ``V(position) - V(position without card k in player
    0's hand)`` for the cards player 0 holds — what losing that card would cost.
    """
    spec = spec or BattleSpec()
    cfg, root, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    value = solver.value(root)
    combats, cards = cfg.combats, spec.warriors + 1
    reach_c = np.zeros(combats)
    play = np.zeros((combats, cards))
    imp = np.zeros((combats, cards))
    imp_w = np.zeros((combats, cards))
    held = np.zeros((combats, cards))
    # Forward pass in topological order: positions of one combat lead only to later
    # phases or combats, so sorting by (combat, phase order seen) is enough; we use a
    # frontier keyed by position key, merging transpositions.
    frontier: dict[tuple, list] = {}
    def push(p, r):
        if p.outcome is not None:
            return
        k = canonical_key(p)
        if k in frontier:
            frontier[k][1] += r
        else:
            frontier[k] = [p, r]

    push(root, 1.0)
    while frontier:
        # The earliest position first (combat, then decisions before answers).
        key = min(frontier, key=lambda k: (frontier[k][0].combat, frontier[k][0].phase,
                                           -bin(frontier[k][0].h[0]).count("1")
                                           - bin(frontier[k][0].h[1]).count("1")))
        pos, r = frontier.pop(key)
        node, kids = _children(solver, pos)
        c = pos.combat - 1
        if node.kind == "matrix":
            reach_c[c] += r
            for k in E.bits(pos.h[0] & C.WARRIOR_MASK):
                held[c, k] += r
                less = pos.copy()
                less.h = (pos.h[0] & ~(1 << k), pos.h[1])
                if less.h[0]:
                    imp[c, k] += r * (node.value - solver.value(less))
                    imp_w[c, k] += r
            for a, x in zip(node.actions, node.strategy, strict=True):
                if a < cards:
                    play[c, a] += r * x
        for p, child in kids:
            push(child, r * p)
    with np.errstate(invalid="ignore", divide="ignore"):
        importance = np.where(imp_w > 0, imp / np.maximum(imp_w, 1e-300), np.nan)
        play_given = play / np.maximum(reach_c[:, None], 1e-300)
        held_given = held / np.maximum(reach_c[:, None], 1e-300)
    return PlayStats(reach_c, play_given, importance, held_given, value)


def keep_or_renew(war_value: pd.DataFrame) -> pd.DataFrame:
    """Player 0's gain from keeping an unused courtier rather than renewing it, against
    each rival courtier (rows: player 0's courtier; columns: player 1's), from the war
    values at 0-0 of the fixed-pairing model.

    Superseded by the renewal war (:mod:`analysis.cobardes.studies.renewal`, which solves the
    keep-or-renew decisions inside the war); kept as the quick estimate when that has
    not been solved. One-step approximation: "If you did not play your villain or courtier you may decide
    not to replace them and keep them for the next battle." Keeping gives the war value
    of the pairing; renewing draws a courtier uniformly from those neither player holds
    (the deck order is ignored) and then keeps that pairing. Positive: keep.
    """
    names = list(war_value.index)
    gain = pd.DataFrame(np.nan, index=names, columns=names)
    for mine in names:
        for theirs in names:
            if mine == theirs or not np.isfinite(war_value.loc[mine, theirs]):
                continue
            fresh = [war_value.loc[d, theirs] for d in names if d not in (mine, theirs)]
            fresh = [v for v in fresh if np.isfinite(v)]
            if fresh:
                gain.loc[mine, theirs] = war_value.loc[mine, theirs] - float(np.mean(fresh))
    return gain
