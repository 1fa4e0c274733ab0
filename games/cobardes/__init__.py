"""¡Cobardes! (Tranjis Games, 2017) as OpenSpiel games: one battle, and the war.

Importing this package registers ``python_cobardes_battle`` and
``python_cobardes_war`` with OpenSpiel and the ``cobardes`` family in the catalog.
"""

from __future__ import annotations

from games.cobardes import battle, war  # noqa: F401  (register the two games)
from games.cobardes.catalog_entry import register

register()
