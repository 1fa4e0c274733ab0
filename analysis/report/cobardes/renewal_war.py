"""The war with courtiers renewed between battles (keep or renew)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cobardes.solvers.war import solve_war
from analysis.cobardes.studies import balance, renewal
from analysis.report.cobardes.common import EXACT, duration_text, heatmap, load_renewal
from analysis.report.context import ReportContext
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
    head = "## The war with courtiers renewed between battles\n"
    if sol is None:
        return (head + "\nNot solved yet: `farol cobardes renewal` writes "
                f"`{store.shown(renewal.renewal_dir())}/` (resumable).")
    model = sol.model
    names = list(model.courtiers)
    fixed = _fixed_table(model)
    table = pd.DataFrame(np.nan, index=names, columns=names)
    for pairing in model.pairings:
        table.loc[pairing[0], pairing[1]] = sol.value(pairing)
    diff = table - fixed.reindex(index=names, columns=names)
    path_win = heatmap(ctx, (1 + table) / 2, "renewal_war", "Player 0's probability of "
                        "winning the war from 0-0, courtiers renewed between battles",
                        "P(win war)", vmin=0, vmax=1, fmt="{:z.2f}")
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
    keep_rows = ["| courtier | kept by player 0 (of its choices) | kept by player 1 |",
                 "|---|---|---|"]
    order = sorted(names, key=lambda c: -(counts[c]["p0_keep"] + counts[c]["p1_keep"]))
    for c in order:
        k = counts[c]
        keep_rows.append(f"| {c} | {k['p0_keep']} of {k['p0_total']} | {k['p1_keep']} of "
                         f"{k['p1_total']} |")
    strength = balance.seat_neutral_strength(table).dropna()
    fixed_strength = balance.seat_neutral_strength(fixed).dropna()
    tiers = balance.tier_list(strength)
    tier_rows = ["| tier | courtier | P(win war), renewal | fixed-pairing |",
                 "|---|---|---|---|"]
    for t in tiers:
        tier_rows.append(f"| {t.tier} | {t.name} | {(1 + t.strength) / 2:z.3f} | "
                         f"{(1 + fixed_strength.get(t.name, np.nan)) / 2:z.3f} |")
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
    took = duration_text(seconds)
    return f"""{head}
"When a battle ends, prepare the next one: ... Discard the villain and courtier cards
that are on the battlefield, placing them under the corresponding deck, and renew them
with others of the same type. If you did not play your villain or courtier you may
decide not to replace them and keep them for the next battle."

**The model** (`analysis/cobardes/studies/renewal.py`). A war state is the score and both
courtiers: {model.size} states (9 scores x {len(model.pairings)} pairings; warriors
0-{model.warriors}, {model.combats} combats). Each
state's battle is solved exactly ({EXACT}) with 20 kinds of ending: the outcome (won,
lost, Crown taken or lost, drawn) and whether each courtier was played (the final
position's `used` bits). A played courtier is replaced by a random one; an unplayed
one may be kept or replaced, player 0 deciding first and player 1 knowing that
decision (both public), so each renewal is a max over player 0's choices of a min over
player 1's. A battle's terminal payoffs are the values of the states it leads to (±1
when the war ends; a drawn battle repeats the score, with the renewed courtiers).

**What is approximated.** (1) The court deck is memoryless: a new courtier is drawn
uniformly from the {len(names) - 2} courtiers not in the finished battle (without
replacement when both draw). The real deck puts discarded courtiers under a shuffled
pile, so older discards only return once the pile is used up; tracking that order
would multiply the states by the deck's arrangements. With at most two battles (one
renewal) the model is exact, and it matches the solver engine's CFR on
`python_cobardes_war` there (a slow test, reduced armies). (2) No villains (as in the
fixed-pairing war). (3) Player 0 is quicker in the first combat of every battle.

**How it was solved.** The scores are solved in turn, later scores first; at each
score the {len(model.pairings)} states are coupled only through drawn battles, and Newton steps solve
them: with the battles' strategies and the keep/renew choices fixed, one battle
round is an affine map whose fixed point is a linear solve; the exact battles are
then solved again at that point. {iters} rounds of {len(model.pairings)} exact battle
solves ({iters * len(model.pairings):,} solves, {took} of computing;
rounds per score: {", ".join(f"{k} {v}" for k, v in by_score.items())}). Residual
max |F(V) − V| = {sol.residual:z.1e} over all {model.size} states; spectral radius of
the linearised war at the solution {sol.spectral_radius:z.3f} (below 1: the war ends
with probability 1 and its fixed point is unique for these strategies).

**War values.** Averaged over a random first deal, player 0's war value is
{deal_renew:+z.4f} with renewal against {deal_fixed:+z.4f} with fixed courtiers.
Renewal moves the value of a pairing from 0-0 by {mean_shift:z.3f} on average and by
up to {spread:z.2f}; the spread of the pairings' values (standard deviation) goes from
{sd_fixed:z.3f} with fixed courtiers to {sd_renew:z.3f} with renewal, as a courtier
played in a battle is replaced at random for the next.

![War win probability with renewal]({path_win})

![Renewal minus fixed pairing]({path_diff})

**Tier list with renewal** (mean war win probability from 0-0 over opponents, both
seats; the fixed-pairing column for comparison):

{chr(10).join(tier_rows)}

**Keep or renew.** Who keeps an unplayed courtier, over all renewal situations (9
scores after the battle x {len(names) - 1} rival courtiers x rival's courtier played or
not; player 1's column is its reply to player 0's actual choice):

{chr(10).join(keep_rows)}

![Keep or renew]({path_keep})

The heatmap reads one situation: a battle at 0-0 was drawn, player 0's courtier (row)
was not played and player 1's (column) was; positive means keeping beats renewing, by
that much war value (player 1's best reply included)."""
