"""Each game's parameter values and limits are written once, by the game that owns them.

Every other module, the command line and the explorer read them from there: a grep of
the code base (``games/``, ``analysis/`` and the explorer's page) finds each listed fact
in its owner's file only, and the literals that used to copy it nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.cobardes import cards as cobardes_cards
from games.cobardes import options as cobardes_options
from games.cobardes import packed
from games.coup import cards as coup_cards
from games.goat_lords import rules as goat_rules

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("games/**/*.py", "analysis/**/*.py", "analysis/explore/page/*")

# (fact, pattern of its definition or of a copy, the one file allowed to hold it or None)
FACTS = (
    ("Coup's deck names", r"""["']ambassador["']\s*,\s*["']inquisitor["']""",
     "games/coup/cards.py"),
    ("Coup's 2-player setups", r"""["']basic["']\s*,\s*["']standard["']""",
     "games/coup/cards.py"),
    ("Coup's player counts", r"\bMAX_PLAYERS\s*=\s*(2,\s*)?8\b", "games/coup/cards.py"),
    ("Coup's player counts, copied", r"range\(2,\s*\w+\.MAX_PLAYERS|int_in\(2,", None),
    ("Goat Lords' player counts", r"\bMAX_PLAYERS\s*=\s*6\b", "games/goat_lords/rules.py"),
    ("¡Cobardes!'s combats limit", r"\bMAX_COMBATS\s*=", "games/cobardes/cards.py"),
    ("¡Cobardes!'s combats limit, copied", r"""combats["']?\s*(:\s*int\s*)?[=:,]\s*7\b"""
     r"|combats\s*<=\s*7\b|\(1,\s*7\)|max=\"7\"", None),
    ("the packed solver's combats ceiling", r"\bMAX_PACKED_COMBATS\s*=",
     "games/cobardes/packed.py"),
    ("the packed solver's ceiling, copied", r"<=\s*30\b", None),
    ("¡Cobardes!'s highest warrior", r"\bMAX_WARRIOR\s*=", "games/cobardes/cards.py"),
    ("¡Cobardes!'s highest warrior, copied", r"""warriors["']?\s*(:\s*int\s*)?[=:,]\s*6\b"""
     r"|k\s*<=\s*6\b|\[0, 1, 2, 3, 4, 5, 6\]", None),
    ("the comma-list reader (command line, explorer, typed positions)",
     r"""\.split\(\s*["'],["']\s*\)""", "analysis/shared/lists.py"),
)


def holders(pattern: str, root: Path = ROOT) -> set[str]:
    """The files (relative to ``root``) in which ``pattern`` occurs."""
    found = set()
    for glob in SOURCES:
        for path in root.glob(glob):
            if path.is_file() and re.search(pattern, path.read_text(errors="replace")):
                found.add(str(path.relative_to(root)))
    return found


@pytest.mark.parametrize(("fact", "pattern", "owner"), FACTS, ids=[f[0] for f in FACTS])
def test_each_fact_is_defined_once(fact, pattern, owner):
    assert holders(pattern) == ({owner} if owner else set()), fact


def test_the_grep_sees_a_copy(tmp_path):
    """A second definition is named (the check is not vacuous)."""
    for relative in ("games/coup/cards.py", "analysis/coup/study.py"):
        path = tmp_path / relative
        path.parent.mkdir(parents=True)
        path.write_text('DECKS = ("ambassador", "inquisitor")\n')
    assert holders(FACTS[0][1], tmp_path) == {"games/coup/cards.py", "analysis/coup/study.py"}


def test_the_owners_values_and_reasons_agree():
    """The values the owners state, and the one limit that must sit inside another."""
    assert coup_cards.DECKS == ("ambassador", "inquisitor")
    assert coup_cards.SETUPS == ("basic", "standard", "draft")
    assert coup_cards.DEALT_SETUPS == ("basic", "standard")
    assert tuple(range(2, 9)) == coup_cards.PLAYER_COUNTS
    assert (goat_rules.MIN_PLAYERS, goat_rules.MAX_PLAYERS) == (2, 6)
    assert cobardes_cards.MAX_COMBATS == 7 and cobardes_cards.MAX_WARRIOR == 6
    # Every battle the rules allow fits the packed solver.
    assert cobardes_cards.MAX_COMBATS <= packed.MAX_PACKED_COMBATS
    defaults = cobardes_options.BATTLE_DEFAULTS
    assert (defaults["combats"], defaults["warriors"]) == (7, 6)
