"""Where Farol keeps what it computes: one root for stored results, one for caches.

Stored results (committed, read by ``farol report``) live under the data root,
``<repository>/reports/data`` unless ``$FAROL_DATA_DIR`` or ``farol --data DIR`` says
otherwise. Caches (compiled games, checkpoints, solver results) live under
``$FAROL_CACHE_DIR`` or ``./.farol_cache``. Every study asks this module for its
locations, so tests point a whole run at a temporary folder with :func:`use`.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

DATA_ENV = "FAROL_DATA_DIR"
CACHE_ENV = "FAROL_CACHE_DIR"
REPOSITORY = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPOSITORY / "reports" / "data"

_override: Path | None = None


def data_root() -> Path:
    """The folder of stored results: :func:`use`, then ``$FAROL_DATA_DIR``, then the default."""
    if _override is not None:
        return _override
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else DEFAULT_DATA


def data(*parts: str) -> Path:
    """A location under the data root, e.g. ``data("coup", "endgames")``."""
    return data_root().joinpath(*parts)


def cache_root() -> Path:
    """The cache folder (``$FAROL_CACHE_DIR`` or ``./.farol_cache``)."""
    return Path(os.environ.get(CACHE_ENV, ".farol_cache"))


def cache(*parts: str) -> Path:
    """A location under the cache root."""
    return cache_root().joinpath(*parts)


@contextlib.contextmanager
def use(path: str | os.PathLike) -> Iterator[Path]:
    """Within the block, the data root is ``path`` (tests use a temporary folder)."""
    global _override
    previous = _override
    _override = Path(path)
    try:
        yield _override
    finally:
        _override = previous


def shown(path: Path) -> str:
    """``path`` as a user reads it: relative to the repository when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(REPOSITORY))
    except ValueError:
        return str(path)


def say_damaged(path: Path, why: str = "") -> None:
    """Say in one line on stderr that the cache file ``path`` is damaged and rebuilt.

    Caches are rebuilt after this line; stored results and files a user gives are
    refused instead (a :class:`games.errors.FarolError` naming the file).
    """
    detail = f" ({why})" if why else ""
    print(f"{shown(path)} is damaged{detail}; rebuilding it", file=sys.stderr)
