"""The command line's one vocabulary for lists and game parameters.

Every option that takes several values takes them as one comma list (``--decks
ambassador,inquisitor``), read by :func:`comma_list` (:mod:`analysis.shared.lists`, which the explorer reads
too); game parameters are given as
``--param K=V``, repeated for each. An option that used to be spelled otherwise keeps
working through :func:`old_spelling`, which says the new spelling in one line on stderr.
"""

from __future__ import annotations

import argparse
import sys

from analysis.shared.lists import comma_list

__all__ = ["add_param_argument", "comma_list", "old_spelling"]


def add_param_argument(parser: argparse.ArgumentParser, help: str = "game parameter") -> None:
    """``--param K=V`` (repeatable), and the older ``--params K=V,...`` for the same list."""
    parser.add_argument("--param", action="append", default=[], metavar="K=V",
                        help=f"{help} (repeat it for each parameter)")
    parser.add_argument("--params", dest="param", metavar="K=V,...", help=argparse.SUPPRESS,
                        action=old_spelling("--param K=V (repeat it for each parameter)",
                                            split=True))


def old_spelling(new: str, split: bool = False) -> type[argparse.Action]:
    """An argparse action for an option's former spelling: it stores the value as the
    new option would (``split``: a comma list appended item by item to the new option's
    list) and says the new spelling in one line on stderr."""

    class OldSpelling(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            print(f"farol: {option_string} is now spelled {new}", file=sys.stderr)
            if split:
                items = comma_list(option_string, values, empty_ok=True)
                setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), *items])
            else:
                setattr(namespace, self.dest, values)

    return OldSpelling
