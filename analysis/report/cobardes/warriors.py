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
from analysis.report.cobardes.common import EXACT, army_text, battle_spec, mix_bars
from analysis.report.context import ReportContext
from analysis.report.facts.cobardes.stored import villain_frame
from analysis.report.templating import fill
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
    csv = None
    if not ctx.quick:
        # Every position's value and mixes, for readers who want more than the charts.
        table = pd.DataFrame(position_table(solver))
        path_csv = store.data("cobardes", "warriors_only_positions.csv")
        path_csv.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path_csv, index=False)
        csv = {"rows": len(table), "path": store.shown(path_csv)}
    top = [(c, C.CARD_NAMES[int(np.nanargmax(stats.importance[c]))])
           for c in range(spec.combats - 1)]
    return fill("cobardes/appendix/warriors.md.j2", army=army_text(spec),
                positions=len(solver.values), matrix_games=solver.matrix_games, exact=EXACT,
                value=value, mix=[(k, v) for k, v in mix0.items() if v > 1e-6],
                reach=list(stats.reach), combats=spec.combats, csv=csv, mix_chart=path,
                top=top, prince=float(np.nanmax(stats.importance[:-1, 0])),
                importance_chart=path2)


def tip_facts(spec: BattleSpec) -> dict:
    """The learning game's three tips against the exact solution: the figures each is
    judged by, and whether each holds (``holds``, in the rulebook's order)."""
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
    return {"strong": strong, "top_two": mix.get(strong, 0) + mix.get(strong + 1, 0),
            "four": four, "mix_four": mix.get(four, 0),
            "mix_below": sum(mix.get(k, 0) for k in range(four)),
            "against_four": against[four], "against_below": against[four - 1],
            "prince_equilibrium": against[0], "prince_best": grid[0].min(),
            "holds": (invincible, mix.get(four, 0) > 0 and not low,
                      bool(grid[0].min() <= -pay.crown + 1e-9))}


def tips_section(ctx: ReportContext) -> str:
    spec = battle_spec(ctx)
    vil = balance.villain_table()
    vil_small = balance.villain_table(warriors=4, combats=5)
    table, army = (vil, "full armies") if vil.notna().to_numpy().sum() else (
        vil_small, "warriors 0-4, 5 combats")
    rankings = []
    if subgames.hidden_villains_path().exists():
        h = read_json(subgames.hidden_villains_path())
        deals = villain_frame(h["table"])
        rankings.append((f"hidden villains ({h['label']}; {h['provenance']})",
                         balance.seat_neutral_strength(deals).dropna()))
    if table.notna().to_numpy().sum() >= 72:
        rankings.append((f"both villains known ({army}; {EXACT})",
                         balance.seat_neutral_strength(table).dropna()))
    return fill("cobardes/appendix/tips.md.j2", army=army_text(spec), exact=EXACT,
                t=tip_facts(spec), rankings=rankings)


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
    rows = []
    for label, text in positions:
        params = dict(BattleSpec(spec.warriors, spec.combats).params(), position=text)
        cfg, pos, pay = initial_position(params)
        solver = ExactSolver(cfg, payoff_values(pay))
        node = solver.node(pos)
        rows.append({"label": label, "value": node.value,
                     "mine": [(C.CARD_NAMES[a], p) for a, p in
                              zip(node.actions, node.strategy, strict=True) if p >= 0.005],
                     "theirs": [(C.CARD_NAMES[a], p) for a, p in
                                zip(node.actions1, node.strategy1, strict=True) if p >= 0.005]})
    cached = sweep.load_results(None, 6, 7, war=False)
    openings = []
    for pairing in (("Squire", "Archer"), ("Maiden", "Wolf"), ("Standard-Bearer", "Sentinel"),
                    ("Royal Guard", "Inquisitor")):
        data = cached.get(pairing)
        if data is not None:
            openings.append({"pairing": pairing, "value": data.battle["value"],
                             "p0": list(data.battle["opening0"].items()),
                             "p1": list(data.battle["opening1"].items())})
    return fill("cobardes/appendix/mixing.md.j2", army=army_text(spec), exact=EXACT,
                positions=rows, openings=openings)
