"""The solved 1v1 endgames: values by coins, the cap-3 grid, revealed cards, the turn cap."""

from __future__ import annotations

import numpy as np

from analysis.coup import model
from analysis.coup.model import DEFAULT_CAP, MAIN_REVEALED, REVEALED_SETS
from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import bluffing, sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, heatmaps, solver_note
from analysis.report.guides.coup.readers import CAP3_COINS, REVEALED_COINS, endgame_records


def section_endgames(ctx: ReportContext) -> str:
    records = endgame_records()
    expected = len(sweep.grid())
    lines = ["## Solved 1v1 endgames\n",
             "Method, commands and caveats: [docs/coup_analysis.md](../docs/coup_analysis.md).\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet: run `farol coup sweep`."])
    df = bluffing.frame(records)
    checked = df.dropna(subset=["openspiel_exploitability"])
    gap = (checked["openspiel_exploitability"] - checked["exploitability"]).abs().max() \
        if len(checked) else float("nan")
    r0, r1 = MAIN_REVEALED
    lines += [
        f"Every position with one face-down card each: the player to move (seat 0) has lost a "
        f"{r0.title()}, the other a {r1.title()}; both face-down cards are dealt by chance from "
        "the rest of the deck, so each player knows only their own. Coins 0-9 each, both "
        "decks; the other player to move is the same game with the seats swapped (tested). "
        f"{len(records)} of {expected} endgames are solved.",
        "",
        f"**Turn cap {DEFAULT_CAP}**: each player gets one turn, then the game stops and counts "
        "as a draw (0). This is the largest cap at which every position's perfect-recall tree "
        "fits this machine in seconds (cap 3 is ~10^6 histories per position, cap 4 ~10^7; "
        "see *Turn cap* below): the values are *exact equilibria of the capped game*, not of "
        "unlimited Coup. The *draw* column says how much of the game the cap cuts off: where "
        "it is ~0 the value is the value of the real endgame (the game is over within the cap "
        "at equilibrium); where it is large the position is undecided within two turns.",
        "",
        f"Solver: {solver_note(df)} (exact best response on the perfect-recall tree, target "
        f"1e-4). OpenSpiel's own `exploitability` was run on {len(checked)} of them "
        f"(every third position): largest difference from the engine's {gap:z.1e}.",
        f"Tree sizes: {int(df['nodes'].min()):,}-{int(df['nodes'].max()):,} nodes, "
        f"{int(df['infosets'].min()):,}-{int(df['infosets'].max()):,} information sets; "
        f"{df['seconds'].sum() / 60:z.1f} CPU-minutes in all (compile, solve, walk).",
        "",
    ]
    img = heatmaps(ctx, df, "value", "value of the mover", "endgame_value", "RdBu", -1, 1)
    lines.append(f"![mover value]({img})\n")
    img = heatmaps(ctx, df, "draw", "P(draw at the cap)", "endgame_draw", "Greys", 0, 1)
    lines.append(f"![draw probability]({img})\n")
    sure = df[df["mover"] >= 7]
    if len(sure):
        lines.append(f"With 7+ coins the mover wins with probability "
                     f"{sure['win'].min():z.4f}-{sure['win'].max():z.4f} ({len(sure)} positions): "
                     "the Coup cannot be blocked or challenged.\n")
    lines.append("<details><summary>Every endgame: outcome probabilities of the player to "
                 "move, with solver figures</summary>\n")
    lines.append("| deck | mover coins | other coins | P(win) | P(draw) | P(lose) | value | "
                 "iterations | exploitability | OpenSpiel expl. |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for row in df.sort_values(["deck", "mover", "other"]).itertuples():
        lines.append(f"| {row.deck} | {row.mover} | {row.other} | {row.win:z.3f} | "
                     f"{row.draw:z.3f} | {row.lose:z.3f} | {row.value:+z.3f} | {row.iterations} | "
                     f"{row.exploitability:z.1e} | "
                     f"{fmt(row.openspiel_exploitability, '.1e')} |")
    lines.append("\n(solver: " + SOLVER + ")\n</details>\n")
    return "\n".join(lines)


def section_cap3(ctx: ReportContext) -> str:
    """Three turns (the mover twice): the Inquisitor deck on a coarser coin grid."""
    lines = ["## Three turns: cap 3 (Inquisitor deck)\n"]
    expected = [eg for eg in sweep.grid(CAP3_COINS, decks=("inquisitor",), cap=3)
                if eg.turn_cap == 3]
    records = model.cached(expected)
    if not records:
        return "\n".join(lines + ["Not solved yet: `farol coup sweep --caps 3 --decks "
                                  "inquisitor --coins " + ",".join(map(str, CAP3_COINS)) + "`."])
    df = bluffing.frame(records)
    lines += [
        f"{len(records)} of the {len(expected)} endgames with coins "
        f"{', '.join(map(str, CAP3_COINS))} each are solved with cap 3"
        + (" (the rest did not fit the time available)" if len(records) < len(expected) else "")
        + f": the mover gets a second turn. Trees of {int(df['nodes'].min()):,}-"
        f"{int(df['nodes'].max()):,} nodes; {solver_note(df)} (exact best response; "
        "OpenSpiel's check is too slow on trees this size and was run on the cap-2 sweep).",
        "",
    ]
    img = heatmaps(ctx, df, "value", "mover value, cap 3", "cap3_value", "RdBu", -1, 1)
    lines.append(f"![cap 3 value]({img})\n")
    img = heatmaps(ctx, df, "draw", "P(draw), cap 3", "cap3_draw", "Greys", 0, 1)
    lines.append(f"![cap 3 draws]({img})\n")
    summary = bluffing.claim_summary(records)
    lines += ["Bluff and challenge rates at cap 3 (weighted as above):", "",
              "| claim | positions | frequency | P(bluff) | P(challenged) |",
              "|---|---|---|---|---|"]
    for r in summary.itertuples():
        lines.append(f"| {r.claim} | {r.positions} | {r.mean_frequency:z.3f} | "
                     f"{r.bluff_rate:z.3f} | {r.challenge_rate:z.3f} |")
    cv = bluffing.character_values(records)
    lines += ["", "Value of the mover's card at cap 3:", "",
              "| card | P(win) | P(draw) | P(lose) | value |", "|---|---|---|---|---|"]
    for r in cv.itertuples():
        lines.append(f"| {r.card} | {r.win:z.3f} | {r.draw:z.3f} | {r.lose:z.3f} | {r.value:+z.3f} |")
    lines.append("")
    lines.append("<details><summary>Every cap-3 endgame</summary>\n")
    lines.append("| mover coins | other coins | P(win) | P(draw) | P(lose) | nodes | iterations "
                 "| exploitability | OpenSpiel expl. |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for row in df.sort_values(["mover", "other"]).itertuples():
        lines.append(f"| {row.mover} | {row.other} | {row.win:z.3f} | {row.draw:z.3f} | "
                     f"{row.lose:z.3f} | {row.nodes:,} | {row.iterations} | "
                     f"{row.exploitability:z.1e} | {fmt(row.openspiel_exploitability, '.1e')} |")
    lines.append(f"\n(solver: {SOLVER})\n</details>\n")
    return "\n".join(lines)


def section_revealed(ctx: ReportContext) -> str:
    """How the revealed cards (which change what can be dealt) move the values."""
    lines = ["## Revealed cards\n"]
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
    if not rows:
        return "\n".join(lines + ["Only the main revealed pair is solved so far."])
    lines += [
        f"The revealed cards decide what is left to deal. The same endgames (coins "
        f"{', '.join(map(str, REVEALED_COINS))} each) with other revealed pairs "
        f"(mover's lost card - other's lost card); {SOLVER}:",
        "",
        "| revealed | deck | positions | mean mover value | largest change vs "
        f"{'-'.join(MAIN_REVEALED)} | exploitability (max) | iterations |",
        "|---|---|---|---|---|---|---|",
    ]
    for revealed, deck, n, mean, diff, expl, lo, hi in rows:
        lines.append(f"| {'-'.join(revealed)} | {deck} | {n} | {mean:+z.3f} | {fmt(diff)} | "
                     f"{expl:z.1e} | {lo}-{hi} |")
    return "\n".join(lines) + "\n"


def section_turn_cap(ctx: ReportContext) -> str:
    lines = ["## Turn cap\n"]
    try:
        rows = sweep.load_cap_study()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return "\n".join(lines + ["Not run yet: `farol coup cap-study`."])
    lines += [
        "The same positions solved at turn caps 1, 2 and 3 (Inquisitor deck, revealed "
        "Contessa/Contessa). A value that no longer changes from one cap to the next, with no "
        "draws left, is the value of the endgame without a cap.",
        "",
        "| deck | mover coins | other coins | cap | value | P(win) | P(draw) | nodes | "
        "iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r.deck, r.mover_coins,
                                                   r.other_coins, r.turn_cap)):
        lines.append(f"| {r.deck} | {r.mover_coins} | {r.other_coins} | "
                     f"{r.turn_cap} | {r.value:+z.4f} | {r.win:z.4f} | {r.draw:z.4f} | "
                     f"{r.nodes:,} | {r.iterations} | {r.exploitability:z.1e} |")
    lines.append(f"\n(solver: {SOLVER})\n")
    settled = []
    by_pos: dict = {}
    for r in rows.values():
        by_pos.setdefault((r.deck, r.mover_coins, r.other_coins), {})[r.turn_cap] = r
    for pos, caps in sorted(by_pos.items()):
        if 2 in caps and 3 in caps:
            same = abs(caps[2].value - caps[3].value) <= 1e-3
            word = ("settled" if caps[3].draw <= 1e-3 else "unchanged, draws remain") \
                if same else "still moving"
            settled.append(f"{pos[1]}/{pos[2]} coins: {word}")
    if settled:
        lines.append("Cap 2 to cap 3: " + "; ".join(settled) + ".")
    moves = [abs(c[3].value - c[2].value) for c in by_pos.values() if 2 in c and 3 in c]
    if moves:
        lines.append(
            f"\nFrom cap 2 to cap 3 the values move by up to {max(moves):z.3f}. A position is "
            "*settled* when the value stops moving and no draw is left; the others are not: "
            "their cap-2 values describe two turns of play, not the whole endgame, and the "
            "growth of the perfect-recall tree (x10-20 a turn) keeps the exact solve from "
            "going much further on this machine. Positions where the mover has 7+ coins are "
            "settled at cap 1 (tested), which is why the sweep solves them at cap 1.")
    return "\n".join(lines)
