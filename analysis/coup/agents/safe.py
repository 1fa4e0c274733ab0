"""``safe``: the re-solving agent that punishes an opponent's habits, risking only what the
opponent's mistakes have given it so far (safe opponent exploitation, after Ganzfried &
Sandholm, "Safe opponent exploitation", 2015).

The plain re-solving agent (:mod:`.resolve`) plays the mix it finds for the rest of the
turn whoever sits opposite. This agent also asks the search agent (:mod:`.search`) for
the move that does best against the opponent as seen in this game so far (its bluffs
caught, claims proven, challenges made and declined). That move is played when its
*risk* fits the *budget*; else the re-solved mix is played, as the plain agent would:

- the risk of a move is what it gives up inside the re-solved turn against an opponent
  who plays the re-solved strategy: the mix's value less the move's (zero for a move the
  mix plays);
- the budget is the sum of the opponent's *gifts* so far, less the risks taken (a move
  whose risk exceeds it is played with the chance the budget pays for): at each
  of the opponent's decisions, the turn is re-solved from the same public beliefs and
  the gift is what the move it made gives up against the mix it could have played, in
  expectation over the hands the public beliefs give it.

So against an opponent who plays the re-solved strategy the agent risks nothing beyond
what that opponent gave, and against one with habits it moves toward punishing them as
fast as they pay for it. The values are the re-solves' (each turn's cards and coins);
the budget is kept for the game in progress.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel

from analysis.coup.agents.resolve import SOLVED, ResolveAgent, _public
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.search import SEARCHED, SearchAgent
from analysis.coup.model import GAME
from analysis.coup.solvers.belief_resolve import Resolved, resolve
from analysis.play.bots import BotSpec, register_bot
from games.coup import engine as E
from games.coup.view import infoset_key


class SafeAgent(ResolveAgent):
    """The re-solving agent bound to ``seat`` that plays the search agent's exploiting
    move where the opponent's gifts so far pay for its risk (the module's docstring)."""

    def __init__(self, game: pyspiel.Game, seat: int, seed: int = 0, **settings):
        super().__init__(game, seat, seed, **settings)
        self.allowance = 0.0  # the gifts less the risks taken
        self.gifts = 0.0  # the opponent's gifts so far
        self.risked = 0.0  # the risks taken so far
        self.exploits = 0  # decisions where the search agent's move was played
        self._walk: pyspiel.State | None = None  # the game replayed up to what was read

    def __call__(self, state: pyspiel.State) -> int:
        self._read_opponent(state)
        return super().__call__(state)

    def search(self, view: View, core: E.Core, legal: Sequence[int]) -> int:
        solved = self.resolved(core)
        key = infoset_key(core, self.seat)
        mix, values = solved.mixes[key], solved.move_values.get(key, {})
        exploit = SearchAgent.search(self, view, core, legal)
        risk = _risk(mix, values, exploit)
        # The exploiting move with the chance the allowance pays for: all of its risk if
        # it fits, else that share of it (the expected risk spent is the allowance).
        share = 0.0 if risk is None else 1.0 if risk <= self.allowance else \
            self.allowance / risk
        if share > 0.0:
            self.allowance = max(0.0, self.allowance - share * risk)
            self.risked += share * risk
            if self.rng.random() < share:
                self.exploits += 1
                return exploit
        return self.rng.choices(list(mix), weights=list(mix.values()))[0]

    # ---- the opponent's gifts ------------------------------------------------------
    def _read_opponent(self, state: pyspiel.State) -> None:
        """Count the gifts of the opponent's decisions since the last call: the game is
        replayed move by move; at each decision of the opponent's with a choice among
        the re-solved ones, the turn is re-solved from the public beliefs there."""
        history = state.history()
        walk = self._walk
        if walk is None or list(walk.history()) != history[:len(walk.history())]:
            walk = state.get_game().new_initial_state()  # a new game: start afresh
            self.allowance = self.gifts = self.risked = 0.0
            self.exploits = 0
        for action in history[len(walk.history()):]:
            if not walk.is_chance_node() and walk.current_player() == 1 - self.seat:
                self._gift(walk.core, action)
            walk.apply_action(action)
        self._walk = walk.clone()

    def _gift(self, core: E.Core, taken: int) -> None:
        if len(core.legal_actions()) < 2 or View.of_core(core, core.cur).step[0] not in SEARCHED:
            return
        solved = self._opponent_resolved(core)
        total = gift = 0.0
        for weight, world in self.belief.worlds:
            key = infoset_key(world, core.cur)
            mix, values = solved.mixes.get(key), solved.move_values.get(key)
            if mix is None or values is None or taken not in values:
                continue
            lost = _risk(mix, values, taken)
            total += weight
            gift += weight * max(0.0, lost if lost is not None else 0.0)
        if total > 0.0:
            self.gifts += gift / total
            self.allowance += gift / total

    def _opponent_resolved(self, core: E.Core) -> Resolved:
        """The turn re-solved at the opponent's decision, from the agent's public
        beliefs brought up to it (kept by public history, as the agent's own are)."""
        self.belief.update(core)
        key = ("opponent", core.cfg, self.seat, self.turns, self.horizon, self.iterations,
               self.leaf_name, _public(core))
        solved = SOLVED.get(key)
        if solved is None:
            solved = resolve(self.belief.worlds, self.turns, self.horizon, self.iterations,
                             self.leaf)
            SOLVED.put(key, solved)
        return solved


def _risk(mix: dict[int, float], values: dict[int, float], move: int) -> float | None:
    """What ``move`` gives up against the mix's value (``None`` without its value)."""
    if move not in values:
        return None
    expected = sum(p * values[a] for a, p in mix.items() if a in values)
    return max(0.0, expected - values[move])


def safe_bot(game: pyspiel.Game, seat: int, seed: int = 0) -> SafeAgent:
    """The re-solving agent that punishes habits safely (2 players only)."""
    return SafeAgent(game, seat, seed)


register_bot(BotSpec("safe", "2 players: the re-solving agent that plays the move punishing "
                     "the opponent's habits seen so far, only as far as the opponent's "
                     "mistakes so far pay for its risk", safe_bot, games=(GAME,)))
