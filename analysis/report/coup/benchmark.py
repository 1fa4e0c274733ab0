"""The Coup benchmarks' last recorded lines."""

from __future__ import annotations

from pathlib import Path

from analysis.report.context import ReportContext

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
    lines = ["## Benchmark\n"]
    text = _read_benchmark(BENCHMARK)
    if text is None:
        return "\n".join(lines + ["Not run yet: `python benchmarks/coup_endgames.py`."])
    lines += ["The largest 1v1 endgame solved with the cap scoring 0 (`benchmarks/coup_endgames.py`, "
              "compiled through OpenSpiel states before the walker existed):", "", "```", text,
              "```", ""]
    brackets = _read_benchmark(BRACKET_BENCHMARK)
    if brackets:
        lines += ["The largest endgames bracketed, the last the largest solved "
                  "(`benchmarks/coup_endgames.py --bracket`, or `--record` for a record a "
                  "sweep stored: one compile through Coup's walker, two CFR+ solves with the "
                  "cap paying -1 and +1 or the Markov guarantees, exact best response for the "
                  "bounds):", "", "```", brackets, "```", ""]
    walk = _read_benchmark(WALK_BENCHMARK)
    if walk:
        lines += ["Compile rates, OpenSpiel State walk against Coup's walker "
                  "(`benchmarks/coup_walk.py`; the machine is shared, the Kuhn line is its "
                  "speed at the time):", "", "```", walk, "```", ""]
    return "\n".join(lines)
