"""The sections every ruleset report starts with: rules, parameters, sizes, random play."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.play.gametree import TreeTooLargeError, count_tree
from analysis.play.simulate import random_playouts
from analysis.report.context import ReportContext
from analysis.shared.params import game_parameter_spec, load_game


def rules_section(ctx: ReportContext) -> str:
    fam = ctx.family
    return (
        "## The rules in brief\n\n"
        f"{fam.summary.strip()}\n\n"
        f"Rulings on ambiguous points: [{fam.rules_doc}](../{fam.rules_doc})."
    )


def parameters_section(ctx: ReportContext) -> str:
    lines = ["## Games and parameters\n"]
    for entry in ctx.family.games:
        lines.append(f"### `{entry.name}` — {entry.title}\n")
        spec = game_parameter_spec(entry.name)
        if not spec:
            lines.append("No parameters.\n")
            continue
        lines.append("| parameter | default |\n|---|---|")
        lines += [f"| `{key}` | `{value!r}` |" for key, value in sorted(spec.items())]
        lines.append("")
    return "\n".join(lines)


def sizes_section(ctx: ReportContext) -> str:
    rows = []
    for entry in ctx.family.games:
        for label, params in entry.small_variants:
            game = load_game(entry.name, params)
            try:
                size = count_tree(game, max_nodes=200_000 if ctx.quick else 3_000_000)
            except TreeTooLargeError as exc:
                rows.append(f"| `{entry.name}` | {label} | {exc} | | |")
                continue
            infosets = " / ".join(f"{n:,}" for n in size.infosets)
            rows.append(
                f"| `{entry.name}` | {label} | {size.histories:,} | {size.terminals:,} "
                f"| {infosets} |"
            )
    if not rows:
        return ""
    return (
        "## How big the games are\n\n"
        "Exhaustive walks of small variants (every history of the perfect-recall tree; "
        "information sets counted per player from the information-state strings).\n\n"
        "| game | variant | histories | terminal histories | information sets (per player) |\n"
        "|---|---|---|---|---|\n" + "\n".join(rows)
    )


def random_play_section(ctx: ReportContext) -> str:
    n_games = 200 if ctx.quick else 2000
    seed = 20261130
    lines = [
        "## Random play\n",
        f"{n_games} games per game with every seat playing uniformly at random "
        f"(seed {seed}): how long games last and how returns fall by seat. "
        "A baseline, not strategy: it shows the engine plays full games.\n",
        "| game | moves (median) | moves (5%–95%) | mean return by seat |",
        "|---|---|---|---|",
    ]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for entry in ctx.family.games:
        game = load_game(entry.name)
        playouts = random_playouts(game, n_games, seed)
        moves = np.array([p.moves for p in playouts])
        mean_returns = np.mean([p.returns for p in playouts], axis=0)
        lo, hi = np.percentile(moves, [5, 95])
        seats = ", ".join(f"{r:+z.3f}" for r in mean_returns)
        lines.append(f"| `{entry.name}` | {np.median(moves):z.0f} | {lo:z.0f}–{hi:z.0f} | {seats} |")
        ax.hist(moves, bins=30, alpha=0.6, label=entry.name)
    ax.set_xlabel("decision moves per game")
    ax.set_ylabel("games")
    ax.set_title(f"{ctx.family.title}: game length under random play")
    ax.legend(fontsize=8)
    path = ctx.save_figure(fig, "random_play_length")
    plt.close(fig)
    lines.append(f"\n![Game length under random play]({path})")
    return "\n".join(lines)


SECTIONS = (
    (10, rules_section),
    (20, parameters_section),
    (30, sizes_section),
    (40, random_play_section),
)
