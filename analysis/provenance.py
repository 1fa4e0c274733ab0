"""What made a stored result: Farol's version and the git commit of the code that ran.

Results users read record both, so a number can be traced back to the code behind it
(``"unknown"`` outside a git checkout; ``-dirty`` when files differ from the commit).
"""

from __future__ import annotations

import subprocess
from importlib import metadata

from analysis.store import REPOSITORY


def farol_version() -> str:
    """The installed package's version (``"unknown"`` when Farol is not installed)."""
    try:
        return metadata.version("farol")
    except metadata.PackageNotFoundError:
        return "unknown"


def git_commit() -> str:
    """The commit of the repository holding this code, ``-dirty`` if tracked files changed."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPOSITORY, capture_output=True, text=True,
            timeout=10, check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPOSITORY,
            capture_output=True, text=True, timeout=30, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}-dirty" if changed else head
