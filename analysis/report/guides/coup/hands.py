"""Coup: which starting hands (which characters) are strongest, at each player count 2-8?"""

from __future__ import annotations

from analysis.coup.studies.seat_balance import HAND_PLAYERS
from analysis.report.guides.common import Answer, GuideContext, one_line, render
from analysis.report.guides.coup import edges as E
from analysis.report.guides.coup import records as R

QUESTION = "Strongest and weakest starting hands, 2 to 8 players"
MIN_DEALS = E.MIN_DEALS


def facts() -> dict:
    """Each table that values hands (the rulebook's deck and 2-player setup): its ranked
    hands; ``best``/``worst`` are the first table's (2 players); ``missing`` the player
    counts whose tables hold no hands yet, in words."""
    tables = [E.hand_facts(n) for n in HAND_PLAYERS]
    shown = [t for t in tables if t["best"]]
    missing = [t["players"] for t in tables if not t["best"]]
    first = tables[0]
    return {"tables": shown, "best": first["best"], "worst": first["worst"],
            "rec": first["rec"], "command": R.BALANCE,
            "missing": E.player_counts(missing) if missing else "",
            "missing_command": (f"{R.BALANCE} --players {','.join(map(str, missing))} "
                                "--duplicate"),
            "headline": shown[0]["best"][0].hand if shown else None}


def model(tables: list[dict]) -> str:
    if not tables:
        return "The whole game, strong agents in every seat."
    parts = []
    for t in tables:
        rec = t["rec"]
        setup = f"{R.SETUP_WORDS[R.SETUP]}, " if t["players"] == 2 else ""
        cost = E.cost_words(rec.cpu_seconds)
        parts.append(f"{t['players']} players ({setup}{t['deck'].capitalize()} deck): "
                     f"{rec.self_play.games:,} games of {t['agent']} against itself"
                     + (f", {cost}" if cost else ""))
    return ("The whole game, " + "; ".join(parts) + f"; hands dealt at least {MIN_DEALS} "
            "times; 95% intervals (over deals where each deal is played from every seat).")


def answer(ctx: GuideContext) -> Answer:
    f = facts()
    return Answer(QUESTION, one_line(render("coup/hands.md.j2", **f)), model(f["tables"]),
                  f["headline"])
