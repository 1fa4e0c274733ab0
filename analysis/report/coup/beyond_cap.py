"""Beyond the cap: the state-keyed estimates where the brackets are still wide."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.coup import model
from analysis.coup.studies import abstraction as A
from analysis.coup.studies import sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import heatmaps
from analysis.report.templating import fill, render


def _abstraction_frame(records: list[A.Estimate]):
    """One row per estimate record. The rigorous bracket is read from the bracket records
    on disk now (brackets solved after the estimate narrow it); the record's own copy is
    the fallback."""
    rows = []
    for r in records:
        solved = [c for c in r.caps if c["status"] == "solved"]
        last = solved[-1] if solved else {}
        loss = r.loss or {}
        b = A.bracket_of(r.endgame) or r.bracket or {}
        where = A.compare(r.win, b) if b and r.win is not None else {}
        rows.append({
            "deck": r.endgame.deck, "mover": r.endgame.mover_coins,
            "other": r.endgame.other_coins, "win": r.win, "cap": r.estimate_cap,
            "converged": r.converged, "stopped": r.stopped, "change": r.change,
            "caps": solved, "nodes": last.get("nodes"), "iterations": last.get("iterations"),
            "exploitability": last.get("exploitability"),
            "lower_win": b.get("lower_win"), "upper_win": b.get("upper_win"),
            "bracket_caps": f"{b['lower_cap']}/{b['upper_cap']}" if b else None,
            "inside": where.get("inside"), "outside_by": where.get("outside_by"),
            "loss": loss.get("loss"), "exact_win": loss.get("exact_win"),
            "abstract_win_in_tree": (1 + loss["abstract_value_in_tree"]) / 2 if loss else None,
            "tree_iterations": loss.get("tree_iterations"),
            "tree_exploitability": loss.get("tree_exploitability"),
            "loss_iterations": (loss.get("abstraction") or {}).get("iterations"),
            "loss_exploitability": (loss.get("abstraction") or {}).get("exploitability"),
            "seconds": r.seconds,
        })
    return pd.DataFrame(rows)


def abstraction_bullet() -> list[str]:
    """The findings' line on the state-keyed estimate (empty without data)."""
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return []
    df = _abstraction_frame(records)
    inside = df.dropna(subset=["inside"])
    zero, sides = [], set()
    for r in df[(df["mover"] == 0) & (df["other"] == 0)].sort_values("deck").itertuples():
        side, margin = _favoured_side(r)
        zero.append((r.deck, r.win, margin))
        sides.add(side)
    verdict = {"mover": "the player to move is favoured beyond that uncertainty",
               "other": "the other player is favoured beyond that uncertainty",
               "none": "no side is clearly favoured at that accuracy"}
    closed = _closed_since(df)
    return [render("coup/appendix/abstraction_bullet.md.j2", max_cap=int(df["cap"].max()),
                   endgames=len(df), closed=len(closed),
                   closed_miss=closed["miss"].max() if len(closed) else None,
                   inside=int(inside["inside"].astype(bool).sum()), compared=len(inside),
                   converged=int(df["converged"].sum()), loss=df["loss"].median(), zero=zero,
                   call=verdict[sides.pop()] if len(sides) == 1 else "the decks disagree")
            ] + _memory_bullet(df)


def _nodes_at(caps: list[dict], cap: int) -> int | None:
    return next((c["nodes"] for c in caps if c["cap"] == cap), None)


def _growth(df) -> tuple[float, float] | None:
    """How fast the memory-keyed and plain graphs grow, from the records' node counts
    (``caps``: memory keys, ``caps_plain``: plain keys, merged per endgame): the median
    growth from cap 4 to 5 of the memory-keyed graph and a turn's from cap 4 to 8 of the
    plain one; None without both."""
    memory, plain = [], []
    for r in df.itertuples():
        m4, m5 = _nodes_at(r.caps, 4), _nodes_at(r.caps, 5)
        if m4 and m5:
            memory.append(m5 / m4)
        caps_plain = r.caps_plain if isinstance(r.caps_plain, list) else []
        p4, p8 = _nodes_at(caps_plain, 4), _nodes_at(caps_plain, 8)
        if p4 and p8:
            plain.append((p8 / p4) ** 0.25)
    if not memory or not plain:
        return None
    return float(np.median(memory)), float(np.median(plain))


def _memory_bullet(plain) -> list[str]:
    """The findings' line on the memory keys (empty without data)."""
    records = A.cached(model.data_dir("abstraction_memory"))
    if not records:
        return []
    df = _abstraction_frame(records).merge(plain, on=["deck", "mover", "other"],
                                           suffixes=("", "_plain"))
    df = df.dropna(subset=["loss", "loss_plain"])
    if not len(df):
        return []
    return [render("coup/appendix/memory_bullet.md.j2", plain=df["loss_plain"].median(),
                   memory=df["loss"].median(), endgames=len(df))]


_STOP_WORDS = {"caps exhausted": "largest cap tried", "time limit": "endgame's time limit",
               "over the node limit": "node limit"}


def section_abstraction(ctx: ReportContext) -> str:
    """Beyond the cap: the state-keyed abstraction's estimate where the brackets are wide."""
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return fill("coup/appendix/abstraction.md.j2", df=None).rstrip("\n")
    df = _abstraction_frame(records)
    closed = _closed_since(df)
    inside = df.dropna(subset=["inside"])
    loss = df.dropna(subset=["loss"])
    reasons = df.loc[~df["converged"].astype(bool), "stopped"].value_counts()
    sizes = [(row.deck, row.mover, row.other, row.caps)
             for row in df[df["mover"] == df["other"]].itertuples() if row.mover in (0, 3)]
    img = heatmaps(ctx, df, "win", "estimated P(mover wins)", "abstraction_win", "RdBu",
                   0.0, 1.0)
    return fill(
        "coup/appendix/abstraction.md.j2", df=df, params=records[0].parameters,
        closed=closed, closed_rows=list(closed.sort_values(["deck", "mover", "other"])
                                        .itertuples()),
        wide=len(A.scope(pairs=[(a, b) for a in sweep.COINS for b in sweep.COINS])),
        pairs=sorted(set(zip(df["mover"], df["other"], strict=True))),
        converged=int(df["converged"].sum()),
        reasons=[(n, _STOP_WORDS.get(k, k)) for k, n in reasons.items()],
        inside=inside, inside_count=int(inside["inside"].astype(bool).sum()), loss=loss,
        gap=(loss["abstract_win_in_tree"] - loss["exact_win"]).abs(),
        iterations_low=int(df["iterations"].min()), iterations_high=int(df["iterations"].max()),
        sizes=sizes, chart=img,
        rows=[(r, "converged" if r.converged else _STOP_WORDS.get(r.stopped, r.stopped))
              for r in df.sort_values(["deck", "mover", "other"]).itertuples()],
        solver=A.SOLVER, tree_solver=A.TREE_SOLVER, favoured=_favoured(df))


def section_memory_keys(ctx: ReportContext) -> str:
    """The claim-memory abstraction beside the plain one: how much the forgetting costs."""
    records = A.cached(model.data_dir("abstraction_memory"))
    if not records:
        return fill("coup/appendix/memory_keys.md.j2", df=None)
    memory = _abstraction_frame(records)
    plain = _abstraction_frame(A.cached(model.data_dir("abstraction")))
    on = ["deck", "mover", "other"]
    df = memory.merge(plain, on=on, how="left", suffixes=("", "_plain"))
    both = df.dropna(subset=["loss", "loss_plain"])
    return fill("coup/appendix/memory_keys.md.j2", df=df, params=records[0].parameters,
                growth=_growth(df), both=both,
                better=int((both["loss"] < both["loss_plain"]).sum()),
                gap=(both["abstract_win_in_tree"] - both["exact_win"]).abs().max()
                if len(both) else None,
                rows=list(df.sort_values(on).itertuples()),
                memory_loss=df.dropna(subset=["loss"]), solver=A.MEMORY_SOLVER,
                tree_solver=A.TREE_SOLVER)


def _closed_since(df):
    """The estimates (rows of :func:`_abstraction_frame`) whose endgame's bracket has
    closed since they were made, with the value now known (``value``, the bracket's
    midpoint) and the estimate's ``miss``, both in win probability."""
    closed = df[(df["upper_win"] - df["lower_win"]) <= A.CONVERGED_WIDTH].copy()
    closed["value"] = (closed["lower_win"] + closed["upper_win"]) / 2
    closed["miss"] = (closed["win"] - closed["value"]).abs()
    return closed


def _favoured_side(r) -> tuple[str, float]:
    """Whom one estimate favours (``"mover"``, ``"other"`` or ``"none"``) against its own
    uncertainty, and that uncertainty: the larger of the last change between caps (in win
    probability) and the loss at cap 3 (a profile with exploitability e has a value within
    2e of the game's, i.e. within e in win probability)."""
    margin = max(r.change or 0.0, r.loss or 0.0)
    side = "none" if abs(r.win - 0.5) <= margin else "mover" if r.win > 0.5 else "other"
    return side, margin


def _favoured(df) -> list[tuple]:
    """Who the estimate favours at equal coins, per deck (:func:`_favoured_side`): the
    sides with their endgames, ``(mover, other, estimate, margin)`` each."""
    words = {"mover": "the player to move", "other": "the other player",
             "none": "neither, within the uncertainty"}
    out = []
    for deck, g in df[df["mover"] == df["other"]].groupby("deck"):
        groups: dict[str, list[tuple]] = {words[k]: [] for k in ("mover", "other", "none")}
        for r in g.sort_values("mover").itertuples():
            side, margin = _favoured_side(r)
            groups[words[side]].append((r.mover, r.other, r.win, margin))
        out.append((deck, [(side, cells) for side, cells in groups.items() if cells]))
    return out
