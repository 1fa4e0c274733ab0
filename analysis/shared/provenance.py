"""Where a stored result came from: Farol's version, the commit of the code, the seed.

Every record a user reads back carries these, so a number can be traced to the code
that made it and made again.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import subprocess
from functools import lru_cache

from analysis.shared.store import REPOSITORY


@lru_cache(maxsize=1)
def farol_version() -> str:
    try:
        return importlib.metadata.version("farol")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


_PINNED: list[str] = []


@contextlib.contextmanager
def pinned():
    """Within the block, :func:`code_commit` is the commit read when the block began: a
    long run's results name the code it started with, even where the checkout moves on
    meanwhile (worker processes started inside the block inherit it; a process reads the
    commit once, the first time it is asked)."""
    _PINNED.append(_read_commit())
    try:
        yield _PINNED[-1]
    finally:
        _PINNED.pop()


def code_commit() -> str:
    """The commit of the checkout the code runs from, ``+changes`` when files under
    ``games/`` or ``analysis/`` differ from it; ``unknown`` outside a git checkout; the
    one read when a :func:`pinned` block began, inside one."""
    return _PINNED[-1] if _PINNED else _read_commit()


@lru_cache(maxsize=1)
def _read_commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPOSITORY, check=True,
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "games", "analysis"],
                               cwd=REPOSITORY, check=True, capture_output=True, text=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def provenance(seed: int | None) -> dict:
    """``{"version", "commit", "seed"}`` of a result made now (``seed`` None: the
    computation draws no random numbers)."""
    return {"version": farol_version(), "commit": code_commit(), "seed": seed}
