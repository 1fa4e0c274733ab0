"""Report sections for ¡Cobardes! (family ``cobardes``): solved battles, courtier and
villain matchups, the war by score, bluffing and mixing, the rulebook's tips, hidden
villains and the abstraction's measured loss.

Heavy results come from the committed caches (the data folder's ``cobardes``: the pairing
sweep, the abstraction-loss measurements; the benchmarks' results); the rest is solved here in
seconds. Every number is given with the solver that produced it, its iterations and
its exploitability (0 for the exact backward induction, up to LP rounding).
"""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis import store
from analysis.cobardes import balance, renewal, subgames, sweep, villains
from analysis.cobardes.exact import (
    BattleSpec,
    ExactSolver,
    initial_position,
    payoff_values,
    position_table,
)
from analysis.cobardes.war import solve_war, value_table
from analysis.report.context import ReportContext
from games.cobardes import cards as C

BENCHMARKS = store.REPOSITORY / "benchmarks" / "results"
BENCHMARK_JSON = BENCHMARKS / "cobardes_villains.json"
FULL_BATTLE_JSON = BENCHMARKS / "cobardes_full_battle.json"
FULL_GRAPH_JSON = BENCHMARKS / "cobardes_full_battle_graph.json"
EXACT = "exact backward induction (LP per confrontation), exploitability 0"


def _spec(ctx: ReportContext) -> BattleSpec:
    # Quick mode (CI, notebooks): a reduced army so everything solves in seconds.
    return BattleSpec(warriors=4, combats=5) if ctx.quick else BattleSpec()


def _army(spec: BattleSpec) -> str:
    return f"warriors 0-{spec.warriors}, {spec.combats} combats"


def _bars(ax, mix: dict, title: str) -> None:
    names = list(mix)
    ax.bar(names, [100 * mix[n] for n in names], color="#4a78a8")
    ax.set_ylabel("% of the time")
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, 100)


def _heatmap(ctx: ReportContext, table: pd.DataFrame, stem: str, title: str, label: str,
             cmap: str = "RdBu", vmin: float = -1, vmax: float = 1, fmt: str = "{:+.2f}",
             hypothetical_diagonal: bool = False) -> str:
    fig, ax = plt.subplots(figsize=(8.5, 7))
    data = table.to_numpy(dtype=float)
    im = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax)
    if hypothetical_diagonal:
        # Mirror matchups cannot be dealt (one card per courtier): hatched, labelled.
        for i in range(min(data.shape)):
            if np.isfinite(data[i, i]):
                ax.add_patch(plt.Rectangle((i - 0.5, i - 0.5), 1, 1, fill=False,
                                           hatch="///", edgecolor="0.35", lw=0.0))
                ax.text(i, i + 0.32, "hyp.", ha="center", va="center", fontsize=6)
        title += "\n(hatched diagonal: hypothetical mirror battles, never dealt)"
    ax.set_xticks(range(len(table.columns)), table.columns, rotation=45, ha="right")
    ax.set_yticks(range(len(table.index)), table.index)
    ax.set_xlabel("player 1 (columns)")
    ax.set_ylabel("player 0 (rows)")
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if np.isfinite(data[i, j]):
                ax.text(j, i, fmt.format(data[i, j]), ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax, label=label)
    ax.set_title(title, fontsize=10)
    path = ctx.save_figure(fig, stem)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- sections
def summary_section(ctx: ReportContext) -> str:
    """The findings in a few plain sentences (details and provenance follow)."""
    spec = _spec(ctx)
    cfg, pos, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    solver.value(pos)
    node = solver.node(pos)
    mix = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:.0f}%" for a, p in
                    zip(node.actions, node.strategy, strict=True) if p >= 0.005)
    lines = ["## Findings in brief\n",
             f"* **Warriors only** ({_army(spec)}), solved exactly: a fair battle "
             f"({node.value:+.3f}). Open with {mix}. Of the rulebook's three tips for the "
             f"learning game, {sum(h for _, _, h in tip_rows(spec))} hold."]
    tables = balance.courtier_tables()
    wars = tables["war_win"]
    if wars.notna().to_numpy().sum() >= 90:
        strength = balance.seat_neutral_strength(2 * wars - 1)
        best, worst = strength.index[0], strength.index[-1]
        lines.append(
            f"* **Courtiers** (all 90 pairings, exact, war composed over the score): the "
            f"{best} is the strongest (mean war win probability "
            f"{(1 + strength.iloc[0]) / 2:.2f} over opponents, both seats), the {worst} the "
            f"weakest ({(1 + strength.iloc[-1]) / 2:.2f}).")
    elif tables["battle"].notna().to_numpy().sum() >= 90:
        strength = balance.seat_neutral_strength(tables["battle"])
        lines.append(
            f"* **Courtiers** (all 90 pairings, one battle, exact): the {strength.index[0]} "
            f"is the strongest ({strength.iloc[0]:+.2f} mean battle value), the "
            f"{strength.index[-1]} the weakest ({strength.iloc[-1]:+.2f}).")
    sol = load_renewal()
    if sol is not None:
        names = list(sol.model.courtiers)
        table = pd.DataFrame(np.nan, index=names, columns=names)
        for a, b in sol.model.pairings:
            table.loc[a, b] = sol.value((a, b))
        strength = balance.seat_neutral_strength(table).dropna()
        counts = renewal.keep_counts(sol)
        rate = {c: (k["p0_keep"] + k["p1_keep"]) / max(1, k["p0_total"] + k["p1_total"])
                for c, k in counts.items()}
        always = [c for c, r in rate.items() if r >= 0.999]
        never = [c for c, r in rate.items() if r <= 0.001]
        lines.append(
            f"* **The war with courtiers renewed between battles** (keep-or-renew solved "
            f"inside the war; memoryless court deck, no villains; residual "
            f"{sol.residual:.0e}): the {strength.index[0]} is the strongest (mean war win "
            f"probability {(1 + strength.iloc[0]) / 2:.2f}), the {strength.index[-1]} the "
            f"weakest ({(1 + strength.iloc[-1]) / 2:.2f}). An unplayed courtier is always "
            f"kept: {', '.join(always) or 'none'}; never kept: {', '.join(never) or 'none'}.")
    if subgames.hidden_villains_path().exists():
        h = json.loads(subgames.hidden_villains_path().read_text())
        deals = _villain_frame(h["table"])
        strength = balance.seat_neutral_strength(deals).dropna()
        lines.append(
            f"* **Villains** (hidden, reduced army {h['label']}): the {strength.index[0]} is "
            f"worth most ({strength.iloc[0]:+.2f} a battle), the {strength.index[-1]} least "
            f"({strength.iloc[-1]:+.2f}).")
    if FULL_BATTLE_JSON.exists():
        f = json.loads(FULL_BATTLE_JSON.read_text())
        last = f["slices"][-1]
        deals = _villain_frame(f["deal_values"])
        strength = balance.seat_neutral_strength(deals).dropna()
        lines.append(
            f"* **The full battle with hidden villains** ({_pairing(f)}, all 9 villains, "
            f"{_full_army(f)}) is solved by the state-keyed engine"
            f"{' with its public subgames solved exactly' if f.get('method') == 'cut' else ''}"
            f": {f['nodes']:,} {'trunk' if f.get('method') == 'cut' else 'graph'} "
            f"nodes, {_duration(f['total_seconds'])} on this machine ({_target(f)}), "
            f"CFR+ {last['iterations']} iterations, exploitability within the "
            f"abstraction {last['exploitability_in_abstraction']:.1e} (a lower bound on the "
            f"true one). Holding the {strength.index[0]} is worth most "
            f"({strength.iloc[0]:+.2f} a battle), the {strength.index[-1]} least "
            f"({strength.iloc[-1]:+.2f}).")
    return "\n".join(lines)


def method_section(ctx: ReportContext) -> str:
    return """## How the battles are solved

* **Warriors only, and warriors + courtiers** are games of public information: every
  card is on the table except the one each player is about to reveal. The value of
  a position depends only on the position, so we solve every battle by **backward
  induction over positions** (`analysis/cobardes/exact.py`): each face-down
  confrontation is a small zero-sum matrix game (up to 7 x 7) solved by linear
  programming (a dense simplex, checked against `scipy.optimize.linprog`); every
  other decision (vanguard and rearguard courtiers, a card played face up under the
  Fortune-Teller or the Maiden, an Archer or Sentinel change) is a maximum or minimum;
  the Inquisitor's draw is an expectation. Positions are the rules engine's own
  (`games/cobardes/engine.py`, keyed by `state_key()`), so no rule is re-implemented.
  The result is exact: exploitability 0 up to floating-point rounding.
* **Checks** (`tests/test_cobardes_analysis.py`): OpenSpiel's own best response
  against the exact strategies, played in the OpenSpiel game, finds NashConv 0
  (below 1e-9) on reduced decks, with and without courtiers and with named villains,
  and on the whole warriors-only battle (a slow test);
  the solver engine's sequence-form LP on the perfect-recall tree gives the same values
  (to 1e-7); OpenSpiel's CFR+ on the tree and the engine's CFR+ on the state graph land
  within their exploitability of them; the war
  composition matches the engine's CFR on `python_cobardes_war` and a hand-worked case.
* **Villains** named for both players are public too (both know them) and are solved
  the same way. **Hidden villains** need the state-keyed engine (an imperfect-recall
  abstraction); its loss is measured below.
* Payoffs: a battle win is worth 1, the Crown 3, a draw 0, unless said otherwise
  (the war sections use the war's own values)."""


def warriors_section(ctx: ReportContext) -> str:
    spec = _spec(ctx)
    cfg, pos, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    value = solver.value(pos)
    node = solver.node(pos)
    mix0 = {C.CARD_NAMES[a]: p for a, p in zip(node.actions, node.strategy, strict=True)}
    stats = balance.play_stats(spec)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    _bars(axes[0], mix0, f"First combat, equilibrium mix ({_army(spec)})")
    im = axes[1].imshow(100 * stats.play, cmap="Blues", vmin=0, vmax=100, aspect="auto")
    axes[1].set_xticks(range(spec.warriors + 1),
                       [C.CARD_NAMES[k] for k in range(spec.warriors + 1)])
    axes[1].set_yticks(range(spec.combats), [f"combat {c + 1}" for c in range(spec.combats)])
    axes[1].set_title("P(warrior played | combat reached), %", fontsize=10)
    for c in range(spec.combats):
        for k in range(spec.warriors + 1):
            axes[1].text(k, c, f"{100 * stats.play[c, k]:.0f}", ha="center", va="center",
                         fontsize=7)
    fig.colorbar(im, ax=axes[1])
    path = ctx.save_figure(fig, "warriors_mix")
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    im = ax.imshow(stats.importance[:-1], cmap="viridis", aspect="auto")
    ax.set_xticks(range(spec.warriors + 1), [C.CARD_NAMES[k] for k in range(spec.warriors + 1)])
    ax.set_yticks(range(spec.combats - 1), [f"combat {c + 1}" for c in range(spec.combats - 1)])
    for c in range(spec.combats - 1):
        for k in range(spec.warriors + 1):
            v = stats.importance[c, k]
            if np.isfinite(v):
                ax.text(k, c, f"{v:.2f}", ha="center", va="center", fontsize=7, color="w")
    fig.colorbar(im, ax=ax, label="value lost without the card")
    ax.set_title("Which warriors matter at which combat", fontsize=10)
    path2 = ctx.save_figure(fig, "card_importance")
    plt.close(fig)
    csv_note = ""
    if not ctx.quick:
        # Every position's value and mixes, for readers who want more than the charts.
        table = pd.DataFrame(position_table(solver))
        path_csv = store.data("cobardes", "warriors_only_positions.csv")
        path_csv.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path_csv, index=False)
        csv_note = (f"\n\nEvery one of the {len(table):,} confrontations with its value and "
                    f"both mixes: `{store.shown(path_csv)}`.")
    reach = ", ".join(f"{100 * r:.0f}%" for r in stats.reach)
    mix_text = ", ".join(f"{k} {100 * v:.1f}%" for k, v in mix0.items() if v > 1e-6)
    top = [(c, int(np.nanargmax(stats.importance[c]))) for c in range(spec.combats - 1)]
    top_text = "; ".join(f"combat {c + 1}: the {C.CARD_NAMES[k]}" for c, k in top)
    prince = float(np.nanmax(stats.importance[:-1, 0]))
    return f"""## Warriors only: the learning battle

Solved exactly ({_army(spec)}; {len(solver.values):,} positions, {solver.matrix_games:,}
confrontations as matrix games; {EXACT}). The battle is symmetric, so its value is
**{value:+.3f}** (a fair game). The first combat is a mixed strategy: **{mix_text}**.
The battle is still going at each combat with probability {reach} (combats 1 to
{spec.combats}).{csv_note}

![Opening mix and play by combat]({path})

Which cards matter most: for every confrontation reached in equilibrium, how much
player 0's value drops if one warrior is taken from the hand (reach-weighted mean).
The most valuable card by combat — {top_text}. The prince is worth at most
{prince:+.2f} at any combat (it can never win a combat, only lose the Crown).

![Card importance by combat]({path2})"""


def tip_rows(spec: BattleSpec) -> list[tuple[str, str, bool]]:
    """The learning game's tips against the exact solution: (tip, evidence, holds)."""
    cfg, pos, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    solver.value(pos)
    node = solver.node(pos)
    mix = dict(zip(node.actions, node.strategy, strict=True))
    grid = np.array(node.child_values).reshape(len(node.actions), len(node.actions1))
    y = np.array(node.strategy1)
    against = grid @ y  # each opening card's value against the equilibrium answer
    # "The 4" is the third-strongest warrior (the 2 in a reduced army of 0-4).
    four = spec.warriors - 2
    low = [k for k in range(four) if mix.get(k, 0) > 1e-9]
    strong = spec.warriors - 1
    invincible = all(C.combat_winner(s, o) != 1 for s in (strong, strong + 1)
                     for o in range(spec.warriors + 1))
    return [
        ("\"both the 6 and the 5 are invincible\"",
         f"no warrior exceeds the {strong} or the {strong + 1} by 2 (rule fact); in the "
         f"solution the top two are played "
         f"{100 * (mix.get(strong, 0) + mix.get(strong + 1, 0)):.0f}% of the time in combat 1",
         invincible),
        ("\"In the first combat, you can risk the 4, but not a lower one\"",
         f"combat-1 mix: {four} {100 * mix.get(four, 0):.1f}%, 0–{four - 1} "
         f"{100 * sum(mix.get(k, 0) for k in range(four)):.1f}%; the {four} earns "
         f"{against[four]:+.3f} against the equilibrium answer, the {four - 1} "
         f"{against[four - 1]:+.3f}",
         mix.get(four, 0) > 0 and not low),
        ("\"Starting with the prince would be a sure defeat\"",
         f"the prince opening is worth {against[0]:+.3f} against the equilibrium answer and "
         f"{grid[0].min():+.0f} against the best answer (the Crown lost at once)",
         bool(grid[0].min() <= -pay.crown + 1e-9)),
    ]


def tips_section(ctx: ReportContext) -> str:
    spec = _spec(ctx)
    rows = ["| tip (rulebook, \"Tips and Tricks\") | what the solution says | verdict |",
            "|---|---|---|"]
    rows += [f"| {tip} | {evidence} | {'true' if holds else 'false'} |"
             for tip, evidence, holds in tip_rows(spec)]
    vil = balance.villain_table()
    vil_small = balance.villain_table(warriors=4, combats=5)
    table, army = (vil, "full armies") if vil.notna().to_numpy().sum() else (
        vil_small, "warriors 0-4, 5 combats")
    villain_line = ""
    rankings = []
    if subgames.hidden_villains_path().exists():
        h = json.loads(subgames.hidden_villains_path().read_text())
        deals = _villain_frame(h["table"])
        rankings.append((f"hidden villains ({h['label']}; {h['provenance']})",
                         balance.seat_neutral_strength(deals).dropna()))
    if table.notna().to_numpy().sum() >= 72:
        rankings.append((f"both villains known ({army}; {EXACT})",
                         balance.seat_neutral_strength(table).dropna()))
    if rankings:
        parts = []
        for label, strength in rankings:
            order = list(strength.index)
            parts.append(
                f"with {label}: the Executioner ranks {order.index('Executioner') + 1} of 9 "
                f"({strength['Executioner']:+.2f} mean battle value over the rival's villain, "
                f"both seats) and the Seductress {order.index('Seductress') + 1} of 9 "
                f"({strength['Seductress']:+.2f}); the best is the {order[0]}, the worst the "
                f"{order[-1]}")
        villain_line = (
            "\n\nThe remark on the **Executioner** and the **Seductress** (\"do not "
            "challenge the warrior but the enemy villain\"): " + "; ".join(parts) + ". Both "
            "act only when the rival plays a villain into them, and against a warrior they "
            "give just the follow-up any villain gives; the villain heatmaps below show "
            "against which villains they pay.")
    return (f"## The rulebook's tips, tested\n\nWarriors only, {_army(spec)}, {EXACT}.\n\n"
            + "\n".join(rows) + villain_line)


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
    path = _heatmap(ctx, shown_tables["battle"], "courtier_battle", "Battle value for "
                    "player 0 (win 1, crown 3, draw 0)", "battle value", vmin=-1.5,
                    vmax=1.5, hypothetical_diagonal=True)
    parts.append(f"\n![Courtier battle matchups]({path})")
    source = battle
    label = "mean battle value over opponents, both seats"
    if n_war:
        path = _heatmap(ctx, shown_tables["war_win"], "courtier_war", "Player 0's "
                        "probability of winning the war from 0-0", "P(win war)",
                        cmap="RdBu", vmin=0, vmax=1, fmt="{:.2f}",
                        hypothetical_diagonal=True)
        parts.append(f"\n![Courtier war matchups]({path})\n")
        parts.append("War win probabilities compose the exact battles over the score "
                     "states (next section), with each player keeping the same courtier "
                     "type for the whole war (the fixed-pairing model; the war with "
                     "courtiers renewed between battles is solved further below).")
        parts.append(mirror_paragraph())
        gain = balance.keep_or_renew(tables["war"])
        if int(gain.notna().to_numpy().sum()) and load_renewal() is None:
            path = _heatmap(ctx, gain, "keep_or_renew", "Keep (+) or renew (-) an unused "
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
    shown = (lambda v: f"{(1 + v) / 2:.3f}") if source is tables["war"] else (
        lambda v: f"{v:+.3f}")
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
                     f"{none.battle['value']:+.3f}.")
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
        return f"{0.0 if abs(v) < 5e-5 else v:+.4f}"   # no "-0.0000" from rounding

    for name, r in table.iterrows():
        rows.append(f"| {name} | {r['kind']} | {num(r['battle'])} | {num(r['war'])} | "
                    f"{r['war_win']:.3f} | {num(r['p0'])} | {num(r['p1'])} | "
                    f"{num(r['random'])} |")
    rear = table[table["kind"] == "rearguard"]
    broken = [n for n, r in table.iterrows() if abs(r["p0"] + r["p1"]) > 1e-6]
    text = [f"\n**Mirror matchups (hypothetical: never dealt).** {len(table)} mirror "
            f"battles and wars, full armies, {EXACT}:\n", *rows, ""]
    text.append(
        "Swapping seats in a mirror turns \"player 0 is quicker\" into \"player 1 is "
        "quicker\", so seat symmetry predicts: rearguard mirrors worth exactly 0 (who is "
        "quicker never matters; here the largest is "
        f"{rear[['battle', 'war']].abs().to_numpy().max() if len(rear) else float('nan'):.1e}"
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
    spec = _spec(ctx)
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
        ax.imshow((1 + t) / 2, cmap="RdBu", vmin=0, vmax=1)
        for a in range(3):
            for b in range(3):
                ax.text(b, a, f"{(1 + t[a, b]) / 2:.2f}", ha="center", va="center")
        ax.set_xticks(range(3), [f"P1: {b}" for b in range(3)])
        ax.set_yticks(range(3), [f"P0: {a}" for a in range(3)])
        ax.set_title(title, fontsize=9)

    draw(axes[0], table, f"warriors only ({_army(spec)})")
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
        lines.append(f"| {a}-{b} | {s.value:+.4f} | {(1 + s.value) / 2:.3f} | {s.solves} |")
    return f"""## The war, score by score

A war state is the score (Victory tokens 0–2 each). From each score the battle is
solved with terminal payoffs equal to the values of the states it leads to (a win
moves to the next score, or wins the war at 3 tokens; the Crown wins the war; a draw
repeats the score). A drawn battle repeating the state makes each score a
one-variable fixed point, solved exactly by Newton steps on the battle value
(`analysis/cobardes/war.py`; residual below 1e-10). Values are P(win) − P(lose).

Warriors only ({_army(spec)}; {EXACT}; {solves} battle solves in all):

{chr(10).join(lines)}

![War win probability by score]({path})

**What is approximated here.** Each player keeps the same courtier type in every
battle of the war (a used courtier comes back). The next section lifts this: courtiers
are renewed between battles and the keep-or-renew decisions are solved inside the war.
Villains are left out of both war models (their battles are solved only in the
abstraction)."""


def load_renewal():
    """The committed renewal-war solution (:mod:`analysis.cobardes.renewal`), or None."""
    cached = renewal.load_renewal(renewal.cache_path(renewal.RenewalModel()))
    if cached is None or cached[1] != "done":
        return None
    return cached[0]


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
    path_win = _heatmap(ctx, (1 + table) / 2, "renewal_war", "Player 0's probability of "
                        "winning the war from 0-0, courtiers renewed between battles",
                        "P(win war)", vmin=0, vmax=1, fmt="{:.2f}")
    lim = max(0.1, float(np.ceil(10 * np.nanmax(np.abs(diff.to_numpy(dtype=float)))) / 10))
    path_diff = _heatmap(ctx, diff, "renewal_vs_fixed", "War value from 0-0: renewal "
                         "model minus fixed-pairing model", "difference in war value",
                         vmin=-lim, vmax=lim)
    gain = pd.DataFrame(np.nan, index=names, columns=names)
    for (mine, theirs), g in renewal.keep_gain(sol, (0, 0), rival_used=True).items():
        gain.loc[mine, theirs] = g
    path_keep = _heatmap(ctx, gain, "keep_or_renew", "Keep (+) or renew (-) an unused "
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
        tier_rows.append(f"| {t.tier} | {t.name} | {(1 + t.strength) / 2:.3f} | "
                         f"{(1 + fixed_strength.get(t.name, np.nan)) / 2:.3f} |")
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
    took = _duration(seconds)
    return f"""{head}
"When a battle ends, prepare the next one: ... Discard the villain and courtier cards
that are on the battlefield, placing them under the corresponding deck, and renew them
with others of the same type. If you did not play your villain or courtier you may
decide not to replace them and keep them for the next battle."

**The model** (`analysis/cobardes/renewal.py`). A war state is the score and both
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
max |F(V) − V| = {sol.residual:.1e} over all {model.size} states; spectral radius of
the linearised war at the solution {sol.spectral_radius:.3f} (below 1: the war ends
with probability 1 and its fixed point is unique for these strategies).

**War values.** Averaged over a random first deal, player 0's war value is
{deal_renew:+.4f} with renewal against {deal_fixed:+.4f} with fixed courtiers.
Renewal moves the value of a pairing from 0-0 by {mean_shift:.3f} on average and by
up to {spread:.2f}; the spread of the pairings' values (standard deviation) goes from
{sd_fixed:.3f} with fixed courtiers to {sd_renew:.3f} with renewal, as a courtier
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


def villain_section(ctx: ReportContext) -> str:
    full = balance.villain_table()
    small = balance.villain_table(warriors=4, combats=5)
    table, army = (full, "full armies (warriors 0-6, 7 combats)") \
        if full.notna().to_numpy().sum() >= 72 else (small, "warriors 0-4, 5 combats")
    n = int(table.notna().to_numpy().sum())
    if n == 0:
        return ("## Villains\n\nNo villain sweep is cached yet: run "
                "`farol cobardes sweep --kind villains`.")
    path = _heatmap(ctx, table, "villain_matchups", f"Battle value for player 0, both "
                    f"villains known ({army})", "battle value", vmin=-2, vmax=2)
    strength = balance.seat_neutral_strength(table).dropna()
    ranking = ", ".join(f"{name} {v:+.2f}" for name, v in strength.items()) \
        if n >= 72 else "(shown when all 72 pairs are solved)"
    return f"""## Villains: the value of holding each one

Each pair of villains (player 0's in rows) in a battle of warriors + villains, both
villains **named, so known to both players**: a game of public information, solved
exactly ({army}; {n} of 72 pairs; {EXACT}). The diagonal is empty (each villain
exists once). Knowing the rival's villain removes the surprise that makes a hidden
villain dangerous, so these values are the villains' worth *when the rival is ready
for them*; the hidden case follows.

![Villain matchups]({path})

Mean battle value over opponents, both seats: {ranking}."""


def hidden_section(ctx: ReportContext) -> str:
    rows = []
    verdict = ""
    if villains.abstraction_loss_path().exists():
        measured = json.loads(villains.abstraction_loss_path().read_text())
        worst = max(measured, key=lambda r: r["graph_exploitability_true"]
                    - r["tree_exploitability"])
        verdict = (
            f"\n\nThe largest loss is on the deck *{worst['label']}*: after the same "
            f"{worst['iterations']} CFR+ iterations the exact tree solution is exploitable by "
            f"{worst['tree_exploitability']:.1e}, the state-keyed one by "
            f"{worst['graph_exploitability_true']:.1e} in the true game (it believes "
            f"{worst['graph_exploitability_in_abstraction']:.1e}).")
        others = [r for r in measured if r is not worst]
        if "Procuress" in worst["label"] and all(
                r["graph_exploitability_true"] < 10 * max(r["tree_exploitability"], 1e-4)
                for r in others):
            verdict += (" On the other decks (villains only played, no private swap) "
                        "forgetting the order of events costs nothing measurable: the "
                        "Procuress's private swaps are where remembering who saw what "
                        "matters, so abstraction numbers with her are approximate.")
        rows = _loss_rows(measured)
    bench = ""
    if BENCHMARK_JSON.exists():
        b = json.loads(BENCHMARK_JSON.read_text())
        bench = "\n\n**Benchmark** (`benchmarks/cobardes_villains.py`, committed output in " \
                "`benchmarks/results/`):\n\n" + "\n".join(f"* {line}" for line in b["lines"])
    table = ("| reduced deck | tree nodes / infosets | graph nodes / infosets | CFR+ "
             "iterations | exact tree value (expl.) | graph value | graph expl. in "
             "abstraction | graph expl. in the true game |\n|---|---|---|---|---|---|---|---|\n"
             + "\n".join(rows)) if rows else "(no measurement cached: run " \
        "`farol cobardes abstraction`)"
    hidden = ""
    cut = _cut_text(ctx)
    if subgames.hidden_villains_path().exists():
        h = json.loads(subgames.hidden_villains_path().read_text())
        deals = _villain_frame(h["table"])
        path = _heatmap(ctx, deals, "hidden_villains", f"Battle value for player 0 by the "
                        f"villains dealt, hidden ({h['label']})", "battle value",
                        vmin=-1.5, vmax=1.5)
        strength = balance.seat_neutral_strength(deals).dropna()
        ranking = ", ".join(f"{name} {v:+.2f}" for name, v in strength.items())
        hidden = (f"\n\n**The value of holding each villain, hidden.** One battle with both "
                  f"villains dealt at random ({h['label']}), solved by {h['provenance']}; "
                  f"the value of each deal read off the solution:\n\n![Hidden villain "
                  f"deals]({path})\n\nMean over the rival's villain, both seats: {ranking}.")
    return f"""## Hidden villains: the state-keyed abstraction and its measured loss

With a hidden villain each player has private information. The solver engine keys
information sets on (own cards, public position) — it forgets the order of past
events, an imperfect-recall abstraction. On reduced decks whose perfect-recall tree
fits we solve both with the same CFR+ iterations, then evaluate the abstraction's
strategy **in the perfect-recall tree** with an exact best response: that true
exploitability, next to the exploitability measured inside the abstraction, is the
abstraction's loss.

{table}

On the full game only the exploitability inside the abstraction is measurable; it is
a **lower bound** on the true exploitability (a best response that also forgets is
weaker than a true one).{verdict}{cut}{hidden}{full_battle_text(ctx)}{bench}"""


def _loss_rows(measured: list[dict]) -> list[str]:
    """Table rows of abstraction-loss measurements (tree against state-keyed graph)."""
    return [f"| {r['label']} | {r['tree_nodes']:,} / {r['tree_infosets']:,} | "
            f"{r['graph_nodes']:,} / {r['graph_infosets']:,} | {r['iterations']} | "
            f"{r['tree_value']:+.4f} ({r['tree_exploitability']:.1e}) | "
            f"{r['graph_value']:+.4f} | {r['graph_exploitability_in_abstraction']:.1e} | "
            f"{r['graph_exploitability_true']:.1e} |" for r in measured]


def loss_chart(ctx: ReportContext, measured: list[dict], stem: str, title: str) -> str:
    """Bars per deck: the exact tree's exploitability, the state-keyed solution's within
    its abstraction and in the true game (log scale)."""
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(measured) + 1.6))
    y = np.arange(len(measured))
    series = (("tree_exploitability", "exact tree (CFR+)", "0.6"),
              ("graph_exploitability_in_abstraction", "state-keyed, within the abstraction",
               "tab:blue"),
              ("graph_exploitability_true", "state-keyed, in the true game", "tab:red"))
    for k, (field, label, color) in enumerate(series):
        ax.barh(y + (k - 1) * 0.27, [max(r[field], 1e-8) for r in measured], height=0.27,
                color=color, label=label)
    ax.set_xscale("log")
    ax.set_yticks(y, [r["label"].replace(", ", ",\n", 1) for r in measured], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"exploitability after {measured[0]['iterations']} CFR+ iterations (value units)")
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title(title, fontsize=10)
    path = ctx.save_figure(fig, stem)
    plt.close(fig)
    return path


def _cut_text(ctx: ReportContext) -> str:
    """The trunk's loss, public subgames exact (``farol cobardes abstraction``)."""
    if not subgames.cut_loss_path().exists():
        return ""
    measured = json.loads(subgames.cut_loss_path().read_text())
    chart = loss_chart(ctx, measured, "trunk_loss",
                       "Public subgames exact: the state-keyed trunk's loss")
    rows = _loss_rows(measured)
    worst = max(measured, key=lambda r: r["graph_exploitability_true"])
    understated = ""
    if worst["graph_exploitability_true"] > 2 * worst["graph_exploitability_in_abstraction"]:
        understated = (
            f" There the exploitability measured inside the abstraction "
            f"({worst['graph_exploitability_in_abstraction']:.1e}) understates the true one "
            f"{worst['graph_exploitability_true'] / worst['graph_exploitability_in_abstraction']:.0f}"
            "-fold, and the loss grows with the number of combats: the full battle's figure "
            "below is a lower bound, and its true exploitability is likely larger.")
    return f"""

**Public subgames solved exactly.** A battle with hidden villains stops being a game of
hidden information once every villain left in a hand is known to both players (played,
exchanged, drawn by an Inquisitor) or none is left: every past move is then known to
both, and the rest of the battle is a public subgame that backward induction solves
exactly (`analysis/cobardes/subgames.py`). Cutting those subgames off leaves the
*trunk*, where a villain is still hidden. The cut is exact: on small battles the
sequence-form LP of the trunk (exact values at its leaves) equals the LP of the whole
battle (`tests/test_cobardes_subgames.py`). The trunk's perfect-recall tree is several
times smaller than the battle's, so the state-keyed abstraction's loss can now be
measured with all nine villains. Both the exact tree and the state-keyed trunk are
solved by CFR+ with the same iterations, and the state-keyed strategy is then played in
the tree:

| deck | trunk tree nodes / infosets | trunk graph nodes / infosets | CFR+ iterations | exact value (expl.) | graph value | graph expl. in abstraction | graph expl. in the true game |
|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

![The state-keyed trunk's loss]({chart})

The largest true exploitability of a state-keyed trunk solution is
{worst['graph_exploitability_true']:.1e}, on *{worst['label']}*.{understated} (The trunk's
abstraction refines the whole graph's, since public positions are no longer merged with
hidden ones, so its values can differ slightly from the table above.)"""


def _pairing(full: dict) -> str:
    return f"{full['params']['courtier0']} vs {full['params']['courtier1']}"


def _full_army(full: dict) -> str:
    p = full["params"]
    return f"warriors 0-{p.get('warriors', 6)}, {p.get('combats', 7)} combats"


def _duration(seconds: float) -> str:
    """``"27 s"`` under a minute and a half, else ``"4.3 min"``."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def _target(full: dict) -> str:
    if full["total_seconds"] <= 300:
        return "within the issue's 5-minute target"
    return f"{full['total_seconds'] / 300:.1f} times the issue's 5-minute target"


def _villain_frame(table: dict) -> pd.DataFrame:
    """Player 0's villain -> player 1's -> value as a 9 x 9 frame in the villains' order."""
    return pd.DataFrame(table).T.reindex(index=balance.VILLAINS, columns=balance.VILLAINS)


def full_battle_text(ctx: ReportContext) -> str:
    """The full battle with hidden villains, from the committed benchmark run."""
    if not FULL_BATTLE_JSON.exists():
        return ""
    f = json.loads(FULL_BATTLE_JSON.read_text())
    last = f["slices"][-1]
    deals = _villain_frame(f["deal_values"])
    path = _heatmap(ctx, deals, "full_battle_villains",
                    f"Full battle ({_pairing(f)}): value for player 0 by the villains dealt, "
                    f"hidden", "battle value", vmin=-1.5, vmax=1.5)
    strength = balance.seat_neutral_strength(deals).dropna()
    ranking = ", ".join(f"{name} {v:+.2f}" for name, v in strength.items())
    progress = "; ".join(
        f"{r['iterations']} iterations: value {r['value']:+.4f}, "
        f"{r['exploitability_in_abstraction']:.1e}" for r in f["slices"])
    slices = [r["exploitability_in_abstraction"] for r in f["slices"]]
    stalled = ""
    if len(slices) >= 2 and slices[-1] >= 0.9 * slices[-2]:
        stalled = (" The figure stopped falling over the last slice: with imperfect recall "
                   "CFR+ has no convergence guarantee.")
    walked = ""
    if f.get("walked_positions"):
        walked = (f" (a deal-lifted walk: {f['walked_positions']:,} positions walked once for "
                  "all the deals that differ only in the villains still hidden)")
    method = "state graph of"
    if f.get("method") == "cut":
        method = (f"compile that solves the public subgames exactly by backward induction "
                  f"as it reaches them ({f['exact_positions']:,} positions, "
                  f"{_duration(f['exact_seconds'])} of the compile, in the numba-compiled "
                  "solver of `analysis/cobardes/fast_exact.py`) and leaves CFR+ "
                  "the trunk, where a villain is still hidden: a state graph of")
    best = min(f["slices"], key=lambda r: r["exploitability_in_abstraction"])
    if best is not last:
        stalled += (f" The lowest figure, {best['exploitability_in_abstraction']:.1e}, came "
                    f"after {best['iterations']} iterations ({_duration(best['cfr_seconds'])} "
                    f"of CFR+), {_duration(f['compile_seconds'] + best['cfr_seconds'])} from "
                    "the start.")
    if f.get("method") == "cut" and FULL_GRAPH_JSON.exists():
        g = json.loads(FULL_GRAPH_JSON.read_text())
        g_last = g["slices"][-1]
        stalled += (f" For comparison, CFR+ on the whole state graph ({g['nodes']:,} nodes, "
                    f"same battle, `cobardes_full_battle_graph.txt`) took "
                    f"{_duration(g['total_seconds'])} in all for value "
                    f"{g_last['value']:+.4f} and {g_last['exploitability_in_abstraction']:.1e} "
                    f"within its abstraction after {g_last['iterations']} iterations.")
    mix_rows = []
    for player, mixes in f.get("first_combat_mix", {}).items():
        for villain in balance.VILLAINS:
            mix = mixes.get(villain)
            if mix is None:
                continue
            shown = ", ".join(f"{'villain' if card == villain else card} {100 * p:.0f}%"
                              for card, p in mix.items() if p >= 0.005)
            mix_rows.append(f"| {player} | {villain} | {shown} |")
    mix_table = ""
    if mix_rows:
        mix_table = ("\n\nFirst combat, by the villain held (P0 commits first, face down; "
                     "P1 answers without seeing it):\n\n| player | holding | mix |\n"
                     "|---|---|---|\n" + "\n".join(mix_rows))
    return f"""

### The full battle, solved

{_full_army(f).capitalize()}, {_pairing(f)}, both villains dealt at random
from all nine (72 deals), solved by the state-keyed engine in one run
(`benchmarks/cobardes_full_battle.py`, output committed in `benchmarks/results/`): a
{method} {f['nodes']:,} nodes ({f['internal_nodes']:,} decisions and chance
nodes) and {f['infosets']:,} information sets, compiled in
{_duration(f['compile_seconds'])}{walked}, then CFR+ for
{_duration(last['cfr_seconds'])}; {_duration(f['total_seconds'])} in all
({_target(f)}), at a peak memory of {f['peak_rss_gb']:.1f} GB. CFR+ progress
({progress}): the last figure, the exploitability measured within the abstraction, is a **lower bound** on the true exploitability of the solution
(best responses that also forget are strategies of the true game); the true figure
needs the perfect-recall tree, which no machine holds.{stalled}

![Full battle, hidden villain deals]({path})

Mean over the rival's villain, both seats: {ranking}.{mix_table}"""


def mixing_section(ctx: ReportContext) -> str:
    spec = _spec(ctx)
    positions = [
        ("combat 2 after 5 against 5", "hand0:0.1.2.3.4.6;hand1:0.1.2.3.4.6;combat:2"),
        ("combat 2 after your 6 against their 5",
         "hand0:0.1.2.3.4.5;hand1:0.1.2.3.4.6;combat:2"),
        ("combat 3 after both played 5 and 6", "hand0:0.1.2.3.4;hand1:0.1.2.3.4;combat:3"),
        ("combat 4: you 0 1 2 3, rival 0 1 2 4", "hand0:0.1.2.3;hand1:0.1.2.4;combat:4"),
    ] if not ctx.quick else [
        ("combat 3: you 0 1 2, rival 0 1 3", "hand0:0.1.2;hand1:0.1.3;combat:3"),
    ]
    lines = ["| position (warriors only) | value for you | your mix | rival's mix |",
             "|---|---|---|---|"]
    for label, text in positions:
        params = dict(BattleSpec(spec.warriors, spec.combats).params(), position=text)
        cfg, pos, pay = initial_position(params)
        solver = ExactSolver(cfg, payoff_values(pay))
        node = solver.node(pos)
        mine = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:.0f}%" for a, p in
                         zip(node.actions, node.strategy, strict=True) if p >= 0.005)
        theirs = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:.0f}%" for a, p in
                           zip(node.actions1, node.strategy1, strict=True) if p >= 0.005)
        lines.append(f"| {label} | {node.value:+.3f} | {mine} | {theirs} |")
    cached = sweep.load_results(None, 6, 7, war=False)
    openings = []
    for pairing in (("Squire", "Archer"), ("Maiden", "Wolf"), ("Standard-Bearer", "Sentinel"),
                    ("Royal Guard", "Inquisitor")):
        data = cached.get(pairing)
        if data is not None:
            m0 = ", ".join(f"{k} {100 * v:.0f}%" for k, v in data.battle["opening0"].items())
            m1 = ", ".join(f"{k} {100 * v:.0f}%" for k, v in data.battle["opening1"].items())
            openings.append(f"| {pairing[0]} vs {pairing[1]} | {data.battle['value']:+.3f} "
                            f"| {m0} | {m1} |")
    extra = ""
    if openings:
        extra = ("\n\nFirst combat with courtiers (full armies, vanguard courtiers held "
                 f"back; {EXACT}):\n\n| pairing (P0 vs P1) | battle value | P0's mix | "
                 "P1's mix |\n|---|---|---|---|\n" + "\n".join(openings))
    return f"""## Bluffing and mixing

No pure strategy is safe: at almost every confrontation both players mix. How often
each warrior is risked at each combat is the heatmap of the warriors-only section;
some typical positions ({_army(spec)}, {EXACT}):

{chr(10).join(lines)}{extra}

Ask for any position with `farol advise cobardes` (e.g. `farol advise cobardes
--variant warriors --mine 0,1,2,3 --theirs 0,1,2,4 --combat 4`, add `--json`), and
play against the solved strategy with `farol play python_cobardes_battle
--param kinds=warriors --opponent solved`."""


SECTIONS = tuple(enumerate((summary_section, method_section, warriors_section, tips_section,
                           courtier_section, war_section, renewal_section, villain_section,
                           hidden_section, mixing_section), start=60))
