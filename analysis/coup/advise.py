"""``farol advise coup`` and the ``solved`` bot: equilibrium play in Coup endgames.

The position is an endgame position string (:mod:`games.coup.positions`) written
by the player to move: their own face-down cards by name, everyone else's as
``?``. The advice solves the endgame in which *every* face-down card is dealt by
chance (so nobody's card is common knowledge, as at a real table) on the
perfect-recall tree with Farol's engine, and prints the equilibrium mix at the
information set of the player to move holding their cards, with their value
(P(win) - P(lose), the turn cap's draws counting 0) given those cards.

Example
-------
``farol advise coup "duke/contessa/3;?/contessa/0;move:0" --turn-cap 2 --json``
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass

import pyspiel

from analysis.bots import BotSpec, register_bot
from analysis.solve import CFRSolver, SolveResult, compile_cached, make_result
from analysis.solve.cache import cache_dir
from analysis.solve.errors import CorruptFileError
from games.coup import cards as C
from games.coup import endgame_game
from games.coup.positions import UNKNOWN, Position, format_position, parse_position
from games.errors import InvalidParameterError, InvalidPositionError

DEFAULT_CAP = 2
TARGET = 1e-4
MAX_ITERATIONS = 50_000
SOLVER = "CFR+ (Farol engine, perfect-recall tree)"


def hidden_position(position: Position) -> Position:
    """``position`` with every face-down card dealt by chance (``?``)."""
    hidden = tuple((UNKNOWN,) * len(h) for h in position.hidden)
    return Position(hidden, position.revealed, position.coins, position.to_move)


def solved_endgame(position: Position, deck: str, turn_cap: int,
                   use_cache: bool = True) -> tuple[pyspiel.Game, SolveResult]:
    """The all-hidden version of ``position`` and its solution (cached on disk)."""
    general = format_position(hidden_position(position), deck)
    game = endgame_game(general, deck=deck, turn_cap=turn_cap)
    key = hashlib.sha256(f"{game}|{TARGET}".encode()).hexdigest()[:20]
    path = cache_dir() / "coup_solutions" / key
    if use_cache and path.exists():
        try:
            return game, SolveResult.load(path)
        except CorruptFileError:
            pass
    compiled = compile_cached(game, use_cache=use_cache)
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(target_exploitability=TARGET, iterations=MAX_ITERATIONS, progress=False)
    result = make_result(game, compiled, solver, report)
    if use_cache:
        result.save(path)
    return game, result


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


def _outcomes(state: pyspiel.State, table: dict, player: int) -> dict:
    """P(win), P(draw), P(lose) of ``player`` from ``state`` under the solved profile."""
    out = {"win": 0.0, "draw": 0.0, "lose": 0.0}
    stack = [(state, 1.0)]
    while stack:
        s, reach = stack.pop()
        if s.is_terminal():
            r = s.returns()[player]
            out["win" if r > 0 else "lose" if r < 0 else "draw"] += reach
        elif s.is_chance_node():
            stack += [(s.child(a), reach * p) for a, p in s.chance_outcomes()]
        else:
            actions, probs = table[s.information_state_string(s.current_player())]
            stack += [(s.child(int(a)), reach * p) for a, p in zip(actions, probs, strict=True)
                      if p > 0]
    return out


@dataclass(frozen=True)
class Advice:
    """The equilibrium mix and value of the player to move at a position."""

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

    def to_json(self) -> dict:
        return {
            "game": "coup", "position": self.position, "deck": self.deck,
            "turn_cap": self.turn_cap, "player": self.player, "hand": list(self.hand),
            "mix": [{"action": a, "probability": p} for a, p in self.mix],
            "value": self.value, "win": self.win, "draw": self.draw, "lose": self.lose,
            "solver": SOLVER, "iterations": self.iterations,
            "exploitability": self.exploitability, "nodes": self.nodes,
        }

    def text(self) -> str:
        lines = [f"Coup endgame {self.position} ({self.deck} deck, turn cap {self.turn_cap})",
                 f"You are P{self.player} holding {' + '.join(self.hand)}. Play:"]
        width = max(len(a) for a, _ in self.mix)
        lines += [f"  {a:<{width}}  {p:6.1%}" for a, p in self.mix if p >= 0.0005]
        lines.append(f"Value for you: {self.value:+.3f} (win {self.win:.1%}, draw at the cap "
                     f"{self.draw:.1%}, lose {self.lose:.1%})")
        lines.append(f"Solver: {SOLVER}, {self.iterations} iterations, exploitability "
                     f"{self.exploitability:.1e} (whole endgame, {self.nodes:,} nodes)")
        return "\n".join(lines)


def advise(position_text: str, deck: str = "ambassador", turn_cap: int = DEFAULT_CAP,
           use_cache: bool = True) -> Advice:
    """The equilibrium advice for the player to move at ``position_text``.

    Raises
    ------
    InvalidPositionError, UnknownCardError
        A malformed or impossible position, or one that does not give the mover's own
        face-down cards (or gives someone else's).
    GameTooLargeError
        The perfect-recall tree does not fit (lower ``turn_cap``).
    """
    if deck not in C.DECKS:
        raise InvalidParameterError(f"deck must be one of {', '.join(C.DECKS)}, not {deck!r}")
    position = parse_position(position_text, deck)
    if position.num_players != 2:
        raise InvalidPositionError(
            f"position has {position.num_players} players; the solver takes two-player endgames")
    me = position.to_move
    mine = position.hidden[me]
    if UNKNOWN in mine:
        raise InvalidPositionError(
            f"position: write your own face-down cards (player {me}'s) by name, not '?'")
    for seat, hidden in enumerate(position.hidden):
        if seat != me and any(c != UNKNOWN for c in hidden):
            raise InvalidPositionError(
                f"position: player {seat}'s face-down cards are hidden from you; write them as '?'")
    game, result = solved_endgame(position, deck, turn_cap, use_cache)
    table = {k: (result.infoset_actions[result.infoset_offset[i]:result.infoset_offset[i + 1]],
                 result.strategy[result.infoset_offset[i]:result.infoset_offset[i + 1]])
             for i, k in enumerate(result.infoset_keys)}
    want = tuple(sorted(mine))
    matches = [(p, s) for p, s in _deal_states(game) if s.core.hands[me] == want]
    if not matches:
        raise InvalidPositionError("position: your cards cannot be dealt here")
    total = sum(p for p, _ in matches)
    outcome = {"win": 0.0, "draw": 0.0, "lose": 0.0}
    for p, s in matches:
        for k, v in _outcomes(s, table, me).items():
            outcome[k] += p / total * v
    state = matches[0][1]
    actions, probs = table[state.information_state_string(me)]
    mix = sorted(((state.action_to_string(me, int(a)), float(p))
                  for a, p in zip(actions, probs, strict=True)), key=lambda x: -x[1])
    return Advice(
        position=format_position(position, deck), deck=deck, turn_cap=turn_cap, player=me,
        hand=tuple(C.card_name(c, deck) for c in want), mix=tuple(mix),
        value=outcome["win"] - outcome["lose"], win=outcome["win"], draw=outcome["draw"],
        lose=outcome["lose"], iterations=result.iterations,
        exploitability=result.exploitability, nodes=result.num_nodes)


# --------------------------------------------------------------------------- the bot
def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """A bot playing the solved equilibrium of the endgame ``game`` starts from.

    The game must be a two-player ``python_coup`` endgame (``position`` parameter) with
    a turn cap whose perfect-recall tree fits; the bot solves the all-hidden version and
    maps each state to it by replaying the deal and the moves.
    """
    import numpy as np

    cfg = game.config
    if cfg.position is None or cfg.num_players != 2:
        raise InvalidParameterError(
            "the solved opponent plays two-player endgames only: pass "
            "--param position=... (e.g. '?/duke/3;?/captain/2;move:0') and --param turn_cap=2")
    solved_game, result = solved_endgame(cfg.position, cfg.deck, cfg.turn_cap)
    table = {k: i for i, k in enumerate(result.infoset_keys)}
    own_deals = sum(h.count(UNKNOWN) for h in cfg.position.hidden)
    rng = np.random.default_rng(seed)

    def mirror(state: pyspiel.State) -> pyspiel.State:
        history = state.history()
        start = game.new_initial_state()
        for a in history[:own_deals]:
            start.apply_action(a)
        general = solved_game.new_initial_state()
        for hand in start.core.hands:
            for card in hand:
                general.apply_action(card)
        for a in history[own_deals:]:
            general.apply_action(a)
        return general

    def act(state: pyspiel.State) -> int:
        general = mirror(state)
        i = table.get(general.information_state_string(seat))
        legal = state.legal_actions(seat)
        if i is None:  # a history the solved profile never reaches: play uniformly
            return int(legal[rng.integers(len(legal))])
        lo, hi = result.infoset_offset[i], result.infoset_offset[i + 1]
        probs = np.maximum(result.strategy[lo:hi], 0.0)
        return int(result.infoset_actions[lo:hi][rng.choice(hi - lo, p=probs / probs.sum())])

    return act


register_bot(BotSpec("solved", "the solved equilibrium of a 2-player Coup endgame (small turn cap)",
                     solved_bot, games=("python_coup",)))


# --------------------------------------------------------------------------- CLI
def add_advise_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "coup", help="equilibrium mix and value of the player to move in a Coup endgame",
        description=__doc__.splitlines()[0])
    parser.add_argument("position", help="e.g. 'duke/contessa/3;?/contessa/0;move:0' (your "
                        "face-down cards by name, the opponent's as ?)")
    parser.add_argument("--deck", default="ambassador", choices=C.DECKS)
    parser.add_argument("--turn-cap", type=int, default=DEFAULT_CAP,
                        help=f"turns solved from the position (default {DEFAULT_CAP})")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write caches")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.turn_cap < 1:
        raise InvalidParameterError(f"--turn-cap must be at least 1, not {args.turn_cap}")
    advice = advise(args.position, args.deck, args.turn_cap, use_cache=not args.no_cache)
    print(json.dumps(advice.to_json(), indent=2) if args.json else advice.text())
    return 0

