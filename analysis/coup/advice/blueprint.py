"""Advice at any decision of a 2-player Coup game from the deal, from the blueprint.

The spot is the game's history. The player to move saw only part of it, so what they
believe of the hidden cards (the opponent's hand, the court) is Bayes' rule over every
history that shows them the same thing, the opponent assumed to play the blueprint and
the cards to fall as the deck's odds say. The mix is the blueprint's; each move's value
(P(win) - P(lose) for the player) is estimated by blueprint self-play from the worlds
the beliefs weigh, with a 95% interval. Where the blueprint's values at every position are
stored, the spot is re-solved instead (:mod:`analysis.coup.solvers.blueprint_resolve`):
the next few decisions solved exactly, the blueprint's values past them. The accuracy
printed is the blueprint's (the measured lower bound on how much a best response gains
against it) and, for a re-solve, the small game's own exploitability.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import astuple

import numpy as np
import pyspiel

from analysis.coup.agents.blueprint import load_deck_blueprint
from analysis.coup.guarantees import position_key
from analysis.coup.solvers.blueprint import Blueprint, accuracy, read_summary
from analysis.coup.solvers.blueprint_resolve import (
    ValueGraph,
    resolve_spot,
    value_graph_for,
)
from analysis.shared import store
from analysis.statistics.intervals import Z95
from games.coup import cards as C
from games.coup import engine as E
from games.coup import view as V
from games.coup.walker import decisive_coup
from games.errors import InvalidParameterError, InvalidPositionError

GAME = "python_coup"
ROLLOUTS = 300


def _seen(child: E.Core, parent: E.Core, player: int) -> tuple:
    """What ``player`` sees of the step from ``parent`` to ``child``: the log lines it
    added that the player may read, and the player's view of the position now."""
    lines = []
    node = child.log
    while node is not None and node is not parent.log:
        node, event = node
        lines.append(V.event_text(event, player, child.cfg.deck))
    return tuple(x for x in lines if x is not None), V.infoset_key(child, player)


def _moves(core: E.Core, bp: Blueprint, setup: str, player: int, action: int,
           uniform: bool) -> list[tuple[int, float]]:
    """The steps a world may take where the true game played ``action``, with their
    probabilities: chance's odds, the player's own move, the opponent's blueprint mix."""
    if core.cur == E.CHANCE:
        return core.chance_outcomes()
    if core.cur == player:
        return [(action, 1.0)] if action in core.legal_actions() else []
    legal = core.legal_actions()
    mix = None if uniform else bp.mix(core, core.cur, setup)
    if mix is None:
        mix = np.full(len(legal), 1.0 / len(legal))
    return list(zip(legal, mix.tolist(), strict=True))


def beliefs(root: E.Core, actions: list[int], player: int, bp: Blueprint, setup: str,
            uniform: bool = False) -> list[tuple[E.Core, float]]:
    """The worlds ``player`` cannot tell apart after ``actions`` from ``root``, each with
    its posterior probability (``uniform``: the opponent's moves all equally likely)."""
    worlds = {(): (root.copy(), 1.0)}
    truth = root.copy()
    for action in actions:
        before = truth
        truth = truth.copy()
        truth.apply(action)
        seen = _seen(truth, before, player)
        grown: dict[tuple, list] = {}
        for core, weight in worlds.values():
            for move, p in _moves(core, bp, setup, player, action, uniform):
                if p <= 0:
                    continue
                child = core.copy()
                child.apply(move)
                if _seen(child, core, player) != seen:
                    continue
                key = position_key(child)
                if key in grown:
                    grown[key][1] += weight * p
                else:
                    grown[key] = [child, weight * p]
        worlds = {k: (c, w) for k, (c, w) in grown.items()}
    total = sum(w for _, w in worlds.values())
    if total <= 0:
        return []
    return [(c, w / total) for c, w in worlds.values()]


@dataclasses.dataclass(frozen=True)
class SpotAdvice:
    """The blueprint's advice at one decision: per legal move its probability and its
    value with a 95% interval; the opponent's cards as the player should believe them."""

    deck: str
    setup: str
    player: int
    hand: tuple[str, ...]
    spot: str
    actions: tuple[tuple[str, float, float, tuple[float, float]], ...]
    opponent_hand: tuple[tuple[str, float], ...]
    opponent_hands: tuple[tuple[str, float], ...]
    rollouts: int
    exploitability: float | None
    assumed_blueprint: bool
    resolve: dict | None = None  # the re-solve's depth, size and exploitability
    accuracy: str = ""  # the blueprint's measured bounds in words

    @property
    def source(self) -> str:
        if self.resolve is None:
            return ("blueprint (2-player game from the deal); move values from "
                    f"{self.rollouts} blueprint games per move")
        r = self.resolve
        return (f"re-solve of the next {r['depth']} decisions from the blueprint's ranges "
                f"({r['nodes']:,} positions, {r['iterations']} CFR+ iterations), the "
                "blueprint's exact values past them")

    def to_json(self) -> dict:
        extra = {} if self.resolve is None else {"resolve": self.resolve}
        return extra | {
            "game": "coup", "deck": self.deck, "setup": self.setup, "player": self.player,
            "hand": list(self.hand), "spot": self.spot,
            "actions": [{"action": a, "probability": p, "value": v, "value_ci95": list(ci)}
                        for a, p, v, ci in self.actions],
            "opponent_hand": dict(self.opponent_hand),
            "opponent_hands": dict(self.opponent_hands),
            "source": self.source,
            "exploitability": self.exploitability,
            "exploitability_kind": "lower bound, win probability",
            "exploitability_detail": self.accuracy or "not measured yet",
            "beliefs": "opponent plays the blueprint" if self.assumed_blueprint
                       else "opponent's moves all equally likely (the blueprint never "
                            "plays what they played)",
        }

    def text(self) -> str:
        lines = [f"Coup, 2 players from the deal ({self.deck} deck, {self.setup} setup): "
                 f"{self.spot}",
                 f"You are P{self.player} holding {' + '.join(self.hand) or 'no cards'}. "
                 "The re-solve plays:" if self.resolve else "The blueprint plays:"]
        width = max(len(a) for a, *_ in self.actions)
        for a, p, v, (lo, hi) in sorted(self.actions, key=lambda x: -x[1]):
            ci = "" if self.resolve else f" [{lo:+z.2f}, {hi:+z.2f}]"
            lines.append(f"  {a:<{width}}  {p:z6.1%}  value {v:+z.3f}{ci}")
        held = ", ".join(f"{c} {p:z.0%}" for c, p in self.opponent_hand)
        lines.append(f"The opponent holds (chance of at least one): {held}")
        if not self.assumed_blueprint:
            lines.append("  (they played a move the blueprint never plays, so these beliefs "
                         "assume nothing about their play)")
        bound = self.accuracy or ("not measured yet" if self.exploitability is None
                                  else f"at least {self.exploitability:z.3f} in win probability")
        if self.resolve:
            r = self.resolve
            lines.append(f"Values: P(win) - P(lose), exact in a re-solve of the next {r['depth']} "
                         f"decisions ({r['nodes']:,} positions) that takes the blueprint's values "
                         "past them; a best response gains at most "
                         f"{r['exploitability']:z.4f} in win probability inside it.")
            lines.append(f"How much the blueprint can be beaten: {bound}.")
        else:
            lines.append(f"Values: P(win) - P(lose) over {self.rollouts} blueprint games per "
                         f"move (95% intervals). How much the blueprint can be beaten: {bound}.")
        return "\n".join(lines)


def _rollout(core: E.Core, bp: Blueprint, setup: str, rng: np.random.Generator) -> E.Core:
    while not core.over:
        legal = core.legal_actions() if core.cur != E.CHANCE else None
        if legal is None:
            actions, probs = zip(*core.chance_outcomes(), strict=True)
        else:
            mix = bp.mix(core, core.cur, setup)
            actions, probs = legal, (np.full(len(legal), 1 / len(legal)) if mix is None else mix)
        probs = np.asarray(probs, float)
        core.apply(int(actions[rng.choice(len(actions), p=probs / probs.sum())]))
    return core


def move_values(worlds, legal: list[int], player: int, bp: Blueprint, setup: str,
                rollouts: int, seed: int) -> list[tuple[float, tuple[float, float]]]:
    """Each legal move's mean P(win) - P(lose) for ``player`` and its 95% interval, by
    ``rollouts`` blueprint games per move from worlds drawn by their weights (the same
    worlds and seeds for every move, so the moves are compared on equal terms)."""
    weights = np.array([w for _, w in worlds])
    picks = np.random.default_rng(seed).choice(len(worlds), size=rollouts, p=weights)
    out = []
    for action in legal:
        results = np.empty(rollouts)
        for i, k in enumerate(picks):
            core = worlds[k][0].copy()
            core.apply(action)
            end = _rollout(core, bp, setup, np.random.default_rng([seed, i]))
            results[i] = 0.0 if end.winner < 0 else (1.0 if end.winner == player else -1.0)
        mean = float(results.mean())
        # The spread with one win and one loss added, so that a move that lost (or won)
        # every game still gets an interval of some width.
        spread = float(np.append(results, (1.0, -1.0)).std(ddof=1))
        half = Z95 * spread / math.sqrt(rollouts)
        out.append((mean, (max(-1.0, mean - half), min(1.0, mean + half))))
    return out


def advise_spot(state: pyspiel.State, bp: Blueprint, rollouts: int = ROLLOUTS,
                seed: int = 0, vg: ValueGraph | None = None,
                resolve: bool = True) -> SpotAdvice:
    """The advice for the player to move at ``state`` (a 2-player ``python_coup`` game
    from the deal): a re-solve on ``vg`` (by default the stored values of ``bp``, when
    computed; ``resolve=False``: never), otherwise the blueprint's mix and rollouts."""
    params = state.get_game().get_parameters()
    if params["players"] != 2:
        raise InvalidPositionError("the blueprint advises 2-player games")
    if state.is_terminal():
        raise InvalidPositionError("the game is over: no move to advise")
    if state.is_chance_node():
        raise InvalidPositionError("the game waits for a card to be drawn, not for a player")
    setup, player = params["two_player_setup"], state.current_player()
    mix = bp.action_probabilities(state)  # a setup the blueprint lacks fails here, in one line
    if not mix:
        raise InvalidPositionError(
            "the blueprint has no strategy here: play from the deal never reaches this "
            "position (a winning Coup declined, or a position set up by hand)")
    root = state.get_game().new_initial_state().core
    worlds = beliefs(root, state.history(), player, bp, setup)
    assumed = bool(worlds)
    if not worlds:
        worlds = beliefs(root, state.history(), player, bp, setup, uniform=True)
    legal = state.legal_actions()
    if resolve and vg is None:
        vg = value_graph_for(bp, setup)
    solved = None
    if resolve and vg is not None and decisive_coup(state.core) is None:
        solved = resolve_spot(vg, bp, setup, state.history())
        mix = dict(zip(solved.actions, solved.mix, strict=True))
        values = [(v, (v, v)) for v in solved.values]
    else:
        values = move_values(worlds, legal, player, bp, setup, rollouts, seed)
    deck = params["deck"]
    actions = tuple((state.action_to_string(player, a), mix[a], v, ci)
                    for a, (v, ci) in zip(legal, values, strict=True))
    other = 1 - player
    holds = {C.card_name(c, deck): 0.0 for c in C.CHARACTERS}
    hands: dict[str, float] = {}
    for core, w in worlds:
        hand = core.hands[other]
        for c in set(hand):
            holds[C.card_name(c, deck)] += w
        text = V.hand_text(hand, deck)
        hands[text] = hands.get(text, 0.0) + w
    acc = accuracy(read_summary(deck), setup)
    return SpotAdvice(deck, setup, player,
                      tuple(C.card_name(c, deck) for c in state.core.hands[player]),
                      V.step_text(state.core, player), actions,
                      tuple(sorted(holds.items(), key=lambda x: -x[1])),
                      tuple(sorted(hands.items(), key=lambda x: -x[1])), rollouts, acc.at_least,
                      assumed, None if solved is None else {
                          "depth": solved.depth, "nodes": solved.nodes,
                          "worlds": solved.worlds, "iterations": solved.iterations,
                          "exploitability": solved.exploitability}, acc.text())


def position_spot(position: str, deck: str, setup: str = "standard",
                  seed: int = 0) -> pyspiel.State:
    """The first decision of a 2-player game started at ``position`` (a position string,
    the opponent's cards as ``?``), those cards dealt at random (seeded): the advice
    weighs every deal the player cannot rule out, so which one is drawn does not matter."""
    game = pyspiel.load_game(GAME, {"deck": deck, "position": position,
                                    "two_player_setup": setup})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(actions[rng.choice(len(actions), p=np.asarray(probs))]))
    return state


def sample_spots(bp: Blueprint, setup: str, count: int, seed: int) -> list[pyspiel.State]:
    """``count`` decisions with a choice from blueprint self-play games of ``setup``, each
    game stopped at a random move (seeded): spots as play from the deal meets them."""
    game = pyspiel.load_game(GAME, {"players": 2, "deck": bp.deck, "two_player_setup": setup})
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        stop = int(rng.integers(1, 40))
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(actions[rng.choice(len(actions), p=np.asarray(probs))]))
                continue
            if moves >= stop and len(state.legal_actions()) > 1:
                out.append(state)
                break
            mix = bp.action_probabilities(state)
            actions, probs = zip(*mix.items(), strict=True)
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
            moves += 1
    return out


def blueprint_for(state: pyspiel.State) -> Blueprint | None:
    """The stored blueprint that can advise ``state`` (2 players, its deck and setup
    built), loaded once per process; ``None`` otherwise."""
    return _stored(state.get_game().get_parameters())


def _stored(params: dict) -> Blueprint | None:
    # Built for the printed rules: a variant's numbers have no blueprint.
    if params["players"] != 2 or any(params.get(k, v) != v for k, v in
                                     zip(C.NUMBER_PARAMS, astuple(C.PRINTED), strict=True)):
        return None
    try:
        bp = load_deck_blueprint(params["deck"], str(store.cache_root()))
    except InvalidParameterError:
        return None
    return bp if params["two_player_setup"] in bp.setups else None
