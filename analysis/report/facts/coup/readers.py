"""What the Coup guide and the report's sections read: the stored endgame and bracket records, as frames."""

from __future__ import annotations

import pandas as pd

from analysis.coup import model
from analysis.coup.model import DEFAULT_CAP, MAIN_REVEALED, BracketRecord, EndgameRecord
from analysis.coup.studies import sweep

# The coins of the grids solved beyond the main one: each revealed pair, and cap 3.
REVEALED_COINS = (0, 2, 3, 5, 7)
CAP3_COINS = (0, 1, 2, 3, 4, 5, 6)


def endgame_records(cap: int = DEFAULT_CAP) -> list[EndgameRecord]:
    """The stored records of the main grid's endgames at ``cap`` (the cap scoring 0)."""
    return model.cached(sweep.grid(cap=cap))


def plain_brackets() -> dict[int, list[BracketRecord]]:
    """Bracket records on disk by turn cap (the main revealed pair, both decks)."""
    out: dict[int, list[BracketRecord]] = {}
    for cap in range(1, 8):
        recs = model.cached_brackets(sweep.bracket_grid(cap=cap))
        if recs:
            out[cap] = recs
    return out


def markov_brackets(revealed: tuple[str, str] = MAIN_REVEALED, caps=range(2, 8),
                    coins=sweep.COINS) -> dict[int, list[BracketRecord]]:
    """Markov-priced bracket records on disk by turn cap (:mod:`analysis.coup.guarantees`)
    of the endgames with ``revealed`` lost and ``coins`` each (both decks)."""
    out: dict[int, list[BracketRecord]] = {}
    for cap in caps:
        recs = model.cached_brackets(sweep.bracket_grid(coins, revealed=revealed, cap=cap),
                                     model.markov_brackets_dir())
        if recs:
            out[cap] = recs
    return out


def tightest(by_cap: dict[int, list[BracketRecord]],
             also: dict[int, list[BracketRecord]] | None = None):
    """Per endgame, the intersection of its brackets over every cap in ``by_cap``
    (:func:`analysis.coup.model.intersect_brackets`; movers of 7+ coins from cap 1), as a
    frame like :func:`bracket_frame`'s with the caps of the two ends; ``also``: more
    records by cap (the Markov-priced ones), merged with those of the same cap."""
    per_endgame: dict[tuple, dict[int, BracketRecord]] = {}
    for source in (by_cap, also or {}):
        for cap, records in source.items():
            for r in records:
                eg = r.endgame
                caps = per_endgame.setdefault((eg.deck, eg.mover_coins, eg.other_coins), {})
                caps[cap] = model.merge_brackets([caps[cap], r]) if cap in caps else r
    return pd.DataFrame([{"deck": deck, "mover": mover, "other": other}
                         | model.intersect_brackets(caps)
                         for (deck, mover, other), caps in per_endgame.items()])


def bracket_frame(records: list[BracketRecord]):
    """One row per bracket record: the endgame, its bracket, size, time and solve quality."""
    return pd.DataFrame([{
        "deck": r.endgame.deck, "mover": r.endgame.mover_coins,
        "other": r.endgame.other_coins, "cap": r.endgame.turn_cap,
        "lower_win": r.lower_win, "upper_win": r.upper_win, "width": r.width,
        "nodes": r.nodes, "seconds": r.compile_seconds + r.low["seconds"] + r.high["seconds"],
        "iterations": max(r.low["iterations"], r.high["iterations"]),
        "exploitability": max(r.low["exploitability"], r.high["exploitability"]),
        "decisive": bool(r.decisive_coup),
    } for r in records])


def with_closed(df, by_cap: dict, cap: int):
    """The cap-``cap`` grid with the movers of 7+ coins filled in from cap 1 (they Coup
    at once: their bracket is closed at cap 1 and never widens)."""
    if cap == 1 or 1 not in by_cap:
        return df
    one = bracket_frame(by_cap[1])
    return pd.concat([df, one[one["mover"] >= 7]], ignore_index=True)


def markov_tightest(rows: dict, key) -> dict[tuple, tuple[float, float, int]]:
    """Per ``key(row)``, the tightest Markov-priced bracket: (lower, upper, largest cap
    bracketed), intersecting the capped brackets with the guarantees at the deal (a
    bracket of their own)."""
    best: dict[tuple, tuple[float, float, int]] = {}
    for r in rows.values():
        lo, hi, cap = best.get(key(r), (0.0, 1.0, 0))
        lo, hi = max(lo, r.root_bracket[0]), min(hi, r.root_bracket[1])
        if r.status == "bracketed":
            lo, hi = max(lo, r.lower_win), min(hi, r.upper_win)
            cap = max(cap, r.turn_cap)
        best[key(r)] = (lo, hi, cap)
    return best


def full_game_best(rows: dict) -> dict[tuple, tuple[float, float, int]]:
    """Per (setup, deck), the first player's tightest bracket (:func:`markov_tightest`)."""
    return markov_tightest(rows, lambda r: (r.setup, r.deck))


def priced_records() -> list[EndgameRecord]:
    """The cap-priced endgame records on disk (the main grid; movers of 7+ at cap 1)."""
    return model.cached(sweep.grid(cap=DEFAULT_CAP), model.priced_dir())
