"""Coup: what to keep in mind of every balance answer, said once."""

from __future__ import annotations

from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext
from analysis.report.templating import render


def caveat(ctx: GuideContext) -> str:
    recs = R.seat_records()
    if not recs:
        return ""
    games = sorted(r.self_play.games for r in recs)
    return render("coup/balance_caveat.md.j2", low=f"{games[0]:,}", high=f"{games[-1]:,}")
