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
from analysis.report.facts.coup.readers import (
    CAP3_COINS,
    bracket_frame,
    endgame_records,
    plain_brackets,
    with_closed,
)
from analysis.report.templating import fill


def section_findings(ctx: ReportContext) -> str:
    """The headline numbers, each with where it comes from."""
    records = endgame_records()
    if not records:
        return fill("coup/appendix/findings.md.j2", endgames=0).rstrip("\n")
    cv = bluffing.character_values(records)
    summary = bluffing.claim_summary(records)
    dd = balance.deck_difference(records)
    cap3 = [eg for eg in sweep.grid(CAP3_COINS, decks=("inquisitor",), cap=3) if eg.turn_cap == 3]
    cap3_records = model.cached(cap3)
    three = None
    if cap3_records:
        fc = bluffing.claim_summary(cap3_records)
        fake = fc[fc["claim"] == "Block Assassinate (Contessa)"]
        three = {"positions": len(cap3_records),
                 "cards": list(bluffing.character_values(cap3_records).itertuples()),
                 "fake": next(fake.itertuples()) if len(fake) else None}
    by_cap = plain_brackets()
    brackets = None
    if by_cap:
        frames = {c: with_closed(bracket_frame(r), by_cap, c) for c, r in by_cap.items()}
        full = [c for c, f in frames.items() if len(f) >= 2 * len(sweep.COINS) ** 2]
        c = max(full) if full else max(frames)
        f = frames[c]
        converged = int((f["width"] <= 1e-3).sum())
        brackets = {"cap": c, "converged": converged, "endgames": len(f),
                    "width": f["width"].mean(),
                    "sure": len(f[(f["lower_win"] > 0.5) | (f["upper_win"] < 0.5)]),
                    "larger": with_larger_caps(by_cap, c, converged),
                    "bullets": markov_bullet(by_cap) + abstraction_bullet()
                    + first_mover_bullet(by_cap) + priced_bullet() + revealed_bullet()
                    + larger_bullet() + [full_game_bullet()]}
    return fill("coup/appendix/findings.md.j2", endgames=len(records), cap=DEFAULT_CAP,
                note=solver_note(bluffing.frame(records)),
                card_values=[(deck, [(r.card, r.value) for r in
                                     cv[cv["deck"] == deck].itertuples()])
                             for deck in sorted(cv["deck"].unique())],
                extremes=[(deck, *claim_extremes(summary, deck))
                          for deck in sorted(summary["deck"].unique())],
                first_player=list(balance.first_player(records).itertuples()),
                decks=None if dd.empty else dd["ambassador_minus_inquisitor"],
                cap3=three, brackets=brackets)
