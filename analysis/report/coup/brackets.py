"""The brackets on the uncapped values: the cap as a loss and a win, then priced by Markov guarantees."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import sweep
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, heatmaps, win_cell
from analysis.report.guides.coup.readers import (
    bracket_frame,
    markov_brackets,
    plain_brackets,
    tightest,
    with_closed,
)
from games.coup import cards as C


def with_larger_caps(by_cap: dict, cap: int, converged: int) -> str:
    """", N with the larger caps too" when brackets above ``cap`` close more endgames."""
    if max(by_cap) <= cap:
        return ""
    t = tightest(by_cap)
    n = int((t["width"] <= 1e-3).sum())
    return (f"; with the larger caps solved for some endgames (up to {max(by_cap)}), {n} "
            "have converged" if n != converged else "")


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
    lines = ["## Without a cap: rigorous brackets\n"]
    by_cap = plain_brackets()
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
    frames = {cap: bracket_frame(recs) for cap, recs in by_cap.items()}
    for cap, df in sorted(frames.items()):
        full = with_closed(df, by_cap, cap)
        for deck, g in full.groupby("deck"):
            own = df[df["deck"] == deck]
            if not len(own):
                continue
            lines.append(
                f"| {cap} | {deck} | {len(g)} | {int((g['width'] <= 1e-3).sum())} | "
                f"{g['width'].mean():z.3f} | {g['width'].max():z.3f} | {own['nodes'].max():,} | "
                f"{int(own['iterations'].min())}-{int(own['iterations'].max())} | "
                f"{own['exploitability'].max():z.1e} |")
    lines.append(f"\n(solver: {SOLVER.replace('CFR+', 'CFR+ to exploitability 1e-4')}, each "
                 "endgame solved twice; at caps above 1 the movers with 7+ coins are counted "
                 "with their cap-1 bracket, which is already closed.)\n")
    # Per deck, the largest cap bracketed for every endgame (movers of 7+ from cap 1).
    best = {}
    for deck in C.DECKS:
        caps = [c for c, f in frames.items()
                if len(with_closed(f[f["deck"] == deck], by_cap, c)) >= len(sweep.COINS) ** 2]
        if caps:
            best[deck] = max(caps)
    if not best:
        return "\n".join(lines)
    df = pd.concat([with_closed(frames[c][frames[c]["deck"] == d], by_cap, c)
                    .query("deck == @d") for d, c in best.items()], ignore_index=True)
    where = ", ".join(f"{d} at cap {c}" for d, c in best.items())
    lines.append(f"Bracket width over coins, {where}, the largest caps bracketed for every "
                 "endgame (0: the value is known; 1: nothing is):\n")
    img = heatmaps(ctx, df, "width", "bracket width", "bracket_width", "viridis", 0.0, 1.0)
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
            row = [f"{cell[(a, b)].lower_win:z.2f}-{cell[(a, b)].upper_win:z.2f}"
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
            cells.append(f"{g['width'].mean():z.3f}" if c <= cap and len(g) else "–")
        lines.append(f"| {deck} | " + " | ".join(cells) + " |")
    extra = pd.concat([f[(f["deck"] == d) & (c > best.get(d, 0))].assign(cap=c)
                       for c, f in frames.items() for d in C.DECKS], ignore_index=True)
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
                f"| {r.deck} | {r.mover} | {r.other} | {r.cap} | {r.lower_win:z.4f}-"
                f"{r.upper_win:z.4f} | {r.width:z.4f} | {fmt(prev, '.4f')} | {r.nodes:,}"
                f"{reduced} | {r.seconds:z.0f} | {r.iterations} | {r.exploitability:z.1e} |")
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
        tight = tightest(by_cap)
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
    plain, markov = plain_brackets(), markov_brackets()
    lines = ["## Pricing the cap: Markov guarantees\n"]
    if not markov:
        return "\n".join(lines + ["Not run yet: `farol coup brackets --markov`."])
    info = [r.markov for recs in markov.values() for r in recs]
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
        f"{size} positions a deck, at most {secs:z.0f} s for both players' policies by "
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
    frames = {cap: bracket_frame(recs) for cap, recs in markov.items()}
    for cap, df in sorted(frames.items()):
        base = bracket_frame(plain.get(cap, []))
        for deck, g in df.groupby("deck"):
            same = base[(base["deck"] == deck)].merge(g[["mover", "other"]]) if len(base) else base
            lines.append(
                f"| {cap} | {deck} | {len(g)} | {int((g['width'] <= 1e-3).sum())} | "
                f"{g['width'].mean():z.3f} | {fmt(same['width'].mean() if len(same) else None, '.3f')} | "
                f"{g['nodes'].max():,} | {int(g['iterations'].min())}-"
                f"{int(g['iterations'].max())} | {g['exploitability'].max():z.1e} |")
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
                f"{pair['width_a'].mean():z.3f} to {pair['width_b'].mean():z.3f}.\n")
    tight = tightest(plain, markov)
    conv = tight[tight["width"] <= 1e-3]
    before = tightest(plain)
    lines.append(
        f"**Convergence.** Counting every bracket on disk (plain and Markov-priced, every "
        f"cap), {len(conv)} of {len(tight)} endgames have converged, against "
        f"{int((before['width'] <= 1e-3).sum())} with the plain brackets alone; the mean "
        f"width is {tight['width'].mean():z.3f} (plain alone {before['width'].mean():z.3f}). "
        "Converged: " + _converged_words(conv) + ".\n")
    img = heatmaps(ctx, tight, "width", "tightest bracket width", "bracket_width_markov",
                   "viridis", 0.0, 1.0)
    lines.append(f"![tightest bracket width over coins]({img})\n")
    for deck in C.DECKS:
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
                row.append("–" if r is None else win_cell(r))
            lines.append(f"| {a} | " + " | ".join(row) + " |")
        lines.append("")
    equal = tight[(tight["mover"] == tight["other"]) & (tight["mover"] < 7)]
    sure = equal[(equal["lower_win"] > 0.5) | (equal["upper_win"] < 0.5)]
    lines.append(
        f"At equal coins (0-6), the bracket says who is favoured in {len(sure)} of "
        f"{len(equal)} endgames"
        + (": " + "; ".join(f"{r.deck} {r.mover}/{r.other} "
                            f"{'mover' if r.lower_win > 0.5 else 'other player'} "
                            f"({r.lower_win:z.2f}-{r.upper_win:z.2f})"
                            for r in sure.itertuples()) if len(sure) else "")
        + ". Where the hidden cards still matter the two guarantees leave a gap (the "
        "opponent who sees both cards calls every bluff that pays), so the low-coin "
        "brackets stay open; the tree before the cap is what prices the players' beliefs, "
        "and a larger cap narrows them further.\n")
    return "\n".join(lines)


def markov_bullet(by_cap: dict) -> list[str]:
    """The findings' line on the Markov-priced brackets (empty without data)."""
    markov = markov_brackets()
    if not markov:
        return []
    tight, before = tightest(by_cap, markov), tightest(by_cap)
    n, n0 = int((tight["width"] <= 1e-3).sum()), int((before["width"] <= 1e-3).sum())
    return [f"- **Pricing the cap** with each player's Markov guarantee (still rigorous, "
            f"caps {', '.join(str(c) for c in sorted(markov))}): {n} of {len(tight)} "
            f"endgames converge (plain brackets alone: {n0}), mean width "
            f"{tight['width'].mean():z.2f} (plain {before['width'].mean():z.2f}); see *Pricing "
            "the cap*."]


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
