"""Farol's games, registered with OpenSpiel on import.

``import games`` registers every ruleset of the project, after which
``pyspiel.load_game("python_coup")`` (and the others) work. The catalog
(:mod:`games.catalog`) lists them for the CLI, the reports and the tests.
"""

from __future__ import annotations

import importlib

# One module per ruleset; each registers its OpenSpiel games and its catalog family.
_RULESETS = (
    "games.cobardes",
    "games.goat_lords",
    "games.coup",
)

for _module in _RULESETS:
    importlib.import_module(_module)

from games.catalog import entries, families  # noqa: E402

__all__ = ["entries", "families"]
