"""Exact solutions of ¡Cobardes! battles of public information (no hidden card).

Backward induction over positions: a confrontation prepared face down is a zero-sum
matrix game (:mod:`analysis.solve.matrix_game`), every other decision a maximum or
minimum, the Inquisitor's draw an expectation. Positions are read through the engine
(:mod:`games.cobardes.engine`) and keyed by the game's ``state_key`` with used courtiers
forgotten, so courtier pairings share their solved sub-battles. Values are player 0's.
The induction is the shared one (:mod:`analysis.solve.induction`), as in
:mod:`analysis.cobardes.solvers.fast_exact` and :mod:`analysis.cobardes.solvers.graph`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import numpy as np
from open_spiel.python import policy as os_policy

from analysis.cobardes.model import (
    BattleSpec,
    TerminalValue,
    canonical_key,
    initial_position,
    payoff_values,
)
from analysis.solve import induction
from analysis.solve.matrix_game import (  # noqa: F401  (imported from here by other modules)
    MatrixSolution,
    solve_matrix,
    solve_matrix_lp,
)
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidPositionError


@dataclass
class Node:
    """What the solver stores for one position.

    ``kind`` is ``"matrix"`` (a face-down confrontation: ``first`` prepares, the
    other answers), ``"max"``/``"min"`` (player 0/1 decides knowing everything),
    ``"chance"`` or ``"terminal"``. ``actions``/``strategy`` are the deciding
    player's (for a matrix node, ``actions``/``strategy`` are player 0's and
    ``actions1``/``strategy1`` player 1's).
    """

    kind: str
    value: float
    actor: int = -1
    actions: tuple[int, ...] = ()
    strategy: tuple[float, ...] = ()
    actions1: tuple[int, ...] = ()
    strategy1: tuple[float, ...] = ()
    child_values: tuple[float, ...] = ()
    draw_prob: float = 0.0
    outcome_probs: dict[str, float] = field(default_factory=dict)


# Phases after a confrontation's reveal (see ``combat_memo``).
_AFTER_REVEAL = frozenset((E.GHOST, E.FOLLOW, E.REAR, E.ARCHER, E.SENTINEL))
_NAN = float("nan")


class ExactSolver:
    """Backward induction over the public positions of villain-free battles.

    Parameters
    ----------
    cfg
        The engine's rules options (:class:`games.cobardes.engine.Config`).
    terminal
        Player 0's value of a finished battle, from its final position.
    record
        Keep a :class:`Node` (strategies included) for every position; without it
        only values are kept (less memory for sweeps).
    combat_memo
        Values only (``record`` and ``track_draws`` off): remember the positions before
        each confrontation's reveal, not those after it (follow-up, King's Ghost,
        rearguard and Archer/Sentinel changes). Those are reached from one reveal only
        (the revealed cards are part of the position), so remembering them saves
        nothing; skipping them saves their keys and most of the memo's memory.

    The memo is shared by every position solved with the same solver, so solving
    many starting positions (courtier pairings, advice queries) reuses work.
    """

    def __init__(self, cfg: E.Config, terminal: TerminalValue, record: bool = True,
                 track_draws: bool = False, combat_memo: bool = False):
        if combat_memo and (record or track_draws):
            raise ValueError("combat_memo keeps values only: record and track_draws must be off")
        self.cfg = cfg
        self.terminal = terminal
        self.record = record
        self.track_draws = track_draws
        self.combat_memo = combat_memo
        self.values: dict[tuple, float] = {}
        self.draws: dict[tuple, float] = {}
        self.nodes: dict[tuple, Node] = {}
        self.lp_calls = 0
        self._counts = [0, 0, 0]  # positions solved (memoized or not), matrix games, -
        self._graph = _Positions(self)

    @property
    def solved(self) -> int:
        """Positions solved so far (a memoized one once, any other each time reached)."""
        return self._counts[0]

    @property
    def matrix_games(self) -> int:
        return self._counts[1]

    # ------------------------------------------------------------------ solving
    def value(self, pos: E.Pos) -> float:
        """Player 0's exact value of ``pos``."""
        if pos.outcome is not None:
            return self.terminal(pos)
        known = self.values.get(canonical_key(pos))
        if known is not None:
            return known
        if pos.phase == E.DEAL or pos.pending:
            raise InvalidPositionError("the exact solver needs dealt courtiers (no random deal)")
        limit = sys.getrecursionlimit()
        if limit < 5000:
            sys.setrecursionlimit(5000)
        return induction.solve(pos, self._graph, None, None, self.values, self._counts)

    def _draw(self, pos: E.Pos) -> float:
        if pos.outcome is not None:
            return 1.0 if pos.outcome[0] in (E.DRAW, E.PEACE, E.NO_CARDS) else 0.0
        return self.draws[canonical_key(pos)]

    def node(self, pos: E.Pos) -> Node:
        """The stored :class:`Node` of ``pos`` (solving it first)."""
        if not self.record:
            raise ValueError("this solver keeps values only (record=False)")
        if pos.outcome is not None:
            return Node("terminal", self.terminal(pos))
        self.value(pos)
        return self.nodes[canonical_key(pos)]

    def draw_probability(self, pos: E.Pos) -> float:
        """Probability that the battle from ``pos`` ends without a winner under the
        solved strategies (needs ``track_draws``)."""
        if not self.track_draws:
            raise ValueError("this solver does not track draws (track_draws=False)")
        self.value(pos)
        return self._draw(pos)

    def strategy(self, pos: E.Pos) -> dict[int, float]:
        """The acting player's equilibrium mix at ``pos``: ``{action: probability}``.

        When the second player answers a card prepared face down, the mix is the
        one of the matrix game of the position before that card (the answer must
        not depend on the hidden card).
        """
        actor = pos.actor
        node = self.node(matrix_root(pos))
        if node.kind == "matrix":
            acts, probs = (node.actions, node.strategy) if actor == 0 else (node.actions1,
                                                                            node.strategy1)
        else:
            acts, probs = node.actions, node.strategy
        return {int(a): float(p) for a, p in zip(acts, probs, strict=True)}

    # ------------------------------------------------------------------ walking
    def confrontation(self, pos: E.Pos) -> E.Pos:
        """The first position of the confrontation of ``pos``'s combat, assuming every
        vanguard courtier is held back (the position itself if it is one)."""
        return confrontation(self.cfg, pos)


class _Positions(induction.Graph):
    """The engine's positions as a graph for the shared backward induction
    (:func:`analysis.solve.induction.solve`), recording what ``solver`` asks for."""

    def __init__(self, solver: ExactSolver):
        self.solver = solver
        self.cfg = solver.cfg
        self.pay = solver.terminal
        self.lean = solver.combat_memo

    def terminal(self, pos: E.Pos) -> float:
        return self.pay(pos) if pos.outcome is not None else _NAN

    def keep(self, pos: E.Pos) -> bool:
        # With ``combat_memo``, positions after a reveal are solved without memo.
        return not self.lean or pos.phase not in _AFTER_REVEAL

    def key(self, pos: E.Pos) -> tuple:
        return canonical_key(pos)

    def blank(self) -> None:
        return None

    def expand(self, pos: E.Pos):
        if pos.phase == E.DEAL or pos.pending:
            raise InvalidPositionError("the exact solver needs dealt courtiers (no random deal)")
        cfg = self.cfg
        if pos.actor == E.CHANCE:
            outcomes = E.chance_outcomes(cfg, pos)
            kids = [E.apply(cfg, pos, a) for a, _ in outcomes]
            return (induction.CHANCE, len(kids), [p for _, p in outcomes], 0, 0,
                    [a for a, _ in outcomes], kids)
        legal = E.legal_actions(cfg, pos)
        if is_matrix_node(pos):
            grid, acts0, acts1 = confrontation_grid(cfg, pos, legal)
            kids = [c for row in grid for c in row]
            return (induction.MATRIX, len(kids), (), len(acts0), len(acts1),
                    list(acts0) + list(acts1), kids)
        kids = [E.apply(cfg, pos, a) for a in legal]
        kind = induction.MAX if pos.actor == 0 else induction.MIN
        return kind, len(kids), (), 0, 0, legal, kids

    def solved(self, pos, key, kind, actions, kids, probs, vals, v, row, col) -> None:
        solver = self.solver
        if not (solver.record or solver.track_draws):
            return
        draw = solver._draw
        if kind == induction.CHANCE:
            if solver.track_draws:
                solver.draws[key] = float(sum(p * draw(c)
                                              for p, c in zip(probs, kids, strict=True)))
            if solver.record:
                solver.nodes[key] = Node("chance", v, -1, tuple(actions), tuple(probs),
                                         child_values=tuple(vals.tolist()))
        elif kind == induction.MATRIX:
            m = len(row)
            if solver.track_draws:
                d0 = np.array([draw(c) for c in kids]).reshape(m, len(col))
                solver.draws[key] = float(row @ d0 @ col)
            if solver.record:
                solver.nodes[key] = Node("matrix", v, pos.actor, tuple(actions[:m]),
                                         tuple(float(x) for x in row), tuple(actions[m:]),
                                         tuple(float(y) for y in col),
                                         child_values=tuple(vals))
        else:
            actor = pos.actor
            strategy = best_actions(vals, actor)[1]
            if solver.track_draws:
                solver.draws[key] = float(sum(s * draw(c)
                                              for s, c in zip(strategy, kids, strict=True)))
            if solver.record:
                solver.nodes[key] = Node("max" if actor == 0 else "min", v, actor,
                                         tuple(actions), tuple(float(s) for s in strategy),
                                         child_values=tuple(vals))


def confrontation(cfg: E.Config, pos: E.Pos) -> E.Pos:
    """The first position of the confrontation of ``pos``'s combat, assuming every
    vanguard courtier is held back (the position itself if it is one)."""
    while pos.outcome is None and pos.phase != E.COMMIT:
        if pos.phase != E.VANGUARD:
            return pos
        pos = E.apply(cfg, pos, E.PASS)
    return pos


def matrix_root(pos: E.Pos) -> E.Pos:
    """The position whose solution holds the mix of the player to act at ``pos``.

    When the second player answers a card prepared face down, that is the position
    before the card (the answer must not depend on the hidden card, so it is the
    matrix game's column mix); otherwise ``pos`` itself.

    Raises
    ------
    InvalidPositionError
        Nobody decides at ``pos`` (the battle is over, or chance acts).
    """
    if pos.outcome is not None or pos.actor < 0:
        raise InvalidPositionError("nobody decides at this position")
    actor = pos.actor
    if (pos.phase == E.COMMIT and not pos.open and pos.cards[1 - actor] >= 0
            and pos.first != actor):
        parent = pos.copy()
        parent.cards = (-1, -1)
        parent.actor = pos.first
        return parent
    return pos


def is_matrix_node(pos: E.Pos) -> bool:
    """Whether ``pos`` is a face-down confrontation about to be prepared (a matrix game:
    rows the first player's cards, columns the answer)."""
    return (pos.phase == E.COMMIT and not pos.open and pos.actor == pos.first
            and pos.cards[pos.actor] < 0)


def confrontation_grid(cfg: E.Config, pos: E.Pos, legal: list[int] | None = None
                       ) -> tuple[list[list[E.Pos]], list[int], list[int]]:
    """The matrix game of a face-down confrontation (:func:`is_matrix_node`): the
    positions after each pair of cards, with player 0's cards as rows (so player 0
    maximises over rows), and both players' card lists ``(grid, actions0, actions1)``."""
    if legal is None:
        legal = E.legal_actions(cfg, pos)
    middles = [E.apply(cfg, pos, a) for a in legal]
    answers = E.legal_actions(cfg, middles[0])
    grid = [[E.apply(cfg, mid, b) for b in answers] for mid in middles]
    if pos.actor == 0:
        return grid, legal, answers
    return [list(col) for col in zip(*grid, strict=True)], answers, legal


def best_actions(vals: np.ndarray, actor: int) -> tuple[float, np.ndarray]:
    """The value of a decision with these child values (player 0 maximises, player 1
    minimises) and the advice: ties spread over every optimal action (any mix of them is
    optimal)."""
    best = int(np.argmax(vals) if actor == 0 else np.argmin(vals))
    v = float(vals[best])
    ties = np.abs(vals - v) <= 1e-9
    return v, ties / ties.sum()


@dataclass(frozen=True)
class BattleSolution:
    """Value and opening strategy of one solved battle, with how it was obtained."""

    spec: BattleSpec
    value: float
    positions: int
    matrix_games: int
    seconds: float
    opening: Node
    draw_prob: float = float("nan")

    def provenance(self) -> str:
        return (f"backward induction, {self.positions:,} positions, "
                f"{self.matrix_games:,} matrix games by LP; exact (exploitability 0 "
                f"up to LP tolerance 1e-9)")


def solve_battle(spec: BattleSpec, solver: ExactSolver | None = None) -> BattleSolution:
    """Solve one villain-free battle exactly (reusing ``solver``'s memo if given)."""
    cfg, pos, pay = initial_position(spec.params())
    if solver is None:
        solver = ExactSolver(cfg, payoff_values(pay))
    start = time.perf_counter()
    value = solver.value(pos)
    opening = solver.node(solver.confrontation(pos)) if solver.record else Node("?", value)
    return BattleSolution(spec, value, len(solver.values), solver.matrix_games,
                          time.perf_counter() - start, opening)


class ExactPolicy(os_policy.Policy):
    """The solved strategies as an OpenSpiel policy (``action_probabilities(state)``) for
    a ``python_cobardes_battle`` game without villains; chance nodes excluded.

    Built on :class:`ExactSolver`; usable with OpenSpiel's ``exploitability`` and
    ``expected_game_score``."""

    def __init__(self, game, solver: ExactSolver | None = None):
        super().__init__(game, [0, 1])
        rules = game.rules
        self.solver = solver or ExactSolver(rules.cfg, payoff_values(rules.pay))

    def action_probabilities(self, state, player_id=None):
        return self.solver.strategy(state.position)


def position_table(solver: ExactSolver) -> list[dict]:
    """Every solved face-down confrontation: hands, combat, value and both mixes (rows
    for a CSV; cards by name, probabilities rounded to 1e-6)."""
    rows = []
    for key, node in solver.nodes.items():
        if node.kind != "matrix":
            continue
        hands, court, used = key[0], key[1], key[2]
        rows.append({
            "combat": key[4],
            "hand0": " ".join(C.CARD_NAMES[c] for c in _bits(hands[0])),
            "hand1": " ".join(C.CARD_NAMES[c] for c in _bits(hands[1])),
            "courtiers": "/".join("-" if c < 0 else C.COURTIER_NAMES[c] + (
                "*" if used >> p & 1 else "") for p, c in enumerate(court)),
            "value": round(node.value, 9),
            "mix0": " ".join(f"{C.CARD_NAMES[a]}:{p:z.6f}" for a, p in
                             zip(node.actions, node.strategy, strict=True) if p > 1e-9),
            "mix1": " ".join(f"{C.CARD_NAMES[a]}:{p:z.6f}" for a, p in
                             zip(node.actions1, node.strategy1, strict=True) if p > 1e-9),
        })
    rows.sort(key=lambda r: (r["combat"], r["hand0"], r["hand1"], r["courtiers"]))
    return rows


def _bits(mask: int) -> list[int]:
    return E.bits(mask)
