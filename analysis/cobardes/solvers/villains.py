"""Battles with hidden villains: the state-keyed engine, and what its abstraction loses.

With villains the players hold private cards, so the solver engine keys information
sets on (own cards, public position): an imperfect-recall abstraction. Its loss is
measured, not assumed: on reduced decks the abstraction's strategy is played in the
perfect-recall tree against an exact best response (:func:`abstraction_loss`); on the
full game the exploitability within the abstraction is only a lower bound.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyspiel

import games  # noqa: F401  (registers the games)
from analysis.cobardes.model import ENDING_NAMES
from analysis.cobardes.solvers.trunk import (
    METHOD,
    RULE,
    TREE_MEMORY,
    compile_trunk,
    solve_trunk,
    trunk_key,
)
from analysis.shared import store
from analysis.solve import CFRSolver, compile_cached, compile_game, exploitability
from analysis.solve.abstraction import graph_strategy_on_tree
from analysis.solve.cfr import METHOD_NAMES
from analysis.solve.compile import PLAYER0, PLAYER1
from analysis.solve.errors import SolveError
from analysis.solve.floor import solve_to_floor
from analysis.solve.kernels import expected_value
from games.cobardes import cards as C
from games.cobardes import engine as E
from games.errors import InvalidPositionError

GAME = "python_cobardes_battle"

# Reduced decks for the abstraction-loss measurement (the perfect-recall tree fits).
REDUCED_DECKS = (
    ("warriors 0-2, 3 combats, Thug/Sheep/Executioner",
     {"kinds": "warriors+villains", "warriors": 2, "combats": 3,
      "villain_deck": "Thug/Sheep/Executioner"}),
    ("warriors 0-2, 3 combats, Squire vs Archer, Thug/Sheep/Executioner",
     {"kinds": "all", "warriors": 2, "combats": 3, "villain_deck": "Thug/Sheep/Executioner",
      "courtier0": "Squire", "courtier1": "Archer"}),
    ("warriors 0-3, 3 combats, Assassin/Beggar/Seductress/Troubadour",
     {"kinds": "warriors+villains", "warriors": 3, "combats": 3,
      "villain_deck": "Assassin/Beggar/Seductress/Troubadour"}),
    # Swaps and exchanges: where forgetting the order of events could cost most.
    ("warriors 0-2, 3 combats, Procuress vs Fortune-Teller, King's Ghost/Sheep/Seductress/"
     "Executioner",
     {"kinds": "all", "warriors": 2, "combats": 3, "courtier0": "Procuress",
      "courtier1": "Fortune-Teller", "villain_deck": "King's Ghost/Sheep/Seductress/Executioner"}),
)


# The reduced army on which the value of each hidden villain deal is read.
HIDDEN_TABLE_DECK = ("warriors 0-3, 3 combats, all 9 villains hidden",
                     {"kinds": "warriors+villains", "warriors": 3, "combats": 3})


def abstraction_loss_path() -> Path:
    """Where the abstraction-loss measurements are stored (``farol cobardes abstraction``)."""
    return store.data("cobardes", "abstraction_loss.json")


def villain_params(courtiers=("Squire", "Archer"), warriors: int = C.MAX_WARRIOR, combats: int = C.MAX_COMBATS,
                   villain_deck: str = "all", **payoffs) -> dict:
    """Parameters of a battle with both villains dealt at random (hidden)."""
    params = {"kinds": "all" if any(courtiers) else "warriors+villains",
              "warriors": warriors, "combats": combats, "villain_deck": villain_deck}
    if any(courtiers):
        params["courtier0"], params["courtier1"] = (c or "none" for c in courtiers)
    params.update(payoffs)
    return params


@dataclass(frozen=True)
class VillainSolve:
    """One state-keyed solve: sizes, effort and quality."""

    params: dict
    nodes: int
    infosets: int
    compile_seconds: float
    solve_seconds: float
    iterations: int
    value: float
    exploitability_in_abstraction: float

    def provenance(self) -> str:
        return (f"state-keyed CFR+ on the graph ({self.nodes:,} nodes, {self.infosets:,} "
                f"information sets), {self.iterations} iterations, exploitability within "
                f"the abstraction {self.exploitability_in_abstraction:z.2g} (a lower bound "
                "on the true exploitability)")


def solve_villains(params: dict, iterations: int = 200, seconds: float | None = None,
                   use_cache: bool = True, progress: bool = False
                   ) -> tuple[VillainSolve, CFRSolver]:
    """Solve a battle with hidden villains with the state-keyed engine."""
    game = pyspiel.load_game(GAME, params)
    start = time.perf_counter()
    compiled = compile_cached(game, graph=True, use_cache=use_cache, progress=progress)
    compile_seconds = time.perf_counter() - start
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(iterations=iterations, seconds=seconds, progress=progress)
    return VillainSolve(dict(params), compiled.num_nodes, compiled.num_infosets,
                        compile_seconds, solver.seconds, solver.iteration, report.value,
                        report.exploitability), solver


def strategy_lookup(cg, strategy: np.ndarray) -> dict[str, dict[int, float]]:
    """``strategy`` of compiled game ``cg`` by information-set key text:
    ``{key: {action: probability}}``."""
    return {key: _infoset_mix(cg, strategy, i) for i, key in enumerate(cg.infoset_keys)}


def strategy_at(cg, strategy: np.ndarray, key: str) -> dict[int, float]:
    """``strategy`` at the one information set of ``cg`` keyed ``key`` (one query: no
    table of every information set)."""
    return _infoset_mix(cg, strategy, cg.infoset_keys.index(key))


def _infoset_mix(cg, strategy: np.ndarray, i: int) -> dict[int, float]:
    lo, hi = cg.infoset_offset[i], cg.infoset_offset[i + 1]
    return dict(zip(cg.infoset_actions[lo:hi].tolist(), strategy[lo:hi].tolist(), strict=True))


@dataclass(frozen=True)
class AbstractionLoss:
    """Exact tree solution against the state-keyed one, on one reduced deck."""

    label: str
    tree_nodes: int
    tree_infosets: int
    graph_nodes: int
    graph_infosets: int
    iterations: int
    tree_value: float
    tree_exploitability: float
    graph_value: float
    graph_exploitability_in_abstraction: float
    graph_exploitability_true: float
    tree_seconds: float
    graph_seconds: float

    def to_json(self) -> dict:
        return asdict(self)


def abstraction_loss(label: str, params: dict, iterations: int = 2000) -> AbstractionLoss:
    """Solve ``params`` on the perfect-recall tree and on the state-keyed graph with the
    same number of CFR+ iterations; measure the graph strategy's true exploitability."""
    game = pyspiel.load_game(GAME, params)
    return measure_loss(label, lambda: compile_game(game, abstract_keys=True),
                        lambda: compile_cached(game, graph=True, use_cache=False), iterations)


def measure_loss(label: str, compile_tree, compile_graph, iterations: int) -> AbstractionLoss:
    """Solve a perfect-recall tree (``compile_tree()``, compiled with ``abstract_keys``)
    and its state-keyed graph (``compile_graph()``) with the same CFR+ iterations, then
    play the graph's strategy in the tree: its exploitability there is the loss."""
    start = time.perf_counter()
    tree = compile_tree()
    tree_solver = CFRSolver(tree, "cfr+")
    tree_report = tree_solver.run(iterations=iterations, progress=False)
    tree_seconds = time.perf_counter() - start
    start = time.perf_counter()
    graph = compile_graph()
    graph_solver = CFRSolver(graph, "cfr+")
    graph_report = graph_solver.run(iterations=iterations, progress=False)
    graph_seconds = time.perf_counter() - start
    mapped = graph_strategy_on_tree(graph, graph_solver.average_strategy(), tree)
    true = exploitability(tree, mapped)
    return AbstractionLoss(label, tree.num_nodes, tree.num_infosets, graph.num_nodes,
                           graph.num_infosets, iterations, tree_report.value,
                           tree_report.exploitability, graph_report.value,
                           graph_report.exploitability, true.exploitability, tree_seconds,
                           graph_seconds)


@dataclass(frozen=True)
class VillainAdvice:
    """The advice at a position with hidden villains, you (player 0) holding ``villain``:
    your value holding it (``value``; the rival's still unknown to you) and before the
    villains are dealt (``value_before_deal``), the decision, your mix and each move's
    value by name, the rival's likely villains, and how it was solved: ``exploitability``
    is the true one on the perfect-recall tree, else (``abstraction``) measured within
    the state-keyed abstraction, a lower bound; ``solver`` says it in words."""

    villain: str
    value: float
    value_before_deal: float
    decision: str
    strategy: tuple[tuple[str, float], ...]
    actions: tuple[tuple[str, float, float], ...]
    opponent_hand: tuple[tuple[str, float], ...]
    exploitability: float
    abstraction: bool
    solver: str

    @property
    def value_given(self) -> str:
        return f"holding the {self.villain}"


def advise_villains(params: dict, my_villain: int | None, iterations: int | None = None,
                    tree_memory: int | None = None, progress: bool | None = None
                    ) -> VillainAdvice:
    """Advice for a position with hidden villains (you are player 0).

    The public subgames are solved exactly and cut off
    (:mod:`analysis.cobardes.solvers.trunk`); the trunk left, where a villain is still
    hidden, is solved on its **perfect-recall tree** when it compiles within
    ``tree_memory`` (the exploitability reported is then the true one), else on its
    state-keyed graph (an abstraction: the exploitability is measured within it, a lower
    bound): by Discounted CFR until its exploitability stops improving (the best
    strategy measured kept), or by ``iterations`` of CFR+ when given. Your villain is
    dealt at random in the solved game (so that the rival does not know it) and your
    strategy is read at your information set holding
    ``my_villain`` (its card id, ``None`` when not given: refused in one line naming the
    villains you may hold).
    ``progress`` (default: unless ``FAROL_PROGRESS=0``) shows progress on stderr.
    """
    game = pyspiel.load_game(GAME, params)
    mine = _own_villain(game, my_villain)
    if iterations is None:
        cut = compile_trunk(game, tree_memory or TREE_MEMORY, progress)
        run = solve_to_floor(CFRSolver(cut.compiled, METHOD), RULE, progress=progress)
        strategy, done, value_before, gap = run.strategy, run.iterations, run.value, \
            run.exploitability
        how = (f"{METHOD_NAMES.get(METHOD, METHOD)}", " until its exploitability stopped "
               "improving")
    else:
        cut, solver, report = solve_trunk(game, iterations, tree_memory or TREE_MEMORY,
                                          progress=progress)
        strategy, done, value_before, gap = solver.average_strategy(), solver.iteration, \
            report.value, report.exploitability
        how = ("CFR+", "")
    compiled = cut.compiled
    tree = compiled.mode == "tree"
    state = game.new_initial_state()
    values = node_values(compiled, strategy)
    value_mine = _value_holding(compiled, values, 0, game.new_initial_state(), mine)
    spots = _your_decisions(compiled, 0, game.new_initial_state(), mine, 1.0, -1)
    while state.is_chance_node():
        pos = state.position
        outcomes = [a for a, p in state.chance_outcomes() if p > 0]
        if pos.pending and pos.pending[0] == ("villain", 0):
            state.apply_action(mine)
        else:
            state.apply_action(outcomes[0])
    # Rival decisions before yours (a quicker vanguard): assume held back.
    while not state.is_terminal() and state.current_player() == 1:
        legal = state.legal_actions()
        state.apply_action(E.PASS if E.PASS in legal else legal[0])
    if state.is_terminal() or state.is_chance_node():
        raise InvalidPositionError("you have no decision in this position")
    pos = state.position
    probs = strategy_at(compiled, strategy, trunk_key(compiled, state, 0))
    court = pos.court[0]

    def label(a):
        if a < C.NUM_CARDS:
            return C.CARD_NAMES[a]
        return {E.PASS: "pass", E.ADVANCE: "advance"}.get(a, E.action_name(a, court))

    total = sum(w for _, _, w, _ in spots)
    action_values = {}
    for a in probs:
        action_values[a] = sum(w * float(values[_child(compiled, node, a)])
                               for node, _, w, _ in spots) / total
    theirs: dict[str, float] = {}
    for _, spot, w, rival in spots:
        held = [rival] if rival >= 0 else E.bits(spot.position.h[1] & C.VILLAIN_MASK)
        for v in held:
            theirs[C.CARD_NAMES[v]] = theirs.get(C.CARD_NAMES[v], 0.0) + w / total
    kind = "perfect-recall tree" if tree else "state graph"
    measured = ("true exploitability" if tree else
                "exploitability within the abstraction (a lower bound on the true one)")
    return VillainAdvice(
        villain=C.CARD_NAMES[mine], value=value_mine, value_before_deal=value_before,
        decision=E.PHASE_NAMES[pos.phase],
        strategy=tuple((label(a), p) for a, p in probs.items()),
        actions=tuple((label(a), p, action_values[a]) for a, p in probs.items()),
        opponent_hand=tuple(sorted(theirs.items())),
        exploitability=max(0.0, gap), abstraction=not tree,
        solver=(f"{how[0]} on the {kind} of the trunk ({compiled.num_nodes:,} nodes, "
                f"{compiled.num_infosets:,} information sets), {done} "
                f"iterations{how[1]}, public subgames solved exactly "
                f"({cut.exact_positions:,} positions); {measured} {max(0.0, gap):z.2g}"))


def _own_villain(game: pyspiel.Game, mine: int | None) -> int:
    """Your villain ``mine`` (dealt to you hidden at the start of ``game``), checked: one
    clear error when it is missing or cannot be yours."""
    state = game.new_initial_state()
    while state.is_chance_node() and state.position.pending[0] != ("villain", 0):
        state.apply_action(next(a for a, p in state.chance_outcomes() if p > 0))
    if not state.is_chance_node():
        raise InvalidPositionError("you hold no hidden villain in this position")
    pool = [a for a, p in state.chance_outcomes() if p > 0]
    names = ", ".join(C.CARD_NAMES[a] for a in pool)
    if mine is None:
        raise InvalidPositionError(f"you hold a hidden villain: say which with --my-villain "
                                   f"(one of {names})")
    if mine not in pool:
        raise InvalidPositionError(f"the {C.CARD_NAMES[mine]} cannot be yours here (one of "
                                   f"{names})")
    return mine


def _child(compiled, node: int, action: int) -> int:
    start = compiled.edge_start
    for e in range(start[node], start[node + 1]):
        if int(compiled.edge_action[e]) == action:
            return int(compiled.edge_child[e])
    raise SolveError(f"{compiled.game}: node {node} has no action {action}")


def _your_decisions(compiled, node: int, state, mine: int, weight: float, rival: int):
    """Your first decision nodes once you are dealt ``mine``: ``(node, state, weight,
    rival's villain)`` for each deal of the rival's villain (weighted by its chance; -1
    when it is not dealt here), the rival's earlier vanguard decisions held back."""
    if state.is_terminal():
        return []
    start, child = compiled.edge_start, compiled.edge_child
    if state.is_chance_node():
        pending = state.position.pending[0]
        out = []
        for e in range(start[node], start[node + 1]):
            a = int(compiled.edge_action[e])
            if pending == ("villain", 0) and a != mine:
                continue
            p = 1.0 if pending == ("villain", 0) else float(compiled.edge_prob[e])
            dealt = a if pending == ("villain", 1) else rival
            out += _your_decisions(compiled, int(child[e]), state.child(a), mine,
                                   weight * p, dealt)
        return out
    if state.current_player() == 1:
        legal = state.legal_actions()
        a = E.PASS if E.PASS in legal else legal[0]
        return _your_decisions(compiled, _child(compiled, node, a), state.child(a), mine,
                               weight, rival)
    return [(node, state, weight, rival)]


def _value_holding(compiled, values: np.ndarray, node: int, state, mine: int) -> float:
    """Player 0's value from ``node`` (``state`` in the game) once player 0 is dealt
    ``mine``: the other deals before the first decision averaged by their chances."""
    if not state.is_chance_node():
        return float(values[node])
    start, child = compiled.edge_start, compiled.edge_child
    action, prob = compiled.edge_action, compiled.edge_prob
    deals_mine = state.position.pending[0] == ("villain", 0)
    total = 0.0
    for e in range(start[node], start[node + 1]):
        a = int(action[e])
        if deals_mine and a != mine:
            continue
        weight = 1.0 if deals_mine else float(prob[e])
        total += weight * _value_holding(compiled, values, int(child[e]), state.child(a), mine)
    return total


def node_values(compiled, strategy: np.ndarray) -> np.ndarray:
    """Player 0's expected value at every node of a compiled game under ``strategy``:
    internal nodes (the engine's bottom-up pass), then terminals (their utility)."""
    value = np.empty(compiled.num_internal)
    expected_value(compiled.kind, compiled.infoset, compiled.edge_start, compiled.edge_child,
                   compiled.edge_prob, compiled.utility, compiled.infoset_offset,
                   np.ascontiguousarray(strategy, dtype=np.float64), value)
    return np.concatenate([value, compiled.utility])


def deal_nodes(compiled) -> dict[tuple[int, int], int]:
    """The node after each villain deal ``(player 0's villain, player 1's)`` of a battle
    whose root deals player 0's villain and whose next chance node deals player 1's."""
    start, child, action = compiled.edge_start, compiled.edge_child, compiled.edge_action
    out = {}
    for e in range(start[0], start[1]):
        first = int(child[e])
        for f in range(start[first], start[first + 1]):
            out[(int(action[e]), int(action[f]))] = int(child[f])
    return out


def first_combat_mix(compiled, strategy: np.ndarray) -> dict[str, dict[str, dict[str, float]]]:
    """Each player's mix at the first confrontation by the villain they hold:
    ``{"P0": {villain: {card: probability}}, "P1": ...}``.

    Player 0 commits first (face down) at the node right after the deal; player 1
    answers at any child of it (one information set: the card is hidden). Empty when
    the battle starts otherwise (a vanguard courtier's decision first)."""
    cg = compiled

    def mix_at(node: int) -> dict[str, float]:
        i = int(cg.infoset[node])
        lo, hi = cg.infoset_offset[i], cg.infoset_offset[i + 1]
        return {C.CARD_NAMES[int(a)]: float(p)
                for a, p in zip(cg.infoset_actions[lo:hi], strategy[lo:hi], strict=True)}

    mix: dict[str, dict[str, dict[str, float]]] = {"P0": {}, "P1": {}}
    for (v0, v1), node in sorted(deal_nodes(cg).items()):
        if cg.kind[node] != PLAYER0:
            return {}
        mix["P0"].setdefault(C.CARD_NAMES[v0], mix_at(node))
        answer = int(cg.edge_child[cg.edge_start[node]])
        if answer < cg.num_internal and cg.kind[answer] == PLAYER1:
            mix["P1"].setdefault(C.CARD_NAMES[v1], mix_at(answer))
    return mix


def deal_values(compiled, strategy: np.ndarray) -> dict[str, dict[str, float]]:
    """Player 0's value after each villain deal under ``strategy``: player 0's villain
    -> player 1's -> value."""
    value = node_values(compiled, strategy)
    table: dict[str, dict[str, float]] = {}
    for (v0, v1), node in sorted(deal_nodes(compiled).items()):
        table.setdefault(C.CARD_NAMES[v0], {})[C.CARD_NAMES[v1]] = float(value[node])
    return table


def deal_outcomes(compiled, strategy: np.ndarray, outcomes
                  ) -> dict[str, dict[str, dict[str, float]]]:
    """How the battle ends after each villain deal under ``strategy``: player 0's
    villain -> player 1's -> ending (:data:`~analysis.cobardes.model.ENDING_NAMES`: the
    outcome class and which courtiers were played) -> probability, from each terminal's
    endings (``outcomes``: :class:`analysis.cobardes.solvers.trunk.Endings`, from
    :func:`~analysis.cobardes.solvers.trunk.compile_cut` with ``outcomes``), carried up by the
    same pass as the values, one pass an ending."""
    nodes = sorted(deal_nodes(compiled).items())
    per_class = []
    for k in range(len(ENDING_NAMES)):
        chance = dataclasses.replace(compiled, utility=outcomes.column(k))
        value = node_values(chance, strategy)
        per_class.append([float(value[node]) for _, node in nodes])
    table: dict[str, dict[str, dict[str, float]]] = {}
    for j, ((v0, v1), _) in enumerate(nodes):
        table.setdefault(C.CARD_NAMES[v0], {})[C.CARD_NAMES[v1]] = {
            name: per_class[k][j] for k, name in enumerate(ENDING_NAMES)}
    return table
