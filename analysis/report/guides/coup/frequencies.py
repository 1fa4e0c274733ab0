"""Coup for players: the strongest 2-player agent's frequency tables, by character and
situation, with its measured strength."""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import BluffRow, BluffTable
from analysis.report import svg
from analysis.report.guides.common import GuideContext, render
from analysis.report.guides.coup import records as R
from analysis.report.markdown import pct_ci

BANDS = ("0-2", "3-6", "7+")


def rows_of(table: BluffTable, question: str) -> dict[tuple[str, int, str], BluffRow]:
    """(character, cards left (0: any), coin band) -> row, for one question."""
    return {(r.card, r.influence, r.coins): r for r in table.rows
            if r.question == question and r.context == "any"}


def cell(rows: dict, key: tuple) -> str:
    r = rows.get(key)
    return pct_ci(r.rate, r.ci95, 0) if r is not None else "–"


def claim_rows(table: BluffTable) -> list[list[str]]:
    claim, chal = rows_of(table, "claim"), rows_of(table, "challenge")
    cards = sorted({c for c, _, _ in claim})
    return [[card, cell(claim, (card, 0, "any")), cell(claim, (card, 2, "any")),
             cell(claim, (card, 1, "any")), cell(chal, (card, 0, "any"))] for card in cards]


def block_rows(table: BluffTable) -> list[list[str]]:
    block, bluff = rows_of(table, "block"), rows_of(table, "block bluff")
    chal = rows_of(table, "challenge block")
    cards = sorted({c for c, _, _ in block})
    return [[card, cell(block, (card, 0, "any")), cell(bluff, (card, 0, "any")),
             cell(chal, (card, 0, "any"))] for card in cards]


def chart(table: BluffTable) -> str:
    claim = rows_of(table, "claim")
    cards = sorted({c for c, _, _ in claim})
    values = [[claim[(c, 0, b)].rate * 100 if (c, 0, b) in claim else None for b in BANDS]
              for c in cards]

    def hover(i: int, j: int, v: float) -> str:
        r = claim[(cards[i], 0, BANDS[j])]
        return (f"{cards[i]} claimed with {BANDS[j]} coins: a bluff "
                f"{pct_ci(r.rate, r.ci95)} of the time ({r.decisions:,.0f} claims)")

    return svg.heatmap(values, cards, [f"{b} coins" for b in BANDS],
                       title="Coup: P(bluff | claim), 2 players",
                       xlabel="the claimer's coins", ylabel="character claimed",
                       fmt=lambda v: f"{v:.0f}%", hover=hover, vmin=0, vmax=100,
                       cmap="viridis")


def strength_text(strength: R.Strength | None) -> str:
    """The agent's win rates and the exploiter's gain, in one paragraph."""
    if strength is None:
        return ""
    counts = {g for _, g, _, _ in strength.wins}
    each = len(counts) > 1  # lines of different lengths say their own
    wins = "; ".join(f"`{opp}` {pct_ci(rate, ci, 1)}" + (f" ({g:,} games)" if each else "")
                     for opp, g, rate, ci in strength.wins)
    over = "games" if each else f"{counts.pop():,} games a line"
    text = (f"Its win rate against each opponent, over {over} with each deal "
            f"played from both seats (95% intervals): {wins}.")
    if strength.exploit is None:
        return text
    n, gain, (lo, hi) = strength.exploit
    exploiter = (" An exploiter that learns a model of its play and answers it with a best "
                 "response a few decisions deep")
    if gain <= 0:
        text += (f"{exploiter} showed no gain against it ({gain:+.3f} of a game [{lo:+.3f}, "
                 f"{hi:+.3f}] over {n:,} games); a stronger exploiter might still gain, so "
                 "this bounds nothing." + strength.yardstick_words)
    else:
        text += (f"{exploiter} won {gain:+.3f} of a game against it "
                 f"[{lo:+.3f}, {hi:+.3f}] over {n:,} games: a lower bound on how exploitable "
                 "it is, not an estimate. Read the rates below as a strong player's habits, "
                 "not as frequencies nobody can beat.")
    return text


def part(ctx: GuideContext) -> str:
    table = R.bluff_table()
    facts = {"build": R.PLAY.format(deck=R.DECK), "deck": R.DECK.capitalize(),
             "setup_words": R.SETUP_WORDS[R.SETUP], "claims": [], "blocks": [], "chart": ""}
    if table is not None:
        facts |= {"who": R.WHO[table.agent],
                  "strength": strength_text(R.strength(agent=table.agent)),
                  "games": f"{table.games:,}", "claims": claim_rows(table),
                  "blocks": block_rows(table),
                  "claim_headers": ["character claimed", "P(bluff | claim)", "with 2 cards",
                                    "with 1 card", "P(challenged)"],
                  "block_headers": ["block with", "P(block)", "P(bluff | block)",
                                    "P(challenged)"],
                  "chart": ctx.save_svg(chart(table), "bluffs")}
    return render("coup/play.md.j2", **facts)

