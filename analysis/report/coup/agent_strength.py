"""How strong ``best`` is at 2 players: its win rate against each opponent, in every deck
and setup, from the committed benchmark (``benchmarks/coup_belief_agent.py --agent
resolve``), and the lines not measured yet."""

from __future__ import annotations

import json

from analysis.report.context import ReportContext
from analysis.report.facts.coup import records as R
from analysis.report.templating import fill
from games.coup import cards as C

# The opponents every deck and setup is measured against, and the games a line needs.
PANEL = ("honest", "bluffer", "search", "blueprint")
FULL_LINE = 1000


def strength_text(agent: str = "resolve") -> str:
    """The section's text: one table row a measured line, then what is still missing."""
    path = R.BENCHMARKS / R.MEASURED[agent]
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return fill("coup/appendix/agent_strength.md.j2", matches=None, agent=agent)
    matches = data["matches"]
    full = [x for x in matches if x["games"] >= FULL_LINE]
    done = {(x["deck"], x["setup"], x["opponent"]) for x in full}
    missing = [f"{deck} {setup} vs {opponent}" for deck in C.DECKS for setup in C.SETUPS
               for opponent in PANEL if (deck, setup, opponent) not in done]
    return fill("coup/appendix/agent_strength.md.j2", matches=matches, full_line=FULL_LINE,
                full=len(full), below=len([x for x in full if not x["above_half"]]),
                missing=missing, needs_blueprint=any("blueprint" in m for m in missing))


def section_agent_strength(ctx: ReportContext) -> str:
    return "## Coup, 2 players: the agent's strength\n\n" + strength_text()
