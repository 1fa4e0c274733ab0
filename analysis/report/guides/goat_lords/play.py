"""Goat Lords for players: what strong play does, from the strongest agent's own games
(:mod:`analysis.goat_lords.studies.habits`): when it duels, when it spends a wild, what it keeps;
each question answered in its first sentence, then one table with a row per table size.

Every rate comes with its 95% interval over games; the words that compare two rates are
the templates' to choose, by the rule of :mod:`analysis.report.separate`.
"""

from __future__ import annotations

from analysis.goat_lords.studies import habits as H
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.prose import sentences
from analysis.report.markdown import pct_ci, table
from analysis.report.templating import render

COMMAND = "farol goat-lords habits"
DIGITS = 1


def paragraph(text: str) -> tuple[str, str]:
    found = sentences(text)
    return (found[0] if found else ""), " ".join(found[1:])


def rate(r: H.Rate | None) -> dict | None:
    if r is None or not r.chances:
        return None
    return {"rate": r.rate, "ci": r.ci95, "text": pct_ci(r.rate, r.ci95, DIGITS),
            "n": r.chances, "games": r.games, "players": r.players}


def shown(r: dict | None) -> str:
    return r["text"] if r is not None else "–"


def tables() -> list[dict]:
    """Each run's rates by name (question, context), the runs with games stored only."""
    out = []
    for run in H.RUNS:
        rates = H.rates(run)
        if rates:
            out.append({"run": run, "players": run.players, "games": len(H.stored(run)),
                        "r": {k: rate(v) for k, v in rates.items()}})
    return out


def get(t: dict, question: str, context: str = H.ALL) -> dict | None:
    return t["r"].get((question, context))


def missing(question: str) -> Reply:
    return Reply(question, f"Not measured yet: run `{COMMAND}` (it plays the strongest agent "
                 "in every seat and keeps its games move by move).")


def method(ts: list[dict]) -> str:
    runs = "; ".join(f"{t['games']:,} games at {t['players']} players" for t in ts)
    return (f"Games of `best` (the search agent `{H.AGENT}`) in every seat, the rulebook's game "
            f"(rounds until 1,000 points), seed {H.SEED}: {runs} (`{COMMAND}`). Every decision "
            "of every seat is replayed from the stored moves and counted in the situation "
            "named; a rate's 95% interval is taken over games (the decisions of one game are "
            "not independent). The greedy heuristic's rates are what it would have chosen at "
            "the same positions.")


def duel(ctx: GuideContext) -> Reply:
    question = "When should you duel?"
    ts = tables()
    if not ts:
        return missing(question)
    facts = [{"players": t["players"], "all": get(t, "duel"), "spare": get(t, "duel", H.SPARE),
              "one": get(t, "duel", H.ONE), "greedy": get(t, "greedy duel"),
              "won_spare": get(t, "duel won", H.SPARE), "won_one": get(t, "duel won", H.ONE)}
             for t in ts]
    answer, more = paragraph(render("goat_lords/duel.md.j2", first=facts[0]))
    rows = [[str(f["players"]), shown(f["all"]), shown(f["spare"]), shown(f["one"]),
             shown(f["greedy"]), shown(f["won_spare"]), shown(f["won_one"])] for f in facts]
    shown_ = table(["players", "duels when it can", "with a spare matching card",
                    "with one matching card", "greedy heuristic, same turns",
                    "wins the duel: with a spare", "with one"], rows)
    return Reply(question, answer, shown_, more, shown(facts[0]["all"]), method(ts))


def wild(ctx: GuideContext) -> Reply:
    question = "When should you spend a wild?"
    ts = tables()
    if not ts:
        return missing(question)
    facts = [{"players": t["players"], "all": get(t, "wild spent"),
              "plain": get(t, "wild spent", H.PLAIN), "no_plain": get(t, "wild spent", H.NO_PLAIN),
              "opens": get(t, "wild opens"), "answers": get(t, "wild answers")} for t in ts]
    answer, more = paragraph(render("goat_lords/wild.md.j2", first=facts[0]))
    rows = [[str(f["players"]), shown(f["all"]), shown(f["plain"]), shown(f["no_plain"]),
             shown(f["opens"]), shown(f["answers"])] for f in facts]
    shown_ = table(["players", "spends a wild (turns holding one)",
                    "when a birth without a wild is open", "when none is",
                    "opens a duel with a wild (a goat could)",
                    "answers a duel with a wild (a goat could)"], rows)
    return Reply(question, answer, shown_, more, shown(facts[0]["all"]), method(ts))


def keep(ctx: GuideContext) -> Reply:
    question = "What should you keep?"
    ts = tables()
    if not ts:
        return missing(question)
    facts = [{"players": t["players"], "keeps": get(t, "keeps defence"),
              "greedy": get(t, "greedy keeps defence"), "cheapest": get(t, "cheapest discard"),
              "defends": get(t, "answer", "defender")} for t in ts]
    answer, more = paragraph(render("goat_lords/keep.md.j2", first=facts[0]))
    rows = [[str(f["players"]), shown(f["keeps"]), shown(f["greedy"]), shown(f["cheapest"]),
             shown(f["defends"])] for f in facts]
    shown_ = table(["players", "keeps a card matching its top pile", "greedy heuristic would",
                    "throws its cheapest card", "answers when its pile is attacked"], rows)
    return Reply(question, answer, shown_, more, shown(facts[0]["keeps"]), method(ts))


def caveat(ctx: GuideContext) -> str:
    ts = tables()
    if not ts:
        return ""
    return render("goat_lords/play_caveat.md.j2", agent=H.AGENT,
                  runs=[(t["games"], t["players"]) for t in ts])
