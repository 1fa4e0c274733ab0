"""How the Goat Lords numbers were measured: the bots, the seeds, the intervals."""

from __future__ import annotations

from analysis.goat_lords.studies.plan import budget
from analysis.goat_lords.studies.tournament import Experiment, csv_folder
from analysis.report.context import ReportContext
from analysis.report.templating import fill
from analysis.shared import store
from games.goat_lords.cards import DEFAULT_VALUES, KINDS


def method_section(ctx: ReportContext) -> str:
    return fill("goat_lords/appendix/method.md.j2",
                simulations=budget(ctx.quick).simulations,
                seed=Experiment("x", 2, ("greedy",) * 2, 1).seed,
                folder=store.shown(csv_folder(ctx.quick)),
                values=[(k.name, v) for k, v in zip(KINDS, DEFAULT_VALUES, strict=True)],
                quick=ctx.quick)
