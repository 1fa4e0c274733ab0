"""A read-only table from byte-string keys to slot ranges, read straight from its arrays.

A solved game's strategy is looked up by information-set key: millions of byte strings,
stored packed (one blob, an offset per key) with each key's first slot and count.
Building a Python dict of them takes seconds each time a strategy is loaded; this
table instead hashes the packed keys in one compiled pass, sorts the hashes, and finds
a key by binary search, comparing the bytes to rule out a hash collision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_OFFSET = np.uint64(14695981039346656037)
_PRIME = np.uint64(1099511628211)


@njit(cache=True)
def _hashes(blob, offsets):
    # FNV-1a, 64 bits, of each key blob[offsets[i]:offsets[i + 1]].
    n = offsets.shape[0] - 1
    out = np.empty(n, np.uint64)
    for i in range(n):
        h = np.uint64(14695981039346656037)
        for j in range(offsets[i], offsets[i + 1]):
            h = (h ^ np.uint64(blob[j])) * np.uint64(1099511628211)
        out[i] = h
    return out


def _hash(key: bytes) -> np.uint64:
    return _hashes(np.frombuffer(key, np.uint8), np.array([0, len(key)], np.int64))[0]


class KeyTable:
    """Keys (``blob[offsets[i]:offsets[i+1]]``) to ``(first[i], count[i])``; behaves as
    a read-only mapping for :meth:`get`, ``in``, ``[]`` and ``len``."""

    def __init__(self, blob: np.ndarray, offsets: np.ndarray, first: np.ndarray,
                 count: np.ndarray):
        self.blob = np.ascontiguousarray(blob, np.uint8)
        self.offsets = np.ascontiguousarray(offsets, np.int64)
        self.first, self.count = np.asarray(first, np.int64), np.asarray(count, np.int64)
        hashes = _hashes(self.blob, self.offsets)
        self._order = np.argsort(hashes, kind="stable")
        self._sorted = hashes[self._order]

    def __len__(self) -> int:
        return int(self.first.shape[0])

    def _find(self, key: bytes) -> int:
        h = _hash(key)
        at = int(np.searchsorted(self._sorted, h))
        while at < self._sorted.shape[0] and self._sorted[at] == h:
            i = int(self._order[at])
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
        """The packed arrays it was made from (to save it again)."""
        return {"blob": self.blob, "offsets": self.offsets, "first": self.first,
                "count": self.count}
