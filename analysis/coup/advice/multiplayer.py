"""Advice at any 3-6 player Coup decision: each move's chance of winning, played out.

No equilibrium is meaningful with three players or more, so the advice says how each
move does against opponents who play like ``best``: from the spot as the player to move
sees it, the cards it cannot see are dealt many times from beliefs weighed by what each
player has claimed, blocked, declined and shown (:mod:`analysis.coup.agents.hand_beliefs`),
and each legal move is played out to the end of the game in every deal, every player
then playing as ``best``'s look-ahead plays them (the search agents' quick rule agent,
bluffing, challenging and block-bluffing at the rates each player has shown so far,
the player to move at ``best``'s own cautious rates). Every move is tried in the same
deals with the same random streams, so their differences are not the deals' luck.

A move's value is the share of those games its player wins (a game stopped at the turn
cap shares the win among all), with a 95% Student-t interval over the deals. The best
move is the one with the highest value; every move whose interval overlaps the best's
is called a tie with it. Turn actions are played out by compiled code
(:mod:`analysis.coup.agents.rollout_sim`); the rest of a turn after a challenge, block or
any other choice on the engine, then on by compiled code from the next turn.

``farol advise coup --players N``, the explorer and ``farol play``'s hint and review at
3-6 players all answer from here.
"""

from __future__ import annotations

import dataclasses
import random
import time

import numpy as np
import pyspiel

from analysis.coup.advice.resolve import best_coach
from analysis.coup.agents import fast
from analysis.coup.agents import hand_beliefs as H
from analysis.coup.agents import rollout_sim as sim
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.search import Memory, SearchAgent
from analysis.play.coaching import register_coach
from analysis.statistics.intervals import mean_interval
from games.coup import cards as C
from games.coup import engine as E
from games.coup.positions import UNKNOWN, endgame_game, parse_position
from games.coup.view import action_name, hand_text
from games.errors import InvalidParameterError, InvalidPositionError

PLAYERS = (3, 4, 5, 6)  # the tables this advice covers (2 players: the re-solve)
ROLLOUTS = 1500  # deals each move is played out in
SEED = 0
NEVER = 10_000  # a turn the roll-outs never reach before the game's own cap
STEPS = {E.S_ACTION: "a turn action", E.S_CHAL: "a challenge", E.S_BLOCK: "a block",
         E.S_LOSE: "which card to lose", E.S_KEEP: "which cards to keep",
         E.S_SHOW: "which card to show", E.S_IRETURN: "which card to return",
         E.S_IDECIDE: "whether to force a swap"}
MODEL = ("Each move's chance of winning against opponents who play like best: the hidden "
         "cards dealt from beliefs weighed by what each player has claimed and shown, each "
         "move played out to the end of the game with every player playing as best's "
         "look-ahead plays them (its quick rules, at the bluffing and challenging rates "
         "each player has shown). No equilibrium is meaningful at 3 or more players.")


@dataclasses.dataclass(frozen=True)
class MoveValue:
    """A move's chance of winning with its 95% interval; ``tie``: its interval overlaps
    the best move's (the best move itself counts as a tie)."""

    move: str
    action: int
    win: float
    low: float
    high: float
    tie: bool


@dataclasses.dataclass(frozen=True)
class MultiAdvice:
    """The advice at one decision of a 3-6 player game (see the module's docstring)."""

    players: int
    deck: str
    player: int
    hand: str
    step: str
    moves: tuple[MoveValue, ...]  # best first
    opponents: tuple[tuple[int, tuple[tuple[str, float, float, float], ...]], ...]
    evidence: tuple[str, ...]
    holds: tuple[str, ...]
    rollouts: int
    effective_deals: float
    seed: int
    seconds: float

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def to_json(self) -> dict:
        return {"game": "coup", "players": self.players, "deck": self.deck,
                "player": self.player, "hand": self.hand, "step": self.step,
                "agent": "best", "against": "opponents who play like best",
                "model": MODEL,
                "moves": [{"move": m.move, "win": m.win, "ci95": [m.low, m.high],
                           "tie_with_best": m.tie} for m in self.moves],
                "best_moves": [m.move for m in self.moves if m.tie],
                "opponent_hands": {f"P{p}": [{"hand": h, "probability": q, "ci95": [lo, hi]}
                                             for h, q, lo, hi in hands]
                                   for p, hands in self.opponents},
                "evidence": list(self.evidence), "holds": list(self.holds),
                "rollouts_per_move": self.rollouts,
                "effective_prior_deals": round(self.effective_deals, 1),
                "seed": self.seed, "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        lines = [f"Coup, {self.players} players ({self.deck} deck), {self.step}: you are "
                 f"P{self.player} holding {self.hand}."]
        lines += [f"  {h}" for h in self.holds]
        lines += [f"  {e}" for e in self.evidence]
        ties = [m.move for m in self.moves if m.tie]
        head = (f"Best: {ties[0]}" if len(ties) == 1 else
                f"Best, tied within their intervals: {', '.join(ties)}")
        lines.append(head + ". Each move's chance of winning [95% interval]:")
        width = max(len(m.move) for m in self.moves)
        for m in self.moves:
            mark = "  tie" if m.tie and len(ties) > 1 else ""
            lines.append(f"  {m.move:<{width}}  {100 * m.win:z5.1f}% [{100 * m.low:z.1f}, "
                         f"{100 * m.high:z.1f}]{mark}")
        lines.append("Each opponent's face-down cards, as their moves suggest:")
        for p, hands in self.opponents:
            top = ", ".join(f"{h} {100 * q:z.0f}%" for h, q, _, _ in hands[:5])
            lines.append(f"  P{p}: {top}")
        lines.append(f"{MODEL} {self.rollouts:,} games a move (the same deals for every "
                     f"move); the hands' chances from {self.effective_deals:z,.0f} effective "
                     f"deals; {self.seconds:z.1f} s.")
        return "\n".join(lines)


def check_spot(state: pyspiel.State) -> None:
    """Refuse, in one line, a spot this advice does not cover."""
    core = getattr(state, "core", None)
    if core is None:
        raise InvalidParameterError("this advice is for Coup")
    n = core.cfg.num_players
    if n not in PLAYERS:
        raise InvalidParameterError(f"advice at {n} players: it covers 2 to 6 players")
    if core.cfg.numbers.hand_size != 2:
        raise InvalidParameterError("advice at 3-6 players plays hands of two cards")
    if core.over or core.cur == E.CHANCE:
        raise InvalidPositionError("no player decides here (the game is over, or a card "
                                   "is being drawn)")


def advise_multi(state: pyspiel.State, rollouts: int = ROLLOUTS, seed: int = SEED,
                 show_hands: bool = False) -> MultiAdvice:
    """The advice for the player to move at ``state`` (3-6 players)."""
    start = time.perf_counter()
    check_spot(state)
    core = state.core
    player = core.cur
    memory = Memory(len(core.hands), player)
    memory.read(core)
    view = View.of_core(core, player)
    rng = np.random.default_rng([seed, 7])
    deals = H.weigh(view, memory, core, rng)
    picks = H.sample(deals, rollouts, rng)
    seeds = rng.integers(1, 2**31 - 1, size=rollouts)
    rates = [SearchAgent.SELF_RATES if p == player else memory.rates(p)
             for p in range(len(core.hands))]
    legal = state.legal_actions(player)
    outcomes = play_out(core, player, legal, deals, picks, seeds, rates)
    values = []
    for a, out in zip(legal, outcomes, strict=True):
        mean, lo, hi = mean_interval(out)
        values.append((action_name(core, player, a), a, mean, lo, hi))
    values.sort(key=lambda v: (-v[2], v[1]))
    top_low = values[0][3]
    moves = tuple(MoveValue(name, a, w, lo, hi, hi >= top_low) for name, a, w, lo, hi in values)
    deck = core.cfg.deck
    opponents = tuple((p, tuple((hand_text(h, deck), q, lo, hi)
                                for h, q, lo, hi in H.marginals(deals, p)))
                      for p in deals.others)
    return MultiAdvice(len(core.hands), deck, player, hand_text(core.hands[player], deck),
                       STEPS.get(core.queue[0][0], "a choice"), moves, opponents,
                       evidence(memory, core, player), holdings(core, player, show_hands),
                       rollouts, deals.effective, seed, time.perf_counter() - start)


def play_out(core: E.Core, player: int, legal: list[int], deals: H.Deals, picks: np.ndarray,
             seeds: np.ndarray, rates: list) -> list[list[float]]:
    """Each legal move's outcome (1 a win, 0 a loss, 1/n at the cap) in every picked deal."""
    rules = sim.rules_of(core.cfg, player)  # the game's own turn cap among them
    rate_array = np.array(rates, dtype=float)
    out: dict[int, list[float]] = {}
    turn_actions = [a for a in legal if a < C.A_EXAMINE] if core.queue[0][0] == E.S_ACTION else []
    if turn_actions:
        _, coins, _, up = sim.position(core)
        kinds, targets = zip(*(C.decode_turn_action(m) for m in turn_actions), strict=True)
        scores = sim.evaluate(deals.hands[picks], deals.courts[picks], coins, up, rate_array,
                              rules, core.actor, core.turn, NEVER,
                              np.array(kinds, dtype=np.int64), np.array(targets, dtype=np.int64),
                              seeds.astype(np.int64))
        out = {a: [float(x) for x in scores[i]] for i, a in enumerate(turn_actions)}
    for a in legal:
        if a in out:
            continue
        values = []
        for d, s in zip(picks, seeds, strict=True):
            world = H.world(core, deals, int(d))
            world.apply(a)
            values.append(finish(world, player, rates, rate_array, rules, int(s)))
        out[a] = values
    return [out[a] for a in legal]


def finish(world: E.Core, player: int, rates: list, rate_array: np.ndarray,
           rules: np.ndarray, seed: int) -> float:
    """``world`` played on: the rest of this turn on the engine, then compiled turns to
    the end; ``player``'s outcome."""
    fast.rollout(world, player, world.turn + 1, rates, random.Random(seed))
    if world.over:  # a winner, or the turn cap: the win shared by all
        return 1.0 if world.winner == player else (0.0 if world.winner >= 0 else
                                                   1.0 / len(world.hands))
    hands, coins, court, up = sim.position(world)
    # Every argument given, as evaluate gives them: one compiled version serves both.
    return float(sim.play_turns(hands, coins, court, up, rate_array, rules, world.actor,
                                world.turn, NEVER, seed + 1, -1, -1))


def evidence(memory: Memory, core: E.Core, player: int) -> tuple[str, ...]:
    """What each other player has claimed, declined and been caught without, in words."""
    deck = core.cfg.deck
    name = lambda c: C.card_name(c, deck)  # noqa: E731
    out = []
    for p in range(len(core.hands)):
        if p == player or not core.hands[p]:
            continue
        said = []
        if memory.claims[p]:
            said.append("claims " + ", ".join(name(c) for c in sorted(memory.claims[p])))
        if memory.declined[p]:
            said.append("did not block with " + ", ".join(name(c) for c in sorted(memory.declined[p])))
        if memory.lacks[p]:
            said.append("was caught without " + ", ".join(name(c) for c in sorted(memory.lacks[p])))
        if memory.proven[p] or memory.caught[p]:
            said.append(f"shown its claim {memory.proven[p]} and caught bluffing "
                        f"{memory.caught[p]} time(s) when challenged")
        out.append(f"P{p} {'; '.join(said)}" if said else f"P{p} has claimed nothing "
                   "since its cards last changed")
    return tuple(out)


def holdings(core: E.Core, player: int, show_hands: bool = False) -> tuple[str, ...]:
    """Each player's face-down and lost cards and coins (others' face-down cards only
    counted unless ``show_hands``)."""
    deck = core.cfg.deck
    out = []
    for p in range(len(core.hands)):
        down = hand_text(core.hands[p], deck)
        if p != player:
            down = (f"{down} (as the moves dealt them; the advice does not read them)"
                    if show_hands and core.hands[p] else f"{len(core.hands[p])} hidden")
        who = " (you)" if p == player else ""
        coins = core.coins[p]
        out.append(f"P{p}{who}: face down {down}; lost {hand_text(core.revealed[p], deck)}; "
                   f"{coins} coin{'' if coins == 1 else 's'}")
    return tuple(out)


def position_state(position: str, deck: str) -> pyspiel.State:
    """A 3-6 player position as the start of a game: the player to move holding the
    cards it names, the others' face-down cards (written ``?``) dealt unseen."""
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {deck!r}")
    pos = parse_position(position, deck)
    if pos.num_players not in PLAYERS:
        raise InvalidPositionError(f"position has {pos.num_players} players; advice covers "
                                   "2 to 6 players")
    me = pos.to_move
    if UNKNOWN in pos.hidden[me]:
        raise InvalidPositionError(f"position: write your own face-down cards (player {me}'s) "
                                   "by name, not '?'")
    for seat, hidden in enumerate(pos.hidden):
        if seat != me and any(c != UNKNOWN for c in hidden):
            raise InvalidPositionError(f"position: player {seat}'s face-down cards are hidden "
                                       "from you; write them as '?'")
    state = endgame_game(pos, deck=deck).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# ---- coaching in farol play ------------------------------------------------------
COACH_NOTE = ("each move's chance of winning [95% interval], played out against opponents "
              "who play like best; moves whose intervals overlap the best's are ties")


def multi_coach(game: pyspiel.Game):
    """``farol play`` coaching at 3-6 players: each move's chance of winning with its
    interval (the review calls a move a mistake only where its interval lies below the
    best's)."""
    cfg = getattr(game, "config", None)
    if cfg is None or cfg.num_players not in PLAYERS or cfg.numbers.hand_size != 2:
        return None

    def coach(state: pyspiel.State):
        core = state.core
        if core.over or core.cur == E.CHANCE:
            return None
        advice = advise_multi(state, ROLLOUTS)
        best = advice.best.action
        return [(m.action, 1.0 if m.action == best else 0.0, m.win, (m.low, m.high))
                for m in advice.moves]

    coach.note = COACH_NOTE
    return coach


def _chain(two_player):
    """The coach of every table: the 2-player re-solve's, else this one."""
    def factory(game: pyspiel.Game):
        return two_player(game) or multi_coach(game)
    return factory


def register() -> None:
    """Let ``farol play`` coach 3-6 player Coup too (the 2-player coach first; importing
    :mod:`analysis.coup.advice.resolve` above registered it, and this replaces it)."""
    register_coach("python_coup", _chain(best_coach))


register()
