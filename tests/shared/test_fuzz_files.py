"""Corrupt or foreign files are named in one line, never misread.

The compiled-game cache and saved solve results (analysis/solve) and the Coup records
and row files (analysis/coup/model.py), each damaged at random: truncated, bytes
flipped, replaced by random bytes, or a well-formed file of something else. The cache
is named on stderr and rebuilt; the stored results are refused.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.coup.model import (
    BracketRecord,
    Endgame,
    EndgameRecord,
    load_bracket,
    load_record,
    read_typed_rows,
)
from analysis.coup.studies.full_game import FullGameRow
from analysis.coup.studies.larger import LargerRow
from analysis.coup.studies.sweep import CapStudyRow
from analysis.shared.store import CorruptFileError
from analysis.solve import SolveResult, compile_cached, solve
from analysis.solve.cache import save_compiled

FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def one_line(exc: BaseException, name: str) -> None:
    message = str(exc)
    assert "\n" not in message and name in message, message


# ------------------------------------------------------------ compiled-game cache
@pytest.fixture(scope="module")
def kuhn_cache(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    compile_cached("kuhn_poker", directory=root)
    (cached,) = (root / "compiled").iterdir()
    return root, cached


def cached_bytes(kuhn_cache) -> bytes:
    return kuhn_cache[1].read_bytes()


def damaged_cache(root, cached, data, tmp_path):
    copy = tmp_path / "cache"
    shutil.rmtree(copy, ignore_errors=True)
    (copy / "compiled").mkdir(parents=True)
    (copy / "compiled" / cached.name).write_bytes(data)
    return copy


def compiled_and_said(directory):
    """Compile kuhn_poker through the cache in ``directory``; the game and what stderr said."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        cg = compile_cached("kuhn_poker", directory=directory)
    return cg, err.getvalue()


def rebuilt_and_named(directory, name, said: bool | None = None):
    """The cached game read back whole, or one line naming the file and a rebuild; after
    which the cache reads back without a word."""
    cg, err = compiled_and_said(directory)
    assert cg.num_nodes == 58 and cg.num_infosets == 12
    if said is not None:
        assert bool(err) == said, err
    if err:
        one_line(err.strip(), name)
        assert err.strip().endswith("; rebuilding it") and "is damaged" in err
    cg, err = compiled_and_said(directory)
    assert cg.num_nodes == 58 and err == ""


def answers_or_names(directory, name):
    rebuilt_and_named(directory, name)


@FUZZ
@given(cut=st.floats(0, 1, exclude_max=True))
def test_truncated_compiled_cache_is_named(kuhn_cache, tmp_path, cut):
    root, cached = kuhn_cache
    data = cached_bytes(kuhn_cache)
    copy = damaged_cache(root, cached, data[: int(len(data) * cut)], tmp_path)
    answers_or_names(copy, cached.name)


@FUZZ
@given(flips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=4))
def test_flipped_bytes_in_compiled_cache_are_named_or_harmless(kuhn_cache, tmp_path, flips):
    root, cached = kuhn_cache
    data = cached_bytes(kuhn_cache)
    damaged = bytearray(data)
    for where, xor in flips:
        damaged[int(len(data) * where)] ^= xor
    copy = damaged_cache(root, cached, bytes(damaged), tmp_path)
    answers_or_names(copy, cached.name)


@FUZZ
@given(junk=st.binary(max_size=300))
def test_random_bytes_as_compiled_cache_are_named(kuhn_cache, tmp_path, junk):
    root, cached = kuhn_cache
    copy = damaged_cache(root, cached, junk, tmp_path)
    rebuilt_and_named(copy, cached.name, said=True)


def test_compiled_cache_of_another_game_is_named(kuhn_cache, tmp_path):
    root, cached = kuhn_cache
    other = tmp_path / "other"
    compile_cached("leduc_poker", directory=other)
    (leduc,) = (other / "compiled").iterdir()
    copy = damaged_cache(root, cached, leduc.read_bytes(), tmp_path)
    _, err = compiled_and_said(copy)
    assert "another game" in err
    rebuilt_and_named(copy, cached.name, said=False)


@pytest.mark.parametrize("meta", ["", "only\nthree\nlines", "k\ng\ntree\nx\n1.0\n[]", "k\ng\ntree\n0\n1.0\n[1]"])
def test_compiled_cache_with_foreign_arrays_is_named(kuhn_cache, tmp_path, meta):
    root, cached = kuhn_cache
    cg = compile_cached("kuhn_poker", directory=root)
    copy = damaged_cache(root, cached, b"", tmp_path)
    path = copy / "compiled" / cached.name
    key = cached.stem
    save_compiled(cg, path, key)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    text = meta.replace("k\n", key + "\n", 1) if meta.startswith("k\n") else meta
    arrays["meta"] = np.frombuffer(text.encode(), dtype=np.uint8)
    np.savez(path, **arrays)
    rebuilt_and_named(copy, cached.name, said=True)


# ------------------------------------------------------------ saved solve results
@pytest.fixture(scope="module")
def saved_result(tmp_path_factory):
    path = tmp_path_factory.mktemp("result") / "r"
    solve("kuhn_poker", iterations=10, use_cache=False).save(path)
    return path


@FUZZ
@given(which=st.sampled_from(["result.json", "strategy.npz"]), cut=st.floats(0, 1, exclude_max=True),
       junk=st.binary(max_size=50))
def test_damaged_solve_result_is_named(saved_result, tmp_path, which, cut, junk):
    copy = tmp_path / "r"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(saved_result, copy)
    data = (copy / which).read_bytes()
    damaged = data[: int(len(data) * cut)] + junk
    (copy / which).write_bytes(damaged)
    try:
        result = SolveResult.load(copy)
    except CorruptFileError as exc:
        assert "cannot read" in str(exc)
        one_line(exc, str(copy))
    else:  # the damage left the file readable (e.g. only the zip's trailing bytes): same result
        original = SolveResult.load(saved_result)
        assert result.infoset_keys == original.infoset_keys
        assert np.array_equal(result.strategy, original.strategy)


@pytest.mark.parametrize("figures", ["[]", "3", '"x"', "{}", '{"best_response": 1}', "null"])
def test_foreign_solve_result_json_is_named(saved_result, tmp_path, figures):
    copy = tmp_path / "r"
    shutil.copytree(saved_result, copy)
    (copy / "result.json").write_text(figures)
    with pytest.raises(CorruptFileError, match="cannot read") as err:
        SolveResult.load(copy)
    one_line(err.value, str(copy))


def test_foreign_solve_result_arrays_are_named(saved_result, tmp_path):
    copy = tmp_path / "r"
    shutil.copytree(saved_result, copy)
    with np.load(copy / "strategy.npz", allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["action_names"] = np.frombuffer(b"[1, 2]", dtype=np.uint8)
    np.savez(copy / "strategy.npz", **arrays)
    with pytest.raises(CorruptFileError, match="cannot read") as err:
        SolveResult.load(copy)
    one_line(err.value, str(copy))


# ------------------------------------------------------------ Coup records
ROWS = [CapStudyRow, FullGameRow, LargerRow]


@FUZZ
@given(cls=st.sampled_from(ROWS), text=st.one_of(
    st.sampled_from(['{"a": {"endgame": 3', "[]", "3", '{"k": 1}', '{"k": {"nonsense": 1}}', "", "\x00"]),
    st.text(max_size=30)))
def test_broken_row_file_is_named(tmp_path, cls, text):
    path = tmp_path / "rows.json"
    path.write_text(text)
    try:
        rows = read_typed_rows(cls, path)
    except CorruptFileError as exc:
        one_line(exc, str(path))
    else:
        assert isinstance(rows, dict)


def test_truncated_row_file_is_one_line_naming_it(tmp_path):
    path = tmp_path / "full_game.json"
    path.write_text('{\n "a": {\n  "endgame": {')
    with pytest.raises(CorruptFileError, match="full_game.json") as err:
        read_typed_rows(FullGameRow, path)
    one_line(err.value, "full_game.json")


def test_missing_row_file_is_still_an_os_error(tmp_path):
    with pytest.raises(OSError):
        read_typed_rows(FullGameRow, tmp_path / "absent.json")


@pytest.mark.parametrize("text", ["[]", "3", '"v"', "null", '{"version": 1', ""])
@pytest.mark.parametrize("load", [load_record, load_bracket])
def test_unreadable_stored_record_is_refused_not_misread(tmp_path, text, load):
    endgame = Endgame(1, 2)
    path = tmp_path / f"{endgame.slug()}.json"
    assert load(tmp_path, endgame) is None, "missing: not computed yet"
    path.write_text(text)
    with pytest.raises(CorruptFileError, match="is damaged") as err:
        load(tmp_path, endgame)
    one_line(err.value, str(path))
    path.write_text('{"version": -1}')
    assert load(tmp_path, endgame) is None, "another version: computed again"


def test_record_classes_refuse_foreign_keys():
    for cls in (EndgameRecord, BracketRecord):
        with pytest.raises(ValueError, match="unknown keys"):
            cls.from_json({"surprise": 1})


@FUZZ
@given(load=st.sampled_from([load_record, load_bracket]), record=st.dictionaries(
    st.sampled_from(["endgame", "lower_win", "value", "surprise", "converged"]),
    st.one_of(st.none(), st.integers(), st.text(max_size=5),
              st.fixed_dictionaries({"mover_coins": st.integers(-2, 9), "other_coins": st.integers(-2, 9),
                                     "deck": st.sampled_from(["ambassador", "x"])}),
              st.lists(st.integers(), max_size=2)), max_size=4))
def test_current_record_of_foreign_shape_is_named(tmp_path, load, record):
    endgame = Endgame(1, 2)
    path = tmp_path / f"{endgame.slug()}.json"
    path.write_text(json.dumps({**record, "version": 1}))
    try:
        loaded = load(tmp_path, endgame)
    except CorruptFileError as exc:
        one_line(exc, str(path))
    else:
        assert loaded is not None
