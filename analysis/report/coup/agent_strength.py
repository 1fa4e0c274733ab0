"""How strong ``best`` is at 2 players: its win rate against each opponent, in every deck
and setup, from the committed benchmark (``benchmarks/coup_belief_agent.py --agent
resolve``), and the lines not measured yet."""

from __future__ import annotations

import json

from analysis.report.context import ReportContext
from analysis.report.guides.coup import records as R
from games.coup import cards as C

# The opponents every deck and setup is measured against, and the games a line needs.
PANEL = ("honest", "bluffer", "search", "blueprint")
FULL_LINE = 1000


def strength_lines(agent: str = "resolve") -> list[str]:
    """The section's lines: one table row a measured line, then what is still missing."""
    lines = ["### How strong the 2-player agent is, deck by deck\n"]
    path = R.BENCHMARKS / R.MEASURED[agent]
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return lines + [f"Not measured yet: run `python benchmarks/coup_belief_agent.py "
                        f"--agent {agent}`.", ""]
    matches = data["matches"]
    lines += [f"The re-solving agent (`best` at 2 players) against each opponent, each deal "
              f"played from both seats; its win rate with a 95% interval over deals. Lines "
              f"of fewer than {FULL_LINE:,} games are shorter checks.\n",
              "| deck | setup | opponent | games | win rate | interval wholly above 50% |",
              "|---|---|---|---|---|---|"]
    for x in matches:
        lo, hi = x["ci95"]
        lines.append(f"| {x['deck']} | {x['setup']} | {x['opponent']} | {x['games']:,} | "
                     f"{100 * x['win_rate']:z.1f}% [{100 * lo:z.1f}, {100 * hi:z.1f}] | "
                     f"{'yes' if x['above_half'] else 'no'} |")
    full = [x for x in matches if x["games"] >= FULL_LINE]
    done = {(x["deck"], x["setup"], x["opponent"]) for x in full}
    missing = [f"{deck} {setup} vs {opponent}" for deck in C.DECKS for setup in C.SETUPS
               for opponent in PANEL if (deck, setup, opponent) not in done]
    below = [x for x in full if not x["above_half"]]
    lines += ["", f"Of the {len(full)} lines of {FULL_LINE:,} games or more, "
              f"{len(full) - len(below)} lie wholly above 50%.", ""]
    if missing:
        lines.append(f"Not measured yet with {FULL_LINE:,} games: {', '.join(missing)}"
                     + (" (the blueprint opponent needs its strategy built first: `farol "
                        "coup blueprint build --deck ...`)" if any("blueprint" in m for m in missing)
                        else "") + ".")
    return lines + [""]


def section_agent_strength(ctx: ReportContext) -> str:
    return "\n".join(["## Coup, 2 players: the agent's strength\n"] + strength_lines())
