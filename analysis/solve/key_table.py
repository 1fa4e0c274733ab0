"""A read-only table from byte-string keys to slot ranges, read straight from its arrays.

A solved game's strategy is looked up by information-set key: millions of byte strings,
stored packed (one blob, an offset per key) with each key's first slot and count.
Building a Python dict of them takes seconds each time a strategy is loaded; this
table instead hashes the packed keys in one compiled pass, sorts the hashes, and finds
a key by binary search, comparing the bytes to rule out a hash collision. The hashing
waits for the first lookup, so a table that is loaded but never asked costs nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_OFFSET, _PRIME, _MASK = 14695981039346656037, 1099511628211, 2**64 - 1  # FNV-1a, 64 bits


@njit(cache=True)
def _hashes(blob, offsets):
    # FNV-1a, 64 bits, of each key blob[offsets[i]:offsets[i + 1]].
    n = offsets.shape[0] - 1
    out = np.empty(n, np.uint64)
    for i in range(n):
        h = np.uint64(_OFFSET)
        for j in range(offsets[i], offsets[i + 1]):
            h = (h ^ np.uint64(blob[j])) * np.uint64(_PRIME)
        out[i] = h
    return out


def _hash(key: bytes) -> np.uint64:
    # The same FNV-1a in Python integers: one key is tens of bytes, and calling the
    # compiled loop for it costs more than the loop.
    h = _OFFSET
    for byte in key:
        h = ((h ^ byte) * _PRIME) & _MASK
    return np.uint64(h)


class KeyTable:
    """Keys (``blob[offsets[i]:offsets[i+1]]``) to ``(first[i], count[i])``; behaves as
    a read-only mapping for :meth:`get`, ``in``, ``[]`` and ``len``."""

    def __init__(self, blob: np.ndarray, offsets: np.ndarray, first: np.ndarray,
                 count: np.ndarray, hashes: np.ndarray | None = None,
                 order: np.ndarray | None = None):
        self.blob = np.ascontiguousarray(blob, np.uint8)
        self.offsets = np.ascontiguousarray(offsets, np.int64)
        self.first, self.count = np.asarray(first, np.int64), np.asarray(count, np.int64)
        # The sorted hashes and the key of each (saved by arrays(), so a table read back
        # skips the sort): without them, built at the first lookup.
        self._index = None
        if hashes is not None and order is not None:
            if hashes.shape != order.shape or order.shape[0] != self.first.shape[0]:
                raise ValueError("the saved index does not match the keys")
            self._index = hashes, order

    def _sorted_hashes(self) -> tuple[np.ndarray, np.ndarray]:
        if self._index is None:
            hashes = _hashes(self.blob, self.offsets)
            order = np.argsort(hashes, kind="stable")
            self._index = hashes[order], order.astype(np.int32 if len(order) < 2**31 else np.int64)
        return self._index

    def __len__(self) -> int:
        return int(self.first.shape[0])

    def _find(self, key: bytes) -> int:
        h = _hash(key)
        ordered, order = self._sorted_hashes()
        at = int(np.searchsorted(ordered, h))
        while at < ordered.shape[0] and ordered[at] == h:
            i = int(order[at])
            lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
            if hi - lo == len(key) and self.blob[lo:hi].tobytes() == key:
                return i
            at += 1
        return -1

    def get(self, key: bytes, default=None):
        i = self._find(key)
        return default if i < 0 else (int(self.first[i]), int(self.count[i]))

    def __contains__(self, key: bytes) -> bool:
        return self._find(key) >= 0

    def __getitem__(self, key: bytes) -> tuple[int, int]:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __eq__(self, other) -> bool:
        """Equal to a table or a dict holding the same keys and ranges."""
        if not isinstance(other, KeyTable | dict):
            return NotImplemented
        pairs = list(other.items())
        return len(pairs) == len(self) and all(self.get(k) == tuple(v) for k, v in pairs)

    __hash__ = None

    def items(self):
        """Every ``(key, (first, count))``, in the order they were packed."""
        raw, ends = self.blob.tobytes(), self.offsets.tolist()
        for i in range(len(self)):
            yield raw[ends[i]:ends[i + 1]], (int(self.first[i]), int(self.count[i]))

    def arrays(self) -> dict:
        """The packed arrays it was made from and its index (to save it again)."""
        hashes, order = self._sorted_hashes()
        return {"blob": self.blob, "offsets": self.offsets, "first": self.first,
                "count": self.count, "hashes": hashes, "order": order}
