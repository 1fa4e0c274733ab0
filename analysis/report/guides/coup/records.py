"""What the Coup guide reads, most faithful first: the 2-player blueprint (the whole game
from the deal, solved by CFR+), seat win rates of strong agents at 2-8 players, and the
rigorous brackets of the whole 2-player game. Nothing here computes."""

from __future__ import annotations

from dataclasses import dataclass

from analysis.coup import blueprint, blueprint_bluffs, full_game, seat_balance
from analysis.coup.blueprint_bluffs import BluffTable
from analysis.coup.seat_balance import TableRecord
from analysis.report.coup.readers import full_game_best

# The game as the rulebook deals it to two: the Ambassador deck, the starting player
# with one coin (the "basic" setup).
DECK = "ambassador"
SETUP = "basic"
SETUP_WORDS = {"basic": "the starting player takes 1 coin", "standard": "2 coins each",
               "draft": "drafted hands"}
BUILD = "farol coup blueprint build --deck {deck}"
BALANCE = "farol coup balance"


@dataclass(frozen=True)
class BlueprintFirst:
    """The first player's win rate when the blueprint plays itself, and how much a best
    response beats it at least (None: not measured)."""

    deck: str
    setup: str
    win: float
    iterations: int
    exploitability_at_least: float | None
    confidence: str = ""  # "" for an exact bound; "95%" when a simulated one is larger


def blueprint_first(deck: str, setup: str) -> BlueprintFirst | None:
    summary = blueprint.read_summary(deck)
    rec = summary.get("setups", {}).get(setup)
    if rec is None:
        return None
    acc = blueprint.accuracy(summary, setup)
    simulated = acc.local is not None and (acc.keyed is None or acc.local[1] > acc.keyed)
    return BlueprintFirst(deck, setup, (1 + rec["first_player_value"]) / 2,
                          int(rec["iterations"]), acc.at_least, "95%" if simulated else "")


def bluff_table(deck: str = DECK, setup: str = SETUP) -> BluffTable | None:
    return blueprint_bluffs.load_tables(deck, (setup,)).get(setup)


def seat_records() -> list[TableRecord]:
    return seat_balance.load_records()


def seat_record(players: int, deck: str = DECK, setup: str = SETUP) -> TableRecord | None:
    setup = setup if players == 2 else "-"
    for r in seat_records():
        if (r.table.players, r.table.deck, r.table.setup) == (players, deck, setup):
            return r
    return None


def brackets() -> dict[tuple[str, str], tuple[float, float, int]]:
    """(setup, deck) -> the first player's rigorous win-probability bracket in the whole
    2-player game (lower, upper, largest turn cap solved)."""
    return full_game_best(full_game.load_markov_rows())
