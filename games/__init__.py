"""Farol's games, registered with OpenSpiel on import.

``import games`` registers every ruleset of the project, after which
``pyspiel.load_game("python_coup")`` (and the others) work. The catalog
(:mod:`games.catalog`) lists them for the CLI, the reports and the tests.
"""

from __future__ import annotations

# One module per ruleset; each registers its OpenSpiel games and its catalog family.
# The catalog lists the families in this import order (reports, `farol games`).
# isort: off
from games import cobardes, goat_lords, coup  # noqa: F401
# isort: on
from games.catalog import entries, families

__all__ = ["entries", "families"]
