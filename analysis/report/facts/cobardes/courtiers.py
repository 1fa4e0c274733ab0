"""¡Cobardes!: which courtier is strongest, which weakest (in the war, courtiers renewed)?
The answer's facts, read once for the guide and the methods appendix alike."""

from __future__ import annotations

from analysis.cobardes.studies import balance, renewal
from analysis.report import separate
from analysis.report.facts.cobardes import records as R
from analysis.report.markdown import pct


def facts() -> dict:
    sol = R.renewal()
    vw = R.villain_war()
    base = {"vw": vw, "command": R.RENEWAL, "sweep": R.SWEEP, "villain_wins": None}
    if vw is not None and vw.complete:
        wins = vw.wins()
        base |= {"villain_wins": wins, "v_best": wins.index[0], "v_worst": wins.index[-1]}
        base |= ranked(wins, vw.win_error)
    if sol is None:
        return base | {"strength": None, "headline": None}
    table = renewal.value_table(sol)
    strength = balance.seat_neutral_strength(table).dropna()
    wins = ((1 + strength) / 2).round(6)
    out = base | {"table": table, "wins": wins, "best": wins.index[0],
                  "worst": wins.index[-1], "strength": strength,
                  "headline": f"{wins.index[0]} {pct(wins.iloc[0])}"}
    if out["villain_wins"] is not None:
        out |= {"headline": f"{out['v_best']} {pct(out['villain_wins'].iloc[0])}",
                "why": why(vw, table, out)}
    return out


def ranked(wins, error: float | None) -> dict:
    """Which courtiers may be the strongest and the weakest with villains: each win
    probability within ``error`` (the composition's largest miss, in win probability) of
    the first's. A single name is a clear strongest (weakest); where the miss is not
    measured nothing is clear."""
    half = error if error is not None else 1.0
    items = [{"name": n, "rate": float(w), "ci": (w - half, w + half)} for n, w in wins.items()]
    return {"v_top": [x["name"] for x in separate.contenders(items)],
            "v_bottom": [x["name"] for x in separate.contenders(items, highest=False)]}


def seat_neutral(table, name: str, rival: str) -> float:
    """``name``'s war value against ``rival``, both seats (the table is player 0's)."""
    return float(table.loc[name, rival] - table.loc[rival, name]) / 2


def why(vw: R.VillainWar, without, f: dict) -> str:
    """Where the strongest or weakest courtier differs with and without villains, one
    sentence from the data: the rival against whom its war moves most, and the villain
    worth most to it there. Empty where both agree."""
    for end, other in (("best", "strongest"), ("worst", "weakest")):
        name = f[f"v_{end}"]
        # Only a clear strongest (weakest) is said to differ.
        if name == f[end] or len(f.get("v_top" if end == "best" else "v_bottom", ())) != 1:
            continue
        rivals = [r for r in vw.table.columns if r != name]
        rival = max(rivals, key=lambda r: abs(seat_neutral(vw.table, name, r)
                                              - seat_neutral(without, name, r)))
        record = R.hidden_sweep()[(name, rival)]
        villains = record.villain_values(0)
        villain = max(villains, key=villains.get)
        return (f"The {name} is the {other} with villains but not without: its war against "
                f"the {rival} moves most, from {pct((1 + seat_neutral(without, name, rival)) / 2)} "
                f"of wars won to {pct((1 + seat_neutral(vw.table, name, rival)) / 2)}, and there "
                f"the {villain} is worth most to it ({villains[villain]:+z.2f} a battle).")
    return ""
