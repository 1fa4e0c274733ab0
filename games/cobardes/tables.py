"""The cards' effects as integer tables, for compiled code.

Read off the pure functions of :mod:`games.cobardes.cards` (nothing is re-implemented),
with each effect as a small integer code: numba code (the compiled exact solver,
:mod:`analysis.cobardes.solvers.fast_exact`) looks effects up here instead of calling Python.
"""

from __future__ import annotations

import numpy as np

from games.cobardes import cards as C
from games.cobardes.engine import Config

# Effect codes of the tables.
_VILLAINY_CODES = {C.CROWN: 1, C.VICTORY: 2, C.PEACE: 3, C.FOLLOW_UP: 4, C.GHOST: 5, C.FIGHT: 6}
V_CROWN, V_VICTORY, V_PEACE, V_FOLLOW, V_GHOST, V_FIGHT = 1, 2, 3, 4, 5, 6
_MEET_CODES = {C.EXECUTE: 1, C.CAPTURE: 2, C.EXCHANGE: 3, C.WITHDRAW: 4}
M_EXECUTE, M_CAPTURE, M_EXCHANGE, M_WITHDRAW = 1, 2, 3, 4
_REAR_CODES = {C.ADD: 1, C.NO_WINNER: 2, C.RIVAL_CHANGES: 3, C.OWN_CHANGES: 4}
R_ADD, R_NO_WINNER, R_RIVAL_CHANGES, R_OWN_CHANGES = 1, 2, 3, 4


def effect_tables(cfg: Config) -> tuple[np.ndarray, ...]:
    """The cards' effects as integer tables, read off :mod:`games.cobardes.cards`.

    Returns ``(villainy, meet, vanguard, rearguard, inquisitor)``:

    * ``villainy[villain, warrior, prince_unharmed]``: the villain's effect code;
    * ``meet[v0, v1, exchanges, 0|1]``: the kind and acting player when two villains
      meet, for every exchange count the battle can reach (``0..exchange_limit``);
    * ``vanguard[courtier]``: flags ``(bonus, rival_first, rival_forced)``;
    * ``rearguard[courtier, own_fighter, own_has_warrior, rival_has_warrior, 0|1]``: the
      effect code (0: cannot act) and amount. The rearguard functions read a hand only
      through whether it holds a warrior (their docstrings quote why), which is what
      the table keys on.
    * ``inquisitor[card]``: 1 if drawing that card wins the battle.
    """
    villainy = np.zeros((C.NUM_CARDS, C.NUM_WARRIORS, 2), np.int64)
    for v in C.VILLAINS:
        for w in range(C.NUM_WARRIORS):
            for u in (0, 1):
                villainy[v, w, u] = _VILLAINY_CODES[C.villainy(v, w, bool(u))]
    limit = cfg.exchange_limit
    meet = np.zeros((C.NUM_CARDS, C.NUM_CARDS, limit + 1, 2), np.int64)
    for v0 in C.VILLAINS:
        for v1 in C.VILLAINS:
            for e in range(limit + 1):
                kind, who = C.villains_meet(v0, v1, e, limit)
                meet[v0, v1, e] = (_MEET_CODES[kind], who)
    vanguard = np.zeros((len(C.COURTIERS), 3), np.int64)
    for c, effect in C.VANGUARD_EFFECTS.items():
        flags = effect()
        vanguard[c] = (int(flags["bonus"]), int(flags["rival_first"]),
                       int(flags["rival_forced"]))
    rear = np.zeros((len(C.COURTIERS), C.NUM_CARDS, 2, 2, 2), np.int64)
    for c in C.REARGUARD:
        for w in range(C.NUM_CARDS):
            for own in (0, 1):
                for rival in (0, 1):
                    got = C.rearguard(c, w, C.WARRIOR_MASK if own else 0, C.WARRIOR_MASK if rival else 0)
                    if got is not None:
                        rear[c, w, own, rival] = (_REAR_CODES[got[0]], got[1])
    inquisitor = np.array([int(C.inquisitor(c)) for c in range(C.NUM_CARDS)], np.int64)
    return villainy, meet, vanguard, rear, inquisitor
