"""The brackets on the uncapped values: the cap as a loss and a win, then priced by Markov guarantees."""

from __future__ import annotations

import pandas as pd

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import heatmaps
from analysis.report.facts.coup.readers import (
    bracket_frame,
    markov_brackets,
    plain_brackets,
    tightest,
    with_closed,
)
from analysis.report.templating import fill, render
from games.coup import cards as C


def with_larger_caps(by_cap: dict, cap: int, converged: int) -> str:
    """", N with the larger caps too" when brackets above ``cap`` close more endgames."""
    if max(by_cap) <= cap:
        return ""
    t = tightest(by_cap)
    n = int((t["width"] <= 1e-3).sum())
    return (render("coup/appendix/with_larger_caps.md.j2", cap=max(by_cap), converged=n)
            if n != converged else "")


def _widths_below(extra, by_cap: dict) -> list[float | None]:
    """For each row of ``extra``, the width of its endgame's tightest bracket at the caps
    below the row's (``None`` without one)."""
    out = []
    for r in extra.itertuples():
        below = tightest({c: recs for c, recs in by_cap.items() if c < r.cap})
        m = below[(below["deck"] == r.deck) & (below["mover"] == r.mover)
                  & (below["other"] == r.other)] if len(below) else below
        out.append(float(m["width"].iloc[0]) if len(m) else None)
    return out


def section_brackets(ctx: ReportContext) -> str:
    """Rigorous bounds on the uncapped values, how they narrow with the cap, convergence."""
    by_cap = plain_brackets()
    if not by_cap:
        return fill("coup/appendix/brackets.md.j2", caps=None)
    frames = {cap: bracket_frame(recs) for cap, recs in by_cap.items()}
    caps = []
    for cap, df in sorted(frames.items()):
        full = with_closed(df, by_cap, cap)
        for deck, g in full.groupby("deck"):
            own = df[df["deck"] == deck]
            if len(own):
                caps.append({"cap": cap, "deck": deck, "endgames": len(g),
                             "converged": int((g["width"] <= 1e-3).sum()),
                             "mean_width": g["width"].mean(), "max_width": g["width"].max(),
                             "nodes": own["nodes"].max(),
                             "iterations_low": int(own["iterations"].min()),
                             "iterations_high": int(own["iterations"].max()),
                             "exploitability": own["exploitability"].max()})
    facts = {"caps": caps, "solver": SOLVER.replace("CFR+", "CFR+ to exploitability 1e-4")}
    # Per deck, the largest cap bracketed for every endgame (movers of 7+ from cap 1).
    best = {}
    for deck in C.DECKS:
        cs = [c for c, f in frames.items()
              if len(with_closed(f[f["deck"] == deck], by_cap, c)) >= len(sweep.COINS) ** 2]
        if cs:
            best[deck] = max(cs)
    if not best:
        return fill("coup/appendix/brackets.md.j2", best=[], **facts)
    df = pd.concat([with_closed(frames[c][frames[c]["deck"] == d], by_cap, c)
                    .query("deck == @d") for d, c in best.items()], ignore_index=True)
    img = heatmaps(ctx, df, "width", "bracket width", "bracket_width", "viridis", 0.0, 1.0)
    grids = []
    for deck, cap in best.items():
        g = df[df["deck"] == deck]
        conv = g[g["width"] <= 1e-3]
        cell = {(r.mover, r.other): r for r in g.itertuples()}
        grids.append({"deck": deck, "cap": cap, "converged": len(conv), "endgames": len(g),
                      "words": _converged_groups(conv),
                      "rows": [(a, [cell.get((a, b)) for b in sweep.COINS])
                               for a in sweep.COINS]})
    # Narrowing with the cap, over the caps bracketed for every endgame of the deck.
    shown = sorted({c for c in frames if any(c <= b for b in best.values())})
    narrowing = []
    for deck, cap in best.items():
        cells = []
        for c in shown:
            g = frames[c][(frames[c]["deck"] == deck) & (frames[c]["mover"] < 7)]
            cells.append(g["width"].mean() if c <= cap and len(g) else None)
        narrowing.append((deck, cells))
    extra = pd.concat([f[(f["deck"] == d) & (c > best.get(d, 0))].assign(cap=c)
                       for c, f in frames.items() for d in C.DECKS], ignore_index=True)
    larger = None
    if len(extra):
        extra = extra.sort_values(["deck", "cap", "mover", "other"], ignore_index=True)
        extra["width_below"] = pd.Series(_widths_below(extra, by_cap), dtype=float)
        closed = extra[extra["width"] <= 1e-3]
        tight = tightest(by_cap)
        larger = {"rows": list(extra.itertuples()), "decisive": bool(extra["decisive"].any()),
                  "closed": len(closed), "closed_words": _converged_groups(closed),
                  "unmoved": int((extra["width_below"] - extra["width"] < 1e-4).sum()),
                  "tight_converged": int((tight["width"] <= 1e-3).sum()), "tight": len(tight)}
    return fill("coup/appendix/brackets.md.j2", best=list(best.items()), chart=img,
                grids=grids, coins=sweep.COINS, shown=shown, narrowing=narrowing,
                extra=larger, **facts)


def section_markov_brackets(ctx: ReportContext) -> str:
    """Brackets whose cap pays the Markov guarantees: how far they close the endgames."""
    plain, markov = plain_brackets(), markov_brackets()
    if not markov:
        return fill("coup/appendix/markov_brackets.md.j2", caps=None)
    info = [r.markov for recs in markov.values() for r in recs]
    frames = {cap: bracket_frame(recs) for cap, recs in markov.items()}
    caps = []
    for cap, df in sorted(frames.items()):
        base = bracket_frame(plain.get(cap, []))
        for deck, g in df.groupby("deck"):
            same = base[(base["deck"] == deck)].merge(g[["mover", "other"]]) if len(base) else base
            caps.append({"cap": cap, "deck": deck, "endgames": len(g),
                         "converged": int((g["width"] <= 1e-3).sum()),
                         "mean_width": g["width"].mean(),
                         "plain_width": same["width"].mean() if len(same) else None,
                         "nodes": g["nodes"].max(), "iterations_low": int(g["iterations"].min()),
                         "iterations_high": int(g["iterations"].max()),
                         "exploitability": g["exploitability"].max()})
    steps = []
    ordered = sorted(frames)
    for low, high in zip(ordered, ordered[1:], strict=False):
        pair = frames[low].merge(frames[high], on=["deck", "mover", "other"],
                                 suffixes=("_a", "_b"))
        pair = pair[pair["width_a"] > 1e-3]
        if len(pair):
            steps.append({"low": low, "high": high, "open": len(pair),
                          "closed": int((pair["width_b"] <= 1e-3).sum()),
                          "stuck": list(pair[pair["width_a"] - pair["width_b"] < 1e-4]
                                        .itertuples()),
                          "width_before": pair["width_a"].mean(),
                          "width_after": pair["width_b"].mean()})
    tight = tightest(plain, markov)
    conv = tight[tight["width"] <= 1e-3]
    before = tightest(plain)
    img = heatmaps(ctx, tight, "width", "tightest bracket width", "bracket_width_markov",
                   "viridis", 0.0, 1.0)
    grids = []
    for deck in C.DECKS:
        g = tight[tight["deck"] == deck]
        if len(g):
            cell = {(r.mover, r.other): r for r in g.itertuples()}
            grids.append((deck, [(a, [cell.get((a, b)) for b in sweep.COINS])
                                 for a in sweep.COINS]))
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[(equal["lower_win"] > 0.5) | (equal["upper_win"] < 0.5)]
    return fill("coup/appendix/markov_brackets.md.j2",
                sizes=sorted({m["positions"] for m in info}),
                seconds=max(m["seconds"] for m in info),
                rounds=sorted({m["rounds"] for m in info}), caps=caps,
                solver=SOLVER.replace("CFR+", "CFR+ to exploitability 1e-4"), steps=steps,
                converged=len(conv), endgames=len(tight),
                plain_converged=int((before["width"] <= 1e-3).sum()),
                width=tight["width"].mean(), plain_width=before["width"].mean(),
                words=_converged_groups(conv), chart=img, grids=grids, coins=sweep.COINS,
                equal=len(equal), sure=list(sure.itertuples()))


def markov_bullet(by_cap: dict) -> list[str]:
    """The findings' line on the Markov-priced brackets (empty without data)."""
    markov = markov_brackets()
    if not markov:
        return []
    tight, before = tightest(by_cap, markov), tightest(by_cap)
    n, n0 = int((tight["width"] <= 1e-3).sum()), int((before["width"] <= 1e-3).sum())
    return [render("coup/appendix/markov_bullet.md.j2", caps=sorted(markov), converged=n,
                   endgames=len(tight), plain_converged=n0, width=tight["width"].mean(),
                   plain_width=before["width"].mean())]


def _converged_groups(conv) -> list[tuple]:
    """The converged endgames by deck, for the words of the templates: ``(deck, every
    mover of 7+ coins among them, the other (mover, other) pairs)``."""
    groups = []
    for deck, g in conv.groupby("deck"):
        # Movers of 7+ coins Coup at once: named as a group when all three are there.
        every_rich = set(range(7, 10)) <= set(g["mover"])
        rest = g[g["mover"] < 7] if every_rich else g
        groups.append((deck, every_rich,
                       sorted(zip(rest["mover"], rest["other"], strict=True))))
    return groups
