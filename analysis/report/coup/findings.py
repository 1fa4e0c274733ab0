"""The Coup report's opening section: the headline numbers, each with where it comes from."""

from __future__ import annotations

from analysis.coup import model
from analysis.coup.model import DEFAULT_CAP
from analysis.coup.studies import balance, bluffing, sweep
from analysis.report.context import ReportContext
from analysis.report.coup.beyond_cap import abstraction_bullet
from analysis.report.coup.bluffing import claim_extremes, priced_bullet
from analysis.report.coup.brackets import markov_bullet, with_larger_caps
from analysis.report.coup.full_game import first_mover_bullet, full_game_bullet
from analysis.report.coup.larger import larger_bullet
from analysis.report.coup.revealed import revealed_bullet
from analysis.report.coup.tables import solver_note
from analysis.report.guides.coup.readers import (
    CAP3_COINS,
    bracket_frame,
    endgame_records,
    plain_brackets,
    with_closed,
)


def section_findings(ctx: ReportContext) -> str:
    """The headline numbers, each with where it comes from."""
    records = endgame_records()
    if not records:
        return "## Coup solved: findings in brief\n\nNo endgame solved yet."
    df = bluffing.frame(records)
    note = solver_note(df)
    lines = ["## Coup solved: findings in brief\n",
             f"From the {len(records)} solved 1v1 endgames at turn cap {DEFAULT_CAP} ({note}); "
             "details and caveats in the sections below.\n"]
    cv = bluffing.character_values(records)
    for deck in sorted(cv["deck"].unique()):
        sub = cv[cv["deck"] == deck]
        order = ", ".join(f"{r.card} {r.value:+z.2f}" for r in sub.itertuples())
        lines.append(f"- **Card values** ({deck}; mover's value by card held, mean over coin "
                     f"pairs): {order}.")
    summary = bluffing.claim_summary(records)
    for deck in sorted(summary["deck"].unique()):
        top, most = claim_extremes(summary, deck)
        lines.append(f"- **Most bluffed claims** ({deck}): {top}; **most challenged**: {most}.")
    fp = balance.first_player(records)
    for r in fp.itertuples():
        lines.append(f"- **Moving first at equal coins** ({r.deck}): mover value "
                     f"{r.mean_mover_value_equal_coins:+z.3f} (win {r.mover_win_equal_coins:z.2f}, "
                     f"lose {r.mover_lose_equal_coins:z.2f}).")
    dd = balance.deck_difference(records)
    if not dd.empty:
        v = dd["ambassador_minus_inquisitor"]
        lines.append(f"- **Ambassador vs Inquisitor**: the mover's value differs by {v.mean():+z.3f} "
                     f"on average (largest {v.abs().max():z.3f}).")
    cap3 = [eg for eg in sweep.grid(CAP3_COINS, decks=("inquisitor",), cap=3) if eg.turn_cap == 3]
    cap3_records = model.cached(cap3)
    if cap3_records:
        cv3 = bluffing.character_values(cap3_records)
        order = ", ".join(f"{r.card} {r.value:+z.2f}" for r in cv3.itertuples())
        fc = bluffing.claim_summary(cap3_records)
        fake = fc[fc["claim"] == "Block Assassinate (Contessa)"]
        lines.append(f"- **Three turns** (cap 3, Inquisitor, {len(cap3_records)} positions with "
                     f"0-6 coins): card values {order}"
                     + (f"; a Contessa block is a bluff {fake['bluff_rate'].iloc[0]:z.0%} of the "
                        f"time and challenged {fake['challenge_rate'].iloc[0]:z.0%}"
                        if len(fake) else "") + ".")
    by_cap = plain_brackets()
    if by_cap:
        frames = {c: with_closed(bracket_frame(r), by_cap, c) for c, r in by_cap.items()}
        full = [c for c, f in frames.items() if len(f) >= 2 * len(sweep.COINS) ** 2]
        c = max(full) if full else max(frames)
        f = frames[c]
        sure = f[(f["lower_win"] > 0.5) | (f["upper_win"] < 0.5)]
        lines.append(
            f"- **Without a cap** (rigorous brackets at cap {c}, both decks): {int((f['width'] <= 1e-3).sum())} "
            f"of {len(f)} endgames converged (width <= 0.001), mean width {f['width'].mean():z.2f}; "
            f"in {len(sure)} the bracket at least says who is favoured"
            + with_larger_caps(by_cap, c, int((f["width"] <= 1e-3).sum()))
            + ". Low-coin endgames stay open: see *Without a cap*.")
        lines += markov_bullet(by_cap)
        lines += abstraction_bullet()
        lines += first_mover_bullet(by_cap)
        lines += priced_bullet()
        lines += revealed_bullet()
        lines += larger_bullet()
        lines.append(full_game_bullet())
    lines.append("- **Largest exact solve**: see *Benchmark*; cap 3 (three turns) changes "
                 "many low-coin values a lot (see *Turn cap*): the cap-2 numbers describe the "
                 "next two turns of play, not whole endgames.")
    return "\n".join(lines) + "\n"
