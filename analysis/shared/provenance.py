"""Where a stored result came from: Farol's version, the commit of the code, the seed.

Every record a user reads back carries these, so a number can be traced to the code
that made it and made again.
"""

from __future__ import annotations

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


@lru_cache(maxsize=1)
def code_commit() -> str:
    """The commit of the checkout the code runs from, ``+changes`` when files under
    ``games/`` or ``analysis/`` differ from it; ``unknown`` outside a git checkout."""
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
