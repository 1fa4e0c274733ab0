"""Advice at a battle spot, reached by play, where a villain is hidden from a player.

A battle with hidden villains is solved once and kept in the cache
(:mod:`analysis.cobardes.solvers.hidden_solution`). At a spot, the *worlds* are the histories the
player to move cannot tell from the true one: other deals (the rival's villain), other
moves of the rival's that the player did not see (a card prepared face down), found by
replaying them through OpenSpiel and comparing the player's information state. Each
world is weighed by its deals' chances and by the rival's strategy along it (Bayes' rule
over what the player saw); a move's value is the weighted value of where it leads.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.solvers.hidden_solution import METHOD, HiddenSolution, solution_path, solve
from analysis.shared.progress import shown
from analysis.solve.compiled import CHANCE, PLAYER0
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidPositionError

# Battles whose trunk graph has more positions than this (4 warriors or fewer) are solved
# while you wait; larger ones only when asked (--solve), or by the solved opponent before
# play when that takes at most WAIT_SECONDS.
ON_DEMAND_NODES = 5_000_000
WAIT_SECONDS = 240
# A trunk's solve (compile and solve to the floor) costs about this per position of the
# estimated trunk (:func:`trunk_size`), and this much memory at its peak
# (benchmarks/results/cobardes_matchup_speed.txt: the full Squire vs Archer battle).
SECONDS_PER_NODE = 3.5e-6
BYTES_PER_NODE = 135


@lru_cache(maxsize=4)
def _loaded(path: str) -> HiddenSolution | None:
    return HiddenSolution.load(Path(path))


def solution_for(game: pyspiel.Game, solve_large: bool = False, solve_missing: bool = True,
                 progress: bool | None = None) -> HiddenSolution | None:
    """``game``'s stored solution; when missing, solved now (saying so first, with
    progress on stderr) if its trunk is small or ``solve_large``, else refused in
    one line saying what solving it takes. ``None`` when missing and not
    ``solve_missing``."""
    path = solution_path(game)
    found = _loaded(str(path))
    if found is not None and found.game == str(game):
        return found
    if not solve_missing:
        return None
    size = trunk_size(int(game.get_parameters().get("warriors", C.MAX_WARRIOR)))
    cost = f"about {_count(size)} trunk positions: {solve_cost(size)}"
    if size > ON_DEMAND_NODES and not solve_large:
        raise InvalidPositionError(f"this battle with hidden villains is not solved yet "
                                   f"({cost}); add --solve to solve it once now")
    print(f"solving this battle with hidden villains once ({cost}, {METHOD} until its "
          f"exploitability stops improving); later spots of it read the stored solution",
          file=sys.stderr)
    tick = time.perf_counter()
    solution, _ = solve(game, progress=progress)
    if shown(progress):
        print(f"solved in {time.perf_counter() - tick:z.0f} s", file=sys.stderr)
    _loaded.cache_clear()
    return solution


def random_courtiers(game: pyspiel.Game) -> tuple[int, ...]:
    """The players whose courtier ``game`` deals at random (face up, at the start)."""
    params = game.get_parameters()
    if not game.rules.courtiers:
        return ()
    return tuple(p for p in (0, 1) if params.get(f"courtier{p}") == "random")


def as_matchup(state: pyspiel.State) -> pyspiel.State:
    """``state`` as a spot of the matchup its deal made: in a battle that deals the
    courtiers at random, the same moves (less the courtiers' deal) in the battle with
    those two courtiers named, whose hidden-villain solution is the one stored for the
    matchup; ``state`` itself when no courtier is dealt at random (or not yet dealt).
    The two games number every later move alike, so the spot is the same."""
    game = state.get_game()
    dealt = random_courtiers(game)
    history = state.history()
    if not dealt or len(history) < len(dealt):
        return state
    walk, names = game.new_initial_state(), {}
    for p, action in zip(dealt, history, strict=False):
        names[f"courtier{p}"] = walk.action_to_string(pyspiel.PlayerId.CHANCE,
                                                      action).removeprefix("deal ")
        walk.apply_action(action)
    params = dict(game.get_parameters()) | names
    matchup = pyspiel.load_game(game.get_type().short_name, params).new_initial_state()
    for action in history[len(dealt):]:
        matchup.apply_action(action)
    return matchup


def worth_the_wait(size: int) -> bool:
    """Whether a trunk of ``size`` positions solves in at most :data:`WAIT_SECONDS`: the
    solved opponent then solves it before play rather than refuse."""
    return size * SECONDS_PER_NODE <= WAIT_SECONDS


def trunk_size(warriors: int) -> int:
    """About how many positions the trunk graph of a battle with ``warriors`` has.
    Measured (Squire against Archer): 24-31 thousand with 2 warriors, 0.2 million with 3,
    1.2 million with 4, 34-41 million with 6 and 7 combats; combats matter little."""
    return int(30_000 * 6 ** max(warriors - 2, 0))


def solve_cost(size: int) -> str:
    """What solving a trunk of ``size`` positions takes, in words."""
    minutes, gb = size * SECONDS_PER_NODE / 60, size * BYTES_PER_NODE / 2**30
    time_text = f"some {minutes:z.0f} minutes" if minutes >= 1.5 else "about a minute" \
        if minutes >= 0.5 else "seconds"
    return f"{time_text} and {f'{gb:z.0f} GB' if gb >= 1 else 'under 1 GB'} of memory"


def _count(size: int) -> str:
    return f"{size / 1e6:z.0f} million" if size >= 1e6 else f"{size:,}"


@dataclass(frozen=True)
class HiddenSpot:
    """The advice at a hidden spot, seen by the player to move: their ``value``, their mix
    and each legal move's value (by OpenSpiel action), and the rival's villain by
    probability (``"none"`` for worlds where the rival holds none), over ``worlds``
    histories; ``off_strategy`` when the rival made a move the solution never makes
    (the beliefs then rest on the deals' chances alone)."""

    mover: int
    value: float
    mix: dict[int, float]
    action_values: dict[int, float]
    opponent_hand: dict[str, float]
    worlds: int
    off_strategy: bool
    exploitability: float
    iterations: int


def worlds(state) -> list:
    """The states the player to move at ``state`` cannot tell from it: any deals,
    any moves of the rival, the player's own moves, with the player's information state
    (OpenSpiel's, a record of all they saw) the same at each of their decisions and at
    the end. Replayed through OpenSpiel, pruned at each of the player's decisions."""
    mover = state.current_player()
    game = state.get_game()
    mine: list[tuple[str, int | None]] = []  # the player's decisions: what they saw, did
    s = game.new_initial_state()
    for action in state.history():
        if not s.is_chance_node() and s.current_player() == mover:
            mine.append((s.information_state_string(mover), action))
        s.apply_action(action)
    mine.append((state.information_state_string(mover), None))
    out: list = []

    def walk(s, k: int) -> None:
        if s.is_terminal():
            return
        if s.is_chance_node():
            for a, p in s.chance_outcomes():
                if p > 0:
                    walk(s.child(a), k)
        elif s.current_player() != mover:
            for a in s.legal_actions():
                walk(s.child(a), k)
        else:
            seen, action = mine[k]
            if s.information_state_string(mover) != seen:
                return
            if action is None:
                out.append(s)
            else:
                walk(s.child(action), k + 1)

    walk(game.new_initial_state(), 0)
    return out


def _edge(sol: HiddenSolution, node: int, action: int) -> int:
    start = sol.edge_start
    for e in range(int(start[node]), int(start[node + 1])):
        if int(sol.edge_action[e]) == action:
            return e
    raise InvalidPositionError(f"the stored solution has no move {action} at this spot; "
                               "delete the cached solution to solve the battle again")


def _rows(sol: HiddenSolution, node: int) -> dict[int, int]:
    i = int(sol.infoset[node])
    lo, hi = int(sol.infoset_offset[i]), int(sol.infoset_offset[i + 1])
    return {int(sol.infoset_actions[r]): r for r in range(lo, hi)}


def follow(sol: HiddenSolution, history: list[int], mover: int) -> tuple[int, float, float]:
    """The graph node ``history`` reaches, its deals' chance and the rival's probability
    of playing its moves under the solution (``mover``'s own moves weigh the same in
    every world, so they are left out)."""
    node, chance, rival = 0, 1.0, 1.0
    internal = sol.kind.shape[0]
    for action in history:
        if node >= internal:
            raise InvalidPositionError("the stored solution ends before this spot")
        e = _edge(sol, node, action)
        kind = int(sol.kind[node])
        if kind == CHANCE:
            chance *= float(sol.edge_prob[e])
        elif kind - PLAYER0 != mover:
            rival *= float(sol.strategy[_rows(sol, node)[action]])
        node = int(sol.edge_child[e])
    return node, chance, rival


def strategy_at(sol: HiddenSolution, history: list[int]) -> dict[int, float]:
    """The solution's mix for the player to move after ``history`` (the true history, as
    that player's own information set in the graph)."""
    node, _, _ = follow(sol, history, -1)
    return {a: float(sol.strategy[r]) for a, r in _rows(sol, node).items()}


def advise_hidden(state, solution: HiddenSolution) -> HiddenSpot:
    """Advice at ``state`` (a decision where a villain is hidden) from ``solution``."""
    mover = state.current_player()
    sign = 1.0 if mover == 0 else -1.0
    legal = state.legal_actions()
    paths = [(w, *follow(solution, w.history(), mover)) for w in worlds(state)]
    # Bayes' rule over the rival's moves; a rival who made a move the solution never
    # makes leaves only the deals' chances to go by.
    off_strategy = sum(c * r for _, _, c, r in paths) <= 0
    found = [(h, node, c if off_strategy else c * r) for h, node, c, r in paths]
    found = [(h, node, w) for h, node, w in found if w > 0]
    total = sum(w for _, _, w in found)
    mix = dict.fromkeys(legal, 0.0)
    values = dict.fromkeys(legal, 0.0)
    theirs: dict[str, float] = {}
    value = 0.0
    for world, node, weight in found:
        share = weight / total
        rows = _rows(solution, node)
        if sorted(rows) != sorted(legal):
            raise InvalidPositionError("the stored solution's moves differ from the game's "
                                       "here; delete the cached solution to solve again")
        for a in legal:
            mix[a] += share * float(solution.strategy[rows[a]])
            child = int(solution.edge_child[_edge(solution, node, a)])
            values[a] += share * sign * float(solution.values[child])
        value += share * sign * float(solution.values[node])
        held = [C.CARD_NAMES[v] for v in
                E.bits(world.position.h[1 - mover] & C.VILLAIN_MASK)] or ["none"]
        for name in held:
            theirs[name] = theirs.get(name, 0.0) + share
    norm = sum(mix.values())
    mix = {a: p / norm for a, p in mix.items()}
    # Measured within the abstraction, a lower bound on the true exploitability (never
    # negative): its best response may fall short of the strategy's own value by a hair.
    return HiddenSpot(mover, value, mix, values, dict(sorted(theirs.items())), len(found),
                      off_strategy, max(0.0, solution.exploitability), solution.iterations)
