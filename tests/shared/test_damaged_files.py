"""Damaged or foreign files: a cache is named in one line and rebuilt, a stored result
or a file the user gives is refused in one line naming it; none is misread."""

from __future__ import annotations

import json
import struct
import zipfile

import pytest

from analysis import cli
from analysis.cobardes.studies import renewal
from analysis.cobardes.studies import sweep as cobardes_sweep
from analysis.coup import model as coup_model
from analysis.coup.advice import endgame as coup_advise
from analysis.coup.model import Endgame, load_record, record_path
from analysis.coup.studies import abstraction
from analysis.goat_lords.studies.tournament import Experiment, csv_folder, csv_path, load_rows
from analysis.report.coup import endgames as coup_endgames_report
from analysis.shared import store
from analysis.shared.store import CorruptFileError, read_rows, write_rows
from analysis.solve import SolveResult, solve

POSITION = "duke/assassin/3;?/captain/0;move:0"


def _damage(kind: str, path) -> None:
    """Damage ``path`` one way: bytes changed, cut short, or another kind of file."""
    data = path.read_bytes()
    if kind == "flipped byte":  # in the middle of the file, or of an archive's largest array
        changed = bytearray(data)
        changed[_middle_of_data(path, data)] ^= 0x01
        path.write_bytes(bytes(changed))
    elif kind == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "json for npz":
        path.write_text('{"strategy": [0.5, 0.5]}\n')
    else:  # "npz for json"
        path.write_bytes(b"PK\x03\x04" + b"\x00" * 60)


def _middle_of_data(path, data: bytes) -> int:
    """The middle byte of the data of ``path``'s largest member when it is a zip archive
    (its headers and alignment padding hold bytes no reader looks at), else of the file."""
    if not zipfile.is_zipfile(path):
        return len(data) // 2
    with zipfile.ZipFile(path) as zf:
        info = max(zf.infolist(), key=lambda i: i.file_size)
    name_len, extra_len = struct.unpack_from("<HH", data, info.header_offset + 26)
    return info.header_offset + 30 + name_len + extra_len + info.file_size // 2


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


# ---------------------------------------------------------------- solve results
@pytest.mark.parametrize("kind,name", [
    ("flipped byte", "result.json"), ("flipped byte", "strategy.npz"),
    ("truncated", "result.json"), ("truncated", "strategy.npz"),
    ("json for npz", "strategy.npz"), ("npz for json", "result.json"),
])
def test_a_damaged_solve_result_is_refused_naming_it(tmp_path, kind, name):
    result = solve("kuhn_poker", iterations=20, use_cache=False)
    result.save(tmp_path / "kuhn")
    assert SolveResult.load(tmp_path / "kuhn").value == pytest.approx(result.value)
    _damage(kind, tmp_path / "kuhn" / name)
    with pytest.raises(CorruptFileError) as info:
        SolveResult.load(tmp_path / "kuhn")
    assert str(tmp_path / "kuhn") in str(info.value) and "\n" not in str(info.value)


def test_a_changed_figure_fails_the_checksum(tmp_path):
    solve("kuhn_poker", iterations=20, use_cache=False).save(tmp_path / "kuhn")
    path = tmp_path / "kuhn" / "result.json"
    figures = json.loads(path.read_text())
    figures["value"] += 0.25  # still valid JSON, still a number: only a checksum sees it
    path.write_text(json.dumps(figures))
    with pytest.raises(CorruptFileError, match="checksum does not match"):
        SolveResult.load(tmp_path / "kuhn")


# ---------------------------------------------------------------- the Coup advice cache
@pytest.mark.parametrize("kind,name", [
    ("flipped byte", "strategy.npz"), ("truncated", "result.json"),
    ("json for npz", "strategy.npz"),
])
def test_the_coup_advice_cache_says_it_is_damaged_and_rebuilds(tmp_path, monkeypatch, capsys,
                                                                kind, name):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))
    first = coup_advise.advise(POSITION, turn_cap=1, cap="draw")
    (entry,) = (tmp_path / "coup_solutions").iterdir()
    capsys.readouterr()
    _damage(kind, entry / name)
    again = coup_advise.advise(POSITION, turn_cap=1, cap="draw")
    err = _one_line(capsys)
    assert err.startswith(f"{entry} is damaged") and err.endswith("; rebuilding it")
    assert again.mix == first.mix and again.value == pytest.approx(first.value)
    coup_advise.advise(POSITION, turn_cap=1, cap="draw")
    assert capsys.readouterr().err == "", "the rebuilt cache reads back"


# ---------------------------------------------------------------- resumable rows files
@pytest.mark.parametrize("kind", ["flipped byte", "truncated", "npz for json"])
def test_a_damaged_rows_file_is_refused_naming_it(tmp_path, kind):
    path = tmp_path / "rows.json"
    write_rows(path, {"a|1": {"value": 0.5}, "b|2": {"value": -0.25}})
    assert read_rows(path)["b|2"] == {"value": -0.25}
    if kind == "flipped byte":  # the closing brace becomes another character
        text = path.read_text().rstrip()
        path.write_text(text[:-1] + "]\n")
    else:
        _damage(kind, path)
    with pytest.raises(CorruptFileError) as info:
        read_rows(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    assert read_rows(tmp_path / "missing.json") == {}, "a missing file starts a sweep afresh"


def test_a_rows_file_of_another_kind_is_refused(tmp_path):
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([1, 2, 3]))
    with pytest.raises(CorruptFileError, match="not a file of rows"):
        read_rows(path)


# ---------------------------------------------------------------- stored records (JSON)
BAD_JSON = {
    "truncated": '{"version": 3, "value": 0.2',
    "binary": "PK\x03\x04\x00\x00 not text at all",
    "a list": "[1, 2, 3]",
}


def _record_readers(tmp_path):
    """(path a reader looks at, the reader) for each family of stored JSON records."""
    eg = Endgame(1, 2, "inquisitor", ("contessa", "contessa"), 2)
    task = cobardes_sweep.task_path(tmp_path, ("Squire", "Wolf"), 4, 5, True)
    return [
        (record_path(tmp_path, eg), lambda: load_record(tmp_path, eg)),
        (tmp_path / f"{abstraction.slug(eg)}.json", lambda: abstraction.load(tmp_path, eg)),
        (tmp_path / f"{abstraction.slug(eg)}.json", lambda: abstraction.cached(tmp_path)),
        (task, lambda: cobardes_sweep.load_task(task)),
        (tmp_path / "renewal.json", lambda: renewal.load_renewal(tmp_path / "renewal.json")),
    ]


@pytest.mark.parametrize("kind", list(BAD_JSON))
def test_a_damaged_stored_record_is_refused_naming_it(tmp_path, kind):
    for path, read in _record_readers(tmp_path):
        assert not read(), "a missing record is simply not there yet"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAD_JSON[kind])
        with pytest.raises(CorruptFileError) as info:
            read()
        message = str(info.value)
        assert str(path) in message and "is damaged" in message and "\n" not in message
        path.unlink()


def test_a_damaged_report_input_is_refused_not_reported_as_not_run(tmp_path):
    """A stored result the report reads is refused naming it, not shown as "Not run yet"."""
    with store.use(tmp_path):
        path = coup_model.data_dir("cap_study.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        assert "Not run yet" in coup_endgames_report.section_turn_cap(None)
        path.write_text('{"inquisitor_contessa-contessa_m1_o2_cap2": {"value": 0.')
        with pytest.raises(CorruptFileError, match="cap_study.json is not a CapStudyRow rows"):
            coup_endgames_report.section_turn_cap(None)
        with pytest.raises(CorruptFileError, match="cap_study.json is damaged"):
            read_rows(path)


# ---------------------------------------------------------------- checkpoints (given by users)
@pytest.mark.parametrize("kind", ["flipped byte", "truncated", "json for npz"])
def test_a_damaged_checkpoint_is_refused_and_left_alone(tmp_path, kind):
    checkpoint = tmp_path / "ckpt.npz"
    solve("kuhn_poker", iterations=10, checkpoint=checkpoint, use_cache=False)
    if kind == "flipped byte":  # inside the regrets' stored bytes: the zip's CRC-32 sees it
        data = checkpoint.read_bytes()
        with zipfile.ZipFile(checkpoint) as archive:
            info = archive.getinfo("regret.npy")
        start = info.header_offset
        name_len, extra_len = struct.unpack("<HH", data[start + 26: start + 30])
        changed = bytearray(data)
        changed[start + 30 + name_len + extra_len + info.file_size - 3] ^= 0x40
        checkpoint.write_bytes(bytes(changed))
    else:
        _damage(kind, checkpoint)
    before = checkpoint.read_bytes()
    with pytest.raises(CorruptFileError, match="checkpoint") as info:
        solve("kuhn_poker", iterations=20, checkpoint=checkpoint, use_cache=False)
    assert str(checkpoint) in str(info.value) and "\n" not in str(info.value)
    assert checkpoint.read_bytes() == before


# ---------------------------------------------------------------- Goat Lords tournament rows
EXP = Experiment("damaged", 2, ("random", "random"), games=2)


def test_a_damaged_tournament_csv_is_refused_in_the_data_and_replayed_in_the_cache(
        tmp_path, monkeypatch, capsys):
    stored = csv_path(EXP, tmp_path)
    stored.write_text("this,is,not\n1,2,3\n")
    with pytest.raises(CorruptFileError, match="other columns") as info:
        load_rows(EXP, tmp_path)
    assert str(stored) in str(info.value)
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    folder = csv_folder(quick=True)
    folder.mkdir(parents=True)
    cached = csv_path(EXP, folder)
    cached.write_bytes(b'"unterminated,\x00\n"x\n')
    assert load_rows(EXP, folder).empty
    err = _one_line(capsys)
    assert err.startswith(str(cached)) and err.endswith("is damaged (not a tournament's rows "
                                                       "(other columns)); rebuilding it")
    assert not cached.exists()
    stored.write_bytes(b"\xff\xfe\x00 binary, not rows\n")
    with pytest.raises(CorruptFileError, match="not text"):
        load_rows(EXP, tmp_path)


@pytest.mark.parametrize("kind", ["truncated", "json for npz", "flipped byte"])
def test_the_default_checkpoint_is_a_cache_named_and_rebuilt(tmp_path, monkeypatch, capsys, kind):
    """``farol solve`` without ``--checkpoint`` keeps its checkpoint in the cache: a damaged
    one is named in one line and the solve starts afresh; a named one is refused."""
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    argv = ["solve", "kuhn_poker", "--iterations", "20", "--out", str(tmp_path / "out"),
            "--no-progress"]
    assert cli.main(argv) == 0
    (checkpoint,) = (tmp_path / "cache" / "checkpoints").iterdir()
    _damage(kind, checkpoint)
    capsys.readouterr()
    assert cli.main(argv) == 0
    err = _one_line(capsys)
    assert err.startswith(f"{checkpoint} is damaged") and err.endswith("; rebuilding it")
    assert SolveResult.load(tmp_path / "out").iterations == 20
    assert cli.main(argv) == 0 and capsys.readouterr().err == ""
    _damage(kind, checkpoint)
    assert cli.main([*argv, "--checkpoint", str(checkpoint)]) == 2
    err = _one_line(capsys)
    assert str(checkpoint) in err and "rebuilding" not in err
