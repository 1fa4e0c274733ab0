"""Memory-mapped .npz members equal what ``np.load`` reads, for every kind of array."""

import zipfile

import numpy as np
import pytest

from analysis.solve.mapped import ALIGN, load_npz_mapped, save_npz


def test_mapped_arrays_equal_np_load(tmp_path):
    rng = np.random.default_rng(1)
    arrays = {"floats": rng.random(1000).astype(np.float32),
              "ints": rng.integers(-5, 5, (7, 11)),
              "fortran": np.asfortranarray(rng.random((4, 3))),
              "scalar": np.int64(42), "empty": np.zeros((0, 3), np.int32),
              "bytes": np.frombuffer(b"packed keys", np.uint8)}
    path = tmp_path / "a.npz"
    np.savez(path, **arrays)
    mapped = load_npz_mapped(path)
    assert set(mapped) == set(arrays)
    for name, want in arrays.items():
        got = mapped[name]
        assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want), name
        assert np.array_equal(got, want), name
    assert np.isfortran(mapped["fortran"])
    assert not mapped["floats"].flags.writeable  # the file is never changed through it


def test_compressed_members_are_read_whole(tmp_path):
    path = tmp_path / "c.npz"
    np.savez_compressed(path, x=np.arange(100))
    assert np.array_equal(load_npz_mapped(path)["x"], np.arange(100))


def test_not_an_archive_is_an_error(tmp_path):
    path = tmp_path / "bad.npz"
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(zipfile.BadZipFile):
        load_npz_mapped(path)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("x.npy", b"not an npy header")
    with pytest.raises(ValueError):
        load_npz_mapped(path)


def test_saved_arrays_are_aligned_mapped_and_read_by_np_load(tmp_path):
    rng = np.random.default_rng(2)
    arrays = {f"a{i}" * (i + 1): rng.random(rng.integers(1, 50)).astype(dtype)
              for i, dtype in enumerate([np.float32, np.int64, np.uint8, np.int32, np.float64])}
    arrays["scalar"] = np.int64(7)
    path = tmp_path / "s.npz"
    with open(path, "wb") as fh:
        save_npz(fh, arrays)
    with np.load(path) as z:
        assert all(np.array_equal(z[k], v) for k, v in arrays.items())
    for name, got in load_npz_mapped(path).items():
        assert np.array_equal(got, arrays[name])
        if got.size:
            assert isinstance(got.base, np.memmap) and got.ctypes.data % ALIGN == 0, name


def test_unaligned_members_are_read_whole(tmp_path):
    path = tmp_path / "u.npz"
    np.savez(path, x=np.arange(10, dtype=np.int64), yy=np.arange(5, dtype=np.float32))
    for name, got in load_npz_mapped(path).items():
        assert got.flags.aligned and np.array_equal(got, np.load(path)[name])
