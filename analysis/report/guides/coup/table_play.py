"""Coup for players, 3 to 6 players: how ``best`` bluffs, challenges, blocks, whom it
targets and when it Coups, counted over its games against itself at 3, 4 and 6 players
(:mod:`analysis.coup.studies.table_play`), and how strong it is on the ladder
(:mod:`analysis.coup.studies.ladder`); each question answered in its first sentence, with
its number and 95% interval, then one table.

The headline table is 4 players (the most common table); the tables show 3, 4 and 6.
A rate counted fewer than :data:`MIN_CHANCES` times is shown as "–" and never compared.
Every word that ranks or calls a habit is the templates' to print, by the rule of
:mod:`analysis.report.guides.separate`.
"""

from __future__ import annotations

from analysis.coup.agents.best import agent_name, best_kind
from analysis.coup.studies import ladder as L
from analysis.coup.studies import table_play as TP
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.prose import sentences
from analysis.report.markdown import pct_ci, table
from analysis.report.templating import render

MIN_CHANCES = 30
DIGITS = 1  # rates to a tenth of a percent: some are well under 1%
HEAD = 4  # the table the answers name first
COMMAND = "farol coup play-tables --players 3,4,6"
LADDER = "benchmarks/coup_ladder.py"
CHARACTERS = ("Duke", "Captain", "Assassin", "Ambassador", "Contessa")
SHOWN = (("caught before", "claimer caught bluffing before"),
         ("never caught", "claimer never caught"),
         ("claimed before", "claimed that character before"),
         ("first claim", "its first claim of it"))
AIMED = (("at it", "aimed at it"), ("at another", "aimed at another player"),
         ("at nobody", "aimed at nobody (Tax, Exchange, a Foreign Aid block)"))
FEATURES = (("coin leader", "the coin leader"), ("two cards", "a player with two cards"),
            ("last attacker", "the last player to attack it"))
BLOCKS = (("Foreign Aid", "Foreign Aid"), ("Assassinate", "an assassination"),
          ("Steal", "a steal"))


def records() -> dict[int, TP.PlayRecord]:
    return {n: r for n in TP.PLAYERS if (r := TP.load_record(n)) is not None}


def rate(record: TP.PlayRecord | None, key: str, name: str = "") -> dict | None:
    """A rate as the templates use it (None: not counted often enough)."""
    r = record.rate(key) if record is not None else None
    if r is None or r.chances < MIN_CHANCES:
        return None
    return {"name": name or key, "rate": r.rate, "ci": tuple(r.ci95), "n": r.chances,
            "text": pct_ci(r.rate, r.ci95, DIGITS)}


def cell(r: dict | None) -> str:
    return r["text"] if r is not None else "–"


def columns(recs: dict) -> list[int]:
    return sorted(recs)


def head_of(recs: dict) -> int:
    return HEAD if HEAD in recs else min(recs)


def paragraph(text: str) -> tuple[str, str]:
    found = sentences(text)
    return (found[0] if found else ""), " ".join(found[1:])


def grid(recs: dict, rows: list[tuple[str, str]]) -> str:
    """One row per (label, key), one column per table."""
    cols = columns(recs)
    return table([""] + [f"{n} players" for n in cols],
                 [[label] + [cell(rate(recs[n], key)) for n in cols] for label, key in rows])


def missing(question: str) -> Reply:
    return Reply(question, f"Not measured yet: run `{COMMAND}` (it plays `best` against "
                 "itself at 3, 4 and 6 players and counts these rates).")


def method(recs: dict) -> str:
    games = ", ".join(f"{r.games:,} games at {n} players ({agent_name(r.plays)})"
                      for n, r in sorted(recs.items()))
    return (f"`best` in every seat, {games} "
            f"(Ambassador deck), counted at each of its decisions with the cards known; "
            f"95% intervals clustered by game; rates counted fewer than {MIN_CHANCES} times "
            f"are left out (`{COMMAND}`).")


# ---- the questions -----------------------------------------------------------------------

def bluff(ctx: GuideContext) -> Reply:
    question = "How often does strong play bluff at 3-6 players?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    chars = [r for c in CHARACTERS if (r := rate(recs[n], f"bluff|{c}", c))]
    f = {"players": n, "all": rate(recs[n], "bluff|all"), "chars": chars}
    answer, more = paragraph(render("coup/multi_bluff.md.j2", **f))
    rows = [(c, f"bluff|{c}") for c in CHARACTERS if c != "Contessa"] + [
        ("all its turn claims", "bluff|all")]
    return Reply(question, answer, "Turn claims made without the character:\n\n"
                 + grid(recs, rows), more, f["all"]["text"] if f["all"] else None, method(recs))


def challenge(ctx: GuideContext) -> Reply:
    question = "When does strong play challenge at 3-6 players?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    rec = recs[n]
    f = {"players": n, "all": rate(rec, "challenge|all|any"),
         "chars": [r for c in CHARACTERS if (r := rate(rec, f"challenge|{c}|any", c))],
         "caught": rate(rec, "challenge|all|caught before"),
         "never": rate(rec, "challenge|all|never caught"),
         "repeat": rate(rec, "challenge|all|claimed before"),
         "first": rate(rec, "challenge|all|first claim")}
    answer, more = paragraph(render("coup/multi_challenge.md.j2", **f))
    rows = [(f"a claim of {c}", f"challenge|{c}|any") for c in CHARACTERS]
    rows += [("every claim", "challenge|all|any")]
    rows += [(label, f"challenge|all|{key}") for key, label in SHOWN]
    return Reply(question, answer, "Claims challenged, of those it could challenge:\n\n" + grid(recs, rows), more, f["all"]["text"] if f["all"] else None,
                 method(recs))


def aimed(ctx: GuideContext) -> Reply:
    question = "Does strong play challenge a claim aimed at another player?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    f = {"players": n, "other": rate(recs[n], "challenge|all|at another"),
         "mine": rate(recs[n], "challenge|all|at it"),
         "nobody": rate(recs[n], "challenge|all|at nobody")}
    if f["other"] is None:
        return missing(question)
    answer, more = paragraph(render("coup/multi_aimed.md.j2", **f))
    rows = [(label, f"challenge|all|{key}") for key, label in AIMED]
    return Reply(question, answer, "Claims challenged, by whom they are aimed at:\n\n" + grid(recs, rows), more, f["other"]["text"], method(recs))


def block(ctx: GuideContext) -> Reply:
    question = "When does strong play block at 3-6 players?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    blocks = [r for key, label in BLOCKS if (r := rate(recs[n], f"block|{key}", label))]
    if not blocks:
        return missing(question)
    f = {"players": n, "blocks": blocks}
    answer, more = paragraph(render("coup/multi_block.md.j2", **f))
    rows = [(f"blocks {label}", f"block|{key}") for key, label in BLOCKS]
    rows += [(f"a block with the {c} is a bluff", f"block bluff|{c}")
             for c in ("Duke", "Contessa", "Captain", "Ambassador")]
    return Reply(question, answer, "Chances to block taken, and blocks made without the "
                 "card:\n\n" + grid(recs, rows), more,
                 blocks[0]["text"], method(recs))


def target(ctx: GuideContext) -> Reply:
    question = "Whom does strong play attack with Coup, Assassinate and Steal?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    feats = []
    for key, label in FEATURES:
        hit = rate(recs[n], f"target|any|{key}", label)
        odds = rate(recs[n], f"chance|any|{key}", label)
        if hit and odds:
            feats.append(hit | {"chance": odds})
    if not feats:
        return missing(question)
    answer, more = paragraph(render("coup/multi_target.md.j2", players=n, feats=feats))
    cols = columns(recs)
    rows = []
    for key, label in FEATURES:
        row = [label]
        for m in cols:
            hit = rate(recs[m], f"target|any|{key}")
            odds = rate(recs[m], f"chance|any|{key}")
            row.append(f"{hit['text']} (at random {odds['rate'] * 100:z.1f}%)"
                       if hit and odds else "–")
        rows.append(row)
    shown = ("Attacks with two or more players to choose from, by whom they hit (a random "
             "pick's share beside):\n\n"
             + table([""] + [f"{m} players" for m in cols], rows))
    return Reply(question, answer, shown, more, feats[0]["text"], method(recs))


def coup(ctx: GuideContext) -> Reply:
    question = "When does strong play Coup rather than save?"
    recs = records()
    if not recs:
        return missing(question)
    n = head_of(recs)
    f = {"players": n, "all": rate(recs[n], "coup|7-9"),
         "coins": [r for c in (7, 8, 9) if (r := rate(recs[n], f"coup|{c}", f"{c} coins"))]}
    if f["all"] is None:
        return missing(question)
    answer, more = paragraph(render("coup/multi_coup.md.j2", **f))
    rows = [(f"with {c} coins", f"coup|{c}") for c in (7, 8, 9)] + [("7 to 9 coins", "coup|7-9")]
    return Reply(question, answer, "Turns it opens with a Coup:\n\n"
                 + grid(recs, rows), more, f["all"]["text"], method(recs))


def strength(ctx: GuideContext) -> Reply:
    question = "How strong is the player these numbers come from at 3-6 players?"
    ladders = {n: r for n in L.PLAYERS if (r := L.load_record(n)) is not None}
    if not ladders:
        return Reply(question, f"Not measured yet: run `{LADDER}` (a round robin of duplicate "
                     "deals between the agents at 3, 4 and 6 players).")
    n = HEAD if HEAD in ladders else min(ladders)
    lines = {m: {x.agent: x for x in _ladder_lines(ladders[m])} for m in ladders}
    plays = agent_name(best_kind(n))
    ranked = sorted(lines[n].values(), key=lambda x: -x.win_rate)
    f = {"players": n, "fair": 1 / n, "best": _line(lines[n].get(plays)), "plays": plays,
         "top": _line(ranked[0]), "others": [_line(x) for x in ranked if x.agent != plays]}
    answer, more = paragraph(render("coup/multi_strength.md.j2", **f))
    cols = sorted(ladders)
    agents = [x.agent for x in ranked]
    rows = [[f"`{a}`"] + [pct_ci(lines[m][a].win_rate, lines[m][a].ci95, 1)
                          if a in lines[m] else "–" for m in cols] for a in agents]
    rows.append(["fair share"] + [f"{100 / m:z.1f}%" for m in cols])
    deals = ", ".join(f"{ladders[m].lines[0].deals:,} deals a line at {m} players" for m in cols)
    return Reply(question, answer, "Win rate in a round robin of every lineup of different "
                 "agents, duplicate deals:\n\n" + table([""] + [f"{m} players" for m in cols],
                                                        rows),
                 more, f["best"]["text"] if f["best"] else None,
                 f"Every lineup of {n} different agents among {', '.join(ladders[n].agents)} "
                 f"plays the same duplicate deals; a line is an agent's win rate over its "
                 f"deals with a 95% interval over deals ({deals}; `{LADDER}`).")


def _ladder_lines(record: L.LadderRecord) -> tuple[L.Line, ...]:
    """The ladder ``best`` plays in: with the challenger in ``fast``'s place where it was
    kept as ``best``, else the round robin itself."""
    kept = record.challenger_kept() and agent_name(best_kind(record.players)) == record.challenger
    return record.challenger_lines if kept else record.lines


def _line(x: L.Line | None) -> dict | None:
    if x is None:
        return None
    return {"name": x.agent, "rate": x.win_rate, "ci": tuple(x.ci95),
            "text": pct_ci(x.win_rate, x.ci95, 1)}


def caveat(ctx: GuideContext) -> str:
    recs = records()
    parts = [f"{r.games:,} games at {n} players" for n, r in sorted(recs.items())]
    games = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + (parts[-1] if parts else "")
    return render("coup/multi_caveat.md.j2", games=games, least=MIN_CHANCES)
