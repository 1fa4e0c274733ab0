"""Report sections for Coup (``farol report coup``): solved endgames, brackets, bluffing, balance.

The sections read what the Coup sweeps stored in the data folder (committed); they
never solve, so the report is fast. A section whose data is missing says how to
produce it. One module per question; :data:`SECTIONS` lists them in report order.
"""

from __future__ import annotations

from analysis.report.coup.agent_strength import section_agent_strength
from analysis.report.coup.balance import section_balance
from analysis.report.coup.benchmark import section_benchmark
from analysis.report.coup.beyond_cap import section_abstraction, section_memory_keys
from analysis.report.coup.bluffing import section_bluffing, section_priced_bluffing
from analysis.report.coup.brackets import section_brackets, section_markov_brackets
from analysis.report.coup.endgames import (
    section_cap3,
    section_endgames,
    section_revealed,
    section_turn_cap,
)
from analysis.report.coup.findings import section_findings
from analysis.report.coup.from_the_deal import section_from_the_deal
from analysis.report.coup.full_game import section_full_game
from analysis.report.coup.larger import section_larger
from analysis.report.coup.revealed import section_revealed_brackets

SECTIONS = (
    (105, section_findings),
    (106, section_agent_strength),
    (107, section_from_the_deal),
    (110, section_endgames),
    (113, section_cap3),
    (115, section_revealed),
    (120, section_turn_cap),
    (125, section_brackets),
    (126, section_markov_brackets),
    (126, section_revealed_brackets),
    (127, section_abstraction),
    (128, section_memory_keys),
    (130, section_bluffing),
    (131, section_priced_bluffing),
    (140, section_balance),
    (145, section_full_game),
    (150, section_larger),
    (160, section_benchmark),
)
