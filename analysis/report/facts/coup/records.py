"""What the Coup guide reads, most faithful first: a strong 2-player agent's play (the
self-play tables of the agent each names, or the blueprint's where none is stored) and
its measured strength, seat win rates of strong agents at 2-8 players, and the rigorous
brackets of the whole 2-player game. Nothing here computes."""

from __future__ import annotations

import json
from dataclasses import dataclass

from analysis.coup.agents.best import measured_agent
from analysis.coup.solvers import blueprint
from analysis.coup.studies import (
    agent_play,
    blueprint_bluffs,
    full_game,
    local_best_response,
    seat_balance,
)
from analysis.coup.studies.blueprint_bluffs import BluffTable
from analysis.coup.studies.seat_balance import TableRecord
from analysis.report.facts.coup.readers import full_game_best
from analysis.shared import store

# The game as the rulebook deals it to two: the Ambassador deck, the starting player
# with one coin (the "basic" setup).
DECK = "ambassador"
SETUP = "basic"
SETUP_WORDS = {"basic": "the starting player takes 1 coin", "standard": "2 coins each",
               "draft": "drafted hands"}
BUILD = "farol coup blueprint build --deck {deck}"
PLAY = "farol coup play-tables --decks {deck}"
BENCHMARKS = store.REPOSITORY / "benchmarks" / "results"
# Who played the tables, in a few words (by the table's agent).
WHO = {
    "belief": "the belief agent (it remembers every claim, block and reveal, weighs the "
              "opponent's possible hands by Bayes' rule and searches)",
    "resolve": "the re-solving agent (`best` at 2 players: it keeps the public beliefs over "
               "both players' hands and re-solves the rest of the turn at each decision)",
    "blueprint": "the blueprint (a strategy for the whole game keyed on the position only, "
                 "so it forgets who claimed what)",
}
SHORT = {"belief": "the belief agent", "resolve": "the re-solving agent",
         "blueprint": "the blueprint"}
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
    """The strongest agent's tables where stored, else the blueprint's."""
    table = agent_play.load_tables(deck, (setup,)).get(setup)
    return table if table is not None else blueprint_bluffs.load_tables(deck, (setup,)).get(setup)


@dataclass(frozen=True)
class Strength:
    """A 2-player agent's measured strength (``benchmarks/coup_belief_agent.py``, with
    ``--agent resolve`` for the re-solving agent, and ``benchmarks/coup_exploiter.py``):
    its win rate against each opponent in the deck and setup, and the most an exploiter
    won against it (a lower bound on exploitability)."""

    wins: tuple[tuple[str, int, float, tuple[float, float]], ...]  # opponent, games, rate, ci
    exploit: tuple[int, float, tuple[float, float]] | None  # games, gain, ci
    # The exploiter's gain against the blueprint and its interval, beside what a best
    # response is known to win against the blueprint at least (how much it finds).
    yardstick: tuple[float, tuple[float, float], float] | None = None
    # Who measured ``exploit``: the local best response (LOCAL) or the exploiter that
    # learns a model of the agent; and the games the local best response's run planned.
    tool: str = "exploiter"
    planned: int | None = None

    @property
    def local(self) -> bool:
        return self.tool == LOCAL

    @property
    def test_words(self) -> str:
        """The local best response and how much it finds against the blueprint, in a
        clause (empty for the exploiter, whose shortfall :attr:`yardstick_words` says)."""
        if not self.local or self.yardstick is None:
            return ""
        gain, (lo, hi), bound = self.yardstick
        return (f", which finds {gain:+z.3f} [{lo:+z.3f}, {hi:+z.3f}] in win probability "
                f"against the blueprint where at least {bound:z.3f} is known (exact),")

    @property
    def yardstick_words(self) -> str:
        """How far the exploiter falls short where the truth is bounded, in a sentence
        (empty where not measured, or where it reaches the known bound)."""
        if self.yardstick is None:
            return ""
        gain, (lo, hi), bound = self.yardstick
        if hi >= bound:
            return ""
        return (f" The same exploiter gains only {gain:+z.2f} of a game [{lo:+z.2f}, {hi:+z.2f}] "
                f"against the blueprint, which a best response is known to beat by at least "
                f"{bound:z.2f}: it finds only part of what can be won, so it is a weak test.")

    @property
    def caveat(self) -> str:
        """What the exploiter's games say of the agent, and so of an edge it measured, in a
        sentence (empty where not measured). A gain is a lower bound on exploitability; a
        gain of zero or less bounds nothing."""
        if self.exploit is None:
            return ""
        _, gain, (lo, hi) = self.exploit
        interval = (f"95% interval {lo:+z.3f} to {hi:+z.3f}" if self.local else
                    f"95% interval {lo:+z.2f} to {hi:+z.2f}")
        if self.local:
            if lo <= 0:
                return (f"A local best response{self.test_words} gained {gain:+z.3f} in win "
                        f"probability against the agent ({interval}, {self.games_words}), an interval "
                        "that holds 0: it shows no loss yet, so each edge here is between "
                        "two such players, not the game's value.")
            return (f"The agent can itself be beaten: a local best response{self.test_words} "
                    f"gains at least {gain:+z.3f} in win probability against it ({interval}, "
                    f"{self.games_words}), so each edge here is between two such players, "
                    "not the game's value.")
        if gain <= 0:
            said = (f"An exploiter that learns the agent's play showed no gain against it "
                    f"({gain:+z.2f} of a game, {interval}); a stronger one might still gain")
        else:
            said = (f"The agent can itself be beaten: a best response gains at least "
                    f"{gain:+z.2f} of a game against it ({interval})")
        return (said + ", so each edge here is between two such players, not the game's "
                "value." + self.yardstick_words)

    @property
    def games_words(self) -> str:
        """The games behind ``exploit``, a run stopped short of its plan saying so."""
        n = self.exploit[0]
        if self.planned is not None and self.planned > n:
            return f"{n:,} of the {self.planned:,} games planned"
        return f"{n:,} games"


LOCAL = "local best response"


def local_bounds(deck: str, setup: str) -> dict[str, local_best_response.LowerBound]:
    """The stored local best response's lower bounds in the deck and setup, by agent."""
    return {b.agent: b for b in local_best_response.load_bounds()
            if (b.deck, b.setup) == (deck, setup)}


# The benchmark results that measure each 2-player agent against the panel.
MEASURED = {"belief": "coup_belief_agent.json", "resolve": "coup_resolve_agent.json"}


def strength(deck: str = DECK, setup: str = SETUP, agent: str = "belief") -> Strength | None:
    """``agent``'s measured strength in the deck and setup (None: not measured)."""
    if agent not in MEASURED:
        return None
    path = BENCHMARKS / MEASURED[agent]
    if not path.exists():
        return None
    lines = json.loads(path.read_text())["matches"]
    wins = tuple((x["opponent"], x["games"], x["win_rate"], tuple(x["ci95"])) for x in lines
                 if x["deck"] == deck and x["setup"] == setup)
    exploit = yardstick = None
    local = local_bounds(deck, setup)
    bp = blueprint_first(deck, setup)
    if agent in local and "blueprint" in local and bp is not None \
            and bp.exploitability_at_least is not None:
        # The local best response, shown to find what is known against the blueprint: the
        # blueprint's own measurement (the appendix's figure) beside its exact lower bound.
        b, yard = local[agent], local["blueprint"]
        acc = blueprint.accuracy(blueprint.read_summary(deck), setup)
        found = ((acc.local[0], acc.local[1:]) if acc.local is not None
                 else (yard.gain, tuple(yard.gain_ci95)))
        known = acc.keyed if acc.keyed is not None else bp.exploitability_at_least
        return Strength(wins, (b.games, b.gain, tuple(b.gain_ci95)),
                        (found[0], tuple(found[1]), known), LOCAL, b.planned) if wins else None
    path = BENCHMARKS / "coup_exploiter.json"
    if path.exists():
        for x in json.loads(path.read_text())["lines"]:
            if measured_agent(x) == agent:
                exploit = (x["games"], x["gain"], tuple(x["gain_ci95"]))
            if x["agent"] == "blueprint":  # measured in the Ambassador deck's basic setup
                bp = blueprint_first("ambassador", "basic")
                if bp is not None and bp.exploitability_at_least is not None:
                    yardstick = (x["gain"], tuple(x["gain_ci95"]), bp.exploitability_at_least)
    return Strength(wins, exploit, yardstick) if wins else None


def seat_records() -> list[TableRecord]:
    return seat_balance.load_answers()


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
