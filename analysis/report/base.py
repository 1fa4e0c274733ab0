"""The sections every ruleset report starts with: rules, parameters, sizes, random play."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from analysis.play.gametree import TreeTooLargeError, count_tree
from analysis.play.simulate import random_playouts
from analysis.report.context import ReportContext
from analysis.report.templating import fill
from analysis.shared.params import game_parameter_spec, load_game


def rules_section(ctx: ReportContext) -> str:
    fam = ctx.family
    return fill("base/rules.md.j2", summary=fam.summary.strip(), rules_doc=fam.rules_doc)


def parameters_section(ctx: ReportContext) -> str:
    return fill("base/parameters.md.j2", games=[
        {"name": entry.name, "title": entry.title,
         "spec": sorted(game_parameter_spec(entry.name).items())} for entry in ctx.family.games])


def sizes_section(ctx: ReportContext) -> str:
    rows = []
    for entry in ctx.family.games:
        for label, params in entry.small_variants:
            game = load_game(entry.name, params)
            try:
                size = count_tree(game, max_nodes=200_000 if ctx.quick else 3_000_000)
            except TreeTooLargeError as exc:
                rows.append({"name": entry.name, "label": label, "too_large": str(exc)})
                continue
            rows.append({"name": entry.name, "label": label, "too_large": "", "size": size})
    return fill("base/sizes.md.j2", rows=rows) if rows else ""


def random_play_section(ctx: ReportContext) -> str:
    n_games = 200 if ctx.quick else 2000
    seed = 20261130
    rows = []
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for entry in ctx.family.games:
        game = load_game(entry.name)
        playouts = random_playouts(game, n_games, seed)
        moves = np.array([p.moves for p in playouts])
        mean_returns = np.mean([p.returns for p in playouts], axis=0)
        lo, hi = np.percentile(moves, [5, 95])
        rows.append({"name": entry.name, "median": np.median(moves), "lo": lo, "hi": hi,
                     "returns": list(mean_returns)})
        ax.hist(moves, bins=30, alpha=0.6, label=entry.name)
    ax.set_xlabel("decision moves per game")
    ax.set_ylabel("games")
    ax.set_title(f"{ctx.family.title}: game length under random play")
    ax.legend(fontsize=8)
    path = ctx.save_figure(fig, "random_play_length")
    plt.close(fig)
    return fill("base/random_play.md.j2", games=n_games, seed=seed, rows=rows, chart=path)


SECTIONS = (
    (10, rules_section),
    (20, parameters_section),
    (30, sizes_section),
    (40, random_play_section),
)
