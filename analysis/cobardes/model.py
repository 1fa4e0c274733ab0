"""The ground of the ¡Cobardes! wing: what a battle is and how it ends, and the war's scores.

A :class:`BattleSpec` names a villain-free battle (cards, combats, what the ends pay),
:func:`battle_params` writes any battle's game parameters, and :func:`initial_position` reads any battle's parameters through the rules engine
(:mod:`games.cobardes.engine`); :func:`canonical_key` keys a position with used courtiers
forgotten, so pairings share their solved sub-battles. A finished battle is one of five
outcomes (player 0's view) and, with which courtiers were played, one of 20 endings,
what the war and the keep-or-renew choice between battles depend on. A war state is the
score (Victory tokens each), solved in :func:`score_order`. Every solver, study and
report of the wing reads these here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.keys import state_key
from games.cobardes.options import Payoffs, make_rules
from games.cobardes.war import TOKENS_TO_WIN as WAR_TOKENS_TO_WIN
from games.errors import InvalidPositionError


# --------------------------------------------------------------------------- battles
@dataclass(frozen=True)
class BattleSpec:
    """A villain-free battle: which cards, how many combats, what the ends pay.

    ``courtiers`` are names (``None`` or ``"none"`` for no courtier). Payoffs are
    player 0's; ``loss``/``crown_loss`` default to the negatives of ``win``/``crown``. A
    mirror pairing (the same courtier for both, a hypothetical battle: each courtier card
    exists once) opts in with ``allow_mirror``.
    """

    warriors: int = C.MAX_WARRIOR
    combats: int = C.MAX_COMBATS
    courtiers: tuple[str | None, str | None] = (None, None)
    win: float = 1.0
    crown: float = 3.0
    draw: float = 0.0
    loss: float | None = None
    crown_loss: float | None = None
    quicker: str = "alternate"
    position: str = ""
    allow_mirror: bool = False

    def params(self) -> dict:
        """The ``python_cobardes_battle`` parameters of this battle."""
        return battle_params(self.courtiers, warriors=self.warriors, combats=self.combats,
                             payoffs=self.payoffs(), quicker=self.quicker,
                             position=self.position, allow_mirror=self.allow_mirror)

    def payoffs(self) -> Payoffs:
        return Payoffs(float(self.win), float(-self.win if self.loss is None else self.loss),
                       float(self.crown),
                       float(-self.crown if self.crown_loss is None else self.crown_loss),
                       float(self.draw))


def battle_params(courtiers: tuple[str | None, str | None] = (None, None), *,
                  kinds: str | None = None, warriors: int | None = None,
                  combats: int | None = None, payoffs: Payoffs | None = None,
                  allow_mirror: bool = False, **rules) -> dict:
    """The ``python_cobardes_battle`` parameters of a battle, every builder's one source.

    ``courtiers`` are names (``None`` or ``"none"``: no courtier); ``kinds`` defaults to
    warriors, with courtiers when one is named. ``warriors``, ``combats``, ``payoffs``
    (player 0's) and the other ``rules`` (``quicker``, ``position``, ``followup``,
    ``villain0``...) are written as given and left to the game's defaults when absent. A
    mirror pairing (the same courtier for both, a hypothetical battle) opts in with
    ``allow_mirror``.
    """
    courtiers = tuple(None if c == "none" else c for c in courtiers)
    with_court = any(c is not None for c in courtiers)
    p: dict = {"kinds": kinds or ("warriors+courtiers" if with_court else "warriors")}
    if warriors is not None:
        p["warriors"] = warriors
    if combats is not None:
        p["combats"] = combats
    if payoffs is not None:
        p |= {"win_value": payoffs.win, "crown_value": payoffs.crown,
              "draw_value": payoffs.draw, "loss_value": payoffs.loss,
              "crown_loss_value": payoffs.crown_loss}
    p |= rules
    if with_court:
        p["courtier0"] = courtiers[0] or "none"
        p["courtier1"] = courtiers[1] or "none"
    if allow_mirror:
        p["allow_mirror"] = True
    return p


def initial_position(params: dict) -> tuple[E.Config, E.Pos, Payoffs]:
    """Validate battle parameters and return ``(config, starting position, payoffs)``.

    Raises
    ------
    InvalidParameterError, InvalidPositionError, UnknownCardError
        Bad parameters or position (one line, from the game's own validation), or a
        random (hidden) deal, which this exact solver does not handle. Villains named
        for both players are public (both know them) and are solved exactly.
    """
    rules = make_rules(params)
    if rules.initial.pending:
        raise InvalidPositionError(
            "name both courtiers and villains (or none): the exact solver needs public "
            "information, and a random villain or courtier deal is not")
    return rules.cfg, rules.initial, rules.pay


TerminalValue = Callable[[E.Pos], float]


def payoff_values(pay: Payoffs) -> TerminalValue:
    """Terminal value function of a :class:`Payoffs` (player 0's payoff by outcome)."""
    def value(pos: E.Pos) -> float:
        return pay.value(pos.outcome)
    return value


def canonical_key(pos: E.Pos) -> tuple:
    """``state_key`` with used courtiers forgotten (they can no longer act).

    A used courtier's identity still matters inside the combat in which the
    Fortune-Teller met the Maiden (``priv == 3`` reads which one is the Maiden), so
    it is kept there.
    """
    court, used = pos.court, pos.used
    if used and pos.priv != 3:
        court = tuple(-1 if used >> p & 1 else court[p] for p in (0, 1))
        used = 0
        pos = pos.copy()
        pos.court, pos.used = court, used
    return state_key(pos)


def card_label(card: int) -> str:
    """``"Prince"``, ``"1"`` .. ``"6"``, or the villain's name."""
    return C.CARD_NAMES[card]


# A pairing's side without a courtier.
NO_COURTIER = "none"


def is_mirror(pairing: tuple[str, str]) -> bool:
    """Both players with the same courtier type (a hypothetical battle: each courtier card
    exists once)."""
    return pairing[0] == pairing[1] and pairing[0] != NO_COURTIER


def hidden_params(pairing: tuple[str, str], warriors: int = C.MAX_WARRIOR,
                  combats: int = C.MAX_COMBATS) -> dict:
    """The battle's parameters: the pairing's courtiers, both villains dealt hidden."""
    params = BattleSpec(warriors, combats, pairing, allow_mirror=is_mirror(pairing)).params()
    params.update(kinds="all", villain0="random", villain1="random", villain_deck="all")
    return params


# --------------------------------------------------------------------------- how battles end
# Terminal kinds, player 0's view.
WIN, LOSS, CROWN, CROWN_LOSS, DRAW = range(5)
OUTCOME_NAMES = ("win", "loss", "crown", "crown_loss", "draw")
# Endings: outcome x which courtiers were played (bit 0: player 0's, bit 1: player 1's),
# what keeping or renewing a courtier after the battle depends on.
USED = (0, 1, 2, 3)
USED_NAMES = ("none_used", "p0_used", "p1_used", "both_used")
ENDINGS = len(OUTCOME_NAMES) * len(USED)
ENDING_NAMES = tuple(f"{o}/{u}" for o in OUTCOME_NAMES for u in USED_NAMES)


def ending_index(kind: int, used: int) -> int:
    """Index of an ending: outcome ``kind`` (WIN..DRAW) with ``used`` bits."""
    return kind * len(USED) + used


def outcome_totals(endings) -> np.ndarray:
    """The five outcome classes' probabilities from the 20 endings' (last axis)."""
    endings = np.asarray(endings, dtype=float)
    return endings.reshape(*endings.shape[:-1], len(OUTCOME_NAMES), len(USED)).sum(axis=-1)


def outcome_kind(pos: E.Pos) -> int:
    """The terminal kind of a finished battle, from player 0's side."""
    return outcome_class(*pos.outcome)


def outcome_class(kind: str, winner: int) -> int:
    """The terminal kind of a battle ended as ``kind`` (the engine's outcome) won by
    ``winner`` (-1: nobody), from player 0's side."""
    if kind == E.VICTORY:
        return WIN if winner == 0 else LOSS
    if kind == E.CROWN:
        return CROWN if winner == 0 else CROWN_LOSS
    return DRAW


# --------------------------------------------------------------------------- the war's scores
TOKENS_TO_WIN = WAR_TOKENS_TO_WIN  # the rulebook's «gain 3 Victory tokens» (the war's default)
SCORES = tuple((a, b) for a in range(TOKENS_TO_WIN) for b in range(TOKENS_TO_WIN))


def score_order(victories: int = TOKENS_TO_WIN) -> list[tuple[int, int]]:
    """Score states in solving order: those a battle leads to come first (a war won with
    ``victories`` Victory tokens; the war game's parameter ``victories``)."""
    scores = [(a, b) for a in range(victories) for b in range(victories)]
    return sorted(scores, key=lambda s: (-(s[0] + s[1]), -s[0]))
