"""The war with courtiers renewed between battles (keep or renew)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cobardes.solvers.war import solve_war
from analysis.cobardes.studies import balance, renewal
from analysis.report.cobardes.common import EXACT, duration_text, heatmap
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes.stored import load_renewal
from analysis.report.templating import fill
from analysis.shared import store


def _fixed_table(model) -> pd.DataFrame:
    """Fixed-pairing war values from 0-0 for the renewal model's armies: the pairing
    sweep's cache for full armies, solved here for a smaller model."""
    names = list(model.courtiers)
    if (model.warriors, model.combats) == (6, 7):
        return balance.without_diagonal(balance.courtier_tables()["war"]).reindex(
            index=names, columns=names)
    table = pd.DataFrame(np.nan, index=names, columns=names)
    for a, b in model.pairings:
        table.loc[a, b] = solve_war((a, b), model.warriors, model.combats).value
    return table


def renewal_section(ctx: ReportContext) -> str:
    sol = load_renewal()
    if sol is None:
        return fill("cobardes/appendix/renewal.md.j2", sol=None,
                    folder=store.shown(renewal.renewal_dir()))
    model = sol.model
    names = list(model.courtiers)
    fixed = _fixed_table(model)
    table = pd.DataFrame(np.nan, index=names, columns=names)
    for pairing in model.pairings:
        table.loc[pairing[0], pairing[1]] = sol.value(pairing)
    diff = table - fixed.reindex(index=names, columns=names)
    path_win = heatmap(ctx, (1 + table) / 2, "renewal_war", "Player 0's probability of "
                        "winning the war from 0-0, courtiers renewed between battles",
                        "P(win war)", vmin=0, vmax=1, fmt="{:.2f}")
    lim = max(0.1, float(np.ceil(10 * np.nanmax(np.abs(diff.to_numpy(dtype=float)))) / 10))
    path_diff = heatmap(ctx, diff, "renewal_vs_fixed", "War value from 0-0: renewal "
                         "model minus fixed-pairing model", "difference in war value",
                         vmin=-lim, vmax=lim)
    gain = pd.DataFrame(np.nan, index=names, columns=names)
    for (mine, theirs), g in renewal.keep_gain(sol, (0, 0), rival_used=True).items():
        gain.loc[mine, theirs] = g
    path_keep = heatmap(ctx, gain, "keep_or_renew", "Keep (+) or renew (-) an unused "
                         "courtier after a drawn battle at 0-0 (rival's courtier played)",
                         "war value gained by keeping", vmin=-0.5, vmax=0.5)
    counts = renewal.keep_counts(sol)
    kept = [(c, counts[c]) for c in
            sorted(names, key=lambda c: -(counts[c]["p0_keep"] + counts[c]["p1_keep"]))]
    strength = balance.seat_neutral_strength(table).dropna()
    fixed_strength = balance.seat_neutral_strength(fixed).dropna()
    tiers = [{"tier": t.tier, "name": t.name, "strength": t.strength,
              "fixed": fixed_strength.get(t.name, np.nan)} for t in balance.tier_list(strength)]
    deal_renew = float(np.mean([sol.value(p) for p in model.pairings]))
    fixed_values = [fixed.loc[a, b] for a, b in model.pairings
                    if np.isfinite(fixed.loc[a, b])]
    deal_fixed = float(np.mean(fixed_values)) if fixed_values else float("nan")
    iters = len(sol.history)
    seconds = sum(h["seconds"] for h in sol.history)
    by_score = {}
    for h in sol.history:
        by_score[h["score"]] = by_score.get(h["score"], 0) + 1
    spread = float(np.nanmax(np.abs(diff.to_numpy(dtype=float))))
    mean_shift = float(np.nanmean(np.abs(diff.to_numpy(dtype=float))))
    sd_renew = float(np.nanstd(table.to_numpy(dtype=float)))
    sd_fixed = float(np.nanstd(fixed.reindex(index=names, columns=names).to_numpy(dtype=float)))
    return fill("cobardes/appendix/renewal.md.j2", sol=sol, model=model, names=names,
                exact=EXACT, iters=iters, took=duration_text(seconds), by_score=by_score,
                deal_renew=deal_renew, deal_fixed=deal_fixed, mean_shift=mean_shift,
                spread=spread, sd_fixed=sd_fixed, sd_renew=sd_renew, path_win=path_win,
                path_diff=path_diff, path_keep=path_keep, tiers=tiers, kept=kept)
