"""Every benchmark names the code that made its result, and only committed code makes one.

- :mod:`benchmarks.results_file` stamps version, commit and seed into each result, and
  refuses (one line, exit status 2) to write from uncommitted code unless the run was
  given ``--allow-dirty``, which the result then says.
- Every benchmark script writes its results only through it (no file written by hand),
  and parses its options with it (so ``--allow-dirty`` exists and the check runs first).
- Every committed result records its version, commit and seed, and no commit carries
  uncommitted changes (``+changes``).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
RESULTS = BENCHMARKS / "results"
sys.path.insert(0, str(BENCHMARKS))
import results_file as R  # noqa: E402

SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if p.name != "results_file.py")


@pytest.fixture
def clean(monkeypatch):
    monkeypatch.setattr(R, "uncommitted", lambda: [])
    monkeypatch.setattr(R, "code_commit", lambda: "a" * 40)
    R.allow_dirty(False)
    yield
    R.allow_dirty(False)


def test_save_stamps_version_commit_and_seed(tmp_path, clean):
    R.save(tmp_path, "x", ["speed 3 s"], {"value": 1, "lines": ["speed 3 s"]}, seed=5)
    record = json.loads((tmp_path / "x.json").read_text())
    assert record["commit"] == "a" * 40 and record["seed"] == 5 and record["version"]
    assert "allow_dirty" not in record
    text = (tmp_path / "x.txt").read_text().splitlines()
    assert text[0] == f"farol {record['version']}, commit {'a' * 40}, seed 5"
    assert text[1] == "speed 3 s" and record["lines"] == text


def test_a_record_keeps_its_own_provenance(tmp_path, clean):
    own = {"version": "0.0.9", "commit": "b" * 40, "seed": 2}
    R.save(tmp_path, "x", [f"commit {'b' * 40}", "1"], {"provenance": own})
    record = json.loads((tmp_path / "x.json").read_text())
    assert (record["version"], record["commit"], record["seed"]) == ("0.0.9", "b" * 40, 2)
    assert (tmp_path / "x.txt").read_text() == f"commit {'b' * 40}\n1\n"


def test_a_result_without_its_seed_is_refused(tmp_path, clean):
    with pytest.raises(ValueError, match="seed"):
        R.save(tmp_path, "x", ["1"], {"value": 1})


def test_uncommitted_code_is_refused_in_one_line(tmp_path, clean, monkeypatch, capsys):
    monkeypatch.setattr(R, "uncommitted", lambda: ["analysis/solve/kernels.py"])
    with pytest.raises(SystemExit) as exit_info:
        R.save(tmp_path, "x", ["1"], {"value": 1}, seed=None)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--allow-dirty" in err
    assert "analysis/solve/kernels.py" in err
    assert not list(tmp_path.iterdir())


def test_allow_dirty_is_said_in_the_result(tmp_path, clean, monkeypatch):
    monkeypatch.setattr(R, "uncommitted", lambda: ["analysis/solve/kernels.py"])
    monkeypatch.setattr(R, "code_commit", lambda: "c" * 40 + "+changes")
    parser = __import__("argparse").ArgumentParser()
    args = R.parse_args(parser, ["--allow-dirty"])
    assert args.allow_dirty
    R.save(tmp_path, "x", ["1"], {"value": 1}, seed=None)
    record = json.loads((tmp_path / "x.json").read_text())
    assert record["allow_dirty"] is True
    text = (tmp_path / "x.txt").read_text()
    assert R.DIRTY_WORDS in text and "+changes" in text
    R.write_text(tmp_path / "y.txt", ["1"], seed=3)
    assert R.DIRTY_WORDS in (tmp_path / "y.txt").read_text()


def test_parse_args_refuses_before_measuring(clean, monkeypatch):
    monkeypatch.setattr(R, "uncommitted", lambda: ["games/coup/engine.py"])
    with pytest.raises(SystemExit) as exit_info:
        R.parse_args(__import__("argparse").ArgumentParser(), [])
    assert exit_info.value.code == 2


def _calls(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            out.append(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_benchmark_writes_through_results_file(script):
    source = script.read_text()
    tree = ast.parse(source)
    calls = _calls(tree)
    # Scratch files (a temporary copy's configuration) say so on their line.
    writes = [line for line in source.splitlines() if ".write_text(" in line
              and "results_file.write_text(" not in line and "# scratch file" not in line]
    assert not writes, f"{script.name} writes a file by hand: {writes}"
    assert "dump" not in calls  # json.dump to a file by hand
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
            modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            path = ast.unparse(node.args[0]) if node.args else ""
            assert not modes or modes[0] == "r" or path.strip("'\"").startswith("/proc/"), (
                f"{script.name} opens {path} to write")
    # Options through results_file (so --allow-dirty exists and the check runs first).
    assert "parse_args" not in calls or "results_file.parse_args(" in source
    assert "parser.parse_args(" not in source
    if "ArgumentParser" not in source:
        assert "measure_and_save(" in source, f"{script.name}: no options parsed"


def _json_results():
    return sorted(RESULTS.glob("*.json"))


def _commits(data) -> list[str]:
    return re.findall(r'"commit": "([^"]*)"', json.dumps(data))


@pytest.mark.parametrize("path", _json_results(), ids=lambda p: p.name)
def test_every_json_result_records_version_commit_and_seed(path):
    data = json.loads(path.read_text())
    assert isinstance(data, dict)
    inner = data.get("provenance", {})
    for key in ("version", "commit", "seed"):
        assert key in data or key in inner, f"{path.name}: no {key}"
    commits = _commits(data)
    assert commits and all(re.fullmatch(r"[0-9a-f]{40}", c) or re.fullmatch(r"[0-9a-f]{12}", c)
                           for c in commits), (path.name, commits)


@pytest.mark.parametrize("path", sorted(RESULTS.glob("*.txt")) + sorted(RESULTS.glob("*.csv")),
                         ids=lambda p: p.name)
def test_every_text_result_names_its_commit(path):
    text = path.read_text()
    assert re.search(r"commit [0-9a-f]{7,40}\b", text), f"{path.name} names no commit"
    assert "+changes" not in text or R.DIRTY_WORDS in text, path.name
