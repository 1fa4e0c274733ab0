"""Courtier matchups, the hypothetical mirror battles and the war by score."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.cobardes.solvers.war import solve_war, value_table
from analysis.cobardes.studies import balance, sweep
from analysis.report.cells import annotate
from analysis.report.cobardes.common import EXACT, army_text, battle_spec, heatmap, load_renewal
from analysis.report.context import ReportContext
from analysis.shared import store
from games.cobardes import cards as C


def courtier_section(ctx: ReportContext) -> str:
    shown_tables = balance.courtier_tables(mirrors=True)
    tables = {k: balance.without_diagonal(t) for k, t in shown_tables.items()}
    battle, war_win = tables["battle"], tables["war_win"]
    n_battle = int(battle.notna().to_numpy().sum())
    n_war = int(war_win.notna().to_numpy().sum())
    n_mirror = int(np.isfinite(np.diag(shown_tables["war_win"].to_numpy(dtype=float))).sum())
    if n_battle == 0:
        return ("## Courtiers\n\nNo pairing sweep is cached yet: run `farol cobardes sweep` "
                f"(it writes `{store.shown(sweep.pairings_dir())}/`).")
    parts = ["## Courtiers: matchups and tier list\n",
             f"Every courtier pairing in both seat orders (10 x 10; player 0 is quicker in "
             f"odd combats) solved exactly with full armies ({EXACT}; {n_battle} of 90 "
             f"battles and {n_war} of 90 wars cached in `{store.shown(sweep.pairings_dir())}`). "
             f"Each courtier card exists once, so the diagonal (both players with the same "
             f"courtier) is never dealt; it shows **hypothetical** mirror battles "
             f"({n_mirror} of 10 solved with `allow_mirror=true`, hatched), left out of "
             f"every strength and tier below."]
    path = heatmap(ctx, shown_tables["battle"], "courtier_battle", "Battle value for "
                    "player 0 (win 1, crown 3, draw 0)", "battle value", vmin=-1.5,
                    vmax=1.5, hypothetical_diagonal=True,
                    diagonal="mirror battle not solved")
    parts.append(f"\n![Courtier battle matchups]({path})")
    source = battle
    label = "mean battle value over opponents, both seats"
    if n_war:
        path = heatmap(ctx, shown_tables["war_win"], "courtier_war", "Player 0's "
                        "probability of winning the war from 0-0", "P(win war)",
                        cmap="RdBu", vmin=0, vmax=1, fmt="{:z.2f}",
                        hypothetical_diagonal=True, diagonal="mirror battle not solved")
        parts.append(f"\n![Courtier war matchups]({path})\n")
        parts.append("War win probabilities compose the exact battles over the score "
                     "states (next section), with each player keeping the same courtier "
                     "type for the whole war (the fixed-pairing model; the war with "
                     "courtiers renewed between battles is solved further below).")
        parts.append(mirror_paragraph())
        gain = balance.keep_or_renew(tables["war"])
        if int(gain.notna().to_numpy().sum()) and load_renewal() is None:
            path = heatmap(ctx, gain, "keep_or_renew", "Keep (+) or renew (-) an unused "
                            "courtier: war value gained by keeping it", "war value gain",
                            vmin=-1, vmax=1)
            keep = (gain > 0).sum(axis=1)
            parts.append(
                f"\n**Keep or renew** (one-step approximation: keeping the pairing against "
                f"renewing to a random courtier neither player holds, both then kept for the "
                f"rest of the war; war values at 0-0):\n\n![Keep or renew]({path})\n\n"
                "Against how many of the 9 rival courtiers keeping an unused courtier beats "
                "renewing it: "
                + ", ".join(f"{name} {int(keep[name])}"
                            for name in keep.index if gain.loc[name].notna().any()) + ".")
        if n_war == 90:
            source = tables["war"]
            label = "mean war win probability over opponents, both seats"
    strength = balance.seat_neutral_strength(source).dropna()
    tiers = balance.tier_list(strength)
    shown = (lambda v: f"{(1 + v) / 2:z.3f}") if source is tables["war"] else (
        lambda v: f"{v:+z.3f}")
    parts.append(f"\n**Tier list** ({label}; tiers by rank, two courtiers a tier):\n")
    parts.append("| tier | courtier | strength | kind |\n|---|---|---|---|")
    tiers = [t for t in tiers if np.isfinite(t.strength)]
    for t in tiers:
        kind = "vanguard" if C.is_vanguard(C.courtier_id(t.name)) else "rearguard"
        parts.append(f"| {t.tier} | {t.name} | {shown(t.strength)} | {kind} |")
    parts.append("\nWithout villains the Procuress has nothing to do and the Inquisitor can "
                 "only hunt the 2, so these two are underrated here; their worth with "
                 "villains needs the hidden-villain solver (below).")
    none = sweep.load_task(sweep.task_path(sweep.pairings_dir(), ("none", "none"), 6, 7, False))
    if none is not None:
        parts.append(f"\nFor reference, warriors only: battle value "
                     f"{none.battle['value']:+z.3f}.")
    return "\n".join(parts)


def mirror_paragraph() -> str:
    """The hypothetical mirror matchups: a table and what their symmetry shows."""
    table = balance.mirror_table()
    if table.empty:
        return ("\nMirror matchups: not solved yet (`sweep.run_sweep(sweep.mirror_pairings"
                "())`).")
    rows = ["| courtier (both players) | kind | battle value | war value 0-0 | P(P0 wins "
            "war) | battle, P0 always quicker | P1 always quicker | quicker by coin |",
            "|---|---|---|---|---|---|---|---|"]
    def num(v):
        return f"{0.0 if abs(v) < 5e-5 else v:+z.4f}"   # no "-0.0000" from rounding

    for name, r in table.iterrows():
        rows.append(f"| {name} | {r['kind']} | {num(r['battle'])} | {num(r['war'])} | "
                    f"{r['war_win']:z.3f} | {num(r['p0'])} | {num(r['p1'])} | "
                    f"{num(r['random'])} |")
    rear = table[table["kind"] == "rearguard"]
    broken = [n for n, r in table.iterrows() if abs(r["p0"] + r["p1"]) > 1e-6]
    text = [f"\n**Mirror matchups (hypothetical: never dealt).** {len(table)} mirror "
            f"battles and wars, full armies, {EXACT}:\n", *rows, ""]
    text.append(
        "Swapping seats in a mirror turns \"player 0 is quicker\" into \"player 1 is "
        "quicker\", so seat symmetry predicts: rearguard mirrors worth exactly 0 (who is "
        "quicker never matters; here the largest is "
        f"{rear[['battle', 'war']].abs().to_numpy().max() if len(rear) else float('nan'):z.1e}"
        "); for vanguard mirrors the *P0 always quicker* and *P1 always quicker* values "
        "opposite and the coin 0. With the default alternation (player 0 quicker in odd "
        "combats) a vanguard mirror need not be 0: the difference is the value of being "
        "quicker in combats 1, 3, 5, 7.")
    if broken:
        text[-1] += (
            " The exception is the " + ", ".join(broken) + ": when both players advance "
            "a Fortune-Teller the engine applies its Fortune-Teller-against-Maiden ruling "
            "literally and player 1 plays first (ruling 22 in `docs/rules/cobardes.md`), "
            "which favours player 0 whoever is quicker — an artefact of a case the real "
            "game cannot produce.")
    return "\n".join(text)


def war_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
    war = solve_war(warriors=spec.warriors, combats=spec.combats)
    table = value_table(war)
    examples = []
    for pairing in (("Squire", "Archer"), ("Royal Guard", "Maiden"), ("Wolf", "Inquisitor")):
        data = sweep.load_results([pairing], 6, 7, war=True).get(pairing)
        if data is not None:
            examples.append((pairing, data))
    fig, axes = plt.subplots(1, 1 + len(examples), figsize=(4 * (1 + len(examples)), 3.6))
    axes = np.atleast_1d(axes)

    def draw(ax, t, title):
        image = ax.imshow((1 + t) / 2, cmap="RdBu", vmin=0, vmax=1)
        annotate(ax, image, (1 + t) / 2, lambda v: f"{v:z.2f}", fontsize=9)
        ax.set_xticks(range(3), [f"P1: {b}" for b in range(3)])
        ax.set_yticks(range(3), [f"P0: {a}" for a in range(3)])
        ax.set_xlabel("battles won by player 1")
        ax.set_ylabel("battles won by player 0")
        ax.set_title(title, fontsize=9)

    draw(axes[0], table, f"warriors only ({army_text(spec)})")
    for ax, (pairing, data) in zip(axes[1:], examples, strict=True):
        t = np.zeros((3, 3))
        for key, s in data.war["scores"].items():
            a, b = (int(x) for x in key.split("-"))
            t[a, b] = s["value"]
        draw(ax, t, f"{pairing[0]} vs {pairing[1]}")
    path = ctx.save_figure(fig, "war_by_score")
    plt.close(fig)
    solves = sum(s.solves for s in war.scores.values())
    lines = ["| score (P0-P1) | war value | P(P0 wins the war) | battle solves |",
             "|---|---|---|---|"]
    for (a, b), s in sorted(war.scores.items()):
        lines.append(f"| {a}-{b} | {s.value:+z.4f} | {(1 + s.value) / 2:z.3f} | {s.solves} |")
    return f"""## The war, score by score

A war state is the score (Victory tokens 0–2 each). From each score the battle is
solved with terminal payoffs equal to the values of the states it leads to (a win
moves to the next score, or wins the war at 3 tokens; the Crown wins the war; a draw
repeats the score). A drawn battle repeating the state makes each score a
one-variable fixed point, solved exactly by Newton steps on the battle value
(`analysis/cobardes/solvers/war.py`; residual below 1e-10). Values are P(win) − P(lose).

Warriors only ({army_text(spec)}; {EXACT}; {solves} battle solves in all):

{chr(10).join(lines)}

![War win probability by score]({path})

**What is approximated here.** Each player keeps the same courtier type in every
battle of the war (a used courtier comes back). The next section lifts this: courtiers
are renewed between battles and the keep-or-renew decisions are solved inside the war.
Villains are left out of both war models (their battles are solved only in the
abstraction)."""
