"""Whether the revealed cards change the uncapped values: each pair's tightest brackets."""

from __future__ import annotations

from analysis.coup.model import MAIN_REVEALED, REVEALED_SETS
from analysis.coup.solvers.endgames import SOLVER
from analysis.report.context import ReportContext
from analysis.report.facts.coup.readers import (
    REVEALED_COINS,
    bracket_frame,
    markov_brackets,
    plain_brackets,
    tightest,
)
from analysis.report.templating import fill, render


def revealed_bullet() -> list[str]:
    """The findings line on the revealed cards without a cap."""
    tights = revealed_brackets()
    if len(tights) < 2:
        return []
    changes = revealed_changes(tights)
    grid = sum(len(t) for rv, t in tights.items() if rv != MAIN_REVEALED)
    ups = sum(r.lower_win > m.upper_win for *_, r, m in changes)
    rich = sum(other >= 5 for _, _, other, *_ in changes)
    return [render("coup/appendix/revealed_bullet.md.j2", coins=REVEALED_COINS,
                   changes=len(changes), grid=grid, main=MAIN_REVEALED, ups=ups, rich=rich)]


def _revealed_markov(revealed: tuple[str, str]) -> dict[int, list[dict]]:
    """The Markov-priced bracket records of the revealed-cards grid for ``revealed``,
    by cap (from cap 1, where the movers of 7+ coins are closed)."""
    return markov_brackets(revealed, range(1, 8), REVEALED_COINS)


def revealed_brackets() -> dict[tuple[str, str], object]:
    """Per revealed pair, the tightest bracket of each endgame of the revealed-cards grid
    (coins :data:`REVEALED_COINS` each, both decks): the main pair's from every bracket
    on disk, the others' from their Markov-priced brackets (movers of 7+ coins at cap 1)."""
    out = {}
    for revealed in REVEALED_SETS:
        if revealed == MAIN_REVEALED:
            tight = tightest(plain_brackets(), markov_brackets())
            if len(tight):
                tight = tight[tight["mover"].isin(REVEALED_COINS)
                              & tight["other"].isin(REVEALED_COINS)]
        else:
            tight = tightest(_revealed_markov(revealed))
        if len(tight):
            out[revealed] = tight.sort_values(["deck", "mover", "other"], ignore_index=True)
    return out


def revealed_changes(tights: dict) -> list[tuple]:
    """The endgames whose uncapped value the revealed cards change *for sure*: their
    tightest bracket with another revealed pair is disjoint from the main pair's.
    ``(deck, mover, other, revealed, its bracket, the main pair's bracket)`` each."""
    main = tights.get(MAIN_REVEALED)
    if main is None:
        return []
    base = {(r.deck, r.mover, r.other): r for r in main.itertuples()}
    out = []
    for revealed, tight in tights.items():
        if revealed == MAIN_REVEALED:
            continue
        for r in tight.itertuples():
            m = base.get((r.deck, r.mover, r.other))
            if m is not None and (r.lower_win > m.upper_win or r.upper_win < m.lower_win):
                out.append((r.deck, r.mover, r.other, revealed, r, m))
    return out


def section_revealed_brackets(ctx: ReportContext) -> str:
    """The revealed-cards grid without a cap: Markov-priced brackets for every pair."""
    tights = revealed_brackets()
    others = [rv for rv in tights if rv != MAIN_REVEALED]
    if not others:
        return fill("coup/appendix/revealed.md.j2", others=[])
    grid = []
    for revealed in others:
        by_cap = _revealed_markov(revealed)
        frame = bracket_frame([r for recs in by_cap.values() for r in recs])
        for deck, g in tights[revealed].groupby("deck"):
            f = frame[frame["deck"] == deck]
            grid.append({"revealed": revealed, "deck": deck, "endgames": len(g),
                         "converged": int((g["width"] <= 1e-3).sum()),
                         "mean_width": g["width"].mean(),
                         "caps": sorted(f["cap"].unique()),
                         "iterations_low": int(f["iterations"].min()),
                         "iterations_high": int(f["iterations"].max()),
                         "exploitability": f["exploitability"].max()})
    order = [MAIN_REVEALED, *others]
    cells = {rv: {(r.deck, r.mover, r.other): r for r in tights[rv].itertuples()}
             for rv in order if rv in tights}
    keys = sorted({k for c in cells.values() for k in c})
    table = [(deck, a, b, [cells.get(rv, {}).get((deck, a, b)) for rv in order])
             for deck, a, b in keys]
    return fill("coup/appendix/revealed.md.j2", others=others, coins=REVEALED_COINS,
                grid=grid, solver=SOLVER.replace("CFR+", "CFR+ to exploitability 1e-4"),
                main=MAIN_REVEALED, order=order, table=table,
                changes=revealed_changes(tights))
