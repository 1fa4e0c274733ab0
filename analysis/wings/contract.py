"""What the command line, the explorer, the what-if and the reports need from a game's
wing (``analysis/<game>/``), in one record per game: :class:`Wing`.

A wing is registered once (:mod:`analysis.wings`); the layers above find everything of
a game through it, never by naming the game: its agents and coaches (importing
``registers`` registers them), its what-if, its command name, its table sizes. What
a layer above writes for a game of its own (a report's sections, an explorer page) sits
in that layer, in a module named after the wing's ``key``
(``analysis/report/<key>/``, ``analysis/report/guides/<key>/``,
``analysis/explore/games/<key>.py``), found through the wing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from analysis.play.whatif import WhatIf, WhatIfRequest
from games.errors import InvalidParameterError


@dataclass(frozen=True)
class Wing:
    """One game's wing as the layers above see it.

    ``key``: the catalog family's key, and the name of the game's folders (data,
    reports, explorer page); ``command``: its name on the command line
    (``farol whatif goat-lords``); ``title``: its name in a sentence (``Goat Lords``); ``whatif_game``: the OpenSpiel game a what-if varies;
    ``whatif``: the what-if's study, request in, answer out; ``players``: the table
    sizes the what-if takes (``None``: two players, no choice) and ``default_players``
    the one it plays when none is asked; ``agents``: the package of its bots (``BOTS``,
    the table from a name to its module); ``registers``: the modules whose import
    registers its bots and ``farol play`` coaches.
    """

    key: str
    command: str
    title: str
    whatif_game: str
    whatif: Callable[[WhatIfRequest], WhatIf]
    agents: ModuleType
    registers: tuple[ModuleType, ...]
    players: tuple[int, int] | None = None
    default_players: int | None = None
    whatif_agents: str = ""   # the what-if's agents, as its --help says them

    def check_players(self, players: int | None) -> None:
        """A table size the what-if cannot play is refused in one line."""
        if players is None:
            return
        low, high = self.players or (2, 2)
        if not low <= players <= high:
            sizes = f"{low}" if low == high else f"{low} to {high}"
            raise InvalidParameterError(f"--players: {self.title} takes {sizes} players, "
                                        f"not {players}")
