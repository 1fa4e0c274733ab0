"""Whether the revealed cards change the uncapped values: each pair's tightest brackets."""

from __future__ import annotations

from analysis.coup.model import MAIN_REVEALED, REVEALED_SETS
from analysis.coup.solvers.endgames import SOLVER
from analysis.report.context import ReportContext
from analysis.report.coup.tables import win_cell
from analysis.report.guides.coup.readers import (
    REVEALED_COINS,
    bracket_frame,
    markov_brackets,
    plain_brackets,
    tightest,
)


def revealed_bullet() -> list[str]:
    """The findings line on the revealed cards without a cap."""
    tights = revealed_brackets()
    if len(tights) < 2:
        return []
    changes = revealed_changes(tights)
    grid = sum(len(t) for rv, t in tights.items() if rv != MAIN_REVEALED)
    ups = sum(r.lower_win > m.upper_win for *_, r, m in changes)
    rich = sum(other >= 5 for _, _, other, *_ in changes)
    return [f"- **Revealed cards, without a cap** (Markov-priced brackets, coins "
            f"{', '.join(map(str, REVEALED_COINS))} each): in {len(changes)} of {grid} "
            f"endgames the revealed pair moves the mover's uncapped win probability for sure "
            f"away from {'-'.join(MAIN_REVEALED)}'s ({ups} up, {len(changes) - ups} down; "
            f"{rich} of them with the other on 5+ coins); elsewhere the brackets overlap. "
            "See *Revealed cards without a cap*."]


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
    lines = ["## Revealed cards without a cap\n"]
    tights = revealed_brackets()
    others = [rv for rv in tights if rv != MAIN_REVEALED]
    if not others:
        return "\n".join(lines + ["Not run yet: `farol coup brackets --markov --revealed "
                                   "duke-captain --coins 0,2,3,5,7`."])
    lines += [
        "The capped values of *Revealed cards* describe two turns. The same grid (coins "
        f"{', '.join(map(str, REVEALED_COINS))} each, both decks) is bracketed without a "
        "cap as the main pair is (*Pricing the cap*): the cap pays each player's Markov "
        "guarantee, computed on the position graph of that revealed pair, and both ends "
        "are the solved strategies' guarantees by exact best response. Movers with 7+ "
        "coins are closed at cap 1.\n",
        "| revealed | deck | endgames | converged (width <= 0.001) | mean width | caps | "
        "iterations | exploitability (max) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for revealed in others:
        by_cap = _revealed_markov(revealed)
        frame = bracket_frame([r for recs in by_cap.values() for r in recs])
        tight = tights[revealed]
        for deck, g in tight.groupby("deck"):
            f = frame[frame["deck"] == deck]
            lines.append(
                f"| {'-'.join(revealed)} | {deck} | {len(g)} | "
                f"{int((g['width'] <= 1e-3).sum())} | {g['width'].mean():z.3f} | "
                f"{'/'.join(str(c) for c in sorted(f['cap'].unique()))} | "
                f"{int(f['iterations'].min())}-{int(f['iterations'].max())} | "
                f"{f['exploitability'].max():z.1e} |")
    lines.append(f"\n(solver: {SOLVER.replace('CFR+', 'CFR+ to exploitability 1e-4')} with "
                 "winning Coups played, each endgame solved twice.)\n")
    order = [MAIN_REVEALED, *others]
    lines += [
        "The mover's win probability without a cap by revealed pair (mover's lost card - "
        "other's lost card; tightest bracket on disk, one number where it has converged; "
        f"the {'-'.join(MAIN_REVEALED)} column is the main sweep's):\n",
        "| deck | mover / other | " + " | ".join("-".join(rv) for rv in order) + " |",
        "|---|---|" + "---|" * len(order),
    ]
    cells = {rv: {(r.deck, r.mover, r.other): r for r in tights[rv].itertuples()}
             for rv in order if rv in tights}
    keys = sorted({k for c in cells.values() for k in c})
    for deck, a, b in keys:
        row = [win_cell(cells[rv][(deck, a, b)]) if (deck, a, b) in cells.get(rv, {})
               else "–" for rv in order]
        lines.append(f"| {deck} | {a}/{b} | " + " | ".join(row) + " |")
    changes = revealed_changes(tights)
    if changes:
        words = [f"{deck} {a}/{b} with {'-'.join(rv)} {win_cell(r, False)} against "
                 f"{win_cell(m, False)}" for deck, a, b, rv, r, m in changes]
        lines.append(
            f"\nIn {len(changes)} endgames the revealed cards change the uncapped value for "
            "sure (the brackets are disjoint): " + "; ".join(words) + ". Elsewhere the "
            "brackets overlap: what the revealed cards change is within what the cap still "
            "leaves open.\n")
    else:
        lines.append("\nEverywhere the brackets of the different revealed pairs overlap: "
                     "what the revealed cards change is within what the cap still leaves "
                     "open.\n")
    return "\n".join(lines)
