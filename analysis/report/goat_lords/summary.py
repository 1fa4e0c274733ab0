"""The answers in brief: a few lines computed from the same results as the sections below."""

from __future__ import annotations

import pandas as pd

from analysis.goat_lords.studies.plan import all_greedy
from analysis.goat_lords.studies.statistics import (
    bot_win_rates,
    duel_success,
    game_length,
    pct,
    seat_win_rates,
    wild_worth,
)
from analysis.report.context import ReportContext
from analysis.report.goat_lords.results import extra_wild_rows, results
from analysis.report.goat_lords.strong import strong_facts
from analysis.report.guides.goat_lords import wilds
from analysis.report.markdown import pp


def summary_section(ctx: ReportContext) -> str:
    """The answers in a few lines, computed from the same results as the sections below."""
    res = results(ctx)
    strong = strong_facts(ctx.quick)
    if strong.played < strong.planned:
        status = ("The same questions with the strong agent in every seat are being measured: "
                  f"{strong.played:,} of {strong.planned:,} games played so far (*Balance with "
                  "the strong agent*, below); the strategy guide takes each answer from them "
                  "once its tables are complete.")
    else:
        status = ("The same questions with the strong agent in every seat are answered in "
                  f"*Balance with the strong agent*, below, from all {strong.played:,} of its "
                  "games; the strategy guide's answers come from there.")
    lines = ["## The answers in brief\n",
             f"These answers come from tables of greedy bots, a weak player. {status}\n"]
    wf = wilds.facts(ctx)
    if wf["rulebook"] or wf["rows"]:
        said = wilds.thumb(wf).removeprefix("Wilds: ")
        lines.append(f"- **The guide's answer on a wild** ({wf['who']}; 95% intervals): "
                     f"{said[0].upper()}{said[1:]} The greedy figures below are another "
                     "measurement, with weaker players.")
    greedy = all_greedy(res)
    if greedy:
        edges = []
        for exp, df in greedy:
            r = seat_win_rates(df).set_index("seat").loc[0]
            fair = 1.0 / exp.players
            edges.append(f"{exp.players}p {100 * (r.win_rate - fair):+z.1f} pp "
                         f"[{100 * (r.lo - fair):+z.1f}, {100 * (r.hi - fair):+z.1f}]")
        games_each = len(greedy[0][1])
        lines.append(f"- **First-player advantage, greedy bots** (not the guide's answer: seat 0 "
                     f"minus the fair 1/n, all-greedy tables, "
                     f"{games_each} games per player count): " + "; ".join(edges) + ".")
        pooled = pd.concat([df for _, df in greedy])
        w = wild_worth(pooled)
        lines.append(f"- **A wild** received goes with {100 * w['win'][0]:+z.1f} pp of win rate "
                     f"[{100 * w['win'][1]:+z.1f}, {100 * w['win'][2]:+z.1f}] and {w['points'][0]:+z.0f} herd "
                     f"points [{w['points'][1]:+z.0f}, {w['points'][2]:+z.0f}] (all-greedy tables, 2–6 "
                     f"players, {len(pooled)} games; observational: the experiment below isolates the card).")
        causal = extra_wild_rows(res)
        if causal:
            lines.append("- **One more wild in the opening hand, greedy bots** (the same deals "
                         "with one goat swapped for a wild, all-greedy; not the guide's answer): "
                         + "; ".join(f"{n}p {pp(e['win'][0], e['win'][1:])}" for n, e in causal)
                         + f" of win rate over the fair share ({causal[0][1]['games']:,} games each).")
        duels = [(exp.players, duel_success(df)) for exp, df in greedy]
        lo_n, lo_d = min(duels, key=lambda t: t[1]["attacker_rate"])
        hi_n, hi_d = max(duels, key=lambda t: t[1]["attacker_rate"])
        side = ("favour the attacker" if lo_d["lo"] > 0.5 else
                "favour the defender" if hi_d["hi"] < 0.5 else "are close to even")
        lines.append(f"- **Duels, greedy bots** (not the guide's answer) {side}: greedy "
                     "attackers win "
                     f"{pct(lo_d['attacker_rate'], lo_d['lo'], lo_d['hi'])} of duels with {lo_n} players "
                     f"up to {pct(hi_d['attacker_rate'], hi_d['lo'], hi_d['hi'])} with {hi_n}.")
        turns = [(exp.players, game_length(df)) for exp, df in greedy]
        lines.append("- **A round lasts** " + ", ".join(f"{g['turns']:z.0f} turns ({n}p)" for n, g in turns)
                     + " on average under greedy play.")
    sens = [(e, df) for e, df in res["sensitivity"] if not df.empty]
    for n in sorted({e.players for e, _ in sens}):
        at_n = [(e, df) for e, df in sens if e.players == n]
        slopes = [100 * wild_worth(df)["win"][0] for _, df in at_n]
        seat0 = [seat_win_rates(df).set_index("seat").loc[0] for _, df in at_n]
        edges = [100 * (r.win_rate - 1 / n) for r in seat0]
        fair_inside = sum(r.lo <= 1 / n <= r.hi for r in seat0)
        attack = [100 * duel_success(df)["attacker_rate"] for _, df in at_n]
        lines.append(
            f"- **Point values, {n} players** ({len(at_n)} value sets, {len(at_n[0][1])} all-greedy games "
            f"each): a wild received goes with {min(slopes):+z.1f} to {max(slopes):+z.1f} pp of win rate "
            "(observational slope); seat 0's edge "
            f"ranges {min(edges):+z.1f} to {max(edges):+z.1f} pp (the fair share is inside the 95% interval "
            f"for {fair_inside} of {len(at_n)} sets); attackers win {min(attack):z.1f}–{max(attack):z.1f}% "
            "of duels."
        )
    for exp, df in res["matchups"]:
        if df.empty:
            continue
        r = bot_win_rates(df).set_index("bot").loc[exp.bots[0]]
        lines.append(f"- **{exp.label}**: {pct(r.win_rate, r.lo, r.hi)} over {len(df)} games.")
    return "\n".join(lines)

