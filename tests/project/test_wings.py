"""Each game is registered once, as a wing (analysis/wings/), and the command line, the
explorer and the reports find everything of a game through it, with no branch per game."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import games  # noqa: F401  (registers the games)
from analysis.cli import main
from analysis.play import bots
from analysis.wings import WINGS, by_command, wing
from games import catalog
from games.errors import InvalidParameterError

ROOT = Path(__file__).resolve().parents[2]
# The dispatchers: they name no game and import no game's wing.
DISPATCHERS = ("analysis/cli/whatif.py", "analysis/cli/bots.py", "analysis/explore/spots.py",
               "analysis/report/write.py", "analysis/report/guides/write.py")
GAME_PACKAGES = ("analysis.coup", "analysis.cobardes", "analysis.goat_lords")


def game_words(path: Path) -> list[str]:
    """Each string literal naming a game and each import of a game's wing in ``path``."""
    found = []
    keys = {w.key for w in WINGS} | {w.command for w in WINGS}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and node.value in keys:
            found.append(f"{path.name}:{node.lineno}: {node.value!r}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            found += [f"{path.name}:{node.lineno}: import {n}" for n in names
                      if n.startswith(GAME_PACKAGES)]
    return found


@pytest.mark.parametrize("relative", DISPATCHERS)
def test_the_dispatchers_name_no_game(relative):
    assert game_words(ROOT / relative) == []


def test_the_check_sees_a_branch_per_game(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('from analysis.coup.studies import whatif\nif game == "goat-lords":\n    pass\n')
    assert game_words(bad) == ["bad.py:1: import analysis.coup.studies",
                               "bad.py:2: 'goat-lords'"]


def test_every_game_of_the_catalog_has_one_wing():
    assert sorted(w.key for w in WINGS) == sorted(f.key for f in catalog.families())
    assert len({w.command for w in WINGS}) == len(WINGS)
    for w in WINGS:
        assert wing(w.key) is w and by_command(w.command) is w
    with pytest.raises(InvalidParameterError, match="no game 'chess'"):
        by_command("chess")


@pytest.mark.parametrize("w", WINGS, ids=lambda w: w.key)
def test_a_wing_finds_its_pages_reports_and_bots_by_its_key(w):
    assert importlib.import_module(f"analysis.report.{w.key}").SECTIONS
    assert importlib.import_module(f"analysis.report.guides.{w.key}").GUIDE.key == w.key
    page = importlib.import_module(f"analysis.explore.games.{w.key}").PAGE
    assert page.game.key == w.key
    named = {b.name for b in bots.bots_for(page.game.name)}
    assert set(w.agents.BOTS) <= named and "best" in named


def test_whatif_refuses_a_table_its_game_does_not_play(capsys):
    """Goat Lords takes 2 to 6 players (games/goat_lords/rules.py); the ¡Cobardes! war, two."""
    assert main(["whatif", "goat-lords", "--players", "9"]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "--players: Goat Lords takes 2 to 6 players, not 9")
    assert main(["whatif", "cobardes", "--players", "3"]) == 2
    assert "¡Cobardes! takes 2 players, not 3" in capsys.readouterr().err
    assert main(["whatif", "cobardes", "--skill-players", "2"]) == 2
    assert "leave --skill-players out" in capsys.readouterr().err
