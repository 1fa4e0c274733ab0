"""The bluffing study: bluff and challenge rates at equilibrium, with the cap scoring 0 and priced."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.coup.model import DEFAULT_CAP
from analysis.coup.studies import bluffing
from analysis.report.context import ReportContext
from analysis.report.coup.tables import solver_note
from analysis.report.facts.coup.readers import endgame_records, priced_records
from analysis.report.templating import fill, render

HONEST_ORDER = ("Captain", "Assassin", "Duke", "Contessa")


def claim_extremes(summary, deck: str) -> tuple[list, list]:
    """A deck's three most bluffed and two most challenged claims, with their rates."""
    sub = summary[summary["deck"] == deck].sort_values("bluff_rate", ascending=False)
    top = [(r.claim, r.bluff_rate) for r in sub.head(3).itertuples()]
    chal = sub.sort_values("challenge_rate", ascending=False).head(2)
    return top, [(r.claim, r.challenge_rate) for r in chal.itertuples()]


def priced_bullet() -> list[str]:
    """The findings lines of the bluffing study with the cap priced."""
    records = priced_records()
    if not records:
        return []
    note = solver_note(bluffing.frame(records))
    summary = bluffing.claim_summary(records)
    ranges = bluffing.card_win_ranges(records, coins=range(7))
    lines = []
    for deck in sorted(summary["deck"].unique()):
        top, most = claim_extremes(summary, deck)
        lines.append(render("coup/appendix/priced_bullet.md.j2", deck=deck, note=note, top=top,
                            most=most, cards=list(ranges[ranges["deck"] == deck].itertuples())))
    return lines


def section_bluffing(ctx: ReportContext) -> str:
    records = endgame_records()
    if not records:
        return fill("coup/appendix/bluffing.md.j2", note="")
    df = bluffing.frame(records)
    summary = bluffing.claim_summary(records)
    rates_chart = coins_chart = ""
    if not summary.empty:
        fig = Figure(figsize=(11, 4.5))
        for i, deck in enumerate(sorted(summary["deck"].unique())):
            ax = fig.add_subplot(1, 2, i + 1)
            s = summary[summary["deck"] == deck]
            y = np.arange(len(s))
            ax.barh(y - 0.2, s["bluff_rate"], 0.4, label="P(bluff | made)")
            ax.barh(y + 0.2, s["challenge_rate"], 0.4, label="P(challenged | made)")
            ax.set_yticks(y, s["claim"], fontsize=8)
            ax.set_xlim(0, 1)
            ax.set_xlabel("probability")
            ax.set_ylabel("claim")
            ax.set_title(deck)
            ax.legend(fontsize=7)
        rates_chart = ctx.save_figure(fig, "bluff_rates")
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
        coins_chart = ctx.save_figure(fig, "bluff_by_coins")
    decks = sorted(df["deck"].unique())
    fake = [(deck, fc) for deck in decks
            if not (fc := _fake_contessa(records, deck)).empty]
    mixes = [(deck, mix) for deck in decks if not (mix := bluffing.first_mix(records, deck)).empty]
    hc = bluffing.honest_comparison(records)
    return fill("coup/appendix/bluffing.md.j2", note=solver_note(df),
                summary=list(summary.itertuples()), rates_chart=rates_chart,
                coins_chart=coins_chart, fake=fake,
                cards=list(bluffing.character_values(records).itertuples()), mixes=mixes,
                cap=DEFAULT_CAP, honest=hc, honest_columns=[c for c in hc.columns if c != "card"],
                orders=[(col.split("_")[-1], list(hc.sort_values(col, ascending=False)["card"]))
                        for col in hc.columns if col.startswith("equilibrium_win_")],
                honest_order=HONEST_ORDER)


def _fake_contessa(records, deck: str):
    """The positions where the assassinated target claims the Contessa, made at all."""
    fc = bluffing.fake_contessa(records, deck)
    return fc[fc["frequency"] >= 1e-3]


def section_priced_bluffing(ctx: ReportContext) -> str:
    """The bluffing study along each player's safe strategy, the cap priced by Markov
    guarantees, beside the cap-0 study."""
    records = priced_records()
    if not records:
        return fill("coup/appendix/priced_bluffing.md.j2", endgames=0)
    df = bluffing.frame(records)
    plain = bluffing.claim_summary(endgame_records())
    summary = bluffing.claim_summary(records)
    base = {(r.deck, r.claim): r for r in plain.itertuples()} if len(plain) else {}
    agree = [f"{r.deck} {r.claim}" for r in summary.itertuples()
             if (b := base.get((r.deck, r.claim))) is not None
             and abs(r.bluff_rate - b.bluff_rate) <= 0.05]
    chart = ""
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
            ax.set_yticks(y, s["claim"], fontsize=8)
            ax.set_xlim(0, 1)
            ax.set_xlabel("probability")
            ax.set_ylabel("claim")
            ax.set_title(deck)
            ax.legend(fontsize=6)
        chart = ctx.save_figure(fig, "priced_bluff_rates")
    fake = [(deck, fc) for deck in sorted(df["deck"].unique())
            if not (fc := _fake_contessa(records, deck)).empty]
    ranges = bluffing.card_win_ranges(records, coins=range(7))
    rows, chains = [], []
    if not ranges.empty:
        for r in ranges.itertuples():
            honest = bluffing.HONEST_PLAY_WINS.get(r.card)
            rows.append((r, honest / bluffing.HONEST_PLAY_CASES if honest else None))
        for deck, g in ranges.groupby("deck"):
            cards = list(g.sort_values("low", ascending=False).itertuples())
            chains.append((deck, cards[0].card,
                           [(a.low > b.high, b.card)
                            for a, b in zip(cards, cards[1:], strict=False)]))
    return fill("coup/appendix/priced_bluffing.md.j2", endgames=len(records),
                note=solver_note(df),
                summary=[(r, base.get((r.deck, r.claim))) for r in summary.itertuples()],
                agree=agree, chart=chart, fake=fake, cap=DEFAULT_CAP, ranges=rows,
                chains=chains, honest_order=HONEST_ORDER)
