"""Coup's what-if: a variant's balance beside the printed rules', from paired games.

The questions (:func:`lineups`): each seat's win rate and the first player's edge, how
often the turn cap stops a game (a draw) and how many turns a game lasts, which
characters win games (the win rate of a player dealt each character), how often claims
are bluffs and how often a bluff is caught, all from games where one agent plays every
seat; and how much skill decides the game: the strong agent's win rate in one seat
against ``honest`` and against ``random`` in every other seat, at each player count
asked. Every game's facts are read once it ends (:func:`finish`), by replaying its moves
on the engine: the hands dealt, the claims made with the card and without it, the lies
caught.

The agents play the variant through the rules engine, so every number of the variant
reaches them; those built on tables solved for the printed rules (the blueprint, its
leaf values) refuse a variant, so the what-if's strong agent defaults to ``fast``, which
plays any variant, and its strength there is the skill measure itself.
"""

from __future__ import annotations

import pyspiel

import analysis.coup.agents  # noqa: F401  (registers Coup's agents, in every process)
from analysis.coup.model import GAME
from analysis.play.match import Schedule, game_seeds, sampled
from analysis.play.whatif import (
    Field,
    Lineup,
    Measure,
    PlayedWhatIf,
    Ratio,
    SeatShare,
    WhatIf,
    played_whatif,
)
from games.coup import cards as C
from games.coup import engine as E

TABLE_AGENT = "fast"
WEAKER = ("honest", "random")
PRECISION = 0.02   # half-width aimed at for seat win rates and the draw rate
SKILL_PRECISION = 0.04
LENGTH_PRECISION = 1.0  # turns


def finish(state: pyspiel.State, index: int, decisions: int) -> dict:
    """A finished game's facts: turns, whether the cap stopped it, the winner, the hands
    dealt, the claims made (turn actions and blocks naming a character), those made
    without the card, and the lies a challenge caught."""
    game = state.get_game()
    replay = game.new_initial_state()
    dealt = None
    claims = bluffs = 0
    for action in state.history():
        core = replay.core
        if not core.over and core.cur >= 0:
            step = core.queue[0]
            if dealt is None and step[0] == E.S_ACTION:
                dealt = [list(h) for h in core.hands]
            claim = None
            if step[0] == E.S_ACTION:
                claim = C.KIND_CLAIM[C.decode_turn_action(action)[0]]
            elif step[0] == E.S_BLOCK and action != C.A_NO_BLOCK:
                claim = action - C.A_BLOCK
            if claim is not None:
                claims += 1
                bluffs += claim not in core.hands[core.cur]
        replay.apply_action(action)
    core = state.core
    caught = 0
    log = core.log
    while log is not None:
        log, event = log
        caught += event[1] == E.E_BLUFF
    return {"turns": core.turn, "capped": int(core.winner < 0), "winner": core.winner,
            "dealt": dealt or [], "claims": claims, "bluffs": bluffs, "caught": caught}


SCHEDULE = Schedule(seeds=game_seeds, rotate=True, chance=sampled, finish=finish)


# --------------------------------------------------------------------------- readings
class DealtWins:
    """Of the players dealt ``character``, how many won the game: (won, dealt)."""

    def __init__(self, character: int):
        self.character = character

    def __call__(self, row: dict, index: int) -> tuple[float, float] | None:
        holders = [p for p, hand in enumerate(row["dealt"]) if self.character in hand]
        if not holders:
            return None
        return float(sum(p == row["winner"] for p in holders)), float(len(holders))


def table_lineup(players: int, agent: str, precision: float, deck: str,
                 max_games: int) -> Lineup:
    """The self-play table: seats, edge, draws, length, characters, bluffs."""
    fair = 1.0 / players
    seats = tuple(Measure(f"seat_{s + 1}", f"seat {s + 1}'s win rate", "share", SeatShare(s),
                          precision) for s in range(players))
    measures = seats + (
        Measure("first_player_edge", "the first player's edge (seat 1 minus the fair share)",
                "share", SeatShare(0, fair), None, lower=-fair, upper=1 - fair),
        Measure("draw_rate", "games the turn cap stops (draws)", "share", Field("capped"),
                precision),
        Measure("length", "turns a game lasts", "turns", Field("turns"), LENGTH_PRECISION,
                upper=float("inf")),
        Measure("bluff_rate", "claims made without the card (bluffs)", "share",
                Ratio("bluffs", "claims"), None, ratio=True),
        Measure("caught_rate", "bluffs caught by a challenge", "share",
                Ratio("caught", "bluffs"), None, ratio=True),
    ) + tuple(
        Measure(f"wins_with_{C.card_name(c, deck).lower()}",
                f"win rate of a player dealt the {C.card_name(c, deck)}", "share",
                DealtWins(c), None, ratio=True) for c in C.CHARACTERS)
    return Lineup("table", (agent,) * players, measures,
                  f"{agent} in every seat ({players} players)", min_games=20 * players,
                  max_games=max_games)


def notes(agent: str, strong: str, metrics, counts) -> tuple[str, ...]:
    """Who answered, and how the intervals are taken."""
    return (
        f"{agent} played every seat of both rule sets; it plays any variant through the rules "
        "engine (the blueprint and its leaf tables, built for the printed rules, refuse one).",
        f"How strong {strong} is in each rule set: its win rate against honest and random "
        "below (the skill measure).",
        "Intervals: 95%, Student t over games (rates of bluffs and of dealt characters: over "
        "games as clusters); differences over pairs of games played from the same seeds.",
    )


def _table(players: int, agent: str, precision: float, max_games: int, game) -> Lineup:
    return table_lineup(players, agent, precision, game.config.deck, max_games)


# Coup's what-if as the shared runner plays it (analysis.play.whatif.run_played_whatif).
WHATIF = PlayedWhatIf(key="coup", game=GAME, schedule=SCHEDULE, table=_table, notes=notes,
                      table_agent=TABLE_AGENT, strong_agent=None, weaker=WEAKER, players=4,
                      precision=PRECISION, skill_precision=SKILL_PRECISION)


def run_whatif(variant: dict, **settings) -> WhatIf:
    """The variant against the printed rules (see the module's docstring); ``settings``
    are :class:`~analysis.play.whatif.WhatIfRequest`'s fields (``players``, ``agent``,
    ``strong``, ``workers``...), plus ``build`` and ``skill_max_games``."""
    return played_whatif(WHATIF, variant, **settings)
