"""``lord``: an information-set search agent for Goat Lords.

Information-set Monte Carlo tree search from one seat's view. Each world deals the
cards the agent cannot see anew, agreeing with what play has shown
(:class:`analysis.goat_lords.model.Belief`), and fixes the order its draw pile will be
drawn in. The moves open at the root are the same in every world (they depend on the
agent's own hand and the table), so every world tries each of the heuristic's first
``root_width`` moves with the same draws: the moves are compared on the same luck.
Below the root one tree serves every world; each edge counts the times it was
available, so a move only some worlds allow is judged fairly, and a node is widened
progressively in the heuristic's order (first the greedy move, one more as its visits
grow). A leaf is scored by playing a few turns with the greedy heuristic and reading
the points: past rounds' totals plus herds, less part of a top pile a rival could duel
for. Every player picks by its own value (each against its best rival), so one tree
serves 2 to 6 players. A seat with a single legal move plays it without searching.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass

import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents.greedy import action_score, answer_choice, greedy_choice
from analysis.goat_lords.model import Belief
from analysis.play.bots import Bot, BotSpec, register_bot
from games.goat_lords import rules
from games.goat_lords.table import CHANCE, DUEL, OVER, STARTER, Table


@dataclass(frozen=True)
class SearchSettings:
    """The agent's knobs. ``simulations`` is the budget per move (the default tuned by
    matches against the greedy bot); ``uct_c`` the exploration weight on values in
    [-1, 1]; a node considers ``ceil(widen_c * visits ** widen_alpha)`` moves;
    ``rollout_turns`` turns of greedy play follow the tree before the herds are scored;
    ``scale`` is the point lead worth tanh(1) of a win; a herd counts ``hand_weight`` of
    its hand's points and loses ``top_risk`` of its top pile's while a rival could duel
    for it; ``tree=False`` scores each root move by greedy play alone (no tree below)."""

    simulations: int = 432
    uct_c: float = 0.6
    widen_c: float = 1.0
    widen_alpha: float = 0.5
    rollout_turns: int = 2
    scale: float = 120.0
    hand_weight: float = 0.4
    top_risk: float = 0.5
    root_width: int = 6
    tree: bool = True


DEFAULT = SearchSettings()


class _Edge:
    __slots__ = ("visits", "total", "avail", "child")

    def __init__(self):
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.child = _Node()


class _Node:
    __slots__ = ("edges", "visits")

    def __init__(self):
        self.edges: dict[int, _Edge] = {}
        self.visits = 0


def ordered_moves(table: Table, seat: int, legal: list[int]) -> list[int]:
    """Legal moves in the heuristic's order of preference (its choice first)."""
    if table.phase == DUEL:
        first = answer_choice(table, legal)
        return [first] + [a for a in legal if a != first]
    return sorted(legal, key=lambda a: -action_score(table, seat, a))


class Deck:
    """The order one world's draw pile is drawn in, so that every move tried from the
    root meets the same cards (paired comparisons); reshuffled piles are ordered anew."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[int]):
        self.cards = cards

    @classmethod
    def shuffled(cls, table: Table, rng: random.Random) -> Deck:
        cards = [k for k, c in enumerate(table.draw) for _ in range(c)]
        rng.shuffle(cards)
        return cls(cards)

    def draw(self, table: Table, rng: random.Random) -> None:
        """One chance event of ``table``: the next card of this order."""
        if table.phase == STARTER:
            kinds, probs = zip(*table.chance_outcomes(), strict=True)
            table.apply_chance(rng.choices(kinds, probs)[0])
            return
        while self.cards:
            kind = self.cards.pop()
            if table.draw[kind]:
                table.apply_chance(kind)
                return
        self.cards = Deck.shuffled(table, rng).cards
        table.apply_chance(self.cards.pop())


def evaluate(table: Table, settings: SearchSettings) -> list[float]:
    """Each seat's value in [-1, 1]: the returns when the game is over, else its lead in
    points (totals of past rounds plus the herd) over its best rival, squashed by tanh."""
    n = table.cfg.players
    if table.phase == OVER:
        return rules.returns_for(table.winning, n)
    values = table.cfg.values
    scores = []
    for p in range(n):
        herd = table.herds[p]
        score = table.totals[p] + rules.herd_points(herd, values)
        if settings.hand_weight:
            score += settings.hand_weight * sum(c * v for c, v in zip(table.hands[p], values, strict=True))
        if settings.top_risk and len(herd) >= 2:
            score -= settings.top_risk * sum(values[c] for c in herd[-1][1])
        scores.append(score)
    out = []
    for p in range(n):
        rival = max(scores[q] for q in range(n) if q != p)
        out.append(math.tanh((scores[p] - rival) / settings.scale))
    return out


def rollout(table: Table, turns: int, rng: random.Random, deck: Deck) -> None:
    """Greedy play for ``turns`` turns (or to the end of the game or round)."""
    stop = table.turns + turns
    round_no = table.round_no
    while table.phase != OVER and table.turns < stop and table.round_no == round_no:
        if table.to_move == CHANCE:
            deck.draw(table, rng)
        else:
            seat = table.to_move
            table.apply_action(greedy_choice(table, seat, table.legal_actions()), check=False)


def search(table: Table, seat: int, rng: random.Random, settings: SearchSettings = DEFAULT) -> int:
    """The agent's move for ``seat`` at ``table`` (the seat to move), by about
    ``settings.simulations`` simulations in worlds dealt from ``seat``'s belief.

    The root's moves are the same in every world (they depend on the seat's own hand and
    the table), so each world tries every one of the heuristic's first ``root_width``
    moves with the same draw order and dice: the moves are compared on the same luck.
    Below the root, one tree serves every world.
    """
    legal = table.legal_actions()
    if len(legal) == 1:
        return legal[0]
    belief = Belief(table, seat)
    moves = ordered_moves(table, seat, legal)[: settings.root_width]
    root = _Node()
    for _ in range(max(1, settings.simulations // len(moves))):
        world = belief.sample(rng)
        order = Deck.shuffled(world, rng).cards
        seed = rng.getrandbits(32)
        for action in moves:
            _simulate(world.copy(record=False), root, random.Random(seed), settings,
                      Deck(order[:]), action, seat)
    # The heuristic's order breaks ties.
    return max(moves, key=lambda a: root.edges[a].total / root.edges[a].visits)


def _simulate(world: Table, root: _Node, rng: random.Random, settings: SearchSettings,
              deck: Deck, first: int, seat: int) -> None:
    edge = root.edges.get(first)
    if edge is None:
        edge = root.edges[first] = _Edge()
    world.apply_action(first, check=False)
    path = [(root, edge, seat)]
    node = edge.child
    while settings.tree:
        while world.to_move == CHANCE and world.phase != OVER:
            deck.draw(world, rng)
        if world.phase == OVER:
            break
        mover = world.to_move
        legal = world.legal_actions()
        if len(legal) == 1:
            world.apply_action(legal[0], check=False)
            continue
        moves = ordered_moves(world, mover, legal)
        width = math.ceil(settings.widen_c * (node.visits + 1) ** settings.widen_alpha)
        moves = moves[:max(1, width)]
        fresh = next((a for a in moves if a not in node.edges), None)
        for a in moves:
            edge = node.edges.get(a)
            if edge is not None:
                edge.avail += 1
        if fresh is not None:
            edge = node.edges[fresh] = _Edge()
            edge.avail = 1
            world.apply_action(fresh, check=False)
            path.append((node, edge, mover))
            break
        log_avail = {a: math.log(node.edges[a].avail) for a in moves}
        action = max(moves, key=lambda a: (
            node.edges[a].total / node.edges[a].visits
            + settings.uct_c * math.sqrt(log_avail[a] / node.edges[a].visits)))
        edge = node.edges[action]
        world.apply_action(action, check=False)
        path.append((node, edge, mover))
        node = edge.child
    rollout(world, settings.rollout_turns, rng, deck)
    value = evaluate(world, settings)
    for node, edge, mover in path:
        node.visits += 1
        edge.visits += 1
        edge.total += value[mover]


def lord_choice(state, seat: int, rng: random.Random, settings: SearchSettings = DEFAULT) -> int:
    """The agent's move at an OpenSpiel state of ``python_goat_lords``."""
    return search(state.table, seat, rng, settings)


def lord_bot(game: pyspiel.Game, seat: int, seed: int = 0,
             simulations: int = DEFAULT.simulations) -> Bot:
    """The information-set search agent, fair and seeded."""
    rng = random.Random(seed)
    settings = dataclasses.replace(DEFAULT, simulations=simulations)

    def act(state: pyspiel.State) -> int:
        return lord_choice(state, seat, rng, settings)

    return act


register_bot(BotSpec("lord", f"information-set search, {DEFAULT.simulations} simulations, worlds "
                     "that agree with play, greedy roll-outs (fair)", lord_bot, games=(GAME,)))
