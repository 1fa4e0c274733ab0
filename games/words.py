"""Words the games print about counts: a noun after a number, singular after one."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is one: ``count(1, "coin")`` is
    ``"1 coin"``, ``count(3, "coin")`` is ``"3 coins"``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
