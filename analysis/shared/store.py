"""Where Farol keeps what it computes: one root for stored results, one for caches.

Stored results (committed, read by ``farol report``) live under the data root,
``<repository>/reports/data`` unless ``$FAROL_DATA_DIR`` or ``farol --data DIR`` says
otherwise. Caches (compiled games, checkpoints, solver results) live under
``$FAROL_CACHE_DIR`` or ``./.farol_cache``. Every study asks this module for its
locations, so tests point a whole run at a temporary folder with :func:`use`.

It also reads and writes those files safely: every write goes through a temporary file
renamed into place (an interrupted write never leaves half a file under the name), and a
damaged stored result or user file is refused in one line naming it
(:class:`CorruptFileError`), never read as missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from games.errors import FarolError

DATA_ENV = "FAROL_DATA_DIR"
CACHE_ENV = "FAROL_CACHE_DIR"
REPOSITORY = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPOSITORY / "reports" / "data"

_override: Path | None = None

# What reading a damaged or foreign ``.npz``/JSON file can raise, from numpy, zipfile
# (a flipped flag bit: NotImplementedError) and the record's own checks.
READ_ERRORS = (
    OSError,
    ValueError,
    KeyError,
    TypeError,
    AttributeError,
    IndexError,
    EOFError,
    NotImplementedError,
    struct.error,
    zlib.error,
    zipfile.BadZipFile,
)


class CorruptFileError(FarolError):
    """A stored result, cache file, checkpoint or user file that cannot be read back.

    ``reason`` says what is wrong with it, without the file's name (for the line a
    rebuilt cache prints).
    """

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason


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


# ---------------------------------------------------------------- safe writes
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def publish_mode(path: str | os.PathLike, directory: bool = False) -> None:
    """Give a file made by ``tempfile`` (private, 0600/0700) the usual permissions."""
    os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


def atomic_write(path: Path, write: Callable[[IO], None], binary: bool = False) -> None:
    """Write ``path`` by ``write(file)`` into a temporary file of the same directory,
    renamed into place once whole (removed if the write fails or is interrupted)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w") as fh:
            write(fh)
        publish_mode(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`atomic_write`)."""
    atomic_write(path, lambda fh: fh.write(text))


def write_rows(path: Path, rows: dict) -> None:
    """Write a resumable results file atomically (sorted keys, one line a field)."""
    atomic_write_text(Path(path), json.dumps(rows, indent=1, sort_keys=True) + "\n")


# ---------------------------------------------------------------- careful reads
def read_json(path: Path):
    """The JSON value stored at ``path`` (a stored result or a file a user gives).

    Raises
    ------
    CorruptFileError
        Naming the file, when it is missing, unreadable, cut short or not JSON (a
        :class:`games.errors.FarolError`: the command line prints it as one line).
    """
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise CorruptFileError(f"{shown(path)} does not exist", reason="missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise damaged_record(path, one_line(exc)) from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise damaged_record(path, one_line(exc)) from None


def read_record(path: Path) -> dict | None:
    """The JSON object stored at ``path``, ``None`` when the file is missing.

    Raises
    ------
    CorruptFileError
        Naming the file, when it is damaged (unreadable, cut short) or holds something
        other than a JSON object: a stored result is refused, never taken as missing.
    """
    path = Path(path)
    if not path.exists():
        return None
    record = read_json(path)
    if not isinstance(record, dict):
        raise damaged_record(path, "not a JSON object")
    return record


def read_rows(path: Path) -> dict:
    """The rows of a resumable results file (``{key: row object}``), ``{}`` when it is
    missing (a sweep then starts afresh).

    Raises
    ------
    CorruptFileError
        Naming the file, when it is damaged or not a file of rows: a stored result is
        refused, never read as empty and then overwritten.
    """
    path = Path(path)
    if not path.exists():
        return {}
    rows = read_json(path)
    if not isinstance(rows, dict) or not all(isinstance(r, dict) for r in rows.values()):
        raise damaged_record(path, "not a file of rows")
    return rows


def damaged_record(path: Path, reason: str) -> CorruptFileError:
    """The one-line error refusing a damaged stored result or user file at ``path``."""
    return CorruptFileError(
        f"{shown(path)} is damaged ({reason}); it was not read: restore it "
        "(e.g. git checkout) or delete it to compute it again", reason=reason)


def one_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message (or its type's name)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
