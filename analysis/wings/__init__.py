"""The games' wings, each registered once: the one place that names every game for the
layers above (the command line, the explorer, the reports). Adding a game is adding its
:class:`~.contract.Wing` here (with its own modules in the layers above, named after its
key). Importing this package registers every game's bots and coaches.
"""

from __future__ import annotations

from analysis.wings import cobardes, coup, goat_lords
from analysis.wings.contract import Wing
from games.errors import InvalidParameterError

# In the order the command line and the reports list the games.
WINGS: tuple[Wing, ...] = (cobardes.WING, coup.WING, goat_lords.WING)


def wing(key: str) -> Wing:
    """The wing of the catalog family ``key`` (``goat_lords``)."""
    for w in WINGS:
        if w.key == key:
            return w
    raise InvalidParameterError(f"no game {key!r}; choose {', '.join(w.key for w in WINGS)}")


def by_command(name: str) -> Wing:
    """The wing named ``name`` on the command line (``goat-lords``)."""
    for w in WINGS:
        if w.command == name:
            return w
    raise InvalidParameterError(f"no game {name!r}; choose "
                                f"{', '.join(w.command for w in WINGS)}")


__all__ = ["WINGS", "Wing", "by_command", "wing"]
