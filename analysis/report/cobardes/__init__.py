"""Report sections for ¡Cobardes!: solved battles, courtier and villain matchups, the war
by score and with renewal, the rulebook's tips, mixing, hidden villains and the
abstraction's measured loss.

Heavy results are read from the data folder's ``cobardes`` (sweeps, loss measurements)
and the benchmarks' results; the rest is solved while the report is written. Every
number comes with its solver, iterations and exploitability.
"""

from __future__ import annotations

from analysis.report.cobardes.courtiers import courtier_section, war_section
from analysis.report.cobardes.hidden_villains import hidden_section, villain_section
from analysis.report.cobardes.renewal_war import renewal_section
from analysis.report.cobardes.summary import method_section, summary_section
from analysis.report.cobardes.warriors import mixing_section, tips_section, warriors_section

SECTIONS = tuple(enumerate((summary_section, method_section, warriors_section, tips_section,
                           courtier_section, war_section, renewal_section, villain_section,
                           hidden_section, mixing_section), start=60))
