"""The solved 1v1 endgames: values by coins, the cap-3 grid, revealed cards, the turn cap."""

from __future__ import annotations

import numpy as np

from analysis.coup import model
from analysis.coup.model import DEFAULT_CAP, MAIN_REVEALED, REVEALED_SETS
from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import bluffing, sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import heatmaps, solver_note
from analysis.report.facts.coup.readers import CAP3_COINS, REVEALED_COINS, endgame_records
from analysis.report.templating import fill


def section_endgames(ctx: ReportContext) -> str:
    records = endgame_records()
    if not records:
        return fill("coup/appendix/endgames.md.j2", rows=[])
    df = bluffing.frame(records)
    checked = df.dropna(subset=["openspiel_exploitability"])
    gap = (checked["openspiel_exploitability"] - checked["exploitability"]).abs().max() \
        if len(checked) else float("nan")
    value_chart = heatmaps(ctx, df, "value", "value of the mover", "endgame_value", "RdBu",
                           -1, 1)
    draw_chart = heatmaps(ctx, df, "draw", "P(draw at the cap)", "endgame_draw", "Greys", 0, 1)
    sure = df[df["mover"] >= 7]
    return fill("coup/appendix/endgames.md.j2", revealed=MAIN_REVEALED, solved=len(records),
                expected=len(sweep.grid()), cap=DEFAULT_CAP, note=solver_note(df),
                checked=len(checked), gap=gap, nodes_low=int(df["nodes"].min()),
                nodes_high=int(df["nodes"].max()), infosets_low=int(df["infosets"].min()),
                infosets_high=int(df["infosets"].max()), seconds=df["seconds"].sum(),
                value_chart=value_chart, draw_chart=draw_chart,
                sure={"low": sure["win"].min(), "high": sure["win"].max(),
                      "positions": len(sure)} if len(sure) else None,
                rows=list(df.sort_values(["deck", "mover", "other"]).itertuples()),
                solver=SOLVER)


def section_cap3(ctx: ReportContext) -> str:
    """Three turns (the mover twice): the Inquisitor deck on a coarser coin grid."""
    expected = [eg for eg in sweep.grid(CAP3_COINS, decks=("inquisitor",), cap=3)
                if eg.turn_cap == 3]
    records = model.cached(expected)
    if not records:
        return fill("coup/appendix/cap3.md.j2", rows=[], coins=CAP3_COINS)
    df = bluffing.frame(records)
    value_chart = heatmaps(ctx, df, "value", "mover value, cap 3", "cap3_value", "RdBu", -1, 1)
    draw_chart = heatmaps(ctx, df, "draw", "P(draw), cap 3", "cap3_draw", "Greys", 0, 1)
    return fill("coup/appendix/cap3.md.j2", coins=CAP3_COINS, solved=len(records),
                expected=len(expected), nodes_low=int(df["nodes"].min()),
                nodes_high=int(df["nodes"].max()), note=solver_note(df),
                value_chart=value_chart, draw_chart=draw_chart,
                claims=list(bluffing.claim_summary(records).itertuples()),
                cards=list(bluffing.character_values(records).itertuples()),
                rows=list(df.sort_values(["mover", "other"]).itertuples()), solver=SOLVER)


def section_revealed(ctx: ReportContext) -> str:
    """How the revealed cards (which change what can be dealt) move the values."""
    main = {(r.endgame.deck, r.endgame.mover_coins, r.endgame.other_coins): r
            for r in endgame_records()}
    rows = []
    for revealed in REVEALED_SETS:
        records = model.cached(sweep.grid(REVEALED_COINS, revealed=revealed))
        for deck in sorted({r.endgame.deck for r in records}):
            sub = [r for r in records if r.endgame.deck == deck]
            diffs = [abs(r.value - main[(deck, r.endgame.mover_coins,
                                          r.endgame.other_coins)].value)
                     for r in sub if (deck, r.endgame.mover_coins,
                                      r.endgame.other_coins) in main]
            rows.append((revealed, deck, len(sub), np.mean([r.value for r in sub]),
                         max(diffs) if diffs else float("nan"),
                         max(r.exploitability for r in sub),
                         min(r.iterations for r in sub), max(r.iterations for r in sub)))
    text = fill("coup/appendix/revealed_capped.md.j2", rows=rows, coins=REVEALED_COINS,
                solver=SOLVER, main=MAIN_REVEALED)
    return text if rows else text.rstrip("\n")


def section_turn_cap(ctx: ReportContext) -> str:
    try:
        rows = sweep.load_cap_study()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return fill("coup/appendix/turn_cap.md.j2", rows=None)
    by_pos: dict = {}
    for r in rows.values():
        by_pos.setdefault((r.deck, r.mover_coins, r.other_coins), {})[r.turn_cap] = r
    settled = []
    for pos, caps in sorted(by_pos.items()):
        if 2 in caps and 3 in caps:
            same = abs(caps[2].value - caps[3].value) <= 1e-3
            word = ("settled" if caps[3].draw <= 1e-3 else "unchanged, draws remain") \
                if same else "still moving"
            settled.append((pos[1], pos[2], word))
    return fill("coup/appendix/turn_cap.md.j2", solver=SOLVER, settled=settled,
                rows=sorted(rows.values(), key=lambda r: (r.deck, r.mover_coins,
                                                          r.other_coins, r.turn_cap)),
                moves=[abs(c[3].value - c[2].value) for c in by_pos.values()
                       if 2 in c and 3 in c])
