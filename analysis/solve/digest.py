"""Keys of positions and information sets: compact digests for the walks' tables,
printable text for the compiled game."""

from __future__ import annotations

import marshal
from hashlib import blake2b


def key_text(key: object) -> str:
    """A key as the compiled game prints it (strings as they are, other keys' repr)."""
    return key if isinstance(key, str) else repr(key)


def key_digest(key: object) -> bytes:
    """A 16-byte digest of a state or information-set key (graph mode's tables).

    Graph walks keep one table entry per position and per information set; a digest is
    much smaller than the key tuple itself, which lets the largest graphs fit in memory.
    Equal keys give equal digests: marshal format 2 writes no back-references, so the
    bytes depend on the key's value, not on which objects it shares. Two distinct keys
    collide with probability ~n^2 / 2^129 for n keys.
    """
    try:
        data = marshal.dumps(key, 2)
    except ValueError:  # not a plain int/str/tuple key: its repr identifies it
        data = repr(key).encode()
    return blake2b(data, digest_size=16).digest()

