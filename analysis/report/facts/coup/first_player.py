"""Coup: does the first of two players win more often? The answer's facts, read once for
the guide and the methods appendix alike.

Of the records that could answer it, the rule is: the most faithful measurement with an
interval first (the strongest agent against itself, seats swapped, 95% interval), then
the blueprint's own value (exact for the blueprint, with how much a best response beats
it), then the whole game's proven range."""

from __future__ import annotations

from analysis.coup.agents.best import agent_name
from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.markdown import pct, pct_ci


def facts(deck: str | None = None, setup: str | None = None) -> dict:
    """Where the answer comes from (``source``), its figures, and ``headline``: the
    figure with its accuracy as every report shows it (the rulebook's deck and setup
    unless given)."""
    deck, setup = deck or R.DECK, setup or R.SETUP
    base = {"deck": deck.capitalize(), "setup_words": R.SETUP_WORDS[setup],
            "build": R.BUILD.format(deck=deck)}
    rec = R.seat_record(2, deck, setup)
    if rec is not None:
        seat = next(s for s in rec.self_play.seats if s.seat == 0)
        edge = E.edge(rec)
        deals = rec.self_play.deals if rec.duplicate else None
        strength = R.strength(agent=agent_name(rec.plays))
        caveat = strength.caveat if strength is not None else ""
        return base | {"source": "seats", "seat": seat, "games": rec.self_play.games,
                       "deals": deals, "agent": edge.agent, "win": seat.win_rate, "ci": seat.ci95,
                       "caveat": caveat, "edge": edge, "cost": E.cost_words(rec.cpu_seconds),
                       "headline": pct_ci(seat.win_rate, seat.ci95)}
    bp = R.blueprint_first(deck, setup)
    if bp is not None:
        return base | {"source": "blueprint", "bp": bp, "win": bp.win, "ci": None,
                       "headline": pct(bp.win)}
    bracket = R.brackets().get((setup, deck))
    if bracket is not None:
        lo, hi, cap = bracket
        return base | {"source": "bracket", "lo": lo, "hi": hi, "cap": cap, "win": None,
                       "ci": (lo, hi), "headline": f"{pct(lo)} and {pct(hi)}"}
    return base | {"source": "missing", "win": None, "ci": None, "headline": None}
