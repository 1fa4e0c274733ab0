"""1v1 Coup endgames: one face-down card each, solved on the perfect-recall tree.

:func:`solve_endgame` solves one :class:`~analysis.coup.model.Endgame` capped at its
turn cap (the cap scoring 0) and :func:`analyse` walks the solved profile for what the
bluffing study needs: claims and blocks (honest or bluffed), how often they are
challenged, first moves and outcomes per dealt card. :func:`solve_priced_endgame` does
the same with the cap priced by Markov guarantees, along each player's safe profile.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

from analysis.coup.guarantees import continuation, guarantees_for
from analysis.coup.model import Bracket, Endgame
from analysis.coup.solvers.brackets import compile_markov, solve_side
from analysis.solve import CFRSolver, SolveResult, compile_cached, make_result
from games.coup import cards as C
from games.coup import engine as E

TARGET_EXPLOITABILITY = 1e-4
MAX_ITERATIONS = 50_000
SOLVER = "CFR+ (Farol engine, perfect-recall tree)"
# OpenSpiel's exploitability walks the Python game through C++ callbacks (~1 ms a node):
# checked only on trees up to this size.
OPENSPIEL_CHECK_MAX_NODES = 200_000


# --------------------------------------------------------------------------- labels
def claim_label(kind: int, deck: str) -> str:
    """The study's name of a turn action that claims a character, e.g. ``"Tax (Duke)"``."""
    char = C.card_name(C.KIND_CLAIM[kind], deck)
    return f"{C.KIND_NAMES[kind]} ({char})"


def block_label(kind: int, card: int, deck: str) -> str:
    """The study's name of a block, e.g. ``"Block Assassinate (Contessa)"``."""
    return f"Block {C.KIND_NAMES[kind]} ({C.card_name(card, deck)})"


# --------------------------------------------------------------------------- walking
@dataclass
class Walk:
    """What :func:`analyse` collects (masses are total path probabilities)."""

    outcome: dict = field(default_factory=lambda: {"win": 0.0, "draw": 0.0, "lose": 0.0})
    by_card: dict = field(default_factory=dict)  # "mover:Duke" -> outcome masses
    claims: dict = field(default_factory=dict)  # label -> masses
    first_mix: dict = field(default_factory=dict)  # mover card -> action label -> probability
    nodes: int = 0


def _bump(table: dict, key, name: str, amount: float) -> None:
    row = table.setdefault(key, {})
    row[name] = row.get(name, 0.0) + amount


def strategy_lookup(result: SolveResult) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Information-state string -> (actions, probabilities) of a tree-mode solution."""
    out = {}
    off = result.infoset_offset
    for i, key in enumerate(result.infoset_keys):
        lo, hi = off[i], off[i + 1]
        out[key] = (result.infoset_actions[lo:hi], result.strategy[lo:hi])
    return out


def analyse(game: pyspiel.Game, result: SolveResult | None = None, table: dict | None = None,
            guarantees=None) -> Walk:
    """Walk ``game`` under the solved profile and collect the study's figures.

    The profile is ``result``'s, or ``table`` (information-state string -> actions and
    probabilities, as :func:`strategy_lookup` gives). With ``guarantees``
    (:class:`analysis.coup.guarantees.Guarantees`) each game stopped by the cap also adds
    the Markov guarantees of its position to the outcome masses: ``cap_win`` (the mover's
    ``W_0``) and ``cap_lose`` (the other's ``W_1``).
    """
    if table is None:
        table = strategy_lookup(result)
    deck = game.config.deck
    walk = Walk()
    def policy(state, player):
        key = state.information_state_string(player)
        actions, probs = table[key]
        return actions, probs

    def rec(state, reach, cards, first):
        walk.nodes += 1
        if state.is_terminal():
            r = state.returns()[0]
            name = "win" if r > 0 else "lose" if r < 0 else "draw"
            walk.outcome[name] += reach
            _bump(walk.by_card, f"mover:{cards[0]}", name, reach)
            _bump(walk.by_card, f"other:{cards[1]}", name, reach)
            if r == 0 and guarantees is not None:
                w = guarantees.of(continuation(state.core)) or (0.0, 0.0)
                for tag, v in (("cap_win", w[0]), ("cap_lose", w[1])):
                    walk.outcome[tag] = walk.outcome.get(tag, 0.0) + reach * v
                    _bump(walk.by_card, f"mover:{cards[0]}", tag, reach * v)
                    _bump(walk.by_card, f"other:{cards[1]}", tag, reach * v)
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                rec(state.child(a), reach * p, cards, first)
            return
        core = state.core
        if cards is None:  # the first decision: the deal is complete
            cards = tuple(C.card_name(core.hands[p][0], deck) for p in range(2))
        player = state.current_player()
        actions, probs = policy(state, player)
        step = core.queue[0]
        code = step[0]
        if first:
            for a, p in zip(actions, probs, strict=True):
                label = state.action_to_string(player, int(a))
                label = label.replace(" P1", "").replace(" from", "")
                _bump(walk.first_mix, cards[0], label, reach * p)
        hand = core.hands[player]
        for a, p in zip(actions, probs, strict=True):
            a = int(a)
            mass = reach * p
            if code == E.S_ACTION:
                kind, _ = C.decode_turn_action(a)
                claim = C.KIND_CLAIM[kind]
                if claim is not None:
                    label = claim_label(kind, deck)
                    _bump(walk.claims, label, "made", mass)
                    if claim not in hand:
                        _bump(walk.claims, label, "bluff", mass)
            elif code == E.S_BLOCK and a != C.A_NO_BLOCK:
                card = a - C.A_BLOCK
                label = block_label(core.kind, card, deck)
                _bump(walk.claims, label, "made", mass)
                if card not in hand:
                    _bump(walk.claims, label, "bluff", mass)
            elif code == E.S_CHAL:
                _, claimant, claim, _, is_block = step
                label = (block_label(core.kind, claim, deck) if is_block
                         else claim_label(core.kind, deck))
                honest = claim in core.hands[claimant]
                tag = "honest" if honest else "bluff"
                _bump(walk.claims, label, f"asked_{tag}", mass)
                if a == C.A_CHALLENGE:
                    _bump(walk.claims, label, f"challenged_{tag}", mass)
            if mass > 0.0:  # unreached subtrees add nothing to any mass
                rec(state.child(a), mass, cards, False)

    rec(game.new_initial_state(), 1.0, None, True)
    for card, mix in walk.first_mix.items():
        total = sum(mix.values())
        walk.first_mix[card] = {k: v / total for k, v in mix.items()} if total else mix
    return walk


def summarise_claims(claims: dict) -> dict:
    """Per claim: how often made, P(bluff | made), P(challenged | made) and per honesty."""
    out = {}
    for label, m in sorted(claims.items()):
        made = m.get("made", 0.0)
        asked = m.get("asked_honest", 0.0) + m.get("asked_bluff", 0.0)
        chal = m.get("challenged_honest", 0.0) + m.get("challenged_bluff", 0.0)
        out[label] = {
            "frequency": made,
            "bluff_rate": m.get("bluff", 0.0) / made if made > 1e-12 else None,
            "challenge_rate": chal / asked if asked > 1e-12 else None,
            "challenge_rate_honest": (m.get("challenged_honest", 0.0) / m["asked_honest"]
                                      if m.get("asked_honest", 0.0) > 1e-12 else None),
            "challenge_rate_bluff": (m.get("challenged_bluff", 0.0) / m["asked_bluff"]
                                     if m.get("asked_bluff", 0.0) > 1e-12 else None),
        }
    return out


def card_values(by_card: dict) -> dict:
    """Per ``"mover:Duke"`` etc.: P(win), P(draw), P(lose) of the mover given that card
    (and ``cap_win``/``cap_lose``, the guarantees' masses at the cap, where recorded)."""
    out = {}
    for key, m in sorted(by_card.items()):
        total = sum(m.get(k, 0.0) for k in ("win", "draw", "lose"))
        names = ("win", "draw", "lose") + tuple(k for k in ("cap_win", "cap_lose") if k in m)
        out[key] = {k: m.get(k, 0.0) / total for k in names}
        out[key]["mass"] = total
    return out


# --------------------------------------------------------------------------- solving
def solve_endgame(endgame: Endgame, target: float = TARGET_EXPLOITABILITY,
                  max_iterations: int = MAX_ITERATIONS, openspiel_check: bool = False,
                  use_cache: bool = True) -> tuple[dict, SolveResult]:
    """Solve one endgame; returns a JSON-ready record and the solve result.

    The record holds the value and outcome probabilities of the player to move, the
    solver, iterations, seconds and exploitability (exact best response on the
    compiled perfect-recall tree), the tree's size, and the study's walk
    (:func:`analyse`). With ``openspiel_check`` (and at most
    ``OPENSPIEL_CHECK_MAX_NODES`` nodes) the exploitability is measured a second time by
    OpenSpiel's own ``exploitability`` on the OpenSpiel game.
    ``solve_seconds`` counts the compile and the CFR+ iterations, ``walk_seconds`` the
    walk of :func:`analyse`.
    """
    game = endgame.game()
    start = time.perf_counter()
    compiled = compile_cached(game, use_cache=use_cache)
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(target_exploitability=target, iterations=max_iterations, progress=False)
    result = make_result(game, compiled, solver, report)
    solve_seconds = time.perf_counter() - start
    tick = time.perf_counter()
    walk = analyse(game, result)
    record = {
        "endgame": endgame.to_json(),
        "position": endgame.position(),
        "solver": SOLVER,
        "method": result.method,
        "iterations": result.iterations,
        "exploitability": result.exploitability,
        "value": result.value,
        "win": walk.outcome["win"],
        "draw": walk.outcome["draw"],
        "lose": walk.outcome["lose"],
    } | _walk_fields(walk, compiled, solve_seconds, tick)
    if openspiel_check and compiled.num_nodes <= OPENSPIEL_CHECK_MAX_NODES:
        record["openspiel_exploitability"] = openspiel_exploitability(game, result)
    return record, result


def solve_priced_endgame(endgame: Endgame, target: float = TARGET_EXPLOITABILITY,
                         max_iterations: int = MAX_ITERATIONS) -> dict:
    """Solve ``endgame`` with its cap priced by Markov guarantees and walk the *safe
    profile*; returns a record shaped like :func:`solve_endgame`'s.

    The cap-priced game is solved from both ends (:func:`analysis.coup.solvers.brackets.solve_side`)
    and each player plays the strategy of the end that pays *them* their guarantee: the
    one that secures them the most. The walk (:func:`analyse`) adds the guarantees at the
    cap: ``win_range`` is the mover's win probability when both play that profile and
    then their Markov policies; ``lower_win``/``upper_win`` are the bracket at this cap.
    """
    game = endgame.game()
    start = time.perf_counter()
    compiled, bounds = compile_markov(endgame)
    sides = [solve_side(compiled, side, bounds, target, max_iterations) for side in (0, 1)]
    table = {}
    for player, solved in enumerate(sides):
        result = make_result(game, solved.game, solved.solver, solved.check)
        mine = strategy_lookup(result)
        table |= {k: mine[k] for k, owner in zip(result.infoset_keys, result.infoset_player,
                                                 strict=True) if owner == player}
    solve_seconds = time.perf_counter() - start
    tick = time.perf_counter()
    walk = analyse(game, table=table, guarantees=guarantees_for(endgame.deck, endgame.revealed))
    out = walk.outcome
    bracket = Bracket.of_values(sides[0].bound, sides[1].bound)
    return {
        "endgame": endgame.to_json(),
        "position": endgame.position(),
        "solver": SOLVER,
        "cap_payoffs": "markov",
        "method": "cfr+",
        "iterations": max(s.solver.iteration for s in sides),
        "exploitability": max(s.report.exploitability for s in sides),
        "sides": {name: {"iterations": s.solver.iteration,
                         "exploitability": s.report.exploitability, "bound": s.bound}
                  for name, s in zip(("low", "high"), sides, strict=True)},
        "lower_win": bracket.lower_win,
        "upper_win": bracket.upper_win,
        "value": out["win"] - out["lose"],
        "win": out["win"],
        "draw": out["draw"],
        "lose": out["lose"],
        "cap_win": out.get("cap_win", 0.0),
        "cap_lose": out.get("cap_lose", 0.0),
        "win_range": [out["win"] + out.get("cap_win", 0.0),
                      1.0 - out["lose"] - out.get("cap_lose", 0.0)],
    } | _walk_fields(walk, compiled, solve_seconds, tick)


def _walk_fields(walk: Walk, compiled, solve_seconds: float, tick: float) -> dict:
    """A record's tree size, seconds (the walk's since ``tick``) and study figures."""
    return {
        "nodes": compiled.num_nodes,
        "infosets": compiled.num_infosets,
        "compile_seconds": compiled.compile_seconds,
        "solve_seconds": solve_seconds,
        "walk_seconds": time.perf_counter() - tick,
        "claims": summarise_claims(walk.claims),
        "card_values": card_values(walk.by_card),
        "first_mix": walk.first_mix,
    }


def openspiel_exploitability(game: pyspiel.Game, result: SolveResult) -> float:
    """OpenSpiel's (C++) ``exploitability`` of the solved profile on the OpenSpiel game."""
    tabular = result.to_tabular_policy(game)
    return float(pyspiel.exploitability(game, policy_lib.python_policy_to_pyspiel_policy(tabular)))


def cap_study(endgame: Endgame, caps: tuple[int, ...] = (1, 2, 3),
              target: float = TARGET_EXPLOITABILITY) -> list[dict]:
    """Solve ``endgame`` at each turn cap: value, outcome probabilities, size and time."""
    rows = []
    for cap in caps:
        eg = Endgame(endgame.mover_coins, endgame.other_coins, endgame.deck, endgame.revealed, cap)
        record, _ = solve_endgame(eg, target=target)
        rows.append({k: record[k] for k in ("value", "win", "draw", "lose", "nodes", "infosets",
                                            "iterations", "exploitability", "compile_seconds",
                                            "solve_seconds")} | {"turn_cap": cap})
    return rows
