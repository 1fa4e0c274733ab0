"""``farol advise coup`` at an endgame position: the equilibrium mix and its value.

The position string (:mod:`games.coup.positions`) names the mover's own face-down cards
and ``?`` for everyone else's; the advice reads the endgame in which every face-down card
is dealt by chance, solved (:mod:`analysis.coup.solvers.position_endgames`), and prints
the mover's equilibrium mix with their outcome probabilities. By default the cap is
priced by Markov guarantees, as the brackets price it (the mix secures the mover at least
the bracket's end); ``cap="draw"`` scores it 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from analysis.coup import guarantees as GU
from analysis.coup.solvers.position_endgames import (
    CAP_PRICINGS,
    DEFAULT_CAP,
    SOLVER,
    TARGET,
    priced_endgame,
    solved_endgame,
)
from games.coup import cards as C
from games.coup import engine as E
from games.coup.positions import UNKNOWN, Position, format_position, parse_position
from games.errors import InvalidParameterError, InvalidPositionError


def _deal_states(game: pyspiel.Game):
    """(probability, state) at the first decision after the opening deals."""
    out = []
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, prob = stack.pop()
        if state.is_chance_node():
            stack += [(state.child(a), prob * p) for a, p in state.chance_outcomes()]
        else:
            out.append((prob, state))
    return out


def _outcomes(state: pyspiel.State, table: dict, player: int, guarantees=None) -> dict:
    """P(win), P(draw), P(lose) of ``player`` from ``state`` under the solved profile
    (``draw``: the game reaches the turn cap); with ``guarantees``, ``cap_win`` adds up
    the probability that ``player``'s Markov policy still wins from each cap position."""
    out = {"win": 0.0, "draw": 0.0, "lose": 0.0, "cap_win": 0.0}
    stack = [(state, 1.0)]
    while stack:
        s, reach = stack.pop()
        if s.is_terminal():
            r = s.returns()[player]
            out["win" if r > 0 else "lose" if r < 0 else "draw"] += reach
            if r == 0 and guarantees is not None:
                w = guarantees.of(GU.continuation(s.core))
                out["cap_win"] += reach * (0.0 if w is None else w[player])
        elif s.is_chance_node():
            stack += [(s.child(a), reach * p) for a, p in s.chance_outcomes()]
        else:
            actions, probs = table[s.information_state_string(s.current_player())]
            stack += [(s.child(int(a)), reach * p) for a, p in zip(actions, probs, strict=True)
                      if p > 0]
    return out


@dataclass(frozen=True)
class Advice:
    """The equilibrium mix and value of the player to move at a position.

    ``win``, ``lose`` and ``draw`` are the chances, given the mover's cards and the solved
    profile, of winning or losing within the cap and of reaching it. ``value`` is
    P(win) - P(lose) with the cap scoring 0 (``cap_pricing="draw"``) or the mover's
    guarantee ``2 W - 1`` (``"markov"``), where ``cap_win`` adds up ``W`` over the cap
    positions reached and ``bracket`` is the mover's uncapped win probability before
    the cards are dealt (both ends by exact best response; ``None`` with ``"draw"``).
    """

    position: str
    deck: str
    turn_cap: int
    player: int
    hand: tuple[str, ...]
    mix: tuple[tuple[str, float], ...]
    value: float
    win: float
    draw: float
    lose: float
    iterations: int
    exploitability: float
    nodes: int
    cap_pricing: str = "draw"
    cap_win: float = 0.0
    bracket: tuple[float, float] | None = None
    actions: tuple[tuple[str, float, float], ...] = ()
    opponent_hand: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict:
        out = {
            "game": "coup", "position": self.position, "deck": self.deck,
            "turn_cap": self.turn_cap, "cap_pricing": self.cap_pricing,
            "player": self.player, "hand": list(self.hand),
            "mix": [{"action": a, "probability": p} for a, p in self.mix],
            "actions": [{"action": a, "probability": p, "value": v}
                        for a, p, v in self.actions],
            "opponent_hand": dict(self.opponent_hand),
            "source": "exact solve of the endgame capped at "
                      + ("1 turn" if self.turn_cap == 1 else f"{self.turn_cap} turns"),
            "value": self.value, "win": self.win, "draw": self.draw, "lose": self.lose,
            "solver": SOLVER, "iterations": self.iterations,
            "exploitability": self.exploitability, "nodes": self.nodes,
        }
        if self.bracket is not None:
            out |= {"cap_win": self.cap_win, "uncapped_win": list(self.bracket)}
        return out

    def text(self) -> str:
        priced = (", the cap priced by Markov guarantees" if self.cap_pricing == "markov"
                  else ", the cap scored as a draw")
        lines = [f"Coup endgame {self.position} ({self.deck} deck, turn cap "
                 f"{self.turn_cap}{priced})",
                 f"You are P{self.player} holding {' + '.join(self.hand)}. Play:"]
        width = max(len(a) for a, _ in self.mix)
        worth = {a: v for a, _, v in self.actions}
        lines += [f"  {a:<{width}}  {p:z6.1%}" + (f"  value {worth[a]:+z.3f}" if a in worth else "")
                  for a, p in self.mix if p >= 0.0005]
        others = [(a, v) for a, p, v in self.actions if p < 0.0005]
        if others:
            lines.append("  other moves: " + ", ".join(f"{a} {v:+z.3f}" for a, v in
                                                       sorted(others, key=lambda x: -x[1])))
        if self.bracket is None:
            lines.append(f"Value for you: {self.value:+z.3f} (win {self.win:z.1%}, draw at the "
                         f"cap {self.draw:z.1%}, lose {self.lose:z.1%})")
        else:
            lines.append(f"Value for you: {self.value:+z.3f} (a game reaching the cap counted "
                         "at what your Markov policy still secures there)")
            turns = "1 turn" if self.turn_cap == 1 else f"{self.turn_cap} turns"
            lines.append(f"Within {turns}: win {self.win:z.1%}, lose "
                         f"{self.lose:z.1%}, reach the cap {self.draw:z.1%} (from there your "
                         f"Markov policy still wins at least {self.cap_win:z.1%} of all games)")
            lo, hi = self.bracket
            lines.append(f"Without a cap, before the cards are dealt, the player to move wins "
                         f"with probability {lo:z.3f}-{hi:z.3f} (rigorous; endless play counts "
                         "as half a win)")
        lines.append(f"Solver: {SOLVER}, {self.iterations} iterations, exploitability "
                     f"{self.exploitability:z.1e} (whole endgame, {self.nodes:,} nodes)")
        return "\n".join(lines)


def blueprint_hint(cfg: E.Config) -> str:
    """For a 2-player spot this solve refuses but the blueprint advises: the command
    that builds that blueprint."""
    return (f"; the blueprint advises any decision once built: farol coup blueprint build "
            f"--deck {cfg.deck} --setups {cfg.setup}")


def seen_position(position_text: str, deck: str) -> Position:
    """A 2-player position as the player to move sees it: their own face-down cards by
    name, the opponent's as ``?``.

    Raises
    ------
    InvalidPositionError, UnknownCardError
        A malformed or impossible position, not two players, or one that does not give
        the mover's own face-down cards (or gives the opponent's).
    """
    position = parse_position(position_text, deck)
    if position.num_players != 2:
        raise InvalidPositionError(
            f"position has {position.num_players} players; the solver takes two-player endgames")
    me = position.to_move
    if UNKNOWN in position.hidden[me]:
        raise InvalidPositionError(
            f"position: write your own face-down cards (player {me}'s) by name, not '?'")
    for seat, hidden in enumerate(position.hidden):
        if seat != me and any(c != UNKNOWN for c in hidden):
            raise InvalidPositionError(
                f"position: player {seat}'s face-down cards are hidden from you; write them as '?'")
    return position


def position_at(state: pyspiel.State) -> str:
    """The position string of a 2-player ``state`` at the start of a turn, seen by the
    player to move (the rival's face-down cards as ``?``).

    Raises
    ------
    InvalidPositionError
        The game is over, the next move is chance's, the spot is inside a turn (a
        challenge, block, lost card or exchange: advice starts at a turn), the table has
        more than two players, or the draft setup (its out-of-game cards cannot be written
        in a position).
    """
    core = state.core
    if state.is_terminal():
        raise InvalidPositionError("--history: the game is over after these moves")
    if core.cfg.num_players != 2:
        raise InvalidPositionError(
            f"--history: {core.cfg.num_players} players; the solver takes two-player games")
    if core.cfg.setup == "draft":
        raise InvalidPositionError("--history: a draft game cannot be advised from its "
                                   "history (a position cannot say which cards left the game)"
                                   + blueprint_hint(core.cfg))
    if state.is_chance_node():
        raise InvalidPositionError("--history: the next move is chance's (a card drawn); "
                                   "end the history at a decision")
    if not core.queue or core.queue[0][0] != E.S_ACTION:
        raise InvalidPositionError(
            f"--history ends inside a turn (at the {E.STEP_NAMES[core.queue[0][0]].rstrip('?')} "
            "decision); advice is given at the start of a turn" + blueprint_hint(core.cfg))
    me = core.actor
    hidden = tuple(tuple(core.hands[p]) if p == me else (UNKNOWN,) * len(core.hands[p])
                   for p in range(2))
    position = Position(hidden, tuple(core.revealed), tuple(core.coins), me)
    return format_position(position, core.cfg.deck)


def advise(position_text: str, deck: str = "ambassador", turn_cap: int = DEFAULT_CAP,
           use_cache: bool = True, cap: str = "markov", target: float = TARGET,
           seconds: float | None = None) -> Advice:
    """The equilibrium advice for the player to move at ``position_text``.

    ``cap``: ``"markov"`` prices the turn cap by Markov guarantees and advises the mix
    that secures the mover the most (see the module docstring); ``"draw"`` scores the
    cap 0 for both. With ``"draw"``, ``target`` and ``seconds`` bound the solve (see
    :func:`solved_endgame`).

    Raises
    ------
    InvalidParameterError
        An unknown deck or cap pricing.
    InvalidPositionError, UnknownCardError
        A malformed or impossible position, or one that does not give the mover's own
        face-down cards (or gives someone else's).
    GameTooLargeError
        The perfect-recall tree does not fit (lower ``turn_cap``).
    """
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {deck!r}")
    if cap not in CAP_PRICINGS:
        raise InvalidParameterError(
            f"cap pricing must be one of {', '.join(CAP_PRICINGS)}, not {cap!r}")
    position = seen_position(position_text, deck)
    me = position.to_move
    guarantees = bracket = None
    if cap == "markov":
        priced = priced_endgame(position, deck, turn_cap, use_cache)
        game, result, guarantees = priced.game, priced.sides[me], priced.guarantees
        lo, hi = ((1 + b) / 2 for b in priced.bounds)  # player 0's win probability
        bracket = (lo, hi) if me == 0 else (1 - hi, 1 - lo)
    else:
        game, result = solved_endgame(position, deck, turn_cap, use_cache, target, seconds)
    table = {k: (result.infoset_actions[result.infoset_offset[i]:result.infoset_offset[i + 1]],
                 result.strategy[result.infoset_offset[i]:result.infoset_offset[i + 1]])
             for i, k in enumerate(result.infoset_keys)}
    want = tuple(sorted(position.hidden[me]))
    matches = [(p, s) for p, s in _deal_states(game) if s.core.hands[me] == want]
    if not matches:
        raise InvalidPositionError("position: your cards cannot be dealt here")
    total = sum(p for p, _ in matches)
    outcome = {"win": 0.0, "draw": 0.0, "lose": 0.0, "cap_win": 0.0}
    state = matches[0][1]
    actions, probs = table[state.information_state_string(me)]
    per_action = {int(a): dict.fromkeys(outcome, 0.0) for a in actions}
    theirs: dict[str, float] = {}
    for p, s in matches:
        for a, acted in per_action.items():
            for k, v in _outcomes(s.child(a), table, me, guarantees).items():
                acted[k] += p / total * v
        for c in set(s.core.hands[1 - me]):
            name = C.card_name(c, deck)
            theirs[name] = theirs.get(name, 0.0) + p / total
    for a, pa in zip(actions, probs, strict=True):
        for k in outcome:
            outcome[k] += float(pa) * per_action[int(a)][k]

    def worth(o: dict) -> float:
        v = o["win"] - o["lose"]
        if guarantees is not None:  # the cap pays the guarantee W as 2 W - 1
            v += 2 * o["cap_win"] - o["draw"]
        return v

    value = worth(outcome)
    mix = sorted(((state.action_to_string(me, int(a)), float(p))
                  for a, p in zip(actions, probs, strict=True)), key=lambda x: -x[1])
    valued = tuple((state.action_to_string(me, int(a)), float(p), worth(per_action[int(a)]))
                   for a, p in zip(actions, probs, strict=True))
    return Advice(
        position=format_position(position, deck), deck=deck, turn_cap=turn_cap, player=me,
        hand=tuple(C.card_name(c, deck) for c in want), mix=tuple(mix),
        value=value, win=outcome["win"], draw=outcome["draw"],
        lose=outcome["lose"], iterations=result.iterations,
        exploitability=result.exploitability, nodes=result.num_nodes, cap_pricing=cap,
        cap_win=outcome["cap_win"], bracket=bracket, actions=valued,
        opponent_hand=tuple(sorted(theirs.items())))
