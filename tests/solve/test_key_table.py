"""The key table's one-key hash is the compiled hash of the packed keys, and a table
made from read-only (memory-mapped) arrays answers lookups."""

import random

import numpy as np
import pytest

from analysis.solve.key_table import KeyTable, _hash, _hashes
from analysis.solve.mapped import load_npz_mapped


def test_one_key_hash_equals_the_compiled_pass():
    rng = random.Random(7)
    keys = [b"", b"\x00", b"\xff" * 300] + [rng.randbytes(rng.randrange(1, 80))
                                           for _ in range(200)]
    offsets = np.cumsum([0] + [len(k) for k in keys], dtype=np.int64)
    blob = np.frombuffer(b"".join(keys), np.uint8)
    assert [_hash(k) for k in keys] == _hashes(blob, offsets).tolist()


def test_a_table_on_mapped_arrays_finds_its_keys(tmp_path):
    keys = [b"duke", b"captain", b"contessa", b""]
    np.savez(tmp_path / "t.npz", blob=np.frombuffer(b"".join(keys), np.uint8),
             offsets=np.cumsum([0] + [len(k) for k in keys], dtype=np.int64),
             first=np.array([0, 3, 5, 9]), count=np.array([3, 2, 4, 1]))
    table = KeyTable(**load_npz_mapped(tmp_path / "t.npz"))
    assert table.get(b"captain") == (3, 2) and table.get(b"") == (9, 1)
    assert b"assassin" not in table and table.get(b"dukes") is None


def test_a_saved_index_is_used_and_a_wrong_one_refused():
    keys = [b"a", b"bb", b"ccc"]
    packed = dict(blob=np.frombuffer(b"".join(keys), np.uint8),
                  offsets=np.array([0, 1, 3, 6]), first=np.array([0, 2, 5]),
                  count=np.array([2, 3, 1]))
    saved = KeyTable(**packed).arrays()
    assert set(saved) == {"blob", "offsets", "first", "count", "hashes", "order"}
    again = KeyTable(**saved)
    assert [again.get(k) for k in keys] == [(0, 2), (2, 3), (5, 1)]
    with pytest.raises(ValueError, match="index"):
        KeyTable(**packed, hashes=saved["hashes"][:2], order=saved["order"][:2])
