"""``.npz`` files whose arrays are memory-mapped instead of read.

``np.load`` reads an ``.npz`` member whole: a blueprint's values (hundreds of MB) take
seconds to open although a re-solve touches a few thousand of them. An uncompressed
member's ``.npy`` data lies contiguous in the file, so it can be mapped in place: opening
costs a header read per array, and only the pages used are read from disk.
:func:`save_npz` writes an ordinary ``.npz`` (``np.load`` reads it) whose arrays start
at multiples of 64 bytes, as a mapped array must to be read at full speed.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np

from analysis.shared import store

_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")  # a zip member's local file header
_ZIP64_EXTRA = 20  # the zip64 sizes zipfile appends to a local header (always asked here)
_PADDING_ID = 0xD935  # the extra field's id for alignment padding (as Android's zipalign)
ALIGN = 64
_LOCAL_MAGIC = b"PK\x03\x04"
_READ_HEADER = {(1, 0): np.lib.format.read_array_header_1_0,
                (2, 0): np.lib.format.read_array_header_2_0}


def atomic_savez(path: Path, **arrays) -> None:
    """An ``.npz`` of ``arrays`` to ``path`` written atomically (:func:`store.atomic_write`),
    uncompressed and aligned so that :func:`load_npz_mapped` can map it."""
    store.atomic_write(path, lambda fh: save_npz(fh, arrays), binary=True)


def save_npz(fh: BinaryIO, arrays: dict[str, np.ndarray]) -> None:
    """``arrays`` as an uncompressed ``.npz`` into the seekable binary file ``fh``, each
    array's data starting at a multiple of :data:`ALIGN` bytes."""
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, value in arrays.items():
            array = np.asanyarray(value)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            header = _LOCAL_HEADER.size + len(info.filename.encode()) + _ZIP64_EXTRA + 4
            pad = -(fh.tell() + header) % ALIGN  # the .npy header is a multiple of 64 too
            info.extra = struct.pack("<HH", _PADDING_ID, pad) + bytes(pad)
            with zf.open(info, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, array, allow_pickle=False)


def load_npz_mapped(path: str | Path) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``path`` by name (without ``.npy``), read-only and
    memory-mapped; a compressed member, or one not aligned for its type (as ``np.savez``
    leaves them), is read whole. Raises ``ValueError`` (or an ``OSError``) on a file that
    is not such an archive."""
    path = Path(path)
    out = {}
    with open(path, "rb") as fh, zipfile.ZipFile(fh) as zf:
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                with zf.open(info) as member:
                    out[name] = np.lib.format.read_array(member)
                continue
            fh.seek(info.header_offset)
            fields = _LOCAL_HEADER.unpack(fh.read(_LOCAL_HEADER.size))
            if fields[0] != _LOCAL_MAGIC:
                raise ValueError(f"{info.filename}: not a zip member")
            fh.seek(fields[-2] + fields[-1], 1)  # the member's name and extra field
            version = np.lib.format.read_magic(fh)
            if version not in _READ_HEADER:
                raise ValueError(f"{info.filename}: .npy format {version} not read here")
            shape, fortran, dtype = _READ_HEADER[version](fh)
            if dtype.hasobject:
                raise ValueError(f"{info.filename}: holds Python objects")
            offset = fh.tell()
            if int(np.prod(shape)) == 0:
                out[name] = np.zeros(shape, dtype)
            elif offset % dtype.alignment:  # written by np.savez: a mapped copy is slow
                out[name] = np.fromfile(fh, dtype, int(np.prod(shape))).reshape(
                    shape, order="F" if fortran else "C")
            else:
                out[name] = np.memmap(path, dtype, "r", offset, shape,
                                      "F" if fortran else "C").view(np.ndarray)
    return out
