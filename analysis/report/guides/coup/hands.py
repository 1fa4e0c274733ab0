"""Coup: which starting hands (which characters) are strongest, at each player count 2-8?"""

from __future__ import annotations

from analysis.coup.studies.seat_balance import HAND_PLAYERS
from analysis.report.facts.coup import edges as E
from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.play import paragraph
from analysis.report.markdown import pct, pct_ci, table
from analysis.report.separate import contenders
from analysis.report.templating import render

QUESTION = "Which starting hands are strongest?"
NAMED = 3  # a cell names this many hands at most
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


def leaders(t: dict, highest: bool = True) -> list[dict]:
    """The hands of a table that may be its strongest (weakest): the leader and every hand
    whose interval overlaps the leader's (:func:`separate.contenders`)."""
    hands = [{"hand": h.hand, "rate": h.win_rate, "ci": tuple(h.ci95),
              "text": pct_ci(h.win_rate, h.ci95)} for h in t["ranked"]]
    return contenders(hands, highest=highest)


def named(found: list[dict]) -> str:
    """A cell: the leader with its rate, then the others that may lead, by name."""
    if not found:
        return "–"
    first, rest = found[0], [h["hand"] for h in found[1:]]
    shown = rest if len(rest) <= NAMED else rest[:NAMED - 1] + [f"{len(rest) - NAMED + 1} more"]
    return f"{first['hand']} {first['text']}" + (f"; or {', '.join(shown)}" if shown else "")


def reply(ctx: GuideContext) -> Reply:
    f = facts()
    if not f["tables"]:
        return Reply(QUESTION, f"Not measured yet: run `{f['command']}`.")
    rows = [[str(t["players"]), pct(t["fair"]), named(leaders(t)), named(leaders(t, False))]
            for t in f["tables"]]
    first = f["tables"][0]
    answer, more = paragraph(render("coup/hands.md.j2", players=first["players"],
                                    fair=first["fair"], best=leaders(first),
                                    missing=f["missing"], missing_command=f["missing_command"]))
    shown = table(["players", "fair share", "strongest (win rate with it)", "weakest"], rows)
    return Reply(QUESTION, answer, shown, more, f["headline"], model(f["tables"]))
