"""A later spot of a full battle with hidden villains, answered by re-solving the rest.

A full battle's solution takes minutes to make (:mod:`analysis.cobardes.solvers.hidden_solution`);
its opening is stored for every matchup (:mod:`analysis.cobardes.solvers.openings`). From the
second combat on, a spot is answered by solving the rest of the battle instead: the
position at the start of the spot's combat (hands, courtiers, the villains each rival
knows) is a battle of its own (:func:`games.cobardes.options.format_position`), its
hidden villains dealt by chance with the beliefs the history implies, solved by the same
method as a whole battle, to its floor. The moves of the spot's own combat are then
weighed by the re-solved strategy (Bayes' rule, as at any hidden spot:
:func:`analysis.cobardes.solvers.hidden_advice.advise_hidden`).

The beliefs at the combat's start weigh each villain deal by its chance and by how likely
each player's moves of the first combat were, holding that villain, under the matchup's
stored opening (its first decision, and its later ones up to committing a card where the
opening keeps them). The moves after those and before the combat are not weighed: the
re-solve takes them as telling nothing of the villains. Every answer says so.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.cobardes.solvers import openings
from analysis.cobardes.solvers.hidden_solution import METHOD, RULE, HiddenSolution
from analysis.cobardes.solvers.trunk import compile_cut
from analysis.solve import CFRSolver
from analysis.solve.floor import solve_to_floor
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.cobardes.options import format_position
from games.errors import InvalidPositionError

_SWAPS = (E.PROC_TAKE, E.PROC_GIVE)


@dataclass(frozen=True)
class Rest:
    """The rest of a battle from the start of its spot's combat: ``game`` (a battle that
    starts there, its hidden villains dealt by chance), ``state`` (the spot in it),
    ``combat``, ``likelihood`` (by seat: villain id -> the chance of that seat's moves
    holding it, under the stored opening; ``None`` where not weighed), ``beliefs`` (what
    the beliefs weigh, in words) and the battle's stored opening ``table`` (``None``
    when not stored)."""

    game: pyspiel.Game
    state: pyspiel.State
    combat: int
    likelihood: tuple
    beliefs: str
    table: openings.OpeningAdvice | None = None


def combat_start(state: pyspiel.State) -> tuple[int, pyspiel.State]:
    """How many moves of ``state``'s history come before its combat began (and the
    battle's villains were dealt), and the battle then."""
    history = state.history()
    walk = state.get_game().new_initial_state()
    combat = state.position.combat
    for i, action in enumerate(history):
        if walk.position.combat == combat and not walk.position.pending:
            return i, walk
        walk.apply_action(action)
    return len(history), walk


def _gone(pos: E.Pos) -> int:
    """The villains out of play for good: played face up (on the field or out of the
    combat) and in no hand."""
    seen = 0
    for card in [c for _, c in pos.field] + list(pos.out):
        if card >= 0 and C.is_villain(card):
            seen |= 1 << card
    return seen & ~(pos.h[0] | pos.h[1])


def _hidden(pos: E.Pos, seat: int) -> list[int]:
    """``seat``'s villains its rival does not know."""
    return E.bits(pos.h[seat] & C.VILLAIN_MASK & ~pos.kv[1 - seat])


def rest_of_battle(state: pyspiel.State) -> Rest:
    """The battle from the start of ``state``'s combat, with the spot in it.

    Raises
    ------
    InvalidPositionError
        ``state`` is in the first combat (the rest is the whole battle).
    """
    game = state.get_game()
    history = state.history()
    start, at_start = combat_start(state)
    pos = at_start.position
    if pos.combat == 1:
        raise InvalidPositionError("the first combat's rest is the whole battle")
    params = dict(game.get_parameters())
    deck = game.rules.cfg.villain_deck & ~_gone(pos)
    params["villain_deck"] = "/".join(C.CARD_NAMES[v] for v in E.bits(deck))
    params["position"] = format_position(pos, hide=True)
    rest = pyspiel.load_game(game.get_type().short_name, params)
    spot = rest.new_initial_state()
    dealt = {p: _hidden(pos, p) for p in (0, 1)}
    while spot.is_chance_node() and spot.position.pending:
        _, seat = spot.position.pending[0]
        spot.apply_action(dealt[seat].pop(0))
    for action in history[start:]:
        spot.apply_action(action)
    table = openings.stored_for(game)
    likelihood, beliefs = _likelihood(state, pos, table)
    return Rest(rest, spot, pos.combat, likelihood, beliefs, table)


def _likelihood(state: pyspiel.State, pos: E.Pos, table: openings.OpeningAdvice | None
                ) -> tuple[tuple, str]:
    """By seat, each villain's chance of that seat's first-combat moves under the stored
    opening ``table`` (``None`` where they cannot be weighed), and the beliefs in words."""
    game = state.get_game()
    deal_only = "each villain deal weighed by its chance alone"
    if table is None:
        return (None, None), deal_only + " (this battle's opening is not stored)"
    walk = game.new_initial_state()
    before = None
    moves: dict[int, list[tuple[tuple[str, ...], int]]] = {0: [], 1: []}
    for action in state.history():
        if walk.is_chance_node() and walk.position.pending:
            walk.apply_action(action)
            continue
        if walk.position.phase in _SWAPS:
            return (None, None), (deal_only + " (a Procuress swap moved a villain between "
                                  "hands)")
        if before is None:
            before = {p: len(walk.information_state_string(p).split(" | ")) for p in (0, 1)}
        if not walk.is_chance_node() and walk.position.combat == 1:
            seat = walk.current_player()
            seen = tuple(walk.information_state_string(seat).split(" | ")[before[seat]:])
            moves[seat].append((seen, action))
        walk.apply_action(action)
    out: list = []
    for seat in (0, 1):
        out.append(_seat_likelihood(table, seat, moves[seat])
                   if len(_hidden(pos, seat)) == 1 else None)
    if not any(out):
        return (None, None), deal_only
    weighed = ("each player's moves" if all(out) else
               f"the {('first', 'second')[0 if out[0] else 1]} player's moves")
    return tuple(out), (f"each villain deal weighed by its chance and by {weighed} in the "
                        "first combat that the stored opening keeps (up to committing a "
                        "card); later moves before this combat are taken as telling nothing "
                        "of the villains")


def _seat_likelihood(table, seat: int, moves) -> dict[int, float] | None:
    """Each villain's chance of ``seat``'s ``moves`` (what it saw, what it did) under the
    stored opening, from its first on while the opening keeps them; ``None`` when it
    keeps none."""
    chances: dict[int, float] = {}
    weighed = False
    for villain in C.VILLAINS:
        kept = dict(table.entries(C.CARD_NAMES[villain], seat, later=True))
        if not kept:
            continue
        chance = 1.0
        for seen, action in moves:
            if seen not in kept:
                break  # past what the opening keeps
            weighed = True
            chance *= dict((int(a), p) for a, p in kept[seen]["mix"]).get(action, 0.0)
        chances[villain] = chance
    return chances if weighed else None


def weigh_deals(compiled, rest: Rest) -> tuple[object, bool]:
    """``compiled`` (the rest's trunk) with its root villain deals weighed by the
    beliefs, and whether the weights could be applied (``False``: the first moves are
    impossible under the opening for every deal, and the deals' chances stand)."""
    order = [seat for kind, seat in rest.game.rules.initial.pending if kind == "villain"]
    prob = np.array(compiled.edge_prob, dtype=np.float64)
    start, child, action = compiled.edge_start, compiled.edge_child, compiled.edge_action

    def weigh(node: int, depth: int) -> float:
        if depth == len(order):
            return 1.0
        lo, hi = int(start[node]), int(start[node + 1])
        chances = rest.likelihood[order[depth]]
        weights = np.array([prob[e] * (1.0 if chances is None else
                                       chances.get(int(action[e]), 0.0))
                            * weigh(int(child[e]), depth + 1) for e in range(lo, hi)])
        total = float(weights.sum())
        if total > 0:
            prob[lo:hi] = weights / total
        return total

    if not order or weigh(0, 0) <= 0:
        return compiled, False
    return dataclasses.replace(compiled, edge_prob=prob), True


@dataclass(frozen=True)
class Resolved:
    """A spot's rest solved: the ``solution`` (of ``rest.game``), the ``rest``, the
    seconds it took, how many trunk nodes it had, whether the beliefs weighed the deals,
    the exploitability it stopped at once reached (the stored battle solve's, so the
    re-solve is as accurate within its abstraction; 0 when none is stored), and its
    checks: (iteration, exploitability within the abstraction)."""

    solution: HiddenSolution
    rest: Rest
    seconds: float
    nodes: int
    weighed: bool
    target: float
    checks: tuple = ()


def resolve_rest(state: pyspiel.State, progress: bool | None = None) -> Resolved:
    """Solve the rest of ``state``'s battle from the start of its combat, over the
    beliefs its history implies, until its exploitability within the abstraction is at
    most the stored battle solve's or stops improving (not stored: a spot's beliefs are
    its own)."""
    tick = time.perf_counter()
    rest = rest_of_battle(state)
    compiled = compile_cut(rest.game, graph=True, key_names=False,
                           progress=progress).compiled
    compiled, weighed = weigh_deals(compiled, rest)
    target = rest.table.exploitability if rest.table is not None else RULE.target
    run = solve_to_floor(CFRSolver(compiled, METHOD), dataclasses.replace(RULE, target=target),
                         progress=progress)
    solution = HiddenSolution.from_run(rest.game, compiled, run, METHOD)
    return Resolved(solution, rest, time.perf_counter() - tick, int(compiled.num_nodes),
                    weighed, target, tuple(run.checks))
