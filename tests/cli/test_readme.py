"""The README says what ``farol`` does: the Coup agents it lists are the ones ``farol coup
match`` takes, and ``best`` is named for what it stands for at each table."""

from __future__ import annotations

import re
from pathlib import Path

from analysis.cli import bots
from analysis.cli.coup import ENDGAME_ONLY
from analysis.coup.agents.best import agent_name, best_kind
from analysis.coup.model import GAME

README = Path(__file__).resolve().parents[2] / "README.md"


def _coup_agents_paragraph() -> str:
    text = " ".join(README.read_text(encoding="utf-8").split())
    start = text.index("Coup's agents:")
    return text[start:text.index("Goat Lords takes one", start)]


def test_the_readme_lists_every_coup_agent_a_match_takes_and_no_other():
    paragraph = _coup_agents_paragraph()
    listed = set(re.findall(r"`([a-z][a-z-]*)`", paragraph))
    names = {spec.name for spec in bots.bots_for(GAME) if spec.name not in ENDGAME_ONLY}
    assert listed == names, (names - listed, listed - names)


def test_the_readme_says_what_best_is_at_each_table():
    paragraph = _coup_agents_paragraph()
    two, more = agent_name(best_kind(2)), agent_name(best_kind(4))
    assert f"`{two}` at 2 players" in paragraph and f"`{more}` at 3 to 8" in paragraph
