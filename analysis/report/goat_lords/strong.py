"""Goat Lords' balance with the strong agent in every seat: what is measured so far.

Facts (the games played of each experiment of :func:`analysis.goat_lords.plan.strong_plan`)
→ chart (the first seat's win rate by player count, both scorings) → text. Nothing is
played here: ``farol goat-lords balance`` plays the games, resumable.
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt

from analysis.goat_lords.plan import SCORINGS, STRONG_BOT, load_strong
from analysis.goat_lords.statistics import duel_success, extra_wild_effect, seat_win_rates
from analysis.report.context import ReportContext


@dataclasses.dataclass(frozen=True)
class SeatFact:
    scoring: str
    players: int
    games: int
    planned: int
    first: tuple[float, float, float] | None  # seat 0's win rate and its 95% interval
    attacker: tuple[float, float, float] | None  # the attacker's share of duels won


@dataclasses.dataclass(frozen=True)
class StrongFacts:
    seats: tuple[SeatFact, ...]
    extra_wild: tuple[tuple[int, int, int, tuple[float, float, float] | None], ...]
    values: tuple[tuple[str, int, int, int, tuple[float, float, float] | None], ...]

    @property
    def played(self) -> int:
        return (sum(s.games for s in self.seats) + sum(x[1] for x in self.extra_wild)
                + sum(x[2] for x in self.values))

    @property
    def planned(self) -> int:
        return (sum(s.planned for s in self.seats) + sum(x[2] for x in self.extra_wild)
                + sum(x[3] for x in self.values))


def _first(df) -> tuple[float, float, float] | None:
    if df.empty:
        return None
    r = seat_win_rates(df).set_index("seat").loc[0]
    return float(r.win_rate), float(r.lo), float(r.hi)


def strong_facts(quick: bool) -> StrongFacts:
    res = load_strong(quick)
    seats = []
    control = {}
    for exp, df in res["seats"]:
        duel = None
        if not df.empty and int(df["attacker_wins"].sum() + df["defender_wins"].sum()):
            d = duel_success(df)
            duel = (d["attacker_rate"], d["lo"], d["hi"])
        seats.append(SeatFact(exp.label, exp.players, len(df), exp.games, _first(df), duel))
        if exp.label == "single":
            control[exp.players] = df
    extra = []
    for exp, df in res["extra_wild"]:
        base = control.get(exp.players)
        effect = None
        if base is not None and not df.empty and not base.empty:
            pairs = extra_wild_effect(df, base, exp.players)
            if pairs["pairs"]:
                effect = tuple(float(x) for x in pairs["win"])
        extra.append((exp.players, len(df), exp.games, effect))
    values = [(exp.label, exp.players, len(df), exp.games, _first(df))
              for exp, df in res["sensitivity"]]
    return StrongFacts(tuple(seats), tuple(extra), tuple(values))


def _edge(rate, players: int) -> str:
    if rate is None:
        return "—"
    fair = 1.0 / players
    p, lo, hi = rate
    return f"{100 * (p - fair):+.1f} pp [{100 * (lo - fair):+.1f}, {100 * (hi - fair):+.1f}]"


def _pct(rate) -> str:
    return "—" if rate is None else f"{100 * rate[0]:.1f}% [{100 * rate[1]:.1f}, {100 * rate[2]:.1f}]"


def strong_section(ctx: ReportContext) -> str:
    facts = strong_facts(ctx.quick)
    name, _, sims = STRONG_BOT.partition(":")
    bot = f"`{name}` at {sims} simulations a move"
    lines = ["## Balance with the strong agent\n",
             f"The same questions with {bot} in every seat (the search agent that beats the "
             "greedy bot; see *Bot strength*), for both scorings: `single` (one round, most "
             "points wins) and `rounds` (rounds to 1,000 points). Each table is sized for a "
             "95% interval of ±2.5 points at 2 players and ±3 beyond. "
             f"Games played so far: {facts.played:,} of {facts.planned:,}; "
             "`farol goat-lords balance` plays the rest (resumable) and this section shows "
             "each answer as its games come in.\n",
             "| scoring | players | games | first seat − fair | attacker wins a duel |",
             "|---|---|---|---|---|"]
    for s in facts.seats:
        lines.append(f"| {s.scoring} | {s.players} | {s.games:,} of {s.planned:,} | "
                     f"{_edge(s.first, s.players)} | {_pct(s.attacker)} |")
    lines += ["", "One more wild in the opening hand (paired games, single scoring; the treated "
              "seat's win rate minus the same seat's in the same deal without it):\n",
              "| players | games | win rate gained |", "|---|---|---|"]
    for n, games, planned, effect in facts.extra_wild:
        shown = "—" if effect is None else (f"{100 * effect[0]:+.1f} pp [{100 * effect[1]:+.1f}, "
                                            f"{100 * effect[2]:+.1f}]")
        lines.append(f"| {n} | {games:,} of {planned:,} | {shown} |")
    lines += ["", "Other point values (single scoring; the agent plays by the values):\n",
              "| values | players | games | first seat − fair |", "|---|---|---|---|"]
    for name, n, games, planned, first in facts.values:
        lines.append(f"| {name} | {n} | {games:,} of {planned:,} | {_edge(first, n)} |")
    measured = [s for s in facts.seats if s.first is not None]
    if measured:
        fig, ax = plt.subplots(figsize=(6, 3.4))
        for k, scoring in enumerate(SCORINGS):
            pts = [s for s in measured if s.scoring == scoring]
            if not pts:
                continue
            xs = [s.players + (k - 0.5) * 0.12 for s in pts]
            ys = [s.first[0] * s.players for s in pts]
            err = [[(s.first[0] - s.first[1]) * s.players for s in pts],
                   [(s.first[2] - s.first[0]) * s.players for s in pts]]
            ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=f"{scoring} scoring")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("players")
        ax.set_ylabel("first seat's win rate × n (1 = fair)")
        ax.set_title("First seat with the strong agent in every seat")
        ax.legend(fontsize=8)
        path = ctx.save_figure(fig, "strong_first_seat")
        plt.close(fig)
        lines.append(f"\n![First seat with the strong agent]({path})")
    return "\n".join(lines)
