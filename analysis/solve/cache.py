"""On-disk cache of compiled games, keyed by game string, mode and code version, and the
check that a file is a solver checkpoint.

Files live under the cache root (:func:`analysis.shared.store.cache_root`) and are
written atomically (:func:`analysis.solve.mapped.atomic_savez`); reading and writing
stored results is the store's (:mod:`analysis.shared.store`).
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import numpy as np

from analysis.shared import store
from analysis.shared.store import CorruptFileError
from analysis.solve.compiled import ARRAYS, CompiledGame, names_from_json, names_to_json
from analysis.solve.fingerprint import compiler_fingerprint
from analysis.solve.mapped import atomic_savez


def cache_key(game_string: str, mode: str, fingerprint: str) -> str:
    """Hex digest naming a compiled game in the cache."""
    text = "\n".join((game_string, mode, compiler_fingerprint(), fingerprint))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


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
        **{name: getattr(cg, name) for name in ARRAYS},
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
            arrays = {name: data[name] for name in ARRAYS}
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
    except store.READ_ERRORS as exc:
        raise CorruptFileError(
            f"cached compiled game {path} is unreadable ({store.one_line(exc)}); delete it or rebuild the "
            "cache (--rebuild-cache)", reason=store.one_line(exc)
        ) from None


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
    except store.READ_ERRORS:
        raise CorruptFileError(problem, reason="not a Farol checkpoint") from None
    if not all(f"{name}.npy" in names for name in CHECKPOINT_ARRAYS):
        raise CorruptFileError(problem, reason="not a Farol checkpoint")
