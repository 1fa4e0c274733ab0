"""The Goat Lords report's sections, in order (the base sections come first)."""

from __future__ import annotations

from analysis.report.goat_lords.method import method_section
from analysis.report.goat_lords.rounds import duel_section, length_section
from analysis.report.goat_lords.seats import seat_section
from analysis.report.goat_lords.sensitivity import sensitivity_section
from analysis.report.goat_lords.strength import matchup_section
from analysis.report.goat_lords.strong import strong_section
from analysis.report.goat_lords.summary import summary_section
from analysis.report.goat_lords.wilds import wild_section

SECTIONS = (
    (55, summary_section),
    (60, method_section),
    (61, seat_section),
    (62, matchup_section),
    (63, wild_section),
    (64, duel_section),
    (65, length_section),
    (66, sensitivity_section),
    (67, strong_section),
)
