"""The Goat Lords tournaments a report reads: the plan played (or loaded) once per report."""

from __future__ import annotations

from analysis.goat_lords.studies.plan import PlanResults, run_plan
from analysis.goat_lords.studies.statistics import extra_wild_effect
from analysis.goat_lords.studies.tournament import csv_folder
from analysis.report.context import ReportContext

_RESULTS: dict[tuple[str, bool], PlanResults] = {}


def results(ctx: ReportContext) -> PlanResults:
    """The plan's results for this report (played once, then read from the data folder's CSVs)."""
    key = (str(csv_folder(ctx.quick)), ctx.quick)
    if key not in _RESULTS:
        _RESULTS[key] = run_plan(ctx.quick)
    return _RESULTS[key]


def extra_wild_rows(res: PlanResults, label: str | None = None) -> list[tuple[int, dict]]:
    """Effect of one more wild per player count, each extra-wild experiment against the seat
    table of its label (the all-greedy tables of the greedy plan; the scoring in the strong
    one); ``label`` keeps the experiments of one label only."""
    controls = {(e.label, e.players): df for e, df in res["seats"] if not df.empty}
    return [(exp.players, extra_wild_effect(df, controls[exp.label, exp.players], exp.players))
            for exp, df in res.get("extra_wild", [])
            if not df.empty and (exp.label, exp.players) in controls
            and label in (None, exp.label)]
