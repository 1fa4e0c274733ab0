"""``farol advise coup`` and the ``solved`` bot: equilibrium play in Coup endgames.

The position string (:mod:`games.coup.positions`) names the mover's own face-down cards
and ``?`` for everyone else's; the advice solves the endgame in which every face-down
card is dealt by chance and prints the mover's equilibrium mix with their outcome
probabilities. By default the cap is priced by Markov guarantees, as the brackets price
it (the mix secures the mover at least the bracket's end); ``cap="draw"`` scores it 0.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pyspiel

from analysis.coup import guarantees as GU
from analysis.coup.solvers.brackets import compile_markov_game, solve_side
from analysis.play.bots import BotSpec, register_bot
from analysis.shared import store
from analysis.shared.progress import expect
from analysis.shared.store import CorruptFileError
from analysis.solve import CFRSolver, SolveResult, compile_cached, make_result
from analysis.solve import compile as compile_module
from games.coup import cards as C
from games.coup import endgame_game
from games.coup import engine as E
from games.coup.positions import UNKNOWN, Position, format_position, parse_position
from games.coup.walker import DecisiveCoupWalker
from games.errors import InvalidParameterError, InvalidPositionError

DEFAULT_CAP = 2
TARGET = 1e-4
MAX_ITERATIONS = 50_000
SOLVER = "CFR+ (Farol engine, perfect-recall tree)"
CAP_PRICINGS = ("markov", "draw")
# Face-down cards in all up to which the cap is priced by Markov guarantees: 2v1 and 1v2
# positions take a graph of ~2 million positions (a minute or two), 2v2 the whole game's.
MAX_PRICED_CARDS = 3


def hidden_position(position: Position) -> Position:
    """``position`` with every face-down card dealt by chance (``?``)."""
    hidden = tuple((UNKNOWN,) * len(h) for h in position.hidden)
    return Position(hidden, position.revealed, position.coins, position.to_move)


def solved_endgame(position: Position, deck: str, turn_cap: int, use_cache: bool = True,
                   target: float = TARGET, seconds: float | None = None
                   ) -> tuple[pyspiel.Game, SolveResult]:
    """The all-hidden version of ``position`` and its solution (cached on disk): CFR+
    until the exploitability is at most ``target`` (or ``seconds`` have passed: the
    result carries the exploitability reached)."""
    general = format_position(hidden_position(position), deck)
    game = endgame_game(general, deck=deck, turn_cap=turn_cap)
    budget = "" if seconds is None else f"|{seconds}s"
    key = hashlib.sha256(f"{game}|{target}{budget}".encode()).hexdigest()[:20]
    path = store.cache("coup_solutions") / key
    if use_cache and path.exists():
        try:
            return game, SolveResult.load(path)
        except CorruptFileError as exc:
            store.say_damaged(path, exc.reason)
    compiled = compile_cached(game, use_cache=use_cache)
    solver = CFRSolver(compiled, "cfr+")
    report = solver.run(target_exploitability=target, iterations=MAX_ITERATIONS,
                        seconds=seconds)
    result = make_result(game, compiled, solver, report)
    if use_cache:
        result.save(path)
    return game, result


def can_price_cap(position: Position) -> bool:
    """Whether the cap of ``position`` is priced by Markov guarantees here: at most
    :data:`MAX_PRICED_CARDS` face-down cards in all (1v1, 2v1, 1v2)."""
    return sum(len(h) for h in position.hidden) <= MAX_PRICED_CARDS


def position_guarantees(game: pyspiel.Game):
    """The Markov guarantees that price the cap of the two-player Coup ``game``.

    A 1v1 endgame with one lost card each and at most 9 coins a player to move first
    uses the graph of every such endgame (:func:`analysis.coup.guarantees.guarantees_for`,
    the one the report's brackets use); any other position the graph of its own deal.
    """
    cfg = game.config
    position = cfg.position
    one_each = all(len(h) == 1 and len(r) == 1
                   for h, r in zip(position.hidden, position.revealed, strict=True))
    if one_each and position.to_move == 0 and max(position.coins) <= 9:
        revealed = tuple(C.card_name(r[0], cfg.deck).lower() for r in position.revealed)
        return GU.guarantees_for(cfg.deck, revealed)
    config, roots = GU.uncapped_roots([game])
    expect("pricing the turn cap by Markov guarantees (a graph of about 2 million positions)",
           90, "--cap-pricing draw scores the cap as a draw")
    return GU.guarantees_from(config, roots, cfg.deck, progress=True)


@dataclass(frozen=True)
class PricedEndgame:
    """An endgame solved with its cap priced by Markov guarantees, from both ends.

    ``sides[k]`` is the solution of the game in which the cap pays player 0 their lower
    (``k = 0``) or upper (``k = 1``) bound; ``bounds`` are player 0's value bounds
    ``(lower, upper)`` measured by exact best response; ``guarantees`` price the cap.
    """

    game: pyspiel.Game
    sides: tuple[SolveResult, SolveResult]
    bounds: tuple[float, float]
    guarantees: object


def priced_endgame(position: Position, deck: str, turn_cap: int,
                   use_cache: bool = True) -> PricedEndgame:
    """The all-hidden version of ``position`` solved with the cap priced by Markov
    guarantees, both ends of the bracket (each solution cached on disk)."""
    if not can_price_cap(position):
        raise InvalidParameterError(
            "position: pricing the cap of a position with two face-down cards each takes "
            "the whole game's Markov guarantees (~10^7 positions, ~15 minutes, ~8 GB); "
            "use --cap-pricing draw")
    general = format_position(hidden_position(position), deck)
    game = endgame_game(general, deck=deck, turn_cap=turn_cap)
    guarantees = position_guarantees(game)
    stem = (f"{game}|{TARGET}|markov|{guarantees.deck}|{guarantees.revealed}|{GU.ROUNDS}"
            f"|{compile_module.COMPILE_VERSION}")
    paths = [store.cache("coup_solutions") / hashlib.sha256(f"{stem}|{side}".encode())
             .hexdigest()[:20] for side in (0, 1)]
    sides: list[SolveResult] = []
    if use_cache and all(p.exists() for p in paths):
        for p in paths:
            try:
                sides.append(SolveResult.load(p))
            except CorruptFileError as exc:
                store.say_damaged(p, exc.reason)
                sides = []
                break
    if not sides:
        compiled, cap_bounds = compile_markov_game(game, guarantees)
        for side, path in zip((0, 1), paths, strict=True):
            solved = solve_side(compiled, side, cap_bounds, TARGET, MAX_ITERATIONS)
            result = make_result(game, solved.game, solved.solver, solved.check)
            if use_cache:
                result.save(path)
            sides.append(result)
    # Side 0's bound is player 0's guarantee, side 1's what player 1's strategy concedes.
    bounds = (-sides[0].best_response[1], sides[1].best_response[0])
    return PricedEndgame(game, (sides[0], sides[1]), bounds, guarantees)


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
            "source": f"exact solve of the endgame capped at {self.turn_cap} turns",
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
        lines += [f"  {a:<{width}}  {p:6.1%}" + (f"  value {worth[a]:+.3f}" if a in worth else "")
                  for a, p in self.mix if p >= 0.0005]
        others = [(a, v) for a, p, v in self.actions if p < 0.0005]
        if others:
            lines.append("  other moves: " + ", ".join(f"{a} {v:+.3f}" for a, v in
                                                       sorted(others, key=lambda x: -x[1])))
        if self.bracket is None:
            lines.append(f"Value for you: {self.value:+.3f} (win {self.win:.1%}, draw at the "
                         f"cap {self.draw:.1%}, lose {self.lose:.1%})")
        else:
            lines.append(f"Value for you: {self.value:+.3f} (a game reaching the cap counted "
                         "at what your Markov policy still secures there)")
            turns = "1 turn" if self.turn_cap == 1 else f"{self.turn_cap} turns"
            lines.append(f"Within {turns}: win {self.win:.1%}, lose "
                         f"{self.lose:.1%}, reach the cap {self.draw:.1%} (from there your "
                         f"Markov policy still wins at least {self.cap_win:.1%} of all games)")
            lo, hi = self.bracket
            lines.append(f"Without a cap, before the cards are dealt, the player to move wins "
                         f"with probability {lo:.3f}-{hi:.3f} (rigorous; endless play counts "
                         "as half a win)")
        lines.append(f"Solver: {SOLVER}, {self.iterations} iterations, exploitability "
                     f"{self.exploitability:.1e} (whole endgame, {self.nodes:,} nodes)")
        return "\n".join(lines)


def blueprint_hint(cfg: E.Config) -> str:
    """For a 2-player spot this solve refuses but the blueprint advises: the command
    that builds that blueprint."""
    return (f"; the blueprint advises any decision once built: farol coup blueprint build "
            f"--deck {cfg.deck} --setups {cfg.setup}")


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
    want = tuple(sorted(mine))
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


# --------------------------------------------------------------------------- the bot
def solved_bot(game: pyspiel.Game, seat: int, seed: int = 0):
    """A bot playing the solved endgame ``game`` starts from.

    The game must be a two-player ``python_coup`` endgame (``position`` parameter). With
    a turn cap of at most :data:`DEFAULT_CAP` turns the bot plays the exact equilibrium
    of that capped game. With a larger cap (the default 200: a real endgame) it plays the
    equilibrium of the first :data:`DEFAULT_CAP` turns with the cap priced by Markov
    guarantees (:func:`priced_endgame`, the side that secures its own seat the most) and
    its Markov policy afterwards, so that it wins at least the bracket's end on its side
    whatever its opponent does. Either way it solves the all-hidden version of the
    position and maps each state to it by replaying the deal and the moves.
    """
    cfg = game.config
    if cfg.position is None or cfg.num_players != 2:
        raise InvalidParameterError(
            "the solved opponent plays two-player endgames only: pass "
            "--param position=... (e.g. '?/duke/3;?/captain/2;move:0')")
    guarantees = None
    if cfg.turn_cap <= DEFAULT_CAP:
        solved_game, result = solved_endgame(cfg.position, cfg.deck, cfg.turn_cap)
    elif not can_price_cap(cfg.position):
        raise InvalidParameterError(
            "the solved opponent plays past 2 turns from 1v1, 2v1 and 1v2 positions only; "
            "from a 2v2 position pass --param turn_cap=1 (the exact capped game)")
    else:
        priced = priced_endgame(cfg.position, cfg.deck, DEFAULT_CAP)
        solved_game, result, guarantees = priced.game, priced.sides[seat], priced.guarantees
        walker = DecisiveCoupWalker(cfg, history=False)
    table = {k: i for i, k in enumerate(result.infoset_keys)}
    own_deals = sum(h.count(UNKNOWN) for h in cfg.position.hidden)
    rng = np.random.default_rng(seed)

    def mirror(state: pyspiel.State) -> pyspiel.State | None:
        # The solved game's state for ``state``; None once play passes the solved turns.
        history = state.history()
        start = game.new_initial_state()
        for a in history[:own_deals]:
            start.apply_action(a)
        general = solved_game.new_initial_state()
        for hand in start.core.hands:
            for card in hand:
                general.apply_action(card)
        for a in history[own_deals:]:
            if general.is_terminal():
                return None
            general.apply_action(a)
        return None if general.is_terminal() else general

    def sample(actions, probs) -> int:
        probs = np.maximum(np.asarray(probs, dtype=float), 0.0)
        return int(actions[rng.choice(len(actions), p=probs / probs.sum())])

    def act(state: pyspiel.State) -> int:
        general = mirror(state)
        i = None if general is None else table.get(general.information_state_string(seat))
        if i is not None:
            lo, hi = result.infoset_offset[i], result.infoset_offset[i + 1]
            return sample(result.infoset_actions[lo:hi], result.strategy[lo:hi])
        if guarantees is not None:
            mix = guarantees.mix(state.core, seat)
            if mix is not None:
                return sample(walker.legal_actions(state.core), mix)
        # A history the solved profile never reaches: play uniformly.
        legal = state.legal_actions(seat)
        return int(legal[rng.integers(len(legal))])

    return act


register_bot(BotSpec("solved", "the solved equilibrium of a 2-player Coup endgame: exact for "
                     "a cap of up to 2 turns; otherwise 2 turns priced by Markov guarantees, "
                     "then the Markov policy (a guaranteed win rate)",
                     solved_bot, games=("python_coup",)))
