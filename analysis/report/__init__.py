"""Strategy reports: one Markdown file per ruleset plus PNG charts, and an index.

A report is a list of sections (:mod:`analysis.report.context`): every ruleset gets the
base sections (:mod:`analysis.report.base`: rules summary, parameters, sizes, random
play), then its own, in the table of :mod:`analysis.report.write`.
"""

from __future__ import annotations

from analysis.report.context import ReportContext, Section, quick_mode

__all__ = ["ReportContext", "Section", "quick_mode"]
