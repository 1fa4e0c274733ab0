"""Statistics of Goat Lords tournaments: the answers of the report, with 95% intervals.

Each function reads the rows of :mod:`analysis.goat_lords.studies.tournament` (one per game).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis.statistics.intervals import Z95, wilson


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """A mean and its 95% normal-approximation interval."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return (float("nan"),) * 3
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return m, m - half, m + half


def _split(series: pd.Series, cast=float) -> list[list]:
    return [[cast(v) for v in str(s).split(";") if v != ""] for s in series]


def win_share(winners: Sequence[int], seat: int) -> float:
    """A seat's share of one game's win: ties share it."""
    return 1.0 / len(winners) if seat in winners else 0.0


def player_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): bot, win share, herd points, wilds received."""
    out = []
    for row, winners, points, wilds, seating in zip(
        df.itertuples(), _split(df["winners"], int), _split(df["points"], int),
        _split(df["wilds"], int), _split(df["seating"], str), strict=True,
    ):
        for seat in range(row.players):
            out.append({"index": row.index, "players": row.players, "seat": seat,
                        "bot": seating[seat], "win": win_share(winners, seat), "points": points[seat],
                        "wilds": wilds[seat]})
    return pd.DataFrame(out)


def seat_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each seat with its 95% interval, against the fair share 1/n."""
    rows = []
    pr = player_rows(df)
    for (players, seat), group in pr.groupby(["players", "seat"]):
        p, lo, hi = wilson(group["win"].sum(), len(group))
        rows.append({"players": players, "seat": seat, "games": len(group), "win_rate": p,
                     "lo": lo, "hi": hi, "fair": 1.0 / players})
    return pd.DataFrame(rows)


def bot_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each bot over all its seats, with its 95% interval."""
    rows = []
    for bot, group in player_rows(df).groupby("bot"):
        p, lo, hi = wilson(group["win"].sum(), len(group))
        rows.append({"bot": bot, "seats_played": len(group), "win_rate": p, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def ratio_ci(num: Sequence[float], den: Sequence[float]) -> tuple[float, float, float]:
    """``sum(num) / sum(den)`` over games with a 95% interval clustered by game.

    Duels of one game are not independent (same hands, same herds), so the
    standard error comes from the per-game sums (delta method), not from the
    duel count.
    """
    a, d = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    n = len(a)
    r = float(a.sum() / d.sum())
    e = a - r * d
    se = math.sqrt(n / max(1, n - 1) * float((e * e).sum())) / float(d.sum())
    return r, max(0.0, r - Z95 * se), min(1.0, r + Z95 * se)


def duel_success(df: pd.DataFrame) -> dict:
    """Share of duels the attacker wins (95% interval clustered by game) and duels per game."""
    att, dfn = int(df["attacker_wins"].sum()), int(df["defender_wins"].sum())
    p, lo, hi = ratio_ci(df["attacker_wins"], df["attacker_wins"] + df["defender_wins"])
    per_game = mean_ci(df["attacker_wins"] + df["defender_wins"])
    return {"duels": att + dfn, "attacker_rate": p, "lo": lo, "hi": hi,
            "per_game": per_game[0], "per_game_lo": per_game[1], "per_game_hi": per_game[2]}


def wild_worth(df: pd.DataFrame) -> dict:
    """What a wild received is worth: win-rate and herd-point slopes per extra wild.

    Ordinary least squares of a seat's win share (and herd points) on the number of
    wilds it received over the round, with the player count as fixed effect: an
    observational estimate (a wild comes with the luck of the draw, nothing else is
    controlled). The seats of one game are dependent (one seat's win is the others'
    loss), so the 95% intervals use standard errors clustered by game.
    """
    pr = player_rows(df)
    if pr.empty:
        return {}
    # Demean within player count (fixed effect), then a one-regressor slope.
    x = pr["wilds"] - pr.groupby("players")["wilds"].transform("mean")
    out = {"seats": len(pr)}
    for target in ("win", "points"):
        y = pr[target] - pr.groupby("players")[target].transform("mean")
        sxx = float((x * x).sum())
        slope = float((x * y).sum()) / sxx
        resid = y - slope * x
        cluster = pr["players"].astype(str) + ":" + pr["index"].astype(str)
        scores = (x * resid).groupby(cluster).sum()
        g = len(scores)
        se = math.sqrt(g / max(1, g - 1) * float((scores * scores).sum())) / sxx
        out[target] = (slope, slope - Z95 * se, slope + Z95 * se)
    by = []
    for w, group in pr.groupby(pr["wilds"].clip(upper=3)):
        fair = float((1.0 / group["players"]).mean())
        p, lo, hi = wilson(group["win"].sum(), len(group))
        by.append({"wilds": int(w), "seats": len(group), "win_rate": p, "lo": lo, "hi": hi,
                   "fair": fair, "points": float(group["points"].mean())})
    out["by_count"] = pd.DataFrame(by)
    return out


def extra_wild_effect(treated: pd.DataFrame, control: pd.DataFrame, players: int) -> dict:
    """What one more wild in the opening hand is worth, with 95% intervals.

    Game ``i`` of the treated experiment is game ``i`` of the control with seat
    ``i % players`` dealt one more wild (in place of its cheapest goat); the deal
    is the same. The answer, ``win``, is the treated seat's win share minus the
    fair share 1/players, its seats weighted equally. Without the wild, a seat
    taken in turn wins exactly 1/players on average (the win shares of a game sum
    to one), so the fair share is an exact control and adds no noise. ``win_paired``
    compares with the same seat of the same deal without the wild instead: the same
    quantity, noisier because the two games soon part ways. ``points`` is the herd
    points gained over the paired games.
    """
    shares = [(i % players, win_share(w, i % players))
              for i, w in zip(treated["index"], _split(treated["winners"], int), strict=True)]
    by_seat = pd.DataFrame(shares, columns=["seat", "win"]).groupby("seat")["win"]
    if len(shares) < 2 * players or by_seat.count().min() < 2:
        rate = (float("nan"),) * 3
    else:
        m = float(by_seat.mean().mean())
        se = math.sqrt(float((by_seat.var(ddof=1) / by_seat.count()).sum())) / by_seat.ngroups
        rate = (m, m - Z95 * se, m + Z95 * se)
    fair = 1.0 / players
    merged = treated.merge(control, on="index", suffixes=("_t", "_c"))
    wins, points = [], []
    for row, w_t, w_c in zip(merged.itertuples(), _split(merged["winners_t"], int),
                             _split(merged["winners_c"], int), strict=True):
        seat = row.index % players
        wins.append(win_share(w_t, seat) - win_share(w_c, seat))
        points.append(int(str(row.points_t).split(";")[seat]) - int(str(row.points_c).split(";")[seat]))
    return {"games": len(treated), "win_rate": rate, "win": tuple(x - fair for x in rate),
            "pairs": len(merged), "win_paired": mean_ci(wins), "points": mean_ci(points)}


def game_length(df: pd.DataFrame) -> dict:
    """Turns per round and decisions per game: mean (95% interval), median and 5–95%."""
    turns = df["turns"].astype(float)
    m, lo, hi = mean_ci(turns)
    p5, p50, p95 = np.percentile(turns, [5, 50, 95])
    return {"turns": m, "lo": lo, "hi": hi, "median": p50, "p5": p5, "p95": p95,
            "decisions": float(df["decisions"].mean()), "reshuffle_rate": float((df["reshuffles"] > 0).mean())}


def pct(p: float, lo: float, hi: float) -> str:
    """A rate and its interval as percentages: ``51.2% [49.4, 53.0]``."""
    return f"{100 * p:z.1f}% [{100 * lo:z.1f}, {100 * hi:z.1f}]"
