"""The bluffing study: bluff and challenge rates at equilibrium, with the cap scoring 0 and priced."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.coup.model import DEFAULT_CAP
from analysis.coup.studies import bluffing
from analysis.report.context import ReportContext
from analysis.report.coup.tables import fmt, solver_note
from analysis.report.guides.coup.readers import endgame_records, priced_records

HONEST_ORDER = ("Captain", "Assassin", "Duke", "Contessa")


def claim_extremes(summary, deck: str) -> tuple[str, str]:
    """A deck's three most bluffed and two most challenged claims, as findings words."""
    sub = summary[summary["deck"] == deck].sort_values("bluff_rate", ascending=False)
    top = ", ".join(f"{r.claim} {r.bluff_rate:z.0%}" for r in sub.head(3).itertuples())
    chal = sub.sort_values("challenge_rate", ascending=False).head(2)
    most = ", ".join(f"{r.claim} {r.challenge_rate:z.0%}" for r in chal.itertuples())
    return top, most


def priced_bullet() -> list[str]:
    """The findings lines of the bluffing study with the cap priced."""
    records = priced_records()
    if not records:
        return []
    df = bluffing.frame(records)
    summary = bluffing.claim_summary(records)
    ranges = bluffing.card_win_ranges(records, coins=range(7))
    lines = []
    for deck in sorted(summary["deck"].unique()):
        top, most = claim_extremes(summary, deck)
        cards = ranges[ranges["deck"] == deck]
        order = ", ".join(f"{r.card} {r.low:z.2f}-{r.high:z.2f}" for r in cards.itertuples())
        lines.append(
            f"- **With the cap priced** ({deck}; each player's safe strategy, with the cap "
            "at each side's floor, so it settles by challenges more often than uncapped play "
            f"would; {solver_note(df)}): most bluffed {top}; most challenged {most}; the mover's "
            f"win probability played to the end by card (coins 0-6): {order}.")
    return lines


def section_bluffing(ctx: ReportContext) -> str:
    records = endgame_records()
    lines = ["## The bluffing study\n"]
    if not records:
        return "\n".join(lines + ["No endgame solved yet."])
    df = bluffing.frame(records)
    note = solver_note(df)
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
        lines.append(f"| {r.deck} | {r.claim} | {r.positions} | {r.mean_frequency:z.3f} | "
                     f"{r.bluff_rate:z.3f} | {r.challenge_rate:z.3f} | {r.max_bluff_rate:z.3f} |")
    lines.append("")
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
            f"that block is a bluff {fc['bluff_rate'].mean():z.0%} of the time on average "
            f"(range {fc['bluff_rate'].min():z.0%}-{fc['bluff_rate'].max():z.0%}) and the "
            f"assassin challenges it {fc['challenge_rate'].mean():z.0%} of the time. With one "
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
        lines.append(f"| {r.deck} | {r.card} | {r.win:z.3f} | {r.draw:z.3f} | {r.lose:z.3f} | "
                     f"{r.value:+z.3f} |")
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
            lines.append(f"| {card} | " + " | ".join(f"{v:z.2f}" for v in row.values) + " |")
        lines.append("")
    lines.append("### Against honest play\n")
    hc = bluffing.honest_comparison(records)
    lines.append(
        "For comparison, a published simulation of *honest* play (one card each, coins 0-6, "
        "no Ambassador) has the mover winning with Captain 163/196, Assassin 134/196, Duke "
        "110/196, Contessa 74/196 of coin pairs. Our equilibrium P(win) of the mover by card "
        "over the same coins (0-6 each; our decks keep their fifth character, and the game "
        f"stops after {DEFAULT_CAP} turns, so much of it is drawn):\n")
    cols = [c for c in hc.columns if c != "card"]
    lines.append("| card | " + " | ".join(c.replace("_", " ") for c in cols) + " |")
    lines.append("|---|" + "---|" * len(cols))
    for _, row in hc.iterrows():
        lines.append(f"| {row['card']} | " + " | ".join(fmt(row[c]) for c in cols) + " |")
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


def section_priced_bluffing(ctx: ReportContext) -> str:
    """The bluffing study along each player's safe strategy, the cap priced by Markov
    guarantees, beside the cap-0 study."""
    lines = ["## The bluffing study with the cap priced\n"]
    records = priced_records()
    if not records:
        return "\n".join(lines + ["Not run yet: `farol coup sweep --cap-pricing markov`."])
    df = bluffing.frame(records)
    plain = bluffing.claim_summary(endgame_records())
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
        f"({solver_note(df)} on each side; movers with 7+ coins at cap 1).",
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
        lines.append(f"| {r.deck} | {r.claim} | {r.positions} | {r.mean_frequency:z.3f} | "
                     f"{r.bluff_rate:z.3f} | {r.challenge_rate:z.3f} | "
                     f"{fmt(b.bluff_rate if b else None)} | "
                     f"{fmt(b.challenge_rate if b else None)} |")
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
            ax.set_yticks(y, s["claim"], fontsize=8)
            ax.set_xlim(0, 1)
            ax.set_xlabel("probability")
            ax.set_ylabel("claim")
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
                f"in {len(fc)} positions; that block is a bluff {fc['bluff_rate'].mean():z.0%} "
                f"of the time on average (range {fc['bluff_rate'].min():z.0%}-"
                f"{fc['bluff_rate'].max():z.0%}) and the assassin challenges it "
                f"{fc['challenge_rate'].mean():z.0%} of the time.\n")
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
            lines.append(f"| {r.deck} | {r.card} | {r.win:z.3f} | {r.cap:z.3f} | "
                         f"{r.low:z.3f}-{r.high:z.3f} | "
                         f"{fmt(honest / bluffing.HONEST_PLAY_CASES if honest else None)} |")
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
