"""Coup: does the first of two players win more often? (Ambassador deck, 1-coin rule.)"""

from __future__ import annotations

from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.coup import records as R
from analysis.report.markdown import pct

QUESTION = "First-player advantage, 2 players"


def facts(deck: str = R.DECK, setup: str = R.SETUP) -> dict:
    """Where the answer comes from, most faithful first, and its figures."""
    base = {"deck": deck.capitalize(), "setup_words": R.SETUP_WORDS[setup],
            "build": R.BUILD.format(deck=deck)}
    bp = R.blueprint_first(deck, setup)
    if bp is not None:
        return base | {"source": "blueprint", "bp": bp, "headline": pct(bp.win)}
    rec = R.seat_record(2, deck, setup)
    if rec is not None:
        seat = next(s for s in rec.self_play.seats if s.seat == 0)
        return base | {"source": "seats", "seat": seat, "games": rec.self_play.games,
                       "agent": rec.agent, "headline": pct(seat.win_rate)}
    bracket = R.brackets().get((setup, deck))
    if bracket is not None:
        lo, hi, cap = bracket
        return base | {"source": "bracket", "lo": lo, "hi": hi, "cap": cap,
                       "headline": f"{pct(lo)} and {pct(hi)}"}
    return base | {"source": "missing", "headline": None}


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    return Answer(QUESTION, one_line(render("coup/first_player.md.j2", **f)),
                  one_line(render("coup/first_player_model.md.j2", **f)), f["headline"])
