"""The answers in brief: a few lines computed from the same results as the sections below."""

from __future__ import annotations

import pandas as pd

from analysis.goat_lords.studies.plan import all_greedy
from analysis.goat_lords.studies.statistics import (
    bot_win_rates,
    duel_success,
    game_length,
    seat_win_rates,
    wild_worth,
)
from analysis.report.context import ReportContext
from analysis.report.facts.goat_lords import wilds
from analysis.report.facts.goat_lords.results import extra_wild_rows, results
from analysis.report.goat_lords.strong import strong_facts
from analysis.report.templating import fill


def summary_section(ctx: ReportContext) -> str:
    """The answers in a few lines, computed from the same results as the sections below."""
    res = results(ctx)
    return fill("goat_lords/appendix/summary.md.j2", strong=strong_facts(ctx.quick),
                wilds=wilds.facts(ctx), greedy=greedy_facts(res),
                values=value_facts(res), matchups=[
                    {"label": exp.label, "games": len(df),
                     "rates": bot_win_rates(df).set_index("bot").loc[exp.bots[0]]}
                    for exp, df in res["matchups"] if not df.empty])


def greedy_facts(res) -> dict | None:
    """The all-greedy tables' answers: seat 0's edge by player count, a wild received,
    one more wild dealt, duels and round length; None without those tables."""
    greedy = all_greedy(res)
    if not greedy:
        return None
    edges = [{"players": exp.players, "fair": 1.0 / exp.players,
              "seat": seat_win_rates(df).set_index("seat").loc[0]} for exp, df in greedy]
    pooled = pd.concat([df for _, df in greedy])
    duels = [{"players": exp.players, "duels": duel_success(df)} for exp, df in greedy]
    return {"edges": edges, "games_each": len(greedy[0][1]), "wild": wild_worth(pooled),
            "pooled_games": len(pooled), "causal": extra_wild_rows(res),
            "duel_low": min(duels, key=lambda d: d["duels"]["attacker_rate"]),
            "duel_high": max(duels, key=lambda d: d["duels"]["attacker_rate"]),
            "turns": [(exp.players, game_length(df)) for exp, df in greedy]}


def value_facts(res) -> list[dict]:
    """For each player count of the point-value tables: a wild's slope, seat 0's edge and
    the attacker's duel rate under each value set (in points and percent)."""
    sens = [(e, df) for e, df in res["sensitivity"] if not df.empty]
    out = []
    for n in sorted({e.players for e, _ in sens}):
        at_n = [(e, df) for e, df in sens if e.players == n]
        seat0 = [seat_win_rates(df).set_index("seat").loc[0] for _, df in at_n]
        out.append({"players": n, "sets": len(at_n), "games": len(at_n[0][1]),
                    "slopes": [100 * wild_worth(df)["win"][0] for _, df in at_n],
                    "edges": [100 * (r.win_rate - 1 / n) for r in seat0],
                    "fair_inside": sum(r.lo <= 1 / n <= r.hi for r in seat0),
                    "attack": [100 * duel_success(df)["attacker_rate"] for _, df in at_n]})
    return out
