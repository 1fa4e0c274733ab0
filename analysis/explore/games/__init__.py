"""Each game's page in the explorer, one module per game named after its wing's key
(:mod:`analysis.wings`), each exposing ``PAGE`` (:class:`~analysis.explore.common.Page`).
"""

from __future__ import annotations

import importlib

from analysis.explore.common import Page
from analysis.wings import WINGS

PAGES: dict[str, Page] = {
    wing.key: importlib.import_module(f"analysis.explore.games.{wing.key}").PAGE
    for wing in WINGS
}
