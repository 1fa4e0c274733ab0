"""The text slips no page or output of Farol holds: a negative zero (``-0.00``,
``-0.0 points``, ``[-0.0, +5.1]``, ``seat 1: -0``) and a plural after one ("1 coins")."""

from __future__ import annotations

import re

# A zero with a minus sign (ASCII or U+2212), not the end of a range such as 0.00-0.00.
NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-\u2212]0(?:\.0+)?(?![\d.]|\.\d)")
NOUNS = ("coins", "points", "games", "cards", "battles", "combats", "turns", "players",
         "seats", "victories", "warriors", "moves", "matchups", "deals", "rounds",
         "wars", "hands", "iterations", "positions", "spots", "seconds", "minutes", "hours",
         "villains", "courtiers", "copies", "tokens", "actions", "bluffs", "challenges",
         "blocks", "times", "lives", "influences")
ONE_PLURAL = re.compile(r"(?<![\d.,/+\-\u2212])\b1 (" + "|".join(NOUNS) + r")\b")


def slips(text: str) -> list[str]:
    """Each slip in ``text``, with a few characters around it."""
    out = []
    for pattern in (NEGATIVE_ZERO, ONE_PLURAL):
        for m in pattern.finditer(text):
            out.append(text[max(0, m.start() - 30):m.end() + 10].replace("\n", " "))
    return out
