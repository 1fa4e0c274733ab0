"""Report sections for Coup (``farol report coup``): solved endgames, bluffing, balance.

The sections read what the sweeps wrote under ``reports/data/coup/`` (committed);
they never solve, so the report is fast. A section whose data is missing says how to
produce it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from analysis.coup import abstraction as A
from analysis.coup import balance, bluffing, model, sweep
from analysis.coup.endgames import SOLVER
from analysis.coup.model import DEFAULT_CAP, MAIN_REVEALED, REVEALED_SETS, Endgame
from analysis.report.context import ReportContext
from analysis.solve.cache import read_rows

HONEST_ORDER = ("Captain", "Assassin", "Duke", "Contessa")
BENCHMARK = Path("benchmarks/results/coup_endgames.txt")
BRACKET_BENCHMARK = Path("benchmarks/results/coup_endgames_brackets.txt")
WALK_BENCHMARK = Path("benchmarks/results/coup_walk.txt")


def _records(cap: int = DEFAULT_CAP) -> list[dict]:
    return model.cached(sweep.grid(cap=cap))


def _solver_note(df) -> str:
    return (f"{SOLVER}; {int(df['iterations'].min())}-{int(df['iterations'].max())} iterations; "
            f"exploitability at most {df['exploitability'].max():.1e}")


def _fmt(x, spec=".3f") -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "–"
    return format(x, spec)


def _heatmaps(ctx: ReportContext, df, column: str, title: str, stem: str, cmap: str,
              vmin: float, vmax: float) -> str:
    decks = sorted(df["deck"].unique())
    fig = Figure(figsize=(5.2 * len(decks), 4.4))
    for i, deck in enumerate(decks):
        ax = fig.add_subplot(1, len(decks), i + 1)
        grid = df[df["deck"] == deck].pivot_table(index="mover", columns="other", values=column)
        im = ax.imshow(grid.values, origin="lower", cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_xticks(range(len(grid.columns)), grid.columns)
        ax.set_yticks(range(len(grid.index)), grid.index)
        ax.set_xlabel("other player's coins")
        ax.set_ylabel("coins of the player to move")
        ax.set_title(f"{title}: {deck}")
        for (r, c), v in np.ndenumerate(grid.values):
            if not np.isnan(v):
                ax.text(c, r, f"{v:.2f}", ha="center", va="center", fontsize=6)
        fig.colorbar(im, ax=ax, shrink=0.8)
    return ctx.save_figure(fig, stem)


def _with_larger_caps(by_cap: dict, cap: int, converged: int) -> str:
    """", N with the larger caps too" when brackets above ``cap`` close more endgames."""
    if max(by_cap) <= cap:
        return ""
    t = _tightest(by_cap)
    n = int((t["width"] <= 1e-3).sum())
    return (f"; with the larger caps solved for some endgames (up to {max(by_cap)}), {n} "
            "have converged" if n != converged else "")


def section_findings(ctx: ReportContext) -> str:
    """The headline numbers, each with where it comes from."""
    records = _records()
    if not records:
        return "## Coup solved: findings in brief\n\nNo endgame solved yet."
    df = bluffing.frame(records)
    note = _solver_note(df)
    lines = ["## Coup solved: findings in brief\n",
             f"From the {len(records)} solved 1v1 endgames at turn cap {DEFAULT_CAP} ({note}); "
             "details and caveats in the sections below.\n"]
    cv = bluffing.character_values(records)
    for deck in sorted(cv["deck"].unique()):
        sub = cv[cv["deck"] == deck]
        order = ", ".join(f"{r.card} {r.value:+.2f}" for r in sub.itertuples())
        lines.append(f"- **Card values** ({deck}; mover's value by card held, mean over coin "
                     f"pairs): {order}.")
    summary = bluffing.claim_summary(records)
    for deck in sorted(summary["deck"].unique()):
        top, most = _claim_extremes(summary, deck)
        lines.append(f"- **Most bluffed claims** ({deck}): {top}; **most challenged**: {most}.")
    fp = balance.first_player(records)
    for r in fp.itertuples():
        lines.append(f"- **Moving first at equal coins** ({r.deck}): mover value "
                     f"{r.mean_mover_value_equal_coins:+.3f} (win {r.mover_win_equal_coins:.2f}, "
                     f"lose {r.mover_lose_equal_coins:.2f}).")
    dd = balance.deck_difference(records)
    if not dd.empty:
        v = dd["ambassador_minus_inquisitor"]
        lines.append(f"- **Ambassador vs Inquisitor**: the mover's value differs by {v.mean():+.3f} "
                     f"on average (largest {v.abs().max():.3f}).")
    cap3 = [eg for eg in sweep.grid(CAP3_COINS, decks=("inquisitor",), cap=3) if eg.turn_cap == 3]
    cap3_records = model.cached(cap3)
    if cap3_records:
        cv3 = bluffing.character_values(cap3_records)
        order = ", ".join(f"{r.card} {r.value:+.2f}" for r in cv3.itertuples())
        fc = bluffing.claim_summary(cap3_records)
        fake = fc[fc["claim"] == "Block Assassinate (Contessa)"]
        lines.append(f"- **Three turns** (cap 3, Inquisitor, {len(cap3_records)} positions with "
                     f"0-6 coins): card values {order}"
                     + (f"; a Contessa block is a bluff {fake['bluff_rate'].iloc[0]:.0%} of the "
                        f"time and challenged {fake['challenge_rate'].iloc[0]:.0%}"
                        if len(fake) else "") + ".")
    by_cap = _brackets()
    if by_cap:
        frames = {c: _with_closed(_bracket_frame(r), by_cap, c) for c, r in by_cap.items()}
        full = [c for c, f in frames.items() if len(f) >= 2 * len(sweep.COINS) ** 2]
        c = max(full) if full else max(frames)
        f = frames[c]
        sure = f[(f["lower_win"] > 0.5) | (f["upper_win"] < 0.5)]
        lines.append(
            f"- **Without a cap** (rigorous brackets at cap {c}, both decks): {int((f['width'] <= 1e-3).sum())} "
            f"of {len(f)} endgames converged (width <= 0.001), mean width {f['width'].mean():.2f}; "
            f"in {len(sure)} the bracket at least says who is favoured"
            + _with_larger_caps(by_cap, c, int((f["width"] <= 1e-3).sum()))
            + ". Low-coin endgames stay open: see *Without a cap*.")
        lines += _markov_bullet(by_cap)
        lines += _abstraction_bullet()
        lines += _first_mover_bullet(by_cap)
        lines += _priced_bullet()
        lines += _revealed_bullet()
        lines += _larger_bullet()
        lines.append(_full_game_bullet())
    lines.append("- **Largest exact solve**: see *Benchmark*; cap 3 (three turns) changes "
                 "many low-coin values a lot (see *Turn cap*): the cap-2 numbers describe the "
                 "next two turns of play, not whole endgames.")
    return "\n".join(lines) + "\n"


def section_endgames(ctx: ReportContext) -> str:
    records = _records()
    expected = len(sweep.grid())
    lines = ["## Solved 1v1 endgames\n",
             "Method, commands and caveats: [docs/coup_analysis.md](../docs/coup_analysis.md).\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet: run `python -m analysis.coup.sweep`."])
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
        f"Solver: {_solver_note(df)} (exact best response on the perfect-recall tree, target "
        f"1e-4). OpenSpiel's own `exploitability` was run on {len(checked)} of them "
        f"(every third position): largest difference from the engine's {gap:.1e}.",
        f"Tree sizes: {int(df['nodes'].min()):,}-{int(df['nodes'].max()):,} nodes, "
        f"{int(df['infosets'].min()):,}-{int(df['infosets'].max()):,} information sets; "
        f"{df['seconds'].sum() / 60:.1f} CPU-minutes in all (compile, solve, walk).",
        "",
    ]
    img = _heatmaps(ctx, df, "value", "value of the mover", "endgame_value", "RdBu", -1, 1)
    lines.append(f"![mover value]({img})\n")
    img = _heatmaps(ctx, df, "draw", "P(draw at the cap)", "endgame_draw", "Greys", 0, 1)
    lines.append(f"![draw probability]({img})\n")
    sure = df[df["mover"] >= 7]
    if len(sure):
        lines.append(f"With 7+ coins the mover wins with probability "
                     f"{sure['win'].min():.4f}-{sure['win'].max():.4f} ({len(sure)} positions): "
                     "the Coup cannot be blocked or challenged.\n")
    lines.append("<details><summary>Every endgame: outcome probabilities of the player to "
                 "move, with solver figures</summary>\n")
    lines.append("| deck | mover coins | other coins | P(win) | P(draw) | P(lose) | value | "
                 "iterations | exploitability | OpenSpiel expl. |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for row in df.sort_values(["deck", "mover", "other"]).itertuples():
        lines.append(f"| {row.deck} | {row.mover} | {row.other} | {row.win:.3f} | "
                     f"{row.draw:.3f} | {row.lose:.3f} | {row.value:+.3f} | {row.iterations} | "
                     f"{row.exploitability:.1e} | "
                     f"{_fmt(row.openspiel_exploitability, '.1e')} |")
    lines.append("\n(solver: " + SOLVER + ")\n</details>\n")
    return "\n".join(lines)


REVEALED_COINS = (0, 2, 3, 5, 7)
CAP3_COINS = (0, 1, 2, 3, 4, 5, 6)


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
        f"{int(df['nodes'].max()):,} nodes; {_solver_note(df)} (exact best response; "
        "OpenSpiel's check is too slow on trees this size and was run on the cap-2 sweep).",
        "",
    ]
    img = _heatmaps(ctx, df, "value", "mover value, cap 3", "cap3_value", "RdBu", -1, 1)
    lines.append(f"![cap 3 value]({img})\n")
    img = _heatmaps(ctx, df, "draw", "P(draw), cap 3", "cap3_draw", "Greys", 0, 1)
    lines.append(f"![cap 3 draws]({img})\n")
    summary = bluffing.claim_summary(records)
    lines += ["Bluff and challenge rates at cap 3 (weighted as above):", "",
              "| claim | positions | frequency | P(bluff) | P(challenged) |",
              "|---|---|---|---|---|"]
    for r in summary.itertuples():
        lines.append(f"| {r.claim} | {r.positions} | {r.mean_frequency:.3f} | "
                     f"{r.bluff_rate:.3f} | {r.challenge_rate:.3f} |")
    cv = bluffing.character_values(records)
    lines += ["", "Value of the mover's card at cap 3:", "",
              "| card | P(win) | P(draw) | P(lose) | value |", "|---|---|---|---|---|"]
    for r in cv.itertuples():
        lines.append(f"| {r.card} | {r.win:.3f} | {r.draw:.3f} | {r.lose:.3f} | {r.value:+.3f} |")
    lines.append("")
    lines.append("<details><summary>Every cap-3 endgame</summary>\n")
    lines.append("| mover coins | other coins | P(win) | P(draw) | P(lose) | nodes | iterations "
                 "| exploitability | OpenSpiel expl. |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for row in df.sort_values(["mover", "other"]).itertuples():
        lines.append(f"| {row.mover} | {row.other} | {row.win:.3f} | {row.draw:.3f} | "
                     f"{row.lose:.3f} | {row.nodes:,} | {row.iterations} | "
                     f"{row.exploitability:.1e} | {_fmt(row.openspiel_exploitability, '.1e')} |")
    lines.append(f"\n(solver: {SOLVER})\n</details>\n")
    return "\n".join(lines)


def section_revealed(ctx: ReportContext) -> str:
    """How the revealed cards (which change what can be dealt) move the values."""
    lines = ["## Revealed cards\n"]
    main = {(r["endgame"]["deck"], r["endgame"]["mover_coins"], r["endgame"]["other_coins"]): r
            for r in _records()}
    rows = []
    for revealed in REVEALED_SETS:
        records = model.cached(sweep.grid(REVEALED_COINS, revealed=revealed))
        for deck in sorted({r["endgame"]["deck"] for r in records}):
            sub = [r for r in records if r["endgame"]["deck"] == deck]
            diffs = [abs(r["value"] - main[(deck, r["endgame"]["mover_coins"],
                                            r["endgame"]["other_coins"])]["value"])
                     for r in sub if (deck, r["endgame"]["mover_coins"],
                                      r["endgame"]["other_coins"]) in main]
            rows.append((revealed, deck, len(sub), np.mean([r["value"] for r in sub]),
                         max(diffs) if diffs else float("nan"),
                         max(r["exploitability"] for r in sub),
                         min(r["iterations"] for r in sub), max(r["iterations"] for r in sub)))
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
        lines.append(f"| {'-'.join(revealed)} | {deck} | {n} | {mean:+.3f} | {_fmt(diff)} | "
                     f"{expl:.1e} | {lo}-{hi} |")
    return "\n".join(lines) + "\n"


def section_turn_cap(ctx: ReportContext) -> str:
    lines = ["## Turn cap\n"]
    try:
        rows = json.loads((model.data_dir("cap_study.json")).read_text())
    except (OSError, ValueError):
        return "\n".join(lines + ["Not run yet: `analysis.coup.sweep.cap_study_sweep()`."])
    lines += [
        "The same positions solved at turn caps 1, 2 and 3 (Inquisitor deck, revealed "
        "Contessa/Contessa). A value that no longer changes from one cap to the next, with no "
        "draws left, is the value of the endgame without a cap.",
        "",
        "| deck | mover coins | other coins | cap | value | P(win) | P(draw) | nodes | "
        "iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r["deck"], r["mover_coins"],
                                                   r["other_coins"], r["turn_cap"])):
        lines.append(f"| {r['deck']} | {r['mover_coins']} | {r['other_coins']} | "
                     f"{r['turn_cap']} | {r['value']:+.4f} | {r['win']:.4f} | {r['draw']:.4f} | "
                     f"{r['nodes']:,} | {r['iterations']} | {r['exploitability']:.1e} |")
    lines.append(f"\n(solver: {SOLVER})\n")
    settled = []
    by_pos: dict = {}
    for r in rows.values():
        by_pos.setdefault((r["deck"], r["mover_coins"], r["other_coins"]), {})[r["turn_cap"]] = r
    for pos, caps in sorted(by_pos.items()):
        if 2 in caps and 3 in caps:
            same = abs(caps[2]["value"] - caps[3]["value"]) <= 1e-3
            word = ("settled" if caps[3]["draw"] <= 1e-3 else "unchanged, draws remain") \
                if same else "still moving"
            settled.append(f"{pos[1]}/{pos[2]} coins: {word}")
    if settled:
        lines.append("Cap 2 to cap 3: " + "; ".join(settled) + ".")
    moves = [abs(c[3]["value"] - c[2]["value"]) for c in by_pos.values() if 2 in c and 3 in c]
    if moves:
        lines.append(
            f"\nFrom cap 2 to cap 3 the values move by up to {max(moves):.3f}. A position is "
            "*settled* when the value stops moving and no draw is left; the others are not: "
            "their cap-2 values describe two turns of play, not the whole endgame, and the "
            "growth of the perfect-recall tree (x10-20 a turn) keeps the exact solve from "
            "going much further on this machine. Positions where the mover has 7+ coins are "
            "settled at cap 1 (tested), which is why the sweep solves them at cap 1.")
    return "\n".join(lines)


def _brackets() -> dict[int, list[dict]]:
    """Bracket records on disk by turn cap (the main revealed pair, both decks)."""
    out: dict[int, list[dict]] = {}
    for cap in range(1, 8):
        recs = model.cached_brackets(sweep.bracket_grid(cap=cap))
        if recs:
            out[cap] = recs
    return out


def _markov_brackets(revealed: tuple[str, str] = MAIN_REVEALED, caps=range(2, 8),
                     coins=sweep.COINS) -> dict[int, list[dict]]:
    """Markov-priced bracket records on disk by turn cap (:mod:`analysis.coup.guarantees`)
    of the endgames with ``revealed`` lost and ``coins`` each (both decks)."""
    out: dict[int, list[dict]] = {}
    for cap in caps:
        recs = model.cached_brackets(sweep.bracket_grid(coins, revealed=revealed, cap=cap),
                                     model.markov_brackets_dir())
        if recs:
            out[cap] = recs
    return out


def _tightest(by_cap: dict[int, list[dict]], also: dict[int, list[dict]] | None = None):
    """Per endgame, the intersection of its brackets over every cap in ``by_cap``
    (:func:`analysis.coup.model.intersect_brackets`; movers of 7+ coins from cap 1), as a
    frame like :func:`_bracket_frame`'s with the caps of the two ends; ``also``: more
    records by cap (the Markov-priced ones), merged with those of the same cap."""
    import pandas as pd

    per_endgame: dict[tuple, dict[int, dict]] = {}
    for source in (by_cap, also or {}):
        for cap, records in source.items():
            for r in records:
                eg = r["endgame"]
                caps = per_endgame.setdefault(
                    (eg["deck"], eg["mover_coins"], eg["other_coins"]), {})
                caps[cap] = model.merge_brackets([caps[cap], r]) if cap in caps else r
    return pd.DataFrame([{"deck": deck, "mover": mover, "other": other}
                         | model.intersect_brackets(caps)
                         for (deck, mover, other), caps in per_endgame.items()])


def _bracket_frame(records: list[dict]):
    import pandas as pd

    return pd.DataFrame([{
        "deck": r["endgame"]["deck"], "mover": r["endgame"]["mover_coins"],
        "other": r["endgame"]["other_coins"], "cap": r["endgame"]["turn_cap"],
        "lower_win": r["lower_win"], "upper_win": r["upper_win"], "width": r["width"],
        "nodes": r["nodes"], "seconds": r["compile_seconds"] + r["low"]["seconds"]
        + r["high"]["seconds"],
        "iterations": max(r["low"]["iterations"], r["high"]["iterations"]),
        "exploitability": max(r["low"]["exploitability"], r["high"]["exploitability"]),
        "decisive": bool(r.get("decisive_coup", False)),
    } for r in records])


def _with_closed(df, by_cap: dict, cap: int):
    """The cap-``cap`` grid with the movers of 7+ coins filled in from cap 1 (they Coup
    at once: their bracket is closed at cap 1 and never widens)."""
    import pandas as pd

    if cap == 1 or 1 not in by_cap:
        return df
    one = _bracket_frame(by_cap[1])
    return pd.concat([df, one[one["mover"] >= 7]], ignore_index=True)


def _widths_below(extra, by_cap: dict) -> list[float | None]:
    """For each row of ``extra``, the width of its endgame's tightest bracket at the caps
    below the row's (``None`` without one)."""
    out = []
    for r in extra.itertuples():
        below = _tightest({c: recs for c, recs in by_cap.items() if c < r.cap})
        m = below[(below["deck"] == r.deck) & (below["mover"] == r.mover)
                  & (below["other"] == r.other)] if len(below) else below
        out.append(float(m["width"].iloc[0]) if len(m) else None)
    return out


def section_brackets(ctx: ReportContext) -> str:
    """Rigorous bounds on the uncapped values, how they narrow with the cap, convergence."""
    lines = ["## Without a cap: rigorous brackets\n"]
    by_cap = _brackets()
    if not by_cap:
        return "\n".join(lines + ["Not run yet: `farol coup brackets`."])
    lines += [
        "A capped solve says nothing certain about the real game, where nobody stops after "
        "a few turns. Solving the capped endgame twice, once with the cap counted as a loss "
        "for the player to move (cap payoff -1) and once as a win (+1), brackets the value "
        "of the game **without a cap**: the player to move can guarantee the first by "
        "playing that equilibrium for the capped turns, and the other player can hold them "
        "to the second ([docs/coup_analysis.md](../docs/coup_analysis.md)). The bounds are "
        "the guarantees of the solved strategies measured by exact best response, so they "
        "hold whatever the solver's residual error. As win probabilities (a game that "
        "never ends counted as half a win): the lower end is the probability of winning "
        "within the cap when the cap counts as a loss, the upper end one minus the "
        "probability of losing within the cap when it counts as a win. *Converged* means "
        "the bracket is at most 0.001 wide.\n",
        "| cap | deck | endgames | converged (width <= 0.001) | mean width | largest width | "
        "histories (max) | iterations | exploitability (max) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    frames = {cap: _bracket_frame(recs) for cap, recs in by_cap.items()}
    for cap, df in sorted(frames.items()):
        full = _with_closed(df, by_cap, cap)
        for deck, g in full.groupby("deck"):
            own = df[df["deck"] == deck]
            if not len(own):
                continue
            lines.append(
                f"| {cap} | {deck} | {len(g)} | {int((g['width'] <= 1e-3).sum())} | "
                f"{g['width'].mean():.3f} | {g['width'].max():.3f} | {own['nodes'].max():,} | "
                f"{int(own['iterations'].min())}-{int(own['iterations'].max())} | "
                f"{own['exploitability'].max():.1e} |")
    lines.append(f"\n(solver: {SOLVER.replace('CFR+', 'CFR+ to exploitability 1e-4')}, each "
                 "endgame solved twice; at caps above 1 the movers with 7+ coins are counted "
                 "with their cap-1 bracket, which is already closed.)\n")
    # Per deck, the largest cap bracketed for every endgame (movers of 7+ from cap 1).
    import pandas as pd

    best = {}
    for deck in DECKS_ORDER:
        caps = [c for c, f in frames.items()
                if len(_with_closed(f[f["deck"] == deck], by_cap, c)) >= len(sweep.COINS) ** 2]
        if caps:
            best[deck] = max(caps)
    if not best:
        return "\n".join(lines)
    df = pd.concat([_with_closed(frames[c][frames[c]["deck"] == d], by_cap, c)
                    .query("deck == @d") for d, c in best.items()], ignore_index=True)
    where = ", ".join(f"{d} at cap {c}" for d, c in best.items())
    lines.append(f"Bracket width over coins, {where}, the largest caps bracketed for every "
                 "endgame (0: the value is known; 1: nothing is):\n")
    img = _heatmaps(ctx, df, "width", "bracket width", "bracket_width", "viridis", 0.0, 1.0)
    lines.append(f"![bracket width over coins]({img})")
    for deck, cap in best.items():
        g = df[df["deck"] == deck]
        conv = g[g["width"] <= 1e-3]
        lines.append(
            f"\n**Convergence, {deck}, cap {cap}.** {len(conv)} of {len(g)} endgames have "
            "converged (width <= 0.001): " + _converged_words(conv) + ". Everywhere else "
            f"the value of the uncapped game is not pinned down by {cap} turns; the table "
            "says how much is known. The mover's win probability lies in [lower, upper] "
            "(rows: mover's coins, columns: the other's):\n")
        lines.append("| mover / other | " + " | ".join(str(b) for b in sweep.COINS) + " |")
        lines.append("|---" * (len(sweep.COINS) + 1) + "|")
        cell = {(r.mover, r.other): r for r in g.itertuples()}
        for a in sweep.COINS:
            row = [f"{cell[(a, b)].lower_win:.2f}-{cell[(a, b)].upper_win:.2f}"
                   if (a, b) in cell else "–" for b in sweep.COINS]
            lines.append(f"| {a} | " + " | ".join(row) + " |")
    # Narrowing with the cap, over the caps bracketed for every endgame of the deck.
    shown = sorted({c for c in frames if any(c <= b for b in best.values())})
    lines.append("\nHow the brackets narrow as the cap grows (mean width over the movers "
                 "with 0-6 coins, 70 endgames a deck):\n")
    lines.append("| deck | " + " | ".join(f"cap {c}" for c in shown) + " |")
    lines.append("|---" * (len(shown) + 1) + "|")
    for deck, cap in best.items():
        cells = []
        for c in shown:
            g = frames[c][(frames[c]["deck"] == deck) & (frames[c]["mover"] < 7)]
            cells.append(f"{g['width'].mean():.3f}" if c <= cap and len(g) else "–")
        lines.append(f"| {deck} | " + " | ".join(cells) + " |")
    extra = pd.concat([f[(f["deck"] == d) & (c > best.get(d, 0))].assign(cap=c)
                       for c, f in frames.items() for d in DECKS_ORDER], ignore_index=True)
    if len(extra):
        extra = extra.sort_values(["deck", "cap", "mover", "other"], ignore_index=True)
        extra["width_below"] = pd.Series(_widths_below(extra, by_cap), dtype=float)
        lines.append("\nLarger caps, as far as time allowed: the widest brackets first, and some "
                     "of the narrowest still open, which one more turn might close "
                     "(`farol coup brackets --order narrowest`):\n")
        lines.append("| deck | mover | other | cap | bracket (win prob.) | width | width at "
                     "lower caps | histories | seconds | iterations | exploitability |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in extra.itertuples():
            prev = None if np.isnan(r.width_below) else r.width_below
            reduced = " (reduced)" if r.decisive else ""
            lines.append(
                f"| {r.deck} | {r.mover} | {r.other} | {r.cap} | {r.lower_win:.4f}-"
                f"{r.upper_win:.4f} | {r.width:.4f} | {_fmt(prev, '.4f')} | {r.nodes:,}"
                f"{reduced} | {r.seconds:.0f} | {r.iterations} | {r.exploitability:.1e} |")
        if extra["decisive"].any():
            lines.append(
                "\n*(reduced)*: compiled with winning Coups played (`--decisive-coup`: a "
                "player with 7+ coins whose only opponent has one card coups; an exact "
                "reduction, same bounds, [docs/coup_analysis.md](../docs/coup_analysis.md)). "
                "It brings cap 5 within reach where the other player has 7+ coins. *Width "
                "at lower caps*: the tightest bracket of the smaller caps on disk.")
        closed = extra[extra["width"] <= 1e-3]
        unmoved = int((extra["width_below"] - extra["width"] < 1e-4).sum())
        lines.append(
            f"\nOf these {len(extra)}, {len(closed)} converged at the larger cap"
            + (": " + _converged_words(closed) if len(closed) else "")
            + f"; {unmoved} did not narrow at all (the turns added did "
            "not help the side whose end is open: an even cap adds a turn of the other "
            "player's and can only lower the upper end, an odd cap one of the mover's and "
            "can only lift the lower end).")
        tight = _tightest(by_cap)
        lines.append(
            f"Counting every cap on disk (each endgame's tightest bracket), "
            f"{int((tight['width'] <= 1e-3).sum())} of {len(tight)} endgames have converged.")
    lines.append(
        "\nEach turn of cap moves one end only. The lower end is what the player to move "
        "can force when the cap counts as their loss; on the other player's turns that "
        "player can always take Income, which nobody can challenge or block, so a turn of "
        "theirs adds nothing to the lower end, and a turn of the mover's adds nothing to "
        "the upper end for the same reason. Odd caps (1, 3, 5) add the mover's turns and "
        "lift lower ends; even caps (2, 4) add the other's and lower upper ends (above: "
        "from cap 3 to cap 4 the lower ends stay put).\n")
    lines.append(
        "\nWhy the brackets stay wide at low coins: with one card each a game ends only by a "
        "Coup (7 coins), an assassination (3 coins) that is not blocked, or a lost "
        "challenge. From few coins the player who fears the cap's verdict can avoid all of "
        "these for several turns (take Income, never challenge), so the capped games with "
        "payoff -1 and +1 differ by almost everything that happens after the cap. Each "
        "extra turn multiplies the tree by ~10-20 (at cap 5 Knuth's estimates give ~10^8 "
        "histories with the Inquisitor and ~10^9 with the Ambassador, 10-200 GB compiled, "
        "against the ~8 GB this job may use): the uncapped values of low-coin endgames are out of exact reach on "
        "this machine, and the capped values elsewhere in this report must be read as "
        "\"the next few turns\", not the whole endgame.\n")
    return "\n".join(lines)


def section_markov_brackets(ctx: ReportContext) -> str:
    """Brackets whose cap pays the Markov guarantees: how far they close the endgames."""
    plain, markov = _brackets(), _markov_brackets()
    lines = ["## Pricing the cap: Markov guarantees\n"]
    if not markov:
        return "\n".join(lines + ["Not run yet: `farol coup brackets --markov`."])
    info = [r["markov"] for recs in markov.values() for r in recs]
    sizes = sorted({m["positions"] for m in info})
    size = (f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,}-{sizes[-1]:,}")
    secs = max(m["seconds"] for m in info)
    rounds = sorted({m["rounds"] for m in info})
    lines += [
        "The plain brackets count the cap as a loss, then as a win: their width is the "
        "chance of reaching the cap, which at low coins stays large for many turns. The cap "
        "position can be priced instead. Fix for each player a *Markov policy* (a mix of "
        "actions that depends only on what they see now: own card, coins, the pending "
        "step) and let the other player see both cards and answer as best suits them; the "
        "probability W that the player still wins from a position is then a one-player "
        "minimisation over the graph of positions without history (value iteration, "
        f"{size} positions a deck, at most {secs:.0f} s for both players' policies by "
        f"{'/'.join(str(r) for r in rounds)} rounds of damped policy improvement). "
        "Playing the capped equilibrium until the cap and the Markov policy after it, the "
        "player to move wins at least W_0 from the cap position whatever the other does, so "
        "the capped game paying 2 W_0 - 1 there is a lower bound on the uncapped value, and "
        "the one paying 1 - 2 W_1 an upper bound: still rigorous, and never wider than the "
        "plain bracket ([docs/coup_analysis.md](../docs/coup_analysis.md), "
        "`analysis/coup/guarantees.py`). The bounds are again the solved strategies' "
        "guarantees by exact best response.\n",
        "| cap | deck | endgames | converged (width <= 0.001) | mean width | plain mean "
        "width | histories (max) | iterations | exploitability (max) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    frames = {cap: _bracket_frame(recs) for cap, recs in markov.items()}
    for cap, df in sorted(frames.items()):
        base = _bracket_frame(plain.get(cap, []))
        for deck, g in df.groupby("deck"):
            same = base[(base["deck"] == deck)].merge(g[["mover", "other"]]) if len(base) else base
            lines.append(
                f"| {cap} | {deck} | {len(g)} | {int((g['width'] <= 1e-3).sum())} | "
                f"{g['width'].mean():.3f} | {_fmt(same['width'].mean() if len(same) else None, '.3f')} | "
                f"{g['nodes'].max():,} | {int(g['iterations'].min())}-"
                f"{int(g['iterations'].max())} | {g['exploitability'].max():.1e} |")
    lines.append(f"\n(solver: {SOLVER.replace('CFR+', 'CFR+ to exploitability 1e-4')} "
                 "with winning Coups played, each endgame solved twice; the movers with 7+ "
                 "coins are closed at cap 1 and not repeated. *Plain mean width*: the plain "
                 "brackets of the same endgames at the same cap.)\n")
    caps = sorted(frames)
    for low, high in zip(caps, caps[1:], strict=False):
        pair = frames[low].merge(frames[high], on=["deck", "mover", "other"],
                                 suffixes=("_a", "_b"))
        pair = pair[pair["width_a"] > 1e-3]
        if len(pair):
            stuck = pair[pair["width_a"] - pair["width_b"] < 1e-4]
            lines.append(
                f"From cap {low} to cap {high}, of the {len(pair)} endgames whose Markov "
                f"bracket was open at cap {low}, "
                f"{int((pair['width_b'] <= 1e-3).sum())} closed and {len(stuck)} did not "
                "narrow" + (" (" + ", ".join(f"{r.deck} {r.mover}/{r.other}"
                                             for r in stuck.itertuples()) + ")"
                            if 0 < len(stuck) <= 12 else "")
                + "; the mean width of the open ones went from "
                f"{pair['width_a'].mean():.3f} to {pair['width_b'].mean():.3f}.\n")
    tight = _tightest(plain, markov)
    conv = tight[tight["width"] <= 1e-3]
    before = _tightest(plain)
    lines.append(
        f"**Convergence.** Counting every bracket on disk (plain and Markov-priced, every "
        f"cap), {len(conv)} of {len(tight)} endgames have converged, against "
        f"{int((before['width'] <= 1e-3).sum())} with the plain brackets alone; the mean "
        f"width is {tight['width'].mean():.3f} (plain alone {before['width'].mean():.3f}). "
        "Converged: " + _converged_words(conv) + ".\n")
    img = _heatmaps(ctx, tight, "width", "tightest bracket width", "bracket_width_markov",
                    "viridis", 0.0, 1.0)
    lines.append(f"![tightest bracket width over coins]({img})\n")
    for deck in DECKS_ORDER:
        g = tight[tight["deck"] == deck]
        if not len(g):
            continue
        lines.append(f"The mover's win probability without a cap, {deck} (tightest bracket "
                     "on disk; one number where it has converged; rows: mover's coins, "
                     "columns: the other's):\n")
        lines.append("| mover / other | " + " | ".join(str(b) for b in sweep.COINS) + " |")
        lines.append("|---" * (len(sweep.COINS) + 1) + "|")
        cell = {(r.mover, r.other): r for r in g.itertuples()}
        for a in sweep.COINS:
            row = []
            for b in sweep.COINS:
                r = cell.get((a, b))
                row.append("–" if r is None else _win_cell(r))
            lines.append(f"| {a} | " + " | ".join(row) + " |")
        lines.append("")
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[(equal["lower_win"] > 0.5) | (equal["upper_win"] < 0.5)]
    lines.append(
        f"At equal coins (0-6), the bracket says who is favoured in {len(sure)} of "
        f"{len(equal)} endgames"
        + (": " + "; ".join(f"{r.deck} {r.mover}/{r.other} "
                            f"{'mover' if r.lower_win > 0.5 else 'other player'} "
                            f"({r.lower_win:.2f}-{r.upper_win:.2f})"
                            for r in sure.itertuples()) if len(sure) else "")
        + ". Where the hidden cards still matter the two guarantees leave a gap (the "
        "opponent who sees both cards calls every bluff that pays), so the low-coin "
        "brackets stay open; the tree before the cap is what prices the players' beliefs, "
        "and a larger cap narrows them further.\n")
    return "\n".join(lines)


def _win_cell(r, bold: bool = True) -> str:
    """A tightest bracket as a table cell: one number (bold) where it has converged."""
    if r.width <= 1e-3:
        mid = f"{(r.lower_win + r.upper_win) / 2:.3f}"
        return f"**{mid}**" if bold else mid
    digits = 3 if r.width < 0.02 else 2  # three decimals where two would hide the gap
    return f"{r.lower_win:.{digits}f}-{r.upper_win:.{digits}f}"


def _claim_extremes(summary, deck: str) -> tuple[str, str]:
    """A deck's three most bluffed and two most challenged claims, as findings words."""
    sub = summary[summary["deck"] == deck].sort_values("bluff_rate", ascending=False)
    top = ", ".join(f"{r.claim} {r.bluff_rate:.0%}" for r in sub.head(3).itertuples())
    chal = sub.sort_values("challenge_rate", ascending=False).head(2)
    most = ", ".join(f"{r.claim} {r.challenge_rate:.0%}" for r in chal.itertuples())
    return top, most


def _priced_bullet() -> list[str]:
    """The findings lines of the bluffing study with the cap priced."""
    records = _priced_records()
    if not records:
        return []
    df = bluffing.frame(records)
    summary = bluffing.claim_summary(records)
    ranges = bluffing.card_win_ranges(records, coins=range(7))
    lines = []
    for deck in sorted(summary["deck"].unique()):
        top, most = _claim_extremes(summary, deck)
        cards = ranges[ranges["deck"] == deck]
        order = ", ".join(f"{r.card} {r.low:.2f}-{r.high:.2f}" for r in cards.itertuples())
        lines.append(
            f"- **With the cap priced** ({deck}; each player's safe strategy, with the cap "
            "at each side's floor, so it settles by challenges more often than uncapped play "
            f"would; {_solver_note(df)}): most bluffed {top}; most challenged {most}; the mover's "
            f"win probability played to the end by card (coins 0-6): {order}.")
    return lines


def _revealed_bullet() -> list[str]:
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
    return _markov_brackets(revealed, range(1, 8), REVEALED_COINS)


def revealed_brackets() -> dict[tuple[str, str], object]:
    """Per revealed pair, the tightest bracket of each endgame of the revealed-cards grid
    (coins :data:`REVEALED_COINS` each, both decks): the main pair's from every bracket
    on disk, the others' from their Markov-priced brackets (movers of 7+ coins at cap 1)."""
    out = {}
    for revealed in REVEALED_SETS:
        if revealed == MAIN_REVEALED:
            tight = _tightest(_brackets(), _markov_brackets())
            if len(tight):
                tight = tight[tight["mover"].isin(REVEALED_COINS)
                              & tight["other"].isin(REVEALED_COINS)]
        else:
            tight = _tightest(_revealed_markov(revealed))
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
        frame = _bracket_frame([r for recs in by_cap.values() for r in recs])
        tight = tights[revealed]
        for deck, g in tight.groupby("deck"):
            f = frame[frame["deck"] == deck]
            lines.append(
                f"| {'-'.join(revealed)} | {deck} | {len(g)} | "
                f"{int((g['width'] <= 1e-3).sum())} | {g['width'].mean():.3f} | "
                f"{'/'.join(str(c) for c in sorted(f['cap'].unique()))} | "
                f"{int(f['iterations'].min())}-{int(f['iterations'].max())} | "
                f"{f['exploitability'].max():.1e} |")
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
        row = [_win_cell(cells[rv][(deck, a, b)]) if (deck, a, b) in cells.get(rv, {})
               else "–" for rv in order]
        lines.append(f"| {deck} | {a}/{b} | " + " | ".join(row) + " |")
    changes = revealed_changes(tights)
    if changes:
        words = [f"{deck} {a}/{b} with {'-'.join(rv)} {_win_cell(r, False)} against "
                 f"{_win_cell(m, False)}" for deck, a, b, rv, r, m in changes]
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


def _abstraction_frame(records: list[dict]):
    """One row per estimate record. The rigorous bracket is read from the bracket records
    on disk now (brackets solved after the estimate narrow it); the record's own copy is
    the fallback."""
    import pandas as pd

    rows = []
    for r in records:
        solved = [c for c in r["caps"] if c["status"] == "solved"]
        last = solved[-1] if solved else {}
        loss = r.get("loss") or {}
        eg = r["endgame"]
        endgame = Endgame(eg["mover_coins"], eg["other_coins"], eg["deck"],
                          tuple(eg["revealed"]))
        b = A.bracket_of(endgame) or r.get("bracket") or {}
        where = A.compare(r["win"], b) if b and r["win"] is not None else {}
        rows.append({
            "deck": r["endgame"]["deck"], "mover": r["endgame"]["mover_coins"],
            "other": r["endgame"]["other_coins"], "win": r["win"], "cap": r["estimate_cap"],
            "converged": r["converged"], "stopped": r["stopped"], "change": r["change"],
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
            "seconds": r["seconds"],
        })
    return pd.DataFrame(rows)


def _markov_bullet(by_cap: dict) -> list[str]:
    """The findings' line on the Markov-priced brackets (empty without data)."""
    markov = _markov_brackets()
    if not markov:
        return []
    tight, before = _tightest(by_cap, markov), _tightest(by_cap)
    n, n0 = int((tight["width"] <= 1e-3).sum()), int((before["width"] <= 1e-3).sum())
    return [f"- **Pricing the cap** with each player's Markov guarantee (still rigorous, "
            f"caps {', '.join(str(c) for c in sorted(markov))}): {n} of {len(tight)} "
            f"endgames converge (plain brackets alone: {n0}), mean width "
            f"{tight['width'].mean():.2f} (plain {before['width'].mean():.2f}); see *Pricing "
            "the cap*."]


def _abstraction_bullet() -> list[str]:
    """The findings' line on the state-keyed estimate (empty without data)."""
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return []
    df = _abstraction_frame(records)
    inside = df.dropna(subset=["inside"])
    zero, sides = [], set()
    for r in df[(df["mover"] == 0) & (df["other"] == 0)].sort_values("deck").itertuples():
        side, margin = _favoured_side(r)
        zero.append(f"{r.deck} {r.win:.2f} ± {margin:.2f}")
        sides.add(side)
    verdict = {"mover": "the player to move is favoured beyond that uncertainty",
               "other": "the other player is favoured beyond that uncertainty",
               "none": "no side is clearly favoured at that accuracy"}
    call = verdict[sides.pop()] if len(sides) == 1 else "the decks disagree"
    closed = _closed_since(df)
    since = ""
    if len(closed):
        since = (f"; {len(closed)} of them have closed since, and there the estimate is within "
                 f"{closed['miss'].max():.1e} of the value in win probability")
    return [
        f"- **Beyond the cap (an estimate, not exact)**: the state-keyed abstraction solved "
        f"at caps up to {int(df['cap'].max())} for {len(df)} wide-bracket endgames (every "
        f"endgame whose bracket was wider than 0.001{since}): "
        f"{int(inside['inside'].astype(bool).sum())} of {len(inside)} "
        f"estimates lie inside their rigorous brackets, {int(df['converged'].sum())} converged "
        f"in the cap, and the abstraction's loss at cap 3 is {df['loss'].median():.2f} "
        "(median exploitability in the exact tree). The mover's estimated P(win) at 0/0: "
        + "; ".join(zero) + f": {call} (see *Beyond the cap*)."] + _memory_bullet(df)


def _nodes_at(caps: list[dict], cap: int) -> int | None:
    return next((c["nodes"] for c in caps if c["cap"] == cap), None)


def _growth_words(df) -> str:
    """How fast the memory-keyed and plain graphs grow, from the records' node counts
    (``caps``: memory keys, ``caps_plain``: plain keys, merged per endgame)."""
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
        return "the memory-keyed graph grows much faster with the cap"
    return (f"from cap 4 to 5 the memory-keyed graph grows x{np.median(memory):.1f} "
            f"(median), where the plain graph grows x{np.median(plain):.1f} a turn from cap 4 "
            "to 8 and more slowly after")


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
    return [
        "- **Most of that loss is forgetting**: keys that also remember each player's "
        "claims since their hand last changed and the cards an examination showed cut the "
        f"loss at cap 3 from {df['loss_plain'].median():.3f} to {df['loss'].median():.3f} "
        f"(median over {len(df)} wide endgames), but their graph grows about x3-4 a turn, "
        "so they reach caps of 5-6 only (see *Remembering claims and sightings*)."]


_STOP_WORDS = {"caps exhausted": "largest cap tried", "time limit": "endgame's time limit",
               "over the node limit": "node limit"}


def section_abstraction(ctx: ReportContext) -> str:
    """Beyond the cap: the state-keyed abstraction's estimate where the brackets are wide."""
    lines = ["## Beyond the cap: the state-keyed estimate\n"]
    records = A.cached(model.data_dir("abstraction"))
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup abstraction`."])
    df = _abstraction_frame(records)
    pairs = ", ".join(f"{a}/{b}" for a, b in sorted(set(zip(df["mover"], df["other"],
                                                             strict=True))))
    wide = A.scope(pairs=[(a, b) for a in sweep.COINS for b in sweep.COINS])
    closed = _closed_since(df)
    params = records[0]["parameters"]
    lines += [
        "Where the rigorous brackets above are still wide, this is the best available "
        "answer, **an estimate, not an exact value**. The endgame is solved in the *state-keyed "
        "abstraction* (the engine's graph mode: a player's information is their own card plus "
        "the public position, turn number included, so the order of past claims is "
        "forgotten), whose size grows about linearly with the turn cap, so caps of 16-32 "
        "turns fit where the perfect-recall tree stops at 3-4. The cap pays 0, as a game "
        "that never ends does in the uncapped definition. The caps "
        f"{', '.join(map(str, params['caps']))} are tried in turn until the value moves by "
        f"less than {params['value_tolerance']:g} (in value, ±1) between consecutive caps, "
        f"or the graph passes {params['max_graph_nodes']:,} nodes, or the endgame has spent "
        f"{params['seconds_per_endgame']:.0f} s; each cap is solved with CFR+ to "
        f"exploitability {params['target']:g} within the abstraction or "
        f"{params['max_iterations']:,} iterations or {params['seconds_per_solve']:.0f} s.",
        "",
        "What it is not: an equilibrium of Coup. Forgetting past claims changes the game; "
        "under imperfect recall CFR+ has no convergence guarantee (a max-min and a min-max "
        "in behaviour strategies may differ), and the engine's best response in the "
        "abstraction is only a lower bound, so the *exploitability within the abstraction* "
        "below is a lower bound too (it can even be negative). Two checks say how much to "
        "trust it: **the loss at cap 3**, where the perfect-recall tree still fits (the "
        "cap-3 abstract strategy played in the exact cap-3 tree: its exploitability there, "
        "by exact best response, beside the tree's exact value), and **the rigorous "
        "bracket** (the intersection of the brackets of every cap on disk): an estimate "
        "outside it is wrong by at least the distance shown.",
        "",
        f"Scope: every endgame, both decks, whose rigorous bracket is wider than 0.001: "
        f"{len(df) - len(closed)} of the {len(wide)} such endgames are estimated (mover/other "
        f"coin pairs {pairs})" + _closed_since_words(closed) + ". They took "
        f"{df['seconds'].sum() / 60:.0f} CPU-minutes ({df['seconds'].mean():.0f} s an "
        "endgame).",
        "",
    ]
    conv = int(df["converged"].sum())
    inside = df.dropna(subset=["inside"])
    n_in = int(inside["inside"].astype(bool).sum())
    loss = df.dropna(subset=["loss"])
    reasons = df.loc[~df["converged"].astype(bool), "stopped"].value_counts()
    why = ", ".join(f"{n} at the {_STOP_WORDS.get(k, k)}" for k, n in reasons.items())
    lines.append(
        f"**In numbers.** {conv} of {len(df)} estimates converged in the cap (value moved "
        f"< {params['value_tolerance']:g} between the last two caps)"
        + (f"; the others stopped ({why}), and their last change is shown" if why else "")
        + ". "
        f"{n_in} of {len(inside)} estimates lie inside their rigorous bracket"
        + (f" (the others miss by up to {inside['outside_by'].max():.3f} in win probability)"
           if n_in < len(inside) else "") + ". "
        + (f"The loss at cap 3 is {loss['loss'].median():.3f} (median; range "
           f"{loss['loss'].min():.3f}-{loss['loss'].max():.3f}) as an exploitability in value "
           "(±1) units: the abstract strategies can be beaten by that much, and a profile "
           "exploitable by e has a value within 2e of the game's, i.e. within e in win "
           "probability. The exploitability "
           "within the abstraction at the last cap is "
           f"{df['exploitability'].min():.1e} to {df['exploitability'].max():.1e}: the "
           "estimate's error is of the order of these, not of the solver's target."
           if len(loss) else ""))
    if len(loss):
        gap = (loss["abstract_win_in_tree"] - loss["exact_win"]).abs()
        lines.append(
            "\nThe value itself fares better than the strategies: at cap 3 the abstract "
            "profile's value in the exact tree is within "
            f"{gap.max():.1e} of the exact cap-3 P(win) (median {gap.median():.1e}), where "
            "the loss alone would allow up to the loss itself. Caveat on *converged*: at "
            "the largest caps CFR+ ran "
            f"{int(df['iterations'].min())}-{int(df['iterations'].max())} iterations within "
            "its time cap, so two caps agreeing to 0.001 can be the solver's noise agreeing; "
            "the change between caps is a floor on the uncertainty, not a bound.")
    sizes = []
    for row in df[df["mover"] == df["other"]].itertuples():
        if row.mover in (0, 3):
            caps = ", ".join(f"cap {c['cap']}: {c['nodes']:,}" for c in row.caps)
            sizes.append(f"{row.deck} {row.mover}/{row.other}: {caps}")
    if sizes:
        lines.append("\nGraph sizes (nodes) by cap: " + "; ".join(sizes) + ".")
    img = _heatmaps(ctx, df, "win", "estimated P(mover wins)", "abstraction_win", "RdBu",
                    0.0, 1.0)
    lines.append(f"\n![state-keyed estimate over coins]({img})\n")
    lines += [
        "Per endgame: the estimate (mover's win probability, a never-ending game counted "
        "as half) at its last cap, the values at each cap solved, the rigorous bracket "
        "(caps of its lower/upper end), the loss at cap 3 with the exact cap-3 value and "
        "the abstract strategy's value in the cap-3 tree, and the solver figures of the "
        "last cap (iterations, exploitability within the abstraction).\n",
        "| deck | mover | other | estimate | cap (stop) | P(win) by cap | last change of P(win) | "
        "bracket (caps) | inside? | loss at cap 3 | exact cap-3 P(win) | abstract in cap-3 "
        "tree | iterations | expl. in abstraction |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in df.sort_values(["deck", "mover", "other"]).itertuples():
        by_cap = ", ".join(f"{(1 + c['value']) / 2:.3f}" for c in r.caps)
        stop = "converged" if r.converged else _STOP_WORDS.get(r.stopped, r.stopped)
        where = ("inside" if r.inside else f"outside by {r.outside_by:.3f}") \
            if r.inside is not None else "–"
        lines.append(
            f"| {r.deck} | {r.mover} | {r.other} | {_fmt(r.win)} | {r.cap} ({stop}) | "
            f"{by_cap} | {_fmt(r.change, '.4f')} | {_fmt(r.lower_win)}-{_fmt(r.upper_win)} "
            f"({r.bracket_caps}) | {where} | {_fmt(r.loss, '.3f')} | {_fmt(r.exact_win)} | "
            f"{_fmt(r.abstract_win_in_tree)} | {r.iterations} | {r.exploitability:.1e} |")
    lines.append(
        f"\n(solver: {A.SOLVER}, cap payoff 0; the loss and the exact cap-3 value: "
        f"{A.TREE_SOLVER}, "
        + (f"{int(loss['tree_iterations'].min())}-{int(loss['tree_iterations'].max())} "
           f"iterations, exploitability at most {loss['tree_exploitability'].max():.1e}; "
           f"the cap-3 abstraction {int(loss['loss_iterations'].min())}-"
           f"{int(loss['loss_iterations'].max())} iterations"
           if len(loss) else "not measured") + ". Win probabilities are (1 + value) / 2; "
        "the loss is an exploitability, in value units.)\n")
    lines.append("\n\n".join(_favoured(df)))
    return "\n".join(lines) + "\n"


def section_memory_keys(ctx: ReportContext) -> str:
    """The claim-memory abstraction beside the plain one: how much the forgetting costs."""
    lines = ["### Remembering claims and sightings\n"]
    records = A.cached(model.data_dir("abstraction_memory"))
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup abstraction --keys memory`."]) + "\n"
    memory = _abstraction_frame(records)
    plain = _abstraction_frame(A.cached(model.data_dir("abstraction")))
    on = ["deck", "mover", "other"]
    df = memory.merge(plain, on=on, how="left", suffixes=("", "_plain"))
    params = records[0]["parameters"]
    both = df.dropna(subset=["loss", "loss_plain"])
    lines += [
        "Most of the estimate's loss is what the plain keys forget. The *memory keys* "
        "(`farol coup abstraction --keys memory`, `games.coup.walker.MemoryWalker`) add "
        "to each key the characters each player has claimed (turn actions and blocks) "
        "since their hand last changed in public view (a lost card, a proven claim, an "
        "exchange, a forced swap), and the card an Inquisitor's examination showed, "
        "known to the examiner and the examined until that hand changes. The price is "
        f"size: {_growth_words(df)}, so the memory keys are solved at caps "
        f"{', '.join(map(str, params['caps']))} only (same limits and solver settings as "
        "above), far from where the low-coin values settle. What they show is how good a "
        "strategy a state-keyed abstraction can give: **the loss at cap 3**, measured "
        "exactly as above.",
        "",
    ]
    if len(both):
        better = int((both["loss"] < both["loss_plain"]).sum())
        lines.append(
            f"**In numbers** ({len(df)} endgames, the widest brackets): the loss at cap 3 "
            f"drops from {both['loss_plain'].median():.3f} (median, plain keys; largest "
            f"{both['loss_plain'].max():.3f}) to {both['loss'].median():.3f} (memory keys; "
            f"largest {both['loss'].max():.3f}), lower in {better} of {len(both)}. The "
            "memory-keyed value at cap 3 played in the exact tree is within "
            f"{(both['abstract_win_in_tree'] - both['exact_win']).abs().max():.1e} of the "
            "exact cap-3 P(win).")
    lines += [
        "",
        "| deck | mover | other | loss at cap 3, plain | loss at cap 3, memory | exact cap-3 "
        "P(win) | memory abstraction in cap-3 tree | memory P(win) by cap | memory graph "
        "nodes (last cap) | plain estimate (cap) | bracket | iterations | expl. in "
        "abstraction |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in df.sort_values(on).itertuples():
        by_cap = ", ".join(f"{c['cap']}: {(1 + c['value']) / 2:.3f}" for c in r.caps)
        plain_est = (f"{_fmt(r.win_plain)} ({r.cap_plain:.0f})"
                     if r.win_plain is not None and not np.isnan(r.win_plain) else "–")
        lines.append(
            f"| {r.deck} | {r.mover} | {r.other} | {_fmt(r.loss_plain, '.3f')} | "
            f"{_fmt(r.loss, '.4f')} | {_fmt(r.exact_win)} | {_fmt(r.abstract_win_in_tree)} | "
            f"{by_cap} | {_fmt(r.nodes, ',.0f')} | {plain_est} | "
            f"{_fmt(r.lower_win)}-{_fmt(r.upper_win)} | {r.iterations} | "
            f"{_fmt(r.exploitability, '.1e')} |")
    memory_loss = df.dropna(subset=["loss"])
    lines.append(
        f"\n(solver: {A.MEMORY_SOLVER}, cap payoff 0, CFR+ to exploitability "
        f"{params['target']:g} within the abstraction or {params['max_iterations']:,} "
        f"iterations or {params['seconds_per_solve']:.0f} s a cap; the loss: the cap-3 "
        f"abstraction ({int(memory_loss['loss_iterations'].min())}-"
        f"{int(memory_loss['loss_iterations'].max())} iterations) played in the "
        f"perfect-recall tree, exact best response; exact cap-3 values: {A.TREE_SOLVER}, "
        f"exploitability at most {memory_loss['tree_exploitability'].max():.1e}. "
        f"{df['seconds'].sum() / 60:.0f} CPU-minutes in all.)\n"
        if len(memory_loss) else "\n")
    return "\n".join(lines) + "\n"


def _closed_since(df):
    """The estimates (rows of :func:`_abstraction_frame`) whose endgame's bracket has
    closed since they were made, with the value now known (``value``, the bracket's
    midpoint) and the estimate's ``miss``, both in win probability."""
    closed = df[(df["upper_win"] - df["lower_win"]) <= A.CONVERGED_WIDTH].copy()
    closed["value"] = (closed["lower_win"] + closed["upper_win"]) / 2
    closed["miss"] = (closed["win"] - closed["value"]).abs()
    return closed


def _closed_since_words(closed) -> str:
    """The estimates of :func:`_closed_since` set beside the value now known: a check of
    the estimate where the truth is known."""
    if not len(closed):
        return ""
    items = [f"{r.deck} {r.mover}/{r.other}: estimate {r.win:.3f}, value {r.value:.3f}"
             for r in closed.sort_values(["deck", "mover", "other"]).itertuples()]
    return (f"; {len(closed)} more were estimated while their bracket was open and it has "
            "closed since (a larger cap), which checks the estimate where the value is now "
            f"known: {'; '.join(items)} (largest miss {closed['miss'].max():.1e} in win "
            "probability)")


def _favoured_side(r) -> tuple[str, float]:
    """Whom one estimate favours (``"mover"``, ``"other"`` or ``"none"``) against its own
    uncertainty, and that uncertainty: the larger of the last change between caps (in win
    probability) and the loss at cap 3 (a profile with exploitability e has a value within
    2e of the game's, i.e. within e in win probability)."""
    margin = max(r.change or 0.0, r.loss or 0.0)
    side = "none" if abs(r.win - 0.5) <= margin else "mover" if r.win > 0.5 else "other"
    return side, margin


def _favoured(df) -> list[str]:
    """Who the estimate favours at equal coins, per deck (:func:`_favoured_side`)."""
    words = {"mover": "the player to move", "other": "the other player",
             "none": "neither, within the uncertainty"}
    out = []
    for deck, g in df[df["mover"] == df["other"]].groupby("deck"):
        groups: dict[str, list[str]] = {words[k]: [] for k in ("mover", "other", "none")}
        for r in g.sort_values("mover").itertuples():
            side, margin = _favoured_side(r)
            groups[words[side]].append(f"{r.mover}/{r.other} {r.win:.3f} ±{margin:.3f}")
        parts = [f"{side}: {', '.join(cells)}" for side, cells in groups.items() if cells]
        out.append(f"Equal coins, {deck}, the estimate favours " + "; ".join(parts)
                   + " (the mover's P(win) ± the larger of the last change between caps and "
                   "the loss at cap 3).")
    return out


def _converged_words(conv) -> str:
    if not len(conv):
        return "none"
    parts = []
    for deck, g in conv.groupby("deck"):
        # Movers of 7+ coins Coup at once: named as a group when all three are there.
        every_rich = set(range(7, 10)) <= set(g["mover"])
        rest = g[g["mover"] < 7] if every_rich else g
        words = ["every mover with 7+ coins"] if every_rich else []
        if len(rest):
            pairs = ", ".join(f"{m}/{o}" for m, o in sorted(zip(rest["mover"], rest["other"],
                                                                strict=True)))
            words.append(f"mover/other coins {pairs}")
        parts.append(f"{deck}: " + ", and ".join(words))
    return "; ".join(parts)


def _endgame_first_mover() -> list[str]:
    """What the brackets say for sure about moving first in the 1v1 endgames."""
    by_cap = _brackets()
    if not by_cap:
        return []
    tight = _tightest(by_cap, _markov_brackets())
    cell = {(r.deck, r.mover, r.other): r for r in tight.itertuples()}
    pairs = [(a, a) for a in range(7)] + [(1, 2)]
    out = ["\nIn the 1v1 endgames the brackets give the first-mover question answers that hold "
           "without a cap. At equal coins, and for the 1-coin rule's analogue (1 coin "
           "against 2, to set beside 2/2), the mover's win probability lies in (the tightest "
           "bracket of each endgame over every cap and both ways of pricing the cap, as in "
           "*Pricing the cap*):\n",
           "| deck | " + " | ".join(f"{a}/{b}" for a, b in pairs) + " |",
           "|---" * (len(pairs) + 1) + "|"]
    for deck in DECKS_ORDER:
        if not all((deck, *p) in cell for p in pairs):
            continue
        out.append(f"| {deck} | " + " | ".join(
            f"{cell[(deck, *p)].lower_win:.3f}-{cell[(deck, *p)].upper_win:.3f}"
            for p in pairs) + " |")
    out.append("\nA lower end above 0.5 means the player to move is favoured for sure; "
               "where the bracket straddles 0.5 the question stays open.\n")
    return out


DECKS_ORDER = ("ambassador", "inquisitor")
# With two cards each, a passive player cannot be beaten within this many turns.
PASSIVE_OPEN_CAP = 6


def section_full_game(ctx: ReportContext) -> str:
    """The full 2-player game's first-player advantage: what is reachable and why not more."""
    lines = ["## The full 2-player game: first-player advantage\n"]
    try:
        rows = json.loads((model.data_dir("full_game.json")).read_text())
    except (OSError, ValueError):
        return "\n".join(lines + ["Not run yet: `farol coup full-game`."])
    lines += [
        "The first player's value in the 2-player game from the deal (two cards each, seat 0 "
        "starts), with the 1-coin rule (`two_player_setup=basic`) or both starting with 2 "
        "coins (`standard`), bracketed as above where the perfect-recall tree fits:\n",
        "| setup | deck | cap | est. histories | status | histories | compile s (nodes/s) | "
        "bracket, first player's win prob. | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r["setup"], r["deck"], r["turn_cap"])):
        done = r["status"] == "bracketed"
        # Up to cap 6 the bracket is [0, 1] by the passive-player argument below.
        status = r["status"] if done else "not compiled"
        known = "0-1 (argument below)" if r["turn_cap"] <= PASSIVE_OPEN_CAP else "–"
        lines.append(
            f"| {r['setup']} | {r['deck']} | {r['turn_cap']} | {r['estimated_tree_nodes']:.2g} | "
            f"{status} | {_fmt(r.get('nodes'), ',')} | "
            + (f"{r['compile_seconds']:.0f} ({r['nodes_per_second']:,.0f}) | "
               f"{r['lower_win']:.3f}-{r['upper_win']:.3f} | " + _solve_cells(r)
               if done else f"– | {known} | – | – |"))
    est = {(r["deck"], r["turn_cap"]): r["estimated_tree_nodes"] for r in rows.values()}
    rates = [r["nodes_per_second"] for r in rows.values() if r["status"] == "bracketed"]
    rate = max(rates) if rates else None
    lines.append(
        f"\n(solver: {SOLVER}; the estimates are Knuth's random probes, 400 a case.)\n")
    if rate:
        parts = []
        for (deck, cap), n in sorted(est.items()):
            if cap in (2, 7):
                hours = n / rate / 3600
                time_text = f"{hours:.1f} h" if hours < 1e3 else f"{hours / 8766:.1g} years"
                parts.append(f"{deck} cap {cap}: ~{n:.1g} histories, ~{n * 140 / 1e9:.1g} GB "
                             f"and ~{time_text} of compiling")
        lines.append(
            "**Not reachable, and why.** With two cards each, a player who only takes Income "
            "and never challenges or blocks loses cards only to an Assassinate (3 coins) or a "
            "Coup (7 coins). Beating them takes two of these, 6 coins spent from at most 2, "
            "gaining at most 3 a turn: four turns of one's own. So the first player cannot win "
            "before the 7th turn against that passive play, nor the second player before the "
            "8th, and the bracket is exactly [0, 1] (as win probabilities) for every cap up to "
            "6, whatever is solved: the cap-1 solve above confirms it. A bracket that says "
            "anything needs a cap of 7 at the very least. "
            f"The walk compiles at ~{rate:,.0f} histories a second here and a compiled "
            "history costs ~140 bytes: "
            + "; ".join(parts) + ". The state-keyed abstraction fits larger caps but is an "
            "imperfect-recall approximation whose loss could only be measured against this "
            "same tree (see *Larger endgames*). So with the cap as a loss and as a win the "
            "full game's first-player advantage, under either setup and deck, is out of "
            "exact reach: the smallest cap-7 tree is "
            f"~10^{np.log10(min(n for (d, c), n in est.items() if c == 7) / 1e7):.0f} times "
            "the 10^7 histories this machine can compile. Pricing the cap (next) narrows "
            "the bracket, a little.\n")
    lines += _full_game_markov()
    lines += _endgame_first_mover()
    return "\n".join(lines)


def _markov_tightest(rows: dict, key) -> dict[tuple, tuple[float, float, int]]:
    """Per ``key(row)``, the tightest Markov-priced bracket: (lower, upper, largest cap
    bracketed), intersecting the capped brackets with the guarantees at the deal (a
    bracket of their own)."""
    best: dict[tuple, tuple[float, float, int]] = {}
    for r in rows.values():
        lo, hi, cap = best.get(key(r), (0.0, 1.0, 0))
        lo, hi = max(lo, r["root_bracket"][0]), min(hi, r["root_bracket"][1])
        if r["status"] == "bracketed":
            lo, hi = max(lo, r["lower_win"]), min(hi, r["upper_win"])
            cap = max(cap, r["turn_cap"])
        best[key(r)] = (lo, hi, cap)
    return best


def _full_game_best(rows: dict) -> dict[tuple, tuple[float, float, int]]:
    """Per (setup, deck), the first player's tightest bracket (:func:`_markov_tightest`)."""
    return _markov_tightest(rows, lambda r: (r["setup"], r["deck"]))


def _solve_cells(r: dict) -> str:
    # The two solves' larger iteration count and exploitability, as two table cells.
    return (f"{max(r['low']['iterations'], r['high']['iterations'])} | "
            f"{max(r['low']['exploitability'], r['high']['exploitability']):.1e} |")


def _first_mover_bullet(by_cap: dict) -> list[str]:
    """The findings line on moving first at equal coins, from the tightest brackets."""
    tight = _tightest(by_cap, _markov_brackets())
    if tight.empty:
        return []
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[equal["lower_win"] > 0.5]
    if sure.empty:
        return []
    parts = [f"{deck}: " + ", ".join(f"{r.mover}/{r.mover} {r.lower_win:.3f}-{r.upper_win:.3f}"
                                     for r in g.sort_values("mover").itertuples())
             for deck, g in sure.groupby("deck")]
    rest = equal[equal["lower_win"] <= 0.5]
    straddle = bool(len(rest)) and bool((rest["upper_win"] >= 0.5).all())
    return ["- **Moving first at equal coins, without a cap**: the mover is favoured for sure "
            "(the tightest bracket's lower end above 1/2) at " + "; ".join(parts)
            + ("; at the other equal coin counts the brackets straddle 1/2" if straddle else "")
            + " (see *The full 2-player game*)."]


def _larger_bullet() -> list[str]:
    """The findings line on two cards against one, from the 2v1/1v2 Markov brackets."""
    rows = read_rows(model.data_dir("larger_markov.json"))
    if not rows:
        return []
    tight = _markov_tightest(rows, lambda r: (r["case"], r["deck"], r["position"]))
    two = [v for (case, _, _), v in tight.items() if case == "2v1"]
    one = [v for (case, _, _), v in tight.items() if case == "1v2"]
    if not two or not one:
        return []
    return [f"- **Two cards against one, without a cap** (2v1/1v2 at 1 and 3 coins each): the "
            f"mover with two cards wins with probability at least {min(lo for lo, _, _ in two):.2f}, "
            f"the mover with one at most {max(hi for _, hi, _ in one):.2f} (rigorous brackets "
            "with the cap priced by Markov guarantees; see *Larger endgames*)."]


def _full_game_bullet() -> str:
    """The findings line on the full game's first-player advantage."""
    best = _full_game_best(read_rows(model.data_dir("full_game_markov.json")))
    if not best:
        return ("- **The full game's first-player advantage** is out of exact reach: its "
                "bracket is [0, 1] for every cap up to 6 (see *The full 2-player game*).")
    parts = [f"{lo:.3f}-{hi:.3f} ({deck}, {'1-coin rule' if setup == 'basic' else '2 coins each'})"
             for (setup, deck), (lo, hi, _) in sorted(best.items(), key=lambda kv: kv[0][::-1])]
    return ("- **The full game's first-player advantage**: with the cap priced by Markov "
            "guarantees, the first player's win probability lies in " + "; ".join(parts)
            + " (rigorous, wide; the plain bracket is [0, 1] up to cap 6; see *The full "
            "2-player game*).")


def _span(values) -> str:
    """``lo-hi`` to two decimals, or one number when they print the same."""
    values = list(values)
    lo, hi = f"{min(values):.2f}", f"{max(values):.2f}"
    return lo if lo == hi else f"{lo}-{hi}"


def _full_game_markov() -> list[str]:
    """The full game's brackets with the cap priced by the whole game's Markov guarantees."""
    rows = read_rows(model.data_dir("full_game_markov.json"))
    if not rows:
        return ["**Pricing the cap.** Not run yet: `farol coup full-game --markov`.\n"]
    out = [
        "**Pricing the cap with Markov guarantees.** The argument above holds when the cap "
        "counts as a loss and as a win. Priced instead by what each player can guarantee "
        "from the position it stops (*Pricing the cap*: a Markov policy for the player, an "
        "opponent who sees every card), the bracket is no longer [0, 1], though with two "
        "cards each for many turns the opponent who sees the cards leaves little: the two "
        "players' guarantees at the deal add up to "
        + _span(sum(r["markov"]["root_guarantee"]) for r in rows.values()) + ". The guarantees "
        "are solved on the position graph of the whole game (both setups' deals, one graph "
        "a deck); the first player's win probability lies in [W_0, 1 - W_1] at the deal "
        "already, and within the capped game's bracket where its tree fits:\n",
        "| setup | deck | cap | positions (edges) | guarantees s | at the deal | histories | "
        "compile s | bracket, first player's win prob. | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r["deck"], r["setup"], r["turn_cap"])):
        m = r["markov"]
        lo, hi = r["root_bracket"]
        done = r["status"] == "bracketed"
        out.append(
            f"| {r['setup']} | {r['deck']} | {r['turn_cap']} | {m['positions']:,} "
            f"({m['edges']:,}) | {m['seconds']:.0f} | {lo:.3f}-{hi:.3f} | "
            + (f"{r['nodes']:,} | {r['compile_seconds']:.0f} | "
               f"{r['lower_win']:.3f}-{r['upper_win']:.3f} | " + _solve_cells(r)
               if done else f"– | – | {r['status']} | – | – |"))
    best = _full_game_best(rows)
    if best:
        parts = [f"{deck}, {'1-coin rule' if setup == 'basic' else '2 coins each'}: "
                 f"{lo:.3f}-{hi:.3f} (caps up to {cap})"
                 for (setup, deck), (lo, hi, cap) in sorted(best.items(), key=lambda kv: kv[0][::-1])]
        verdict = ("so the first player is favoured for sure"
                   if all(lo > 0.5 for lo, _, _ in best.values()) else
                   "so the second player is favoured for sure"
                   if all(hi < 0.5 for _, hi, _ in best.values()) else
                   "brackets that straddle 1/2: who is favoured stays open")
        out.append("\nThe tightest brackets of the first player's win probability (the "
                   "intersection over caps): "
                   + "; ".join(parts) + f"; {verdict}. (Solver: {SOLVER}, each side to "
                   "exploitability 1e-4 or 600 s; each end is a solved strategy's guarantee by "
                   "exact best response, so it holds whatever the exploitability.)\n")
    return out


def section_bluffing(ctx: ReportContext) -> str:
    records = _records()
    lines = ["## The bluffing study\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet."])
    df = bluffing.frame(records)
    note = _solver_note(df)
    summary = bluffing.claim_summary(records)
    lines += [
        "At equilibrium of the capped endgames: for each claim, how often it is made (mean "
        "probability that play reaches it and it is made, over the positions where it is "
        "made), the probability that it is a bluff given it is made, and the probability "
        "that it is challenged, each averaged over coin pairs weighted by how often it is "
        f"made. ({note}.)",
        "",
        "Caveat: in a two-turn game some claims change nothing (coins gained on the last "
        "turn are worthless), so their bluff rates are one equilibrium among many; the "
        "claims that decide the game within the cap (Assassinate, the Contessa block, "
        "challenges) are the informative ones.",
        "",
        "| deck | claim | positions | frequency | P(bluff) | P(challenged) | max P(bluff) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in summary.itertuples():
        lines.append(f"| {r.deck} | {r.claim} | {r.positions} | {r.mean_frequency:.3f} | "
                     f"{r.bluff_rate:.3f} | {r.challenge_rate:.3f} | {r.max_bluff_rate:.3f} |")
    lines.append("")
    if not summary.empty:
        fig = Figure(figsize=(11, 4.5))
        for i, deck in enumerate(sorted(summary["deck"].unique())):
            ax = fig.add_subplot(1, 2, i + 1)
            s = summary[summary["deck"] == deck]
            y = np.arange(len(s))
            ax.barh(y - 0.2, s["bluff_rate"], 0.4, label="P(bluff | made)")
            ax.barh(y + 0.2, s["challenge_rate"], 0.4, label="P(challenged | made)")
            ax.set_yticks(y, s["claim"], fontsize=7)
            ax.set_xlim(0, 1)
            ax.set_title(deck)
            ax.legend(fontsize=7)
        img = ctx.save_figure(fig, "bluff_rates")
        lines.append(f"![bluff and challenge rates]({img})\n")
    grids = []
    for claim in ("Block Assassinate (Contessa)", "Steal (Captain)", "Assassinate (Assassin)"):
        sub = bluffing.claims_frame(records)
        sub = sub[(sub["claim"] == claim) & (sub["frequency"] >= 1e-3)]
        if not sub.empty:
            grids.append((claim, sub))
    if grids:
        fig = Figure(figsize=(5 * len(grids), 4))
        for i, (claim, sub) in enumerate(grids):
            ax = fig.add_subplot(1, len(grids), i + 1)
            for deck, g in sub.groupby("deck"):
                by_other = g.groupby("other")["bluff_rate"].mean()
                ax.plot(by_other.index, by_other.values, marker="o", label=deck)
            ax.set_title(claim, fontsize=9)
            ax.set_xlabel("coins of the player to move's opponent")
            ax.set_ylabel("P(bluff | claimed)")
            ax.set_ylim(0, 1)
            ax.legend(fontsize=7)
        img = ctx.save_figure(fig, "bluff_by_coins")
        lines.append("How the bluff rates move with coins (mean over the mover's coins):\n")
        lines.append(f"![bluff rates by coins]({img})\n")
    lines.append("### The fake Contessa\n")
    for deck in sorted(df["deck"].unique()):
        fc = bluffing.fake_contessa(records, deck)
        fc = fc[fc["frequency"] >= 1e-3]
        if fc.empty:
            continue
        lines.append(
            f"{deck}: when assassinated, the target claims the Contessa in {len(fc)} positions; "
            f"that block is a bluff {fc['bluff_rate'].mean():.0%} of the time on average "
            f"(range {fc['bluff_rate'].min():.0%}-{fc['bluff_rate'].max():.0%}) and the "
            f"assassin challenges it {fc['challenge_rate'].mean():.0%} of the time. With one "
            "card left a caught fake Contessa loses the game, but so does doing nothing: "
            "against a real Assassin the bluff is the only chance. "
            f"({note}.)\n")
    lines.append("### The value of holding each character\n")
    cv = bluffing.character_values(records)
    lines.append("The mover's outcome probabilities given the card they were dealt, averaged "
                 "over all coin pairs (the 30 per deck where the mover has 7+ coins are won "
                 f"whatever the card) ({note}):\n")
    lines.append("| deck | card | P(win) | P(draw) | P(lose) | value |")
    lines.append("|---|---|---|---|---|---|")
    for r in cv.itertuples():
        lines.append(f"| {r.deck} | {r.card} | {r.win:.3f} | {r.draw:.3f} | {r.lose:.3f} | "
                     f"{r.value:+.3f} |")
    lines.append("")
    for deck in sorted(df["deck"].unique()):
        mix = bluffing.first_mix(records, deck)
        if mix.empty:
            continue
        lines.append(f"First action of the mover by card held ({deck}; mean over the coin "
                     "pairs where the mover has 0-6 coins):\n")
        lines.append("| card | " + " | ".join(mix.columns) + " |")
        lines.append("|---|" + "---|" * len(mix.columns))
        for card, row in mix.iterrows():
            lines.append(f"| {card} | " + " | ".join(f"{v:.2f}" for v in row.values) + " |")
        lines.append("")
    lines.append("### Against honest play\n")
    hc = bluffing.honest_comparison(records)
    lines.append(
        "The issue's anchor: a published simulation of *honest* play (one card each, coins 0-6, "
        "no Ambassador) has the mover winning with Captain 163/196, Assassin 134/196, Duke "
        "110/196, Contessa 74/196 of coin pairs. Our equilibrium P(win) of the mover by card "
        "over the same coins (0-6 each; our decks keep their fifth character, and the game "
        f"stops after {DEFAULT_CAP} turns, so much of it is drawn):\n")
    cols = [c for c in hc.columns if c != "card"]
    lines.append("| card | " + " | ".join(c.replace("_", " ") for c in cols) + " |")
    lines.append("|---|" + "---|" * len(cols))
    for _, row in hc.iterrows():
        lines.append(f"| {row['card']} | " + " | ".join(_fmt(row[c]) for c in cols) + " |")
    honest_order = " > ".join(HONEST_ORDER)
    for col in [c for c in hc.columns if c.startswith("equilibrium_win_")]:
        order = " > ".join(hc.sort_values(col, ascending=False)["card"])
        lines.append(f"\nOrder of the four cards by the mover's P(win), {col.split('_')[-1]} "
                     f"deck at equilibrium: {order} (honest play: {honest_order}).")
    lines.append(
        "\nHonest play never bluffs, so a claim reveals the card and a challenge is never "
        "wrong; at equilibrium every card can be claimed and the threat of a bluff is priced "
        "in. The comparison is of orderings only: the published figures play to the end, ours "
        "stop after two turns and count the rest as drawn (*The bluffing study with the cap "
        "priced* gives each card's win probability played to the end).\n")
    return "\n".join(lines)


def _priced_records() -> list[dict]:
    """The cap-priced endgame records on disk (the main grid; movers of 7+ at cap 1)."""
    return model.cached(sweep.grid(cap=DEFAULT_CAP), model.priced_dir())


def section_priced_bluffing(ctx: ReportContext) -> str:
    """The bluffing study along each player's safe strategy, the cap priced by Markov
    guarantees, beside the cap-0 study."""
    lines = ["## The bluffing study with the cap priced\n"]
    records = _priced_records()
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup sweep --cap-pricing markov`."])
    df = bluffing.frame(records)
    plain = bluffing.claim_summary(_records())
    summary = bluffing.claim_summary(records)
    lines += [
        "In the cap-0 game a low-coin endgame is a draw whatever happens in its two turns, "
        "so most moves tie there and the study above reads one equilibrium among many. "
        "Here the same endgames are solved with the cap priced by the Markov guarantees "
        "(*Pricing the cap*), once with the cap paying the mover their guarantee and once "
        "paying the other theirs, and the study walks the *safe profile*: each player's "
        "strategy from the game that pays them, the one that secures them the most whatever "
        "the other does. Every move then has a price: a coin gained on the last turn is "
        f"worth what it adds to the guarantee. {len(records)} endgames "
        f"({_solver_note(df)} on each side; movers with 7+ coins at cap 1).",
        "",
        "Caveat: each player's cap price is their own floor (their guarantee against an "
        "opponent who sees both cards), below what the position is worth, so a safe "
        "strategy prefers to settle things within the cap: it challenges more (with one "
        "card each a challenge ends the game at once) and reaches the cap less than "
        "equilibrium play of the uncapped game would. The cap-0 study errs the other way "
        "(the cap is worth half a win to both, so nothing presses). The uncapped game lies "
        "between the two pricings; the rates on which both studies agree are the robust "
        "ones.",
        "",
        "| deck | claim | positions | frequency | P(bluff) | P(challenged) | cap-0 P(bluff) "
        "| cap-0 P(challenged) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    base = {(r.deck, r.claim): r for r in plain.itertuples()} if len(plain) else {}
    for r in summary.itertuples():
        b = base.get((r.deck, r.claim))
        lines.append(f"| {r.deck} | {r.claim} | {r.positions} | {r.mean_frequency:.3f} | "
                     f"{r.bluff_rate:.3f} | {r.challenge_rate:.3f} | "
                     f"{_fmt(b.bluff_rate if b else None)} | "
                     f"{_fmt(b.challenge_rate if b else None)} |")
    agree = [f"{r.deck} {r.claim}" for r in summary.itertuples()
             if (b := base.get((r.deck, r.claim))) is not None
             and abs(r.bluff_rate - b.bluff_rate) <= 0.05]
    lines.append("\nBluff rates on which the two studies agree within 0.05: "
                 + (", ".join(agree) if agree else "none") + ".\n")
    if not summary.empty:
        fig = Figure(figsize=(11, 4.8))
        for i, deck in enumerate(sorted(summary["deck"].unique())):
            ax = fig.add_subplot(1, 2, i + 1)
            s = summary[summary["deck"] == deck].reset_index(drop=True)
            y = np.arange(len(s))
            old = [base[(deck, c)].bluff_rate if (deck, c) in base else np.nan
                   for c in s["claim"]]
            ax.barh(y - 0.2, s["bluff_rate"], 0.4, label="P(bluff), cap priced")
            ax.barh(y + 0.2, old, 0.4, label="P(bluff), cap scored 0", alpha=0.6)
            ax.plot(s["challenge_rate"], y, "k|", markersize=9,
                    label="P(challenged), cap priced")
            ax.set_yticks(y, s["claim"], fontsize=7)
            ax.set_xlim(0, 1)
            ax.set_title(deck)
            ax.legend(fontsize=6)
        img = ctx.save_figure(fig, "priced_bluff_rates")
        lines.append(f"![bluff rates with the cap priced]({img})\n")
    for deck in sorted(df["deck"].unique()):
        fc = bluffing.fake_contessa(records, deck)
        fc = fc[fc["frequency"] >= 1e-3]
        if not fc.empty:
            lines.append(
                f"**The fake Contessa** ({deck}): assassinated, the target claims the Contessa "
                f"in {len(fc)} positions; that block is a bluff {fc['bluff_rate'].mean():.0%} "
                f"of the time on average (range {fc['bluff_rate'].min():.0%}-"
                f"{fc['bluff_rate'].max():.0%}) and the assassin challenges it "
                f"{fc['challenge_rate'].mean():.0%} of the time.\n")
    ranges = bluffing.card_win_ranges(records, coins=range(7))
    if not ranges.empty:
        lines += [
            "**The value of each character, played to the end.** The mover's win "
            "probability by card held, coins 0-6 each, when both play the safe profile for "
            f"{DEFAULT_CAP} turns and their Markov policies afterwards: at least what they win "
            "within the cap plus their guarantee where it stops, at most one minus what they "
            "lose and the other's guarantee (rigorous for that profile), beside the published "
            "honest-play figure (one card each, coins 0-6, no Ambassador):\n",
            "| deck | card | P(win) within the cap | P(reach the cap) | P(win) to the end | "
            "honest play |",
            "|---|---|---|---|---|---|",
        ]
        for r in ranges.itertuples():
            honest = bluffing.HONEST_PLAY_WINS.get(r.card)
            lines.append(f"| {r.deck} | {r.card} | {r.win:.3f} | {r.cap:.3f} | "
                         f"{r.low:.3f}-{r.high:.3f} | "
                         f"{_fmt(honest / bluffing.HONEST_PLAY_CASES if honest else None)} |")
        for deck, g in ranges.groupby("deck"):
            cards = list(g.sort_values("low", ascending=False).itertuples())
            chain = cards[0].card + "".join(
                f" {'>' if a.low > b.high else '~'} {b.card}"
                for a, b in zip(cards, cards[1:], strict=False))
            lines.append(f"\n{deck}, by the ranges' lower ends: {chain} ('>': the ranges are "
                         "apart, '~': they overlap; honest play: "
                         f"{' > '.join(HONEST_ORDER)}).")
        lines.append("")
    return "\n".join(lines)


def section_balance(ctx: ReportContext) -> str:
    records = _records()
    lines = ["## Balance\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet."])
    note = _solver_note(bluffing.frame(records))
    fp = balance.first_player(records)
    lines.append(f"On the 1v1 endgames ({note}):\n")
    lines.append("| deck | mover value, equal coins (mean) | P(win) | P(lose) | "
                 "value 1 coin vs 2 | value 2 vs 2 |")
    lines.append("|---|---|---|---|---|---|")
    for r in fp.itertuples():
        lines.append(f"| {r.deck} | {_fmt(r.mean_mover_value_equal_coins, '+.3f')} | "
                     f"{_fmt(r.mover_win_equal_coins)} | {_fmt(r.mover_lose_equal_coins)} | "
                     f"{_fmt(r.value_1_vs_2, '+.3f')} | {_fmt(r.value_2_vs_2, '+.3f')} |")
    try:
        caps = json.loads((model.data_dir("cap_study.json")).read_text())
    except (OSError, ValueError):
        caps = {}
    for cap in (2, 3):
        one = caps.get(f"inquisitor_contessa-contessa_m1_o2_cap{cap}")
        two = caps.get(f"inquisitor_contessa-contessa_m2_o2_cap{cap}")
        if one and two:
            lines.append(
                f"\nCap {cap}, Inquisitor: mover with 1 coin against 2: value "
                f"{one['value']:+.4f} (win {one['win']:.3f}, draw {one['draw']:.3f}; "
                f"{one['iterations']} iterations, exploitability {one['exploitability']:.1e}); "
                f"with 2 against 2: {two['value']:+.4f} (win {two['win']:.3f}, draw "
                f"{two['draw']:.3f}; {two['iterations']} iterations, exploitability "
                f"{two['exploitability']:.1e}).")
    dd = balance.deck_difference(records)
    if not dd.empty:
        v = dd["ambassador_minus_inquisitor"]
        lines.append(
            f"\nAmbassador minus Inquisitor, mover value per coin pair: mean {v.mean():+.3f}, "
            f"range {v.min():+.3f} to {v.max():+.3f} over {len(v)} pairs.\n")
    try:
        larger = json.loads((model.data_dir("larger.json")).read_text())
    except (OSError, ValueError):
        larger = {}
    op = balance.opening(larger)
    if not op.empty:
        lines.append("The full 2-player game's opening (2v2 influence): 1-coin rule "
                     "(`?+?/-/1;?+?/-/2`) against 2 coins each, as far as the engine reaches:\n")
        lines.append("| case | deck | cap | status | est. histories | value | iterations | "
                     "exploitability |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for r in op.itertuples():
            lines.append(f"| {r.case} | {r.deck} | {r.turn_cap} | {r.status} | "
                         f"{r.estimated_tree_nodes:.3g} | {_fmt(r.tree_value, '+.4f')} | "
                         f"{_fmt(r.tree_iterations, '.0f')} | {_fmt(r.tree_exploitability, '.1e')} |")
        lines.append(
            "\nWith two cards each almost nothing is decided within the one or two turns that "
            "fit (the values are ~0), so the full game's first-player advantage is not "
            "measurable by exact solving here; the endgame figures above are the measurable "
            "part.\n")
    return "\n".join(lines)


def section_larger(ctx: ReportContext) -> str:
    lines = ["## Larger endgames\n"]
    try:
        rows = json.loads((model.data_dir("larger.json")).read_text())
    except (OSError, ValueError):
        return "\n".join(lines + ["Not run yet: `python -m analysis.coup.larger`."])
    lines += [
        "2v1 (the mover has two face-down cards), 1v2 and 2v2, small coin counts, turn caps "
        "1-3. Where the perfect-recall tree fits (budget 1.5 million estimated histories) it "
        "is solved exactly (CFR+, target exploitability 1e-3); the state-keyed abstraction "
        "(graph mode, `infoset_key`: own cards plus the public position, forgetting the order "
        "of past events) is solved too, and its strategy's exploitability *in the "
        "perfect-recall game* is its loss. Where the two are close the abstraction loses "
        "little; where the loss is far above the exploitability within the abstraction "
        "(e.g. 1v2 with 3 coins each at cap 2), forgetting past claims costs real value.",
        "",
        "| case | position | deck | cap | est. histories | tree nodes | tree s | tree expl. | "
        "graph nodes | graph s | expl. in abstraction | loss in full game | value |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r["deck"], r["position"], r["turn_cap"])):
        solved = r.get("status") == "solved"
        tree_s = (r.get("tree_compile_seconds", 0) + r.get("tree_solve_seconds", 0)) \
            if solved else None
        graph_s = (r.get("graph_compile_seconds", 0) + r.get("graph_solve_seconds", 0)) \
            if "graph_nodes" in r else None
        value = _fmt(r.get("tree_value"), "+.4f") if solved else (
            f"{r['graph_value']:+.4f} (abstraction)" if "graph_value" in r else "–")
        lines.append(
            f"| {r['case']} | `{r['position']}` | {r['deck']} | {r['turn_cap']} | "
            f"{r['estimated_tree_nodes']:.3g} | {_fmt(r.get('tree_nodes'), ',')} | "
            f"{_fmt(tree_s, '.1f')} | {_fmt(r.get('tree_exploitability'), '.1e')} | "
            f"{_fmt(r.get('graph_nodes'), ',')} | {_fmt(graph_s, '.1f')} | "
            f"{_fmt(r.get('graph_exploitability_in_abstraction'), '.1e')} | "
            f"{_fmt(r.get('abstraction_loss'), '.1e')} | {value} |")
    lines.append("\n(solver: CFR+, Farol engine. Rows without a tree solve are over the tree "
                 "budget; where the abstraction alone fits it is solved for at most "
                 "120 s and its exploitability is measured within the abstraction only.)\n")
    lines += _larger_markov()
    return "\n".join(lines)


def _larger_markov() -> list[str]:
    """The 2v1 and 1v2 uncapped values, bracketed with the cap priced by Markov guarantees."""
    rows = read_rows(model.data_dir("larger_markov.json"))
    if not rows:
        return ["**Without a cap.** Not run yet: `farol coup larger --markov`.\n"]
    out = [
        "**Without a cap.** The values above are those of the capped games. The uncapped "
        "values of the 2v1 and 1v2 cases are bracketed as the 1v1 endgames are, the cap "
        "priced by each player's Markov guarantee (*Pricing the cap*), on the position graph "
        "of these four deals (one a deck). *At the deal* is `[W_0, 1 - W_1]` from the "
        "guarantees alone; the bracket is the mover's win probability:\n",
        "| case | position | deck | cap | positions | guarantees s | at the deal | histories | "
        "s | bracket | width | iterations | exploitability |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows.values(), key=lambda r: (r["deck"], r["position"], r["turn_cap"])):
        m = r["markov"]
        lo, hi = r["root_bracket"]
        head = (f"| {r['case']} | `{r['position']}` | {r['deck']} | {r['turn_cap']} | "
                f"{m['positions']:,} | {m['seconds']:.0f} | {lo:.3f}-{hi:.3f} | ")
        if r["status"] != "bracketed":
            out.append(head + f"– | – | {r['status']} | – | – | – |")
            continue
        seconds = r["compile_seconds"] + r["low"]["seconds"] + r["high"]["seconds"]
        out.append(head + f"{r['nodes']:,} | {seconds:.0f} | {r['lower_win']:.4f}-"
                   f"{r['upper_win']:.4f} | {r['width']:.4f} | " + _solve_cells(r))
    tight = {k: (lo, hi) for k, (lo, hi, _) in _markov_tightest(
        rows, lambda r: (r["deck"], r["case"], r["position"])).items()}
    parts = [f"{case} `{position}` ({deck}) {lo:.3f}-{hi:.3f}"
             for (deck, case, position), (lo, hi) in sorted(tight.items())]
    out.append("\nTightest bracket per case (over the caps and the deal): " + "; ".join(parts)
               + ". " + ("Two cards against one is favoured for sure whoever moves; "
                         if all(lo > 0.5 if case == "2v1" else hi < 0.5
                                for (_, case, _), (lo, hi) in tight.items()) else "")
               + f"the brackets stay {_span(hi - lo for lo, hi in tight.values())} wide in "
               "win probability.")
    out.append(f"\n(solver: {SOLVER}, each side to exploitability 1e-4; each end is a solved "
               "strategy's guarantee by exact best response.)\n")
    return out


def _read_benchmark(path: Path) -> str | None:
    """A committed benchmark output, stripped, or ``None`` when it has not been run."""
    try:
        return path.read_text().strip()
    except OSError:
        return None


def section_benchmark(ctx: ReportContext) -> str:
    lines = ["## Benchmark\n"]
    text = _read_benchmark(BENCHMARK)
    if text is None:
        return "\n".join(lines + ["Not run yet: `python benchmarks/coup_endgames.py`."])
    lines += ["The largest 1v1 endgame solved with the cap scoring 0 (`benchmarks/coup_endgames.py`, "
              "compiled through OpenSpiel states before the walker existed):", "", "```", text,
              "```", ""]
    brackets = _read_benchmark(BRACKET_BENCHMARK)
    if brackets:
        lines += ["The largest endgames bracketed, the last the largest solved "
                  "(`benchmarks/coup_endgames.py --bracket`, or `--record` for a record a "
                  "sweep stored: one compile through Coup's walker, two CFR+ solves with the "
                  "cap paying -1 and +1 or the Markov guarantees, exact best response for the "
                  "bounds):", "", "```", brackets, "```", ""]
    walk = _read_benchmark(WALK_BENCHMARK)
    if walk:
        lines += ["Compile rates, OpenSpiel State walk against Coup's walker "
                  "(`benchmarks/coup_walk.py`; the machine is shared, the Kuhn line is its "
                  "speed at the time):", "", "```", walk, "```", ""]
    return "\n".join(lines)


SECTIONS = (
    (105, section_findings),
    (110, section_endgames),
    (113, section_cap3),
    (115, section_revealed),
    (120, section_turn_cap),
    (125, section_brackets),
    (126, section_markov_brackets),
    (126, section_revealed_brackets),
    (127, section_abstraction),
    (128, section_memory_keys),
    (130, section_bluffing),
    (131, section_priced_bluffing),
    (140, section_balance),
    (145, section_full_game),
    (150, section_larger),
    (160, section_benchmark),
)
