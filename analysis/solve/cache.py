"""On-disk cache of compiled games, keyed by game string, mode and code version.

Files live under ``$FAROL_CACHE_DIR`` or ``.farol_cache/`` in the working directory and
are written atomically (a temporary file renamed into place), so an interrupted write
never leaves a half file under the cache name.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

from analysis.shared import store
from analysis.solve.compiled import CompiledGame, names_from_json, names_to_json
from analysis.solve.errors import CorruptFileError
from analysis.solve.fingerprint import compiler_fingerprint
from analysis.solve.mapped import save_npz

_ARRAYS = (
    "kind",
    "infoset",
    "edge_start",
    "edge_child",
    "edge_prob",
    "edge_action",
    "utility",
    "infoset_player",
    "infoset_offset",
    "infoset_actions",
    "infoset_parent_row",
)


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


def cache_dir() -> Path:
    """The cache directory (``$FAROL_CACHE_DIR`` or ``./.farol_cache``, see :mod:`analysis.shared.store`)."""
    return store.cache_root()


def cache_key(game_string: str, mode: str, fingerprint: str) -> str:
    """Hex digest naming a compiled game in the cache."""
    text = "\n".join((game_string, mode, compiler_fingerprint(), fingerprint))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def publish_mode(path: str | os.PathLike, directory: bool = False) -> None:
    """Give a file made by ``tempfile`` (private, 0600/0700) the usual permissions."""
    os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


def atomic_savez(path: Path, **arrays) -> None:
    """An ``.npz`` of ``arrays`` to ``path`` through a temporary file in the same
    directory (uncompressed and aligned, so :func:`load_npz_mapped` can map it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            save_npz(fh, arrays)
        publish_mode(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        publish_mode(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
        raise CorruptFileError(f"{store.shown(path)} does not exist", reason="missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise damaged_record(path, _one_line(exc)) from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise damaged_record(path, _one_line(exc)) from None


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


def damaged_record(path: Path, reason: str) -> CorruptFileError:
    """The one-line error refusing a damaged stored result or user file at ``path``."""
    return CorruptFileError(
        f"{store.shown(path)} is damaged ({reason}); it was not read: restore it "
        "(e.g. git checkout) or delete it to compute it again", reason=reason)


def write_rows(path: Path, rows: dict) -> None:
    """Write a resumable results file atomically (sorted keys, one line a field)."""
    atomic_write_text(Path(path), json.dumps(rows, indent=1, sort_keys=True) + "\n")


def _pack_strings(strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
    encoded = [s.encode() for s in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets


def _unpack_strings(blob: np.ndarray, offsets: np.ndarray) -> list[str]:
    raw = blob.tobytes()
    return [raw[offsets[i] : offsets[i + 1]].decode() for i in range(len(offsets) - 1)]


def save_compiled(cg: CompiledGame, path: Path, key: str) -> None:
    """Write ``cg`` to ``path`` (atomically)."""
    blob, offsets = _pack_strings(cg.infoset_keys)
    meta = np.frombuffer(
        "\n".join(
            (
                key,
                cg.game,
                cg.mode,
                str(int(cg.imperfect_recall)),
                repr(cg.compile_seconds),
                names_to_json(cg.action_names),
            )
        ).encode(),
        dtype=np.uint8,
    )
    atomic_savez(
        path,
        meta=meta,
        key_blob=blob,
        key_offsets=offsets,
        **{name: getattr(cg, name) for name in _ARRAYS},
    )


def load_compiled(path: Path, key: str) -> CompiledGame:
    """Read a compiled game written by :func:`save_compiled`.

    Raises
    ------
    CorruptFileError
        If the file cannot be read or does not hold the game it is named after.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = data["meta"].tobytes().decode().split("\n", 5)
            arrays = {name: data[name] for name in _ARRAYS}
            keys = _unpack_strings(data["key_blob"], data["key_offsets"])
        stored_key, game, mode, imperfect, seconds, names = meta
        if stored_key != key:
            raise ValueError("it holds another game")
        cg = CompiledGame(
            game=game,
            mode=mode,
            imperfect_recall=bool(int(imperfect)),
            infoset_keys=keys,
            action_names=names_from_json(names),
            compile_seconds=float(seconds),
            **arrays,
        )
        _check_consistent(cg)
        return cg
    except READ_ERRORS as exc:
        raise CorruptFileError(
            f"cached compiled game {path} is unreadable ({_one_line(exc)}); delete it or rebuild the "
            "cache (--rebuild-cache)", reason=_one_line(exc)
        ) from None


def _one_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message (or its type's name)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _check_consistent(cg: CompiledGame) -> None:
    n, e, m = cg.num_internal, cg.num_edges, cg.num_infosets
    ok = (
        cg.infoset.shape == (n,)
        and cg.edge_start.shape == (n + 1,)
        and cg.edge_prob.shape == (e,)
        and cg.edge_action.shape == (e,)
        and cg.infoset_parent_row.shape == (m,)
        and cg.infoset_offset.shape == (m + 1,)
        and len(cg.infoset_keys) == m
        and int(cg.edge_start[-1]) == e
        and int(cg.infoset_offset[-1]) == cg.num_actions
        and (e == 0 or (int(cg.edge_child.min()) >= 0 and int(cg.edge_child.max()) < cg.num_nodes))
    )
    if not ok:
        raise ValueError("its arrays do not fit together")


# The arrays of a checkpoint (see CFRSolver.save_checkpoint).
CHECKPOINT_ARRAYS = ("regret", "strategy_sum", "iteration", "seconds", "identity")


def check_checkpoint_file(path: str | Path) -> None:
    """Refuse a file that is not a checkpoint Farol wrote (a text file, another archive)
    before a solve tries to resume from it.

    Raises
    ------
    CorruptFileError
        Naming the file, if it is not a zip of the checkpoint's arrays.
    """
    path = Path(path)
    problem = f"{path} is not a Farol checkpoint; delete it or choose another checkpoint path"
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except READ_ERRORS:
        raise CorruptFileError(problem, reason="not a Farol checkpoint") from None
    if not all(f"{name}.npy" in names for name in CHECKPOINT_ARRAYS):
        raise CorruptFileError(problem, reason="not a Farol checkpoint")
