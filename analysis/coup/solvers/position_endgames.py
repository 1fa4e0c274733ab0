"""Coup endgames given as a position, solved: every face-down card dealt by chance, the
turn cap scored as a draw or priced by Markov guarantees.

A position (:mod:`games.coup.positions`) names the mover's own face-down cards and ``?``
for everyone else's; :func:`solved_endgame` solves the endgame in which every face-down
card is dealt by chance (CFR+ on the perfect-recall tree, cached on disk), the cap
scoring 0; :func:`priced_endgame` solves both ends of its bracket with the cap priced by
Markov guarantees (:mod:`analysis.coup.guarantees`), so that either side's strategy
secures its player at least the bracket's end. The advice (:mod:`analysis.coup.advice`)
and the ``solved`` agent read them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pyspiel

from analysis.coup import guarantees as GU
from analysis.coup.solvers.brackets import compile_markov_game, solve_side
from analysis.shared import store
from analysis.shared.progress import expect
from analysis.shared.store import CorruptFileError
from analysis.solve import CFRSolver, SolveResult, compile_cached, make_result
from analysis.solve import compile as compile_module
from games.coup import cards as C
from games.coup import endgame_game
from games.coup.positions import UNKNOWN, Position, format_position
from games.errors import InvalidParameterError

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
