"""Larger endgames: 2v1, 1v2 and 2v2, as far as they fit."""

from __future__ import annotations

from analysis.coup.solvers.endgames import SOLVER
from analysis.coup.studies import larger
from analysis.report.context import ReportContext
from analysis.report.facts.coup.readers import markov_tightest
from analysis.report.templating import fill, render


def larger_bullet() -> list[str]:
    """The findings line on two cards against one, from the 2v1/1v2 Markov brackets."""
    rows = larger.load_markov_rows()
    if not rows:
        return []
    tight = markov_tightest(rows, lambda r: (r.case, r.deck, r.position))
    two = [v for (case, _, _), v in tight.items() if case == "2v1"]
    one = [v for (case, _, _), v in tight.items() if case == "1v2"]
    if not two or not one:
        return []
    return [render("coup/appendix/larger_bullet.md.j2", two_least=min(lo for lo, _, _ in two),
                   one_most=max(hi for _, hi, _ in one))]


def section_larger(ctx: ReportContext) -> str:
    try:
        rows = larger.load_rows()
    except FileNotFoundError:  # not run yet; a damaged file is refused naming it
        return fill("coup/appendix/larger.md.j2", rows=None)
    shown = []
    for r in sorted(rows.values(), key=lambda r: (r.deck, r.position, r.turn_cap)):
        solved = r.status == "solved"
        shown.append({
            "row": r, "solved": solved,
            "tree_s": ((r.tree_compile_seconds or 0) + (r.tree_solve_seconds or 0))
            if solved else None,
            "graph_s": ((r.graph_compile_seconds or 0) + (r.graph_solve_seconds or 0))
            if r.graph_nodes is not None else None})
    return fill("coup/appendix/larger.md.j2", rows=shown, markov="\n".join(larger_markov()))


def larger_markov() -> list[str]:
    """The 2v1 and 1v2 uncapped values, bracketed with the cap priced by Markov guarantees."""
    rows = larger.load_markov_rows()
    if not rows:
        return [fill("coup/appendix/larger_markov.md.j2", rows=None).rstrip("\n") + "\n"]
    tight = {k: (lo, hi) for k, (lo, hi, _) in markov_tightest(
        rows, lambda r: (r.deck, r.case, r.position)).items()}
    return [fill("coup/appendix/larger_markov.md.j2",
                 rows=sorted(rows.values(), key=lambda r: (r.deck, r.position, r.turn_cap)),
                 tight=sorted(tight.items()), widths=[hi - lo for lo, hi in tight.values()],
                 two_favoured=all(lo > 0.5 if case == "2v1" else hi < 0.5
                                  for (_, case, _), (lo, hi) in tight.items()),
                 solver=SOLVER).rstrip("\n") + "\n"]
