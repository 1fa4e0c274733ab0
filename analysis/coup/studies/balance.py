"""Balance: the first player's advantage and the Ambassador against the Inquisitor.

Measured on the solved 1v1 endgames (sweep records) and, where the engine reaches,
on the 2v2 positions of :mod:`analysis.coup.studies.larger` (the 2-player game's opening with
the 1-coin rule, ``?+?/-/1;?+?/-/2``, against both starting with 2 coins).
"""

from __future__ import annotations

import pandas as pd

from analysis.coup.model import EndgameRecord
from analysis.coup.studies.bluffing import frame
from analysis.coup.studies.larger import LargerRow
from games.coup import cards as C


def first_player(records: list[EndgameRecord]) -> pd.DataFrame:
    """Per deck: the mover's value at equal coins (moving first), and the 1-coin rule's
    effect: the mover's value with 1 coin against 2, beside 2 against 2."""
    df = frame(records)
    rows = []
    for deck, g in df.groupby("deck"):
        eq = g[g["mover"] == g["other"]]
        cell = {(m, o): v for m, o, v in zip(g["mover"], g["other"], g["value"], strict=True)}
        rows.append({
            "deck": deck,
            "equal_coin_pairs": len(eq),
            "mean_mover_value_equal_coins": float(eq["value"].mean()) if len(eq) else None,
            "mover_win_equal_coins": float(eq["win"].mean()) if len(eq) else None,
            "mover_lose_equal_coins": float(eq["lose"].mean()) if len(eq) else None,
            "value_1_vs_2": cell.get((1, 2)),
            "value_2_vs_2": cell.get((2, 2)),
        })
    return pd.DataFrame(rows)


def deck_difference(records: list[EndgameRecord]) -> pd.DataFrame:
    """Per coin pair: mover value with the Ambassador minus with the Inquisitor."""
    df = frame(records)
    table = df.pivot_table(index=["mover", "other"], columns="deck", values="value")
    if not set(C.DECKS) <= set(table.columns):
        return pd.DataFrame()
    out = (table["ambassador"] - table["inquisitor"]).rename("ambassador_minus_inquisitor")
    return out.reset_index()


def opening(larger_rows: dict[str, LargerRow]) -> pd.DataFrame:
    """The 2v2 opening positions from the larger-endgame runs (values where solved)."""
    rows = []
    for row in larger_rows.values():
        if row.case.startswith("2v2"):
            rows.append({k: getattr(row, k) for k in ("case", "deck", "turn_cap", "status",
                                                 "estimated_tree_nodes", "tree_value",
                                                 "tree_exploitability", "tree_iterations")})
    return pd.DataFrame(rows)
