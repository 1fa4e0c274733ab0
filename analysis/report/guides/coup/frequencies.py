"""Coup for players: the strongest 2-player agent's rates by character and situation, and
its measured strength in words (the methods appendix's)."""

from __future__ import annotations

from analysis.coup.studies.blueprint_bluffs import BluffRow, BluffTable
from analysis.report.facts.coup import records as R
from analysis.report.markdown import pct_ci


def rows_of(table: BluffTable, question: str) -> dict[tuple[str, int, str], BluffRow]:
    """(character, cards left (0: any), coin band) -> row, for one question."""
    return {(r.card, r.influence, r.coins): r for r in table.rows
            if r.question == question and r.context == "any"}


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
    if strength.local:
        test = (" A local best response (it keeps the agent's range by Bayes' rule from the "
                "agent's own mixes and plays the best move against it, a decision deep)"
                + strength.test_words)
        if lo <= 0:
            return text + (f"{test} gained {gain:+z.3f} [{lo:+z.3f}, {hi:+z.3f}] in win "
                           "probability "
                           f"against it over {strength.games_words}, an interval that holds "
                           "0: it shows no loss yet.")
        return text + (f"{test} gains at least {gain:+z.3f} [{lo:+z.3f}, {hi:+z.3f}] in win "
                       "probability "
                       f"against it over {strength.games_words}: a lower bound on how much "
                       "it loses to a best response, not an estimate. Read the rates below as "
                       "a strong player's habits, not as frequencies nobody can beat.")
    exploiter = (" An exploiter that learns a model of its play and answers it with a best "
                 "response a few decisions deep")
    if gain <= 0:
        text += (f"{exploiter} showed no gain against it ({gain:+z.3f} of a game [{lo:+z.3f}, "
                 f"{hi:+z.3f}] over {n:,} games); a stronger exploiter might still gain, so "
                 "this bounds nothing." + strength.yardstick_words)
    else:
        text += (f"{exploiter} won {gain:+z.3f} of a game against it "
                 f"[{lo:+z.3f}, {hi:+z.3f}] over {n:,} games: a lower bound on how exploitable "
                 "it is, not an estimate. Read the rates below as a strong player's habits, "
                 "not as frequencies nobody can beat.")
    return text
