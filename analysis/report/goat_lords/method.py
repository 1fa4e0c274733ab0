"""How the Goat Lords numbers were measured: the bots, the seeds, the intervals."""

from __future__ import annotations

from analysis.goat_lords.studies.plan import budget
from analysis.goat_lords.studies.tournament import Experiment, csv_folder
from analysis.report.context import ReportContext
from analysis.shared import store
from games.goat_lords.cards import DEFAULT_VALUES, KINDS


def method_section(ctx: ReportContext) -> str:
    b = budget(ctx.quick)
    seed = Experiment("x", 2, ("greedy",) * 2, 1).seed
    values = ", ".join(f"{k.name} {v}" for k, v in zip(KINDS, DEFAULT_VALUES, strict=True))
    return (
        "## Bots and how the numbers were measured\n\n"
        "Every game below is one round with the alternative scoring (`scoring=single`: most "
        "herd points wins; ties share the win). Bots:\n\n"
        "- **random** — uniformly random legal actions.\n"
        "- **greedy** — sees only its hand and the public table: duels for the richest top pile "
        "it can attack (duels swing points twice), otherwise banks its most valuable pair (a "
        "wild costs it 10 points of preference); in a duel it answers while it can, goats "
        "before wilds; discards its cheapest card.\n"
        f"- **MCTS** — OpenSpiel's `MCTSBot` ({b.simulations} simulations per move, UCT c=2, one "
        "random roll-out per leaf) on the **full state**: it sees every hand and the order-free "
        "draw pile, so it **cheats**. A yardstick only.\n"
        f"- **ISMCTS** — OpenSpiel's `ISMCTSBot` ({b.simulations} simulations, same evaluator), "
        "which searches worlds resampled from its own information state with the game's "
        "`resample_from_infostate` (other hands and the draw pile dealt again at random): fair.\n\n"
        f"Game *i* of an experiment is seeded from the experiment seed **{seed}** and *i*; "
        f"results are cached in `{store.shown(csv_folder(ctx.quick))}/goat_lords_*.csv` and a rerun only plays missing "
        "games. Intervals are 95%: Wilson intervals for rates, normal intervals for means. "
        f"Point values (an assumption, see the rulings): {values}."
        + ("\n\n*Quick mode (`FAROL_QUICK`): tiny budgets, the numbers are noise.*" if ctx.quick else "")
    )
