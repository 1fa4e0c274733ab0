"""The balance answers measured with the strong agent in every seat, as tables a user can
filter: one row per experiment of :func:`analysis.goat_lords.studies.plan.strong_plan`, with its
games, the answer and its 95% interval, the interval's half-width and whether it meets the
aim the tables are sized for (±2.5 points at 2 players, ±3 beyond).

Nothing is played here: the rows are those of :func:`analysis.goat_lords.studies.plan.load_strong`
(or of ``run_strong``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.goat_lords.studies.plan import PlanResults, aim
from analysis.goat_lords.studies.statistics import (
    duel_success,
    extra_wild_effect,
    seat_win_rates,
    wild_worth,
)

NAN = float("nan")


def is_finished(table: pd.DataFrame) -> pd.Series:
    """Which rows of a balance table have all their planned games."""
    return table["games"] >= table["planned"]


def _half(lo: float, hi: float) -> float:
    return (hi - lo) / 2


def _first_seat(df: pd.DataFrame, players: int) -> dict:
    """Seat 0's win rate minus the fair share, with its interval (NaN before any game)."""
    if df.empty:
        return {"edge": NAN, "lo": NAN, "hi": NAN, "half": NAN}
    r = seat_win_rates(df).set_index("seat").loc[0]
    fair = 1.0 / players
    return {"edge": r.win_rate - fair, "lo": r.lo - fair, "hi": r.hi - fair,
            "half": _half(r.lo, r.hi)}


def seat_table(res: PlanResults) -> pd.DataFrame:
    """First seat's edge and the attacker's share of duels, per scoring and player count."""
    rows = []
    for exp, df in res["seats"]:
        n = exp.players
        row = {"scoring": exp.label, "players": n, "games": len(df), "planned": exp.games,
               **_first_seat(df, n), "attacker": NAN, "attacker_lo": NAN, "attacker_hi": NAN,
               "attacker_half": NAN, "aim": aim(n)}
        if not df.empty and int(df["attacker_wins"].sum() + df["defender_wins"].sum()):
            d = duel_success(df)
            row.update(attacker=d["attacker_rate"], attacker_lo=d["lo"], attacker_hi=d["hi"],
                       attacker_half=_half(d["lo"], d["hi"]))
        rows.append(row)
    out = pd.DataFrame(rows)
    out["meets_aim"] = (out["half"] <= out["aim"]) & (out["attacker_half"] <= out["aim"])
    return out


def wild_table(res: PlanResults) -> pd.DataFrame:
    """One more wild in the opening hand, per scoring: the treated seat's win rate, its gain
    over the fair share (the answer) and, as a check, over the same deal without it."""
    control = {(e.label, e.players): df for e, df in res["seats"]}
    rows = []
    for exp, df in res["extra_wild"]:
        n = exp.players
        row = {"scoring": exp.label, "players": n, "games": len(df), "planned": exp.games, "win_rate": NAN,
               "gain": NAN, "lo": NAN, "hi": NAN, "half": NAN, "paired": NAN,
               "paired_lo": NAN, "paired_hi": NAN, "pairs": 0, "aim": aim(n)}
        if not df.empty:
            e = extra_wild_effect(df, control.get((exp.label, n), df.iloc[:0]), n)
            row.update(win_rate=e["win_rate"][0], gain=e["win"][0], lo=e["win"][1],
                       hi=e["win"][2], half=_half(*e["win"][1:]), pairs=e["pairs"])
            if e["pairs"] > 1:
                row.update(paired=e["win_paired"][0], paired_lo=e["win_paired"][1],
                           paired_hi=e["win_paired"][2])
        rows.append(row)
    out = pd.DataFrame(rows)
    out["meets_aim"] = out["half"] <= out["aim"]
    return out


def wild_slope_table(res: PlanResults) -> pd.DataFrame:
    """What each wild a seat receives over a game goes with, in both scorings: the slope of
    its win share on the wilds it received, from the seat tables (observational: a wild
    comes with the luck of the draw; 95% intervals clustered by game)."""
    rows = []
    for exp, df in res["seats"]:
        row = {"scoring": exp.label, "players": exp.players, "games": len(df),
               "planned": exp.games, "slope": NAN, "lo": NAN, "hi": NAN, "half": NAN,
               "aim": aim(exp.players)}
        if len(df) > 1:
            slope, lo, hi = wild_worth(df)["win"]
            row.update(slope=slope, lo=lo, hi=hi, half=_half(lo, hi))
        rows.append(row)
    out = pd.DataFrame(rows)
    out["meets_aim"] = out["half"] <= out["aim"]
    return out


def value_table(res: PlanResults) -> pd.DataFrame:
    """First seat's edge under other point values (single scoring)."""
    rows = [{"values": exp.label, "players": exp.players, "games": len(df), "planned": exp.games,
             **_first_seat(df, exp.players), "aim": aim(exp.players)}
            for exp, df in res["sensitivity"]]
    out = pd.DataFrame(rows)
    out["meets_aim"] = out["half"] <= out["aim"]
    return out


@dataclass(frozen=True)
class BalanceTables:
    """The three tables of the strong-agent balance, with what is played and planned."""

    seats: pd.DataFrame
    wild: pd.DataFrame
    values: pd.DataFrame
    wild_received: pd.DataFrame  # read from the seat tables' games (no games of its own)

    @classmethod
    def from_results(cls, res: PlanResults) -> BalanceTables:
        return cls(seat_table(res), wild_table(res), value_table(res), wild_slope_table(res))

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables with games of their own, by group of the plan."""
        return {"seats": self.seats, "extra_wild": self.wild, "sensitivity": self.values}

    @property
    def played(self) -> int:
        return int(sum(t["games"].sum() for t in self.tables().values()))

    @property
    def planned(self) -> int:
        return int(sum(t["planned"].sum() for t in self.tables().values()))

    def complete(self, group: str) -> bool:
        """Every table of the group has all its planned games."""
        t = self.tables()[group]
        return bool(is_finished(t).all())

    def answers(self) -> dict[str, pd.DataFrame]:
        """Every table of answers, the wild received included."""
        return {**self.tables(), "wild_received": self.wild_received}

    def finished(self) -> int:
        """How many tables of answers have all their games."""
        return sum(int(is_finished(t).sum()) for t in self.answers().values())

    def misses(self) -> list[str]:
        """The finished tables whose interval is wider than the aim, in words."""
        out = []
        for group, t in self.answers().items():
            for row in t[is_finished(t) & ~t["meets_aim"]].itertuples():
                what = getattr(row, "scoring", None) or getattr(row, "values", "single")
                out.append(f"{group.replace('_', ' ')} {row.players}p ({what})")
        return out
