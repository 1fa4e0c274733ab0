"""The Coup benchmarks' last recorded lines."""

from __future__ import annotations

from pathlib import Path

from analysis.report.context import ReportContext
from analysis.report.templating import fill

BENCHMARK = Path("benchmarks/results/coup_endgames.txt")


BRACKET_BENCHMARK = Path("benchmarks/results/coup_endgames_brackets.txt")


WALK_BENCHMARK = Path("benchmarks/results/coup_walk.txt")


def _read_benchmark(path: Path) -> str | None:
    """A committed benchmark output, stripped, or ``None`` when it has not been run."""
    try:
        return path.read_text().strip()
    except OSError:
        return None


def section_benchmark(ctx: ReportContext) -> str:
    return fill("coup/appendix/benchmark.md.j2", endgames=_read_benchmark(BENCHMARK),
                brackets=_read_benchmark(BRACKET_BENCHMARK),
                walk=_read_benchmark(WALK_BENCHMARK))
