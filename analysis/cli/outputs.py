"""Checks that output locations can be written, made before any long work starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from games.errors import OutputError


def _nearest_existing(path: Path) -> Path:
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _probe(folder: Path, flag: str, given: Path) -> None:
    """Create and remove a temporary file in ``folder`` (the surest writability test)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".farol-probe-")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OutputError(f"{flag} {given}: cannot write in {folder} ({reason})") from None
    os.close(fd)
    os.unlink(name)


def check_output_dir(path: str | os.PathLike, flag: str) -> Path:
    """Refuse ``path`` as an output folder unless it is a folder, or can be created as one,
    where a file can be written; the message names ``flag``."""
    given = Path(path)
    _check_folder(given, flag, given)
    return given


def _check_folder(folder: Path, flag: str, given: Path) -> None:
    existing = _nearest_existing(folder)
    if not existing.is_dir():
        raise OutputError(f"{flag} {given}: {existing} is not a folder")
    _probe(existing, flag, given)


def check_output_file(path: str | os.PathLike, flag: str) -> Path:
    """Refuse ``path`` as an output file unless its folder can be written and it is not a
    folder itself; the message names ``flag``."""
    given = Path(path)
    if given.is_dir():
        raise OutputError(f"{flag} {given}: is a folder, not a file")
    _check_folder(given.parent, flag, given)
    return given


# Each JSON output's schema: its name and version, the first key of every output
# (``"schema": "advise-coup/2"``). Its keys are documented in docs/json.md; a key renamed or
# removed bumps the version, noted in CHANGELOG.md (tests/cli/test_json_schema.py).
SCHEMAS = {
    "advise-coup": 2,       # 1: actions/action/opponent_hand, now moves/move/opponent_hands
    "advise-coup-exact": 1,
    "advise-coup-blueprint": 1,
    "advise-coup-table": 1,  # 3 to 6 players: each move played out
    "advise-cobardes": 1,
    "match": 1,
    "coup-balance": 1,
    "blueprint-info": 1,
    "whatif": 1,
}


def with_schema(kind: str, record: dict) -> dict:
    """``record`` headed by its schema's name and version (``kind``: a key of SCHEMAS)."""
    return {"schema": f"{kind}/{SCHEMAS[kind]}"} | record
