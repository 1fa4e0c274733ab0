"""Advice at any 2-player Coup decision from ``best``: the mix the re-solving agent plays.

At 2 players ``best`` is the re-solving agent (:mod:`analysis.coup.agents.resolve`). The
advice is that agent, seated where the player to move sits, brought along the moves so
far exactly as it would have played them: its own earlier re-solves give the range its
play implies, the opponent is weighed as a moderate bluffer. At a turn action, challenge
or block it reads the re-solved mix at the hand held, each move's value inside the
re-solved turn, and the opponent's hands as the moves suggest; at the other choices
(which card to lose, keep or show) it gives the plain rule the agent plays. ``farol
advise coup``, the explorer and ``farol play``'s hint all answer from here, so one spot
gets one answer however it is asked. What the model leaves out is said first.
"""

from __future__ import annotations

import dataclasses
import time

import pyspiel

from analysis.coup.advice.endgame import seen_position
from analysis.coup.agents.resolve import ResolveAgent, ResolveOracle
from analysis.coup.model import two_card_hands_only
from analysis.coup.studies.local_best_response import stored_bound
from analysis.play.coaching import SpotAdvice, register_coach
from games.coup import cards as C
from games.coup import engine as E
from games.coup.positions import UNKNOWN, Position, endgame_game
from games.coup.view import action_name, hand_text, infoset_key
from games.errors import InvalidParameterError, InvalidPositionError

# The steps the re-solve advises; at the others (which card to lose, keep or show) every
# choice leaves the same cards and coins, which is all the re-solve's leaves value.
ADVISED = {E.S_ACTION: "a turn action", E.S_CHAL: "a challenge", E.S_BLOCK: "a block"}
LIMIT = ("Truncated model: only the rest of this turn is solved; the turns after it are "
         "valued by each player's cards and coins, not played out.")
RULE = ("best chooses here by a plain rule (lose the card least worth keeping, keep the "
        "best hand an exchange offers, show the worst card): the re-solve values only "
        "cards and coins, which every choice here leaves the same, so no move has a value")
AGENT = "resolve"  # the agent best stands for at 2 players, as the lower bounds name it


@dataclasses.dataclass(frozen=True)
class ResolveAdvice:
    """``best``'s advice at one decision: each legal move's probability and value
    (+1 a win, -1 a loss, a position after this turn by cards and coins; ``None`` where
    the agent chooses by rule), the opponent's hands as the moves so far suggest, who
    holds what, and the accuracy: what a best response gains inside the re-solved turn
    (exact) and the stored lower bound on the agent's loss in whole games."""

    deck: str
    setup: str
    player: int
    hand: str
    step: str
    moves: tuple[tuple[str, float, float | None], ...]
    opponent_hands: tuple[tuple[str, float], ...]
    worlds: int
    nodes: int
    iterations: int
    exploitability: float | None
    holds: tuple[str, ...] = ()
    rule: str | None = None
    lower_bound: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict:
        out = {"game": "coup", "deck": self.deck, "setup": self.setup,
               "player": self.player, "hand": self.hand, "step": self.step,
               "agent": "best", "holds": list(self.holds),
               "moves": [{"move": m, "probability": p, "value": v} for m, p, v in self.moves],
               "opponent_hands": dict(self.opponent_hands),
               "lower_bound": self.lower_bound, "seconds": self.seconds}
        if self.rule is not None:
            return out | {"source": "best's plain rule at this choice", "rule": self.rule}
        return out | {"truncated": LIMIT,
                      "source": "best: the re-solve of the rest of the turn over the "
                                "public beliefs",
                      "worlds": self.worlds, "positions": self.nodes,
                      "iterations": self.iterations,
                      "exploitability_in_turn": self.exploitability,
                      "exploitability_kind": "exact, inside the re-solved turn"}

    def text(self) -> str:
        lines = [] if self.rule is not None else [LIMIT]
        lines.append(f"Coup, 2 players ({self.deck} deck, {self.setup} setup), {self.step}: "
                     f"you are P{self.player} holding {self.hand}.")
        lines += [f"  {h}" for h in self.holds]
        lines.append("best plays:" if self.rule is None else f"best plays ({self.rule}):")
        width = max(len(m) for m, _, _ in self.moves)
        for move, p, v in sorted(self.moves, key=lambda x: -x[1]):
            value = "" if v is None else f"  value {v:+z.3f}"
            lines.append(f"  {move:<{width}}  {p:z6.1%}{value}")
        top = ", ".join(f"{h} {p:z.0%}" for h, p in self.opponent_hands[:6])
        lines.append(f"The opponent's face-down cards, as their moves suggest: {top}")
        if self.rule is None:
            lines.append(f"Values: +1 a win, -1 a loss, within this turn ({self.worlds:,} "
                         f"deals, {self.nodes:,} positions, {self.iterations} CFR+ "
                         f"iterations); a best response gains at most "
                         f"{self.exploitability / 2:z.4f} in win probability inside it "
                         "(exact).")
        lines.append(self.lower_bound)
        return "\n".join(lines)


def resolvable(state: pyspiel.State) -> bool:
    """Whether ``best`` advises ``state``: a decision of a 2-player game."""
    core = getattr(state, "core", None)
    return (core is not None and core.cfg.num_players == 2 and not core.over
            and core.cur in (0, 1))


def advise_state(state: pyspiel.State, show_hands: bool = False) -> ResolveAdvice:
    """``best``'s advice for the player to move at ``state`` (2 players), the agent
    brought along every move of the game so far. ``show_hands``: who holds what names
    the opponent's face-down cards too (as a history dealt them; the advice never reads
    them)."""
    start = time.perf_counter()
    core = state.core
    if core.cfg.num_players != 2:
        raise InvalidPositionError(f"best's advice is for 2-player Coup, not "
                                   f"{core.cfg.num_players} players (at 3 to 8 best is the "
                                   "search agent, which has no mix to advise from)")
    if core.over or core.cur == E.CHANCE:
        raise InvalidPositionError("no player decides here (the game is over, or a card "
                                   "is being drawn)")
    game = state.get_game()
    two_card_hands_only(game.config.numbers, "best's advice")
    player = core.cur
    oracle = ResolveOracle(ResolveAgent(game, player))
    walk = game.new_initial_state()
    for action in state.history():
        if walk.current_player() == player and len(walk.legal_actions()) > 1:
            oracle.mix(walk.core, player)  # its range, as its earlier choices imply
        walk.apply_action(action)
    return _advice(oracle, core, player, start, show_hands)


def _advice(oracle: ResolveOracle, core: E.Core, player: int, start: float,
            show_hands: bool) -> ResolveAdvice:
    """The advice once the agent is at ``core`` (``start``: when the asking began)."""
    oracle.agent.measure = True  # this spot's re-solve measures its own gap
    mix = oracle.mix(core, player)
    cfg = core.cfg
    key = infoset_key(core, player)
    holds = holdings(core, player, show_hands)
    bound = lower_bound(cfg.deck, cfg.setup)
    if core.queue[0][0] not in ADVISED or len(mix) == 1:
        belief = oracle.agent.belief
        belief.update(core)
        moves = tuple((action_name(core, player, a), p, None) for a, p in mix)
        return ResolveAdvice(cfg.deck, cfg.setup, player, hand_text(core.hands[player],
                             cfg.deck), "a choice by rule", moves,
                             _opponent(belief.worlds, key, player, cfg.deck), 0, 0, 0, None,
                             holds, RULE if len(mix) > 1 else "its only legal move", bound,
                             time.perf_counter() - start)
    solved = oracle.solved(core)
    belief = oracle.belief_at(core)
    value = solved.move_values[key]
    moves = tuple((action_name(core, player, a), p, value[a]) for a, p in mix)
    return ResolveAdvice(cfg.deck, cfg.setup, player, hand_text(core.hands[player], cfg.deck),
                         ADVISED[core.queue[0][0]], moves,
                         _opponent(belief.worlds, key, player, cfg.deck), solved.worlds,
                         solved.nodes, solved.iterations, solved.exploitability, holds,
                         None, bound, time.perf_counter() - start)


def _opponent(worlds, key, player: int, deck: str) -> tuple[tuple[str, float], ...]:
    """The opponent's face-down hands over the worlds that match ``player``'s cards."""
    out: dict[str, float] = {}
    for w, world in worlds:
        if infoset_key(world, player) == key:
            name = hand_text(world.hands[1 - player], deck)
            out[name] = out.get(name, 0.0) + w
    total = sum(out.values())
    if total <= 0:
        raise InvalidPositionError("no deal the beliefs weigh matches your cards")
    return tuple(sorted(((h, w / total) for h, w in out.items()), key=lambda x: (-x[1], x[0])))


def holdings(core: E.Core, player: int, show_hands: bool = False) -> tuple[str, ...]:
    """Who holds what, in words: each player's face-down and lost cards and coins (the
    opponent's face-down cards only counted, unless ``show_hands``)."""
    deck = core.cfg.deck
    out = []
    for p in (0, 1):
        who = "you" if p == player else "the opponent"
        down = hand_text(core.hands[p], deck)
        if p != player:
            down = (f"{down} (as the moves dealt them; the advice does not read them)"
                    if show_hands else f"{len(core.hands[p])} hidden from you")
        lost = hand_text(core.revealed[p], deck)
        out.append(f"P{p} ({who}): face down {down}; lost {lost}; {core.coins[p]} coin{'' if core.coins[p] == 1 else 's'}")
    return tuple(out)


def lower_bound(deck: str, setup: str) -> str:
    """How much ``best`` loses to a best response in whole games, in a sentence: the
    stored lower bound (:func:`~analysis.coup.studies.local_best_response.stored_bound`),
    or that it is not measured."""
    bound = stored_bound(AGENT, deck, setup)
    unmeasured = "How much best loses to a best response in whole games is not measured"
    if bound is None:
        return unmeasured + "."
    if not bound["shown"]:
        return f"{unmeasured}: {bound['text']}."
    return bound["text"][0].upper() + bound["text"][1:] + "."


# ---- coaching in farol play ------------------------------------------------------
COACH_NOTE = ("best's re-solve of the rest of the turn over the public beliefs; each "
              "move's value inside this turn, +1 a win, -1 a loss, later turns valued by "
              "cards and coins")


def best_coach(game: pyspiel.Game):
    """``farol play`` coaching for 2-player Coup from ``best`` (``None`` at other
    tables): at a turn action, challenge or block, its mix at your hand and each move's
    value; at the choices it makes by rule, no hint (nothing to value)."""
    cfg = getattr(game, "config", None)
    if cfg is None or cfg.num_players != 2 or cfg.numbers.hand_size != 2:
        return None

    def coach(state: pyspiel.State):
        if not resolvable(state):
            return None
        advice = advise_state(state)
        if advice.rule is not None:
            return None
        player = state.current_player()
        by_name = {m: (p, v) for m, p, v in advice.moves}
        return SpotAdvice(tuple((a, *by_name[action_name(state.core, player, a)])
                                for a in state.legal_actions()),
                          advice.exploitability or 0.0,
                          "what a best response gains inside the re-solved turn, exact")

    coach.note = COACH_NOTE
    coach.silent = "No hint at this choice: " + RULE + "."
    return coach


register_coach("python_coup", best_coach)


# ---- the position form ------------------------------------------------------------
def position_state(position: str, deck: str) -> pyspiel.State:
    """A 2-player position as the start of a game: both players' face-down cards dealt
    unseen by the other (the beliefs weigh every deal of the unseen cards), the player to
    move holding the cards the position names.

    Raises
    ------
    InvalidPositionError, UnknownCardError
        As :func:`~analysis.coup.advice.endgame.seen_position`.
    """
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {deck!r}")
    pos = seen_position(position, deck)
    me = pos.to_move
    hidden = Position(tuple((UNKNOWN,) * len(h) for h in pos.hidden), pos.revealed,
                      pos.coins, pos.to_move)
    game = endgame_game(hidden, deck=deck)
    state = game.new_initial_state()
    mine = list(pos.hidden[me])
    left = list(state.core.court)
    for c in mine:
        left[c] -= 1
    while state.is_chance_node():
        seat = state.core.queue[0][1]
        if seat == me:
            card = mine.pop(0)
        else:
            card = next(c for c in range(C.NUM_CHARACTERS) if left[c] > 0)
            left[card] -= 1
        action = next(a for a, _ in state.chance_outcomes()
                      if state.action_to_string(a) == f"Draw {C.card_name(card, deck)}")
        state.apply_action(action)
    return state
