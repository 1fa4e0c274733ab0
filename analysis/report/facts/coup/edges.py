"""The Coup balance facts, read once from the seat-balance records for the guide, the
methods appendix and the notebook alike: the first player's edge at each table (seat 1's
win rate minus the fair share 1/N, with its 95% interval), the difference between two
tables' edges, the starting hands' ranking, who played and what the games cost.

Nothing here holds a figure: every number is read from the records
(:func:`analysis.coup.studies.seat_balance.load_answers`: duplicate deals where stored)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analysis.coup.agents.best import AGENT_WORDS, best_kind
from analysis.coup.studies.seat_balance import HandRecord, Table, TableRecord, load_answers
from analysis.report.facts.coup import records as R
from analysis.report.separate import excludes
from analysis.statistics.intervals import bound_points, difference

MIN_DEALS = 30  # a starting hand is ranked once dealt this often
SHOWN_HANDS = 3  # the best and the worst this many


def points(value: float, ci: Sequence[float]) -> str:
    """A difference of probabilities in points with its interval: ``+1.2 points [-0.3, +2.7]``."""
    return f"{100 * value:+z.1f} points [{100 * ci[0]:+z.1f}, {100 * ci[1]:+z.1f}]"


def holds_zero(ci: Sequence[float]) -> bool:
    """Whether an interval of a difference holds 0 as printed (to a tenth of a point):
    one printed as ``[+0.0, +1.9]`` does (:func:`analysis.report.separate.excludes`)."""
    return not excludes(ci, 0.0)


def edge_words(value: float, ci: Sequence[float]) -> str:
    """The first player's edge in words: its value and interval where the interval leaves
    out 0, else the largest edge the interval allows."""
    if holds_zero(ci):
        return f"no edge larger than {bound_points(ci):z.1f} points"
    behind = ", the first player is behind" if value < 0 else ""
    return f"an edge of {points(value, ci)}{behind}"


def difference_words(value: float, ci: Sequence[float]) -> str:
    """A difference of two edges in words, as :func:`edge_words`."""
    if holds_zero(ci):
        return f"no difference larger than {bound_points(ci):z.1f} points"
    return f"differs by {points(value, ci)}"


def agent_words(rec: TableRecord) -> str:
    """The agent that played a table: its name and, for an alias such as ``best``, what
    it stood for ("`best` (the belief agent)"), and what ``best`` stands for now where
    that changed since ("`best` (the belief agent; `best` is now the re-solving agent)")."""
    kind = AGENT_WORDS.get(rec.plays, rec.plays)
    if kind and replaced(rec.agent, rec.plays, rec.table.players):
        kind += f"; `best` is now {AGENT_WORDS[best_kind(rec.table.players)]}"
    return f"`{rec.agent}`" + (f" ({kind})" if kind else "")


def replaced(agent: str, plays: str, players: int) -> bool:
    """Whether a table ``best`` played at ``players`` was played by an agent ``best`` no
    longer stands for there (a stronger one has taken its place since)."""
    return agent == "best" and bool(plays) and plays != best_kind(players)


def cost_words(seconds: float | None) -> str:
    """Processor time in words ("2.4 CPU-hours"); empty where the games were not clocked."""
    if seconds is None:
        return ""
    hours = seconds / 3600
    if hours >= 1:
        return f"{hours:z,.1f} CPU-hours"
    return f"{seconds / 60:z.1f} CPU-minutes"


@dataclass(frozen=True)
class Edge:
    """Seat 1's win rate at one table and its edge over the fair share 1/N."""

    table: Table
    win: float
    win_ci: tuple[float, float]
    agent: str  # who played, in words (:func:`agent_words`)
    games: int
    deals: int  # duplicate deals (0: plain games)
    cpu_seconds: float | None

    @property
    def fair(self) -> float:
        return 1 / self.table.players

    @property
    def value(self) -> float:
        return self.win - self.fair

    @property
    def ci(self) -> tuple[float, float]:
        return self.win_ci[0] - self.fair, self.win_ci[1] - self.fair

    @property
    def words(self) -> str:
        return edge_words(self.value, self.ci)

    def row(self) -> dict:
        """The edge as a table row (the notebook's frame)."""
        return {"table": self.table.title, "players": self.table.players,
                "deck": self.table.deck, "setup": self.table.setup, "games": self.games,
                "seat 1 wins": self.win, "low": self.win_ci[0], "high": self.win_ci[1],
                "fair": self.fair, "edge": self.value, "edge low": self.ci[0],
                "edge high": self.ci[1], "agent": self.agent}


def edge(rec: TableRecord) -> Edge:
    first = next(s for s in rec.self_play.seats if s.seat == 0)
    return Edge(rec.table, first.win_rate, tuple(first.ci95), agent_words(rec),
                rec.self_play.games, rec.self_play.deals if rec.duplicate else 0,
                rec.cpu_seconds)


def edges(records: Iterable[TableRecord] | None = None) -> list[Edge]:
    """The first player's edge at every table answered (default: every stored table)."""
    return [edge(r) for r in (load_answers() if records is None else records)]


def edge_at(players: int, deck: str = R.DECK, setup: str = R.SETUP) -> Edge | None:
    rec = R.seat_record(players, deck, setup)
    return edge(rec) if rec is not None else None


@dataclass(frozen=True)
class Difference:
    """One table's first-player edge minus another's (independent games)."""

    a: Edge
    b: Edge
    value: float
    ci: tuple[float, float]

    @property
    def words(self) -> str:
        return difference_words(self.value, self.ci)


def edge_difference(a: Edge, b: Edge) -> Difference:
    """``a``'s edge minus ``b``'s, its interval from the two tables' intervals."""
    d, lo, hi = difference(a.value, a.ci, b.value, b.ci)
    return Difference(a, b, d, (lo, hi))


def deck_differences() -> list[Difference]:
    """Ambassador minus Inquisitor at every table where both decks have a record played by
    the same agent: each 2-player setup, then 3 to 8 players."""
    out = []
    for players in sorted({e.table.players for e in edges()}):
        for setup in R.SETUP_WORDS if players == 2 else ("-",):
            a, b = edge_at(players, "ambassador", setup), edge_at(players, "inquisitor", setup)
            if comparable(a, b):
                out.append(edge_difference(a, b))
    return out


def setup_differences(deck: str) -> list[Difference]:
    """At 2 players with ``deck``: each other setup's edge minus the rulebook's, where the
    same agent played both."""
    base = edge_at(2, deck, R.SETUP)
    others = (edge_at(2, deck, s) for s in R.SETUP_WORDS if s != R.SETUP)
    return [edge_difference(e, base) for e in others if comparable(e, base)]


def comparable(a: Edge | None, b: Edge | None) -> bool:
    """Whether two tables' edges can be set against each other: both are answered and the
    same agent played both (a stronger agent can shift an edge on its own)."""
    return a is not None and b is not None and a.agent == b.agent


# A 2-player setup as a comparison names it.
SETUP_SHORT = {"basic": "1 coin to the starter", "standard": "2 coins each",
               "draft": "drafted hands"}


def table_words(table: Table) -> str:
    """A table as a comparison names it: "3 players", "2 players, 2 coins each"."""
    players = f"{table.players} players"
    return players if table.players > 2 else f"{players}, {SETUP_SHORT[table.setup]}"


# ---- starting hands ----------------------------------------------------------------------

def hand_deals(rec: TableRecord, hand: HandRecord) -> int:
    """How many deals dealt ``hand`` (a duplicate deal plays each hand from every seat)."""
    return hand.games // rec.table.players if rec.duplicate else hand.games


def within(hands: Iterable[HandRecord]) -> float:
    """How far, in points rounded up to a tenth, the widest of ``hands``' intervals
    reaches from its win rate."""
    return max((bound_points((h.ci95[0] - h.win_rate, h.ci95[1] - h.win_rate))
                for h in hands), default=0.0)


def ranked_hands(rec: TableRecord) -> list[HandRecord]:
    """``rec``'s starting hands dealt at least :data:`MIN_DEALS` times, strongest first."""
    return sorted((h for h in rec.hands if hand_deals(rec, h) >= MIN_DEALS),
                  key=lambda h: (-h.win_rate, h.hand))


def hand_facts(players: int, deck: str = R.DECK, setup: str = R.SETUP) -> dict:
    """The strongest and weakest starting hands of a table, among those dealt at least
    :data:`MIN_DEALS` times: ``best`` strongest first, ``worst`` weakest first,
    ``within`` how wide their intervals are, ``rec`` the table's record (None: none)."""
    rec = R.seat_record(players, deck, setup)
    ranked = ranked_hands(rec) if rec else []
    best = ranked[:SHOWN_HANDS]
    worst = ranked[max(SHOWN_HANDS, len(ranked) - SHOWN_HANDS):][::-1]  # none among the best
    return {"players": players, "deck": deck, "rec": rec, "fair": 1 / players, "best": best,
            "worst": worst, "ranked": ranked, "within": within(best + worst),
            "agent": agent_words(rec) if rec else ""}


# ---- who played ----------------------------------------------------------------------------

def who_plays(records: Iterable[TableRecord]) -> str:
    """The agents of the tables in a few words: each agent name, and for an alias such
    as ``best`` what it stood for at each player count."""
    records = list(records)
    parts = []
    for agent in sorted({r.agent for r in records}):
        counts: dict[str, set[int]] = {}
        now: dict[str, set[str]] = {}  # an agent replaced since -> what best is now there
        for r in records:
            if r.agent == agent and r.plays:
                kind = AGENT_WORDS.get(r.plays, r.plays)
                counts.setdefault(kind, set()).add(r.table.players)
                if replaced(r.agent, r.plays, r.table.players):
                    now.setdefault(kind, set()).add(AGENT_WORDS[best_kind(r.table.players)])
        kinds = [f"{kind} at {player_counts(sorted(n))}"
                 + (f", where `best` is now {' or '.join(sorted(now[kind]))}" if kind in now else "")
                 for kind, n in sorted(counts.items(), key=lambda t: min(t[1]))]
        name = f"`{agent}`"
        if agent == "best":
            name = "`best`, the strongest agent" + (" when each table was played" if now else "")
        parts.append(name + (f" ({'; '.join(kinds)})" if kinds else ""))
    return ", ".join(parts)


def player_counts(ns: list[int]) -> str:
    """``[2]`` -> "2 players", ``[3, 4, 5]`` -> "3 to 5 players", ``[3, 5]`` -> "3 and 5 players"."""
    if len(ns) == 1:
        return f"{ns[0]} players"
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]} players"
    return f"{', '.join(map(str, ns[:-1]))} and {ns[-1]} players"


def total_cost(records: Iterable[TableRecord]) -> tuple[str, int]:
    """The processor time of the clocked tables among ``records`` in words, and how many
    there are ("", 0 where none is clocked)."""
    clocked = [r.cpu_seconds for r in records if r.cpu_seconds is not None]
    return (cost_words(sum(clocked)) if clocked else ""), len(clocked)
