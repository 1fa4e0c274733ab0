"""Advice at any 2-player Coup decision from the re-solve over the public beliefs.

Given the moves so far, the public beliefs weigh every deal they allow (each player
modelled as a moderate bluffer: :data:`~analysis.coup.agents.resolve.OPPONENT`);
the rest of the turn is re-solved over them (:mod:`analysis.coup.solvers.belief_resolve`)
and the player to move reads its mix and each move's value at its own hand, with the
opponent's hand as the moves suggest. It answers in about a second with nothing built
first. What it leaves out is said first: the turns after this one are not solved, only
valued by cards and coins.
"""

from __future__ import annotations

import dataclasses

import pyspiel

from analysis.coup.agents.resolve import OPPONENT
from analysis.coup.solvers.belief_resolve import resolve
from analysis.coup.solvers.beliefs import PublicBelief
from games.coup import engine as E
from games.coup.view import action_name, hand_text, infoset_key
from games.errors import InvalidPositionError

# The steps the re-solve advises; at the others (which card to lose, keep or show) every
# choice leaves the same cards and coins, which is all the re-solve's leaves value.
ADVISED = {E.S_ACTION: "a turn action", E.S_CHAL: "a challenge", E.S_BLOCK: "a block"}
LIMIT = ("Truncated model: only the rest of this turn is solved; the turns after it are "
         "valued by each player's cards and coins, not played out.")


@dataclasses.dataclass(frozen=True)
class ResolveAdvice:
    """The re-solve's advice at one decision: each legal move's probability and value
    (+1 a win, -1 a loss, a position after this turn by cards and coins), the
    opponent's hands as the moves so far suggest, and the re-solve's own accuracy
    (what a best response gains inside it, exact)."""

    deck: str
    setup: str
    player: int
    hand: str
    step: str
    moves: tuple[tuple[str, float, float], ...]
    opponent_hands: tuple[tuple[str, float], ...]
    worlds: int
    nodes: int
    iterations: int
    exploitability: float

    def to_json(self) -> dict:
        return {"game": "coup", "deck": self.deck, "setup": self.setup,
                "player": self.player, "hand": self.hand, "step": self.step,
                "truncated": LIMIT,
                "moves": [{"move": m, "probability": p, "value": v} for m, p, v in self.moves],
                "opponent_hands": dict(self.opponent_hands),
                "source": "re-solve of the rest of the turn over the public beliefs",
                "worlds": self.worlds, "positions": self.nodes,
                "iterations": self.iterations,
                "exploitability_in_turn": self.exploitability,
                "exploitability_kind": "exact, inside the re-solved turn"}

    def text(self) -> str:
        lines = [LIMIT,
                 f"Coup, 2 players ({self.deck} deck, {self.setup} setup), {self.step}: "
                 f"you are P{self.player} holding {self.hand}. The re-solve plays:"]
        width = max(len(m) for m, _, _ in self.moves)
        for move, p, v in sorted(self.moves, key=lambda x: -x[1]):
            lines.append(f"  {move:<{width}}  {p:6.1%}  value {v:+.3f}")
        top = ", ".join(f"{h} {p:.0%}" for h, p in self.opponent_hands[:6])
        lines.append(f"The opponent's face-down cards, as their moves suggest: {top}")
        lines.append(f"Values: +1 a win, -1 a loss, within this turn ({self.worlds:,} deals, "
                     f"{self.nodes:,} positions, {self.iterations} CFR+ iterations); a best "
                     f"response gains at most {self.exploitability:.4f} inside it.")
        return "\n".join(lines)


def resolvable(state: pyspiel.State) -> bool:
    """Whether the re-solve advises ``state``: a 2-player turn action, challenge or block."""
    core = state.core
    return (core.cfg.num_players == 2 and not core.over and core.cur in (0, 1)
            and core.queue[0][0] in ADVISED)


def advise_state(state: pyspiel.State) -> ResolveAdvice:
    """The re-solve's advice for the player to move at ``state`` (2 players)."""
    core = state.core
    if core.cfg.num_players != 2:
        raise InvalidPositionError("the re-solve advises 2-player games")
    if core.over or core.cur == E.CHANCE:
        raise InvalidPositionError("no player decides here (the game is over, or a card "
                                   "is being drawn)")
    step = core.queue[0][0]
    if step not in ADVISED:
        raise InvalidPositionError(
            "the re-solve advises turn actions, challenges and blocks; at this choice "
            "(a card to lose, keep, show or pick) every option leaves the same cards and "
            "coins, which is all it can weigh")
    player = core.cur
    belief = PublicBelief(core.cfg, (OPPONENT, OPPONENT))
    belief.update(core)
    solved = resolve(belief.worlds, measure=True)
    key = infoset_key(core, player)
    if key not in solved.mixes:
        raise InvalidPositionError("no deal the re-solve weighs matches your cards")
    mix, value = solved.mixes[key], solved.move_values[key]
    moves = tuple((action_name(core, player, a), mix[a], value[a]) for a in mix)
    opponent: dict[str, float] = {}
    total = 0.0
    for w, world in belief.worlds:
        if infoset_key(world, player) != key:
            continue
        name = hand_text(world.hands[1 - player], core.cfg.deck)
        opponent[name] = opponent.get(name, 0.0) + w
        total += w
    hands = tuple(sorted(((h, w / total) for h, w in opponent.items()), key=lambda x: -x[1]))
    return ResolveAdvice(core.cfg.deck, core.cfg.setup, player,
                         hand_text(core.hands[player], core.cfg.deck), ADVISED[step], moves,
                         hands, solved.worlds, solved.nodes, solved.iterations,
                         solved.exploitability)



