"""Goat Lords' what-if: a variant's balance beside the printed rules', from paired games.

One agent plays every seat for each seat's win rate, the first player's edge, how often
the win is shared (a draw) and how long a game lasts (rounds, and decisions); the strong
agent plays one seat against ``greedy`` and against ``random`` in every other seat for how
much skill decides the game. The agents play the variant through the rules (the deck's
wilds, the hand size, the target score and the card values reach them through the game's
configuration); none reads a table built for the published deck.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel

from analysis.goat_lords import GAME
from analysis.goat_lords.agents import build_bot
from analysis.play.match import Schedule, game_seeds, sampled
from analysis.play.whatif import (
    Field,
    Lineup,
    Measure,
    PlayedWhatIf,
    SeatShare,
    Shared,
    WhatIf,
    played_whatif,
)

TABLE_AGENT = "greedy"
STRONG_AGENT = "lord:24"
WEAKER = ("greedy", "random")
PRECISION = 0.02
SKILL_PRECISION = 0.05
LENGTH_PRECISION = 0.1  # rounds


def finish(state: pyspiel.State, index: int, decisions: int) -> dict:
    """A finished game's facts: rounds played and decisions made."""
    return {"rounds": state.table.round_no + 1, "decisions": decisions}


SCHEDULE = Schedule(seeds=game_seeds, rotate=True, chance=sampled, finish=finish)


def table_lineup(players: int, agent: str, precision: float, max_games: int) -> Lineup:
    """The self-play table: seats, edge, shared wins, length."""
    fair = 1.0 / players
    measures = tuple(Measure(f"seat_{s + 1}", f"seat {s + 1}'s win rate", "share",
                             SeatShare(s), precision) for s in range(players)) + (
        Measure("first_player_edge", "the first player's edge (seat 1 minus the fair share)",
                "share", SeatShare(0, fair), None, lower=-fair, upper=1 - fair),
        Measure("draw_rate", "games whose win is shared (draws)", "share", Shared(), precision),
        Measure("length", "rounds a game lasts", "rounds", Field("rounds"), LENGTH_PRECISION,
                upper=float("inf")),
        Measure("decisions", "decisions a game takes", "decisions", Field("decisions"), None,
                upper=float("inf")),
    )
    return Lineup("table", (agent,) * players, measures,
                  f"{agent} in every seat ({players} players)", min_games=20 * players,
                  max_games=max_games)


def notes(agent: str, strong: str, metrics, counts) -> tuple[str, ...]:
    """Who answered, how the intervals are taken, and where the skill measure says little."""
    return (
        f"{agent} played every seat of both rule sets; {strong} is the strong agent of the "
        "skill measure (a lighter search than best's, so that the what-if stays minutes "
        "long); both play the variant through the rules.",
        "Intervals: 95%, Student t over games; differences over pairs of games played from "
        "the same seeds.",
    ) + weak_strong_notes(metrics, strong, counts)


def _table(players: int, agent: str, precision: float, max_games: int, game) -> Lineup:
    return table_lineup(players, agent, precision, max_games)


# Goat Lords' what-if as the shared runner plays it (analysis.play.whatif.run_played_whatif).
WHATIF = PlayedWhatIf(key="goat_lords", game=GAME, schedule=SCHEDULE, table=_table,
                      notes=notes, table_agent=TABLE_AGENT, strong_agent=STRONG_AGENT,
                      weaker=WEAKER, players=2, precision=PRECISION,
                      skill_precision=SKILL_PRECISION, skill_max_games=400, build=build_bot)


def run_whatif(variant: dict, **settings) -> WhatIf:
    """The variant against the printed rules (see the module's docstring); ``settings``
    are :class:`~analysis.play.whatif.WhatIfRequest`'s fields (``players``, ``agent``,
    ``strong``, ``workers``...), plus ``build`` and ``skill_max_games``."""
    return played_whatif(WHATIF, variant, **settings)


def weak_strong_notes(metrics, strong: str, counts: Sequence[int]) -> tuple[str, ...]:
    """A note for each player count where the strong agent does not beat ``greedy`` under
    the printed rules (its interval reaches the fair share): there the skill measure
    against greedy says little, and a deeper search would say more."""
    out = []
    for n in counts:
        m = next((m for m in metrics if m.key == f"skill_greedy_{n}p"), None)
        if m is None or m.printed.low > 1.0 / n:
            continue
        out.append(f"At {n} players {strong} does not beat greedy under the printed rules "
                   f"({100 * m.printed.value:z.1f}% [{100 * m.printed.low:z.1f}, "
                   f"{100 * m.printed.high:z.1f}], fair share {100 / n:z.0f}%): the skill measure "
                   "against greedy says little here; --strong lord (432 simulations a move, "
                   "thousands of times slower) is the stronger search.")
    return tuple(out)
