"""Coup for players, 2 players: how the strongest agent bluffs, challenges, blocks and
plays its turn, and how strong it is; each question answered in its first sentence, then
one table (:class:`analysis.report.guides.common.Reply`).

Every rate is read from the agent's self-play tables (:func:`records.bluff_table`); a
rate counted fewer than :data:`MIN_DECISIONS` times is shown as "–" and never ranked.
Which words rank is the templates' to say, by the rule of
:mod:`analysis.report.separate`.
"""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import ALL, BluffRow, BluffTable
from analysis.report.facts.coup import records as R
from analysis.report.guides.common import GuideContext, Reply
from analysis.report.guides.coup.frequencies import rows_of, strength_text
from analysis.report.guides.coup.grid import turn_grid
from analysis.report.guides.prose import sentences
from analysis.report.markdown import pct, pct_ci, table
from analysis.report.templating import render

MIN_DECISIONS = 30  # a rate counted fewer times is left out as too noisy
DIGITS = 0  # the play tables print rates to the whole percent
# The move each character's claim makes on a turn.
CLAIM_MOVES = {"Duke": "Tax", "Captain": "Steal", "Assassin": "Assassinate",
               "Ambassador": "Exchange", "Inquisitor": "Exchange"}


def rate(row: BluffRow | None, name: str = "") -> dict | None:
    """A rate as the templates use it (None: not counted often enough to show)."""
    if row is None or row.decisions < MIN_DECISIONS:
        return None
    return {"card": name or row.card, "rate": row.rate, "ci": tuple(row.ci95),
            "n": row.decisions, "text": pct_ci(row.rate, row.ci95, DIGITS)}


def shown(r: dict | None) -> str:
    return r["text"] if r is not None else "–"


def paragraph(text: str) -> tuple[str, str]:
    """A rendered answer split into its first sentence and the rest."""
    found = sentences(text)
    return (found[0] if found else ""), " ".join(found[1:])


def contexts(table: BluffTable, question: str) -> dict[tuple[str, int, str], BluffRow]:
    """(character or "all", cards left (0: any), what was shown) -> row, any coins."""
    return {(r.card, r.influence, r.context): r for r in table.rows
            if r.question == question and r.coins == "any"}


def cards_of(rows: dict) -> list[str]:
    return sorted({c for c, _, _ in rows if c != ALL})


def overall(rows: dict, card: str, cards_left: int = 0) -> BluffRow | None:
    """A character's rate whatever had been shown (context "any"; for all characters
    together, "all")."""
    return rows.get((card, cards_left, "all" if card == ALL else "any"))


# ---- the questions ---------------------------------------------------------------------

def bluff_facts(table: BluffTable) -> dict:
    claim = contexts(table, "claim")
    cards = cards_of(claim)
    chars = [r for c in cards if (r := rate(claim.get((c, 0, "any")))) is not None]
    rows = [[c if c != ALL else "all characters"]
            + [shown(rate(overall(claim, c, n))) for n in (0, 2, 1)]
            + [shown(rate(claim.get((c, 0, ctx)))) for ctx in ("first claim", "claimed before")]
            for c in cards + [ALL]]
    return {"all": rate(claim.get((ALL, 0, "all"))), "one": rate(claim.get((ALL, 1, "all"))),
            "two": rate(claim.get((ALL, 2, "all"))),
            "repeat": rate(claim.get((ALL, 0, "claimed before"))),
            "first": rate(claim.get((ALL, 0, "first claim"))), "chars": chars,
            "headers": ["character claimed", "all its claims", "with 2 cards", "with 1 card",
                        "a first claim of it", "claimed it before"], "rows": rows}


def bluff(ctx: GuideContext) -> Reply:
    table = R.bluff_table()
    question = "How often do strong players bluff?"
    if table is None:
        return missing(question)
    f = bluff_facts(table)
    answer, more = paragraph(render("coup/bluff.md.j2", **f))
    return Reply(question, answer, "Share of claims made without the character (P(bluff "
                 "| claim)):\n\n" + table_md(f), more, f["all"]["text"] if f["all"] else None,
                 method(table))


def table_md(f: dict) -> str:
    return table(f["headers"], f["rows"])


def challenge_facts(table: BluffTable) -> dict:
    chal = contexts(table, "challenge")
    cards = cards_of(chal)
    chars = [r for c in cards if (r := rate(chal.get((c, 0, "any")))) is not None]
    rows = [[c if c != ALL else "all characters", shown(rate(overall(chal, c)))]
            + [shown(rate(chal.get((c, 0, ctx)))) for ctx in
               ("never caught", "caught before", "first claim", "claimed before")]
            for c in cards + [ALL]]

    def pair(a, b):
        ra, rb = rate(chal.get(a)), rate(chal.get(b))
        return {"a": ra, "b": rb} if ra and rb else None

    return {"all": rate(chal.get((ALL, 0, "all"))), "chars": chars,
            "duke": pair(("Duke", 0, "caught before"), ("Duke", 0, "never caught")),
            "caught": pair((ALL, 0, "caught before"), (ALL, 0, "never caught")),
            "repeat": pair((ALL, 0, "claimed before"), (ALL, 0, "first claim")),
            "headers": ["claim of", "all its claims", "claimer never caught bluffing",
                        "claimer caught before", "their first claim of it",
                        "claimed it before"], "rows": rows}


def challenge(ctx: GuideContext) -> Reply:
    table = R.bluff_table()
    question = "When do strong players challenge?"
    if table is None:
        return missing(question)
    f = challenge_facts(table)
    answer, more = paragraph(render("coup/challenge.md.j2", **f))
    return Reply(question, answer, "Share of claims challenged, by what the claimer had "
                 "shown:\n\n" + table_md(f), more, f["all"]["text"] if f["all"] else None,
                 method(table))


def block_facts(table: BluffTable) -> dict:
    block, bluffs = rows_of(table, "block"), rows_of(table, "block bluff")
    chal = rows_of(table, "challenge block")
    cards = sorted({c for c, _, _ in block})
    blocks = []
    for c in cards:
        r = rate(block.get((c, 0, "any")))
        if r is not None:
            blocks.append(r | {"bluff": rate(bluffs.get((c, 0, "any")))})
    rows = [[c, shown(rate(block.get((c, 0, "any")))), shown(rate(bluffs.get((c, 0, "any")))),
             shown(rate(chal.get((c, 0, "any"))))] for c in cards]
    return {"blocks": blocks, "rows": rows,
            "headers": ["block with", "blocks when it may", "of those, bluffs",
                        "block challenged"]}


def block(ctx: GuideContext) -> Reply:
    table = R.bluff_table()
    question = "When do strong players block?"
    if table is None or not any(r.question == "block" for r in table.rows):
        return missing(question)
    f = block_facts(table)
    answer, more = paragraph(render("coup/block.md.j2", **f))
    return Reply(question, answer, table_md(f), more, None, method(table))


def turn_facts(table: BluffTable) -> dict:
    """The share of its turns the agent makes each move with each two-card hand, and for
    a character's move, its range over the hands holding that character (and, after the
    first, none of the characters before it)."""
    headers, rows = turn_grid(table)
    cells = {(r.hand, r.move): r for r in table.grid if r.situation == "your turn"}
    hands = [row[0] for row in rows]
    moves, seen = [], []
    for card in ("Duke", "Captain"):
        move = CLAIM_MOVES[card]
        held = [h for h in hands if card in h.split("+") and not any(
            s in h.split("+") for s in seen)]
        shares = [cells[(h, move)].rate for h in held if (h, move) in cells]
        if shares:
            moves.append({"card": card, "move": move, "lo": pct(min(shares), 0),
                          "hi": pct(max(shares), 0), "without": list(seen)})
        seen.append(card)
    widest = max((r.ci95[1] - r.ci95[0]) / 2 for r in table.grid
                 if r.situation == "your turn" and "+" in r.hand and r.decisions >= MIN_DECISIONS)
    return {"headers": headers, "rows": rows, "moves": moves, "widest": f"{100 * widest:z.0f}"}


def turn(ctx: GuideContext) -> Reply:
    table = R.bluff_table()
    question = "What do strong players do on their turn?"
    if table is None or not table.grid:
        return missing(question)
    f = turn_facts(table)
    answer, more = paragraph(render("coup/turn.md.j2", **f))
    return Reply(question, answer, "Share of its turns with two cards in hand that it "
                 "makes each move:\n\n" + table_md(f), more, None, method(table))


def strength_facts(strength: R.Strength) -> dict:
    wins = [{"opponent": opp, "games": games, "rate": rate_, "ci": ci,
             "text": pct_ci(rate_, ci, 1)} for opp, games, rate_, ci in strength.wins]
    return {"wins": wins, "rows": [[f"`{w['opponent']}`", f"{w['games']:,}", w["text"]]
                                   for w in wins],
            "headers": ["opponent", "games", "its win rate"]}


def strength(ctx: GuideContext) -> Reply:
    table = R.bluff_table()
    question = "How strong is the player these numbers come from?"
    measured = R.strength(agent=table.agent) if table is not None else None
    if measured is None:
        return Reply(question, "Its strength is not measured yet: run "
                     "`benchmarks/coup_belief_agent.py`.")
    f = strength_facts(measured)
    answer, more = paragraph(render("coup/strength.md.j2", **f))
    return Reply(question, answer, table_md(f), more, f["wins"][0]["text"],
                 strength_text(measured))


def missing(question: str) -> Reply:
    command = R.PLAY.format(deck=R.DECK)
    return Reply(question, f"Not measured yet: run `{command}` (it plays the strongest "
                 "2-player agent against itself and counts these rates).")


def method(table: BluffTable) -> str:
    return (f"{R.WHO[table.agent].capitalize()} against itself, {table.games:,} games "
            f"({R.DECK.capitalize()} deck, {R.SETUP_WORDS[R.SETUP]}), counted at every "
            f"decision of either seat; 95% intervals; rates counted fewer than "
            f"{MIN_DECISIONS} times are left out (`{R.PLAY.format(deck=R.DECK)}`).")


def caveat(ctx: GuideContext) -> str:
    table = R.bluff_table()
    if table is None:
        return ""
    measured = R.strength(agent=table.agent)
    return render("coup/play_caveat.md.j2", who=R.SHORT[table.agent], games=f"{table.games:,}",
                  deck=R.DECK.capitalize(), setup=R.SETUP_WORDS[R.SETUP],
                  least=MIN_DECISIONS, exploit=measured.exploit if measured else None,
                  yardstick=measured.yardstick if measured else None,
                  local=measured is not None and measured.local,
                  games_words=measured.games_words if measured and measured.exploit else "")
