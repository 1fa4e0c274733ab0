"""Warriors-only battles: the learning battle's equilibrium, the rulebook's tips, mixing."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis.cobardes.model import BattleSpec, initial_position, payoff_values
from analysis.cobardes.solvers import subgames
from analysis.cobardes.solvers.exact import ExactSolver, position_table
from analysis.cobardes.studies import balance, sweep
from analysis.report.cells import annotate
from analysis.report.cobardes.common import EXACT, army_text, battle_spec, mix_bars, villain_frame
from analysis.report.context import ReportContext
from analysis.shared import store
from analysis.shared.store import read_json
from games.cobardes import cards as C


def warriors_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
    cfg, pos, pay = initial_position(spec.params())
    solver = ExactSolver(cfg, payoff_values(pay))
    value = solver.value(pos)
    node = solver.node(pos)
    mix0 = {C.CARD_NAMES[a]: p for a, p in zip(node.actions, node.strategy, strict=True)}
    stats = balance.play_stats(spec)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    mix_bars(axes[0], mix0, f"First combat, equilibrium mix ({army_text(spec)})")
    im = axes[1].imshow(100 * stats.play, cmap="Blues", vmin=0, vmax=100, aspect="auto")
    axes[1].set_xticks(range(spec.warriors + 1),
                       [C.CARD_NAMES[k] for k in range(spec.warriors + 1)])
    axes[1].set_yticks(range(spec.combats), [f"combat {c + 1}" for c in range(spec.combats)])
    axes[1].set_title("P(warrior played | combat reached), %", fontsize=10)
    annotate(axes[1], im, 100 * stats.play, lambda v: f"{v:z.0f}", fontsize=8)
    axes[1].set_xlabel("warrior")
    axes[1].set_ylabel("combat")
    fig.colorbar(im, ax=axes[1])
    path = ctx.save_figure(fig, "warriors_mix")
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    im = ax.imshow(stats.importance[:-1], cmap="viridis", aspect="auto")
    ax.set_xticks(range(spec.warriors + 1), [C.CARD_NAMES[k] for k in range(spec.warriors + 1)])
    ax.set_yticks(range(spec.combats - 1), [f"combat {c + 1}" for c in range(spec.combats - 1)])
    annotate(ax, im, stats.importance[:-1], lambda v: f"{v:z.2f}", fontsize=8,
             blank="blank: never held at that combat in solved play")
    ax.set_xlabel("warrior")
    ax.set_ylabel("combat")
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
    reach = ", ".join(f"{100 * r:z.0f}%" for r in stats.reach)
    mix_text = ", ".join(f"{k} {100 * v:z.1f}%" for k, v in mix0.items() if v > 1e-6)
    top = [(c, int(np.nanargmax(stats.importance[c]))) for c in range(spec.combats - 1)]
    top_text = "; ".join(f"combat {c + 1}: the {C.CARD_NAMES[k]}" for c, k in top)
    prince = float(np.nanmax(stats.importance[:-1, 0]))
    return f"""## Warriors only: the learning battle

Solved exactly ({army_text(spec)}; {len(solver.values):,} positions, {solver.matrix_games:,}
confrontations as matrix games; {EXACT}). The battle is symmetric, so its value is
**{value:+z.3f}** (a fair game). The first combat is a mixed strategy: **{mix_text}**.
The battle is still going at each combat with probability {reach} (combats 1 to
{spec.combats}).{csv_note}

![Opening mix and play by combat]({path})

Which cards matter most: for every confrontation reached in equilibrium, how much
player 0's value drops if one warrior is taken from the hand (reach-weighted mean).
The most valuable card by combat — {top_text}. The prince is worth at most
{prince:+z.2f} at any combat (it can never win a combat, only lose the Crown).

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
         f"{100 * (mix.get(strong, 0) + mix.get(strong + 1, 0)):z.0f}% of the time in combat 1",
         invincible),
        ("\"In the first combat, you can risk the 4, but not a lower one\"",
         f"combat-1 mix: {four} {100 * mix.get(four, 0):z.1f}%, 0–{four - 1} "
         f"{100 * sum(mix.get(k, 0) for k in range(four)):z.1f}%; the {four} earns "
         f"{against[four]:+z.3f} against the equilibrium answer, the {four - 1} "
         f"{against[four - 1]:+z.3f}",
         mix.get(four, 0) > 0 and not low),
        ("\"Starting with the prince would be a sure defeat\"",
         f"the prince opening is worth {against[0]:+z.3f} against the equilibrium answer and "
         f"{grid[0].min():+z.0f} against the best answer (the Crown lost at once)",
         bool(grid[0].min() <= -pay.crown + 1e-9)),
    ]


def tips_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
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
        h = read_json(subgames.hidden_villains_path())
        deals = villain_frame(h["table"])
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
                f"({strength['Executioner']:+z.2f} mean battle value over the rival's villain, "
                f"both seats) and the Seductress {order.index('Seductress') + 1} of 9 "
                f"({strength['Seductress']:+z.2f}); the best is the {order[0]}, the worst the "
                f"{order[-1]}")
        villain_line = (
            "\n\nThe remark on the **Executioner** and the **Seductress** (\"do not "
            "challenge the warrior but the enemy villain\"): " + "; ".join(parts) + ". Both "
            "act only when the rival plays a villain into them, and against a warrior they "
            "give just the follow-up any villain gives; the villain heatmaps below show "
            "against which villains they pay.")
    return (f"## The rulebook's tips, tested\n\nWarriors only, {army_text(spec)}, {EXACT}.\n\n"
            + "\n".join(rows) + villain_line)


def mixing_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
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
        mine = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:z.0f}%" for a, p in
                         zip(node.actions, node.strategy, strict=True) if p >= 0.005)
        theirs = ", ".join(f"{C.CARD_NAMES[a]} {100 * p:z.0f}%" for a, p in
                           zip(node.actions1, node.strategy1, strict=True) if p >= 0.005)
        lines.append(f"| {label} | {node.value:+z.3f} | {mine} | {theirs} |")
    cached = sweep.load_results(None, 6, 7, war=False)
    openings = []
    for pairing in (("Squire", "Archer"), ("Maiden", "Wolf"), ("Standard-Bearer", "Sentinel"),
                    ("Royal Guard", "Inquisitor")):
        data = cached.get(pairing)
        if data is not None:
            m0 = ", ".join(f"{k} {100 * v:z.0f}%" for k, v in data.battle["opening0"].items())
            m1 = ", ".join(f"{k} {100 * v:z.0f}%" for k, v in data.battle["opening1"].items())
            openings.append(f"| {pairing[0]} vs {pairing[1]} | {data.battle['value']:+z.3f} "
                            f"| {m0} | {m1} |")
    extra = ""
    if openings:
        extra = ("\n\nFirst combat with courtiers (full armies, vanguard courtiers held "
                 f"back; {EXACT}):\n\n| pairing (P0 vs P1) | battle value | P0's mix | "
                 "P1's mix |\n|---|---|---|---|\n" + "\n".join(openings))
    return f"""## Bluffing and mixing

No pure strategy is safe: at almost every confrontation both players mix. How often
each warrior is risked at each combat is the heatmap of the warriors-only section;
some typical positions ({army_text(spec)}, {EXACT}):

{chr(10).join(lines)}{extra}

Ask for any position with `farol advise cobardes` (e.g. `farol advise cobardes
--variant warriors --mine 0,1,2,3 --theirs 0,1,2,4 --combat 4`, add `--json`), and
play against the solved strategy with `farol play python_cobardes_battle
--param kinds=warriors --opponent solved`."""
