"""A stable ``--json``: every JSON output is headed by its schema's name and version, and
its keys are the ones docs/json.md lists for that schema (every key it prints is
documented; every key documented as always there is there). Checked against what the
commands print, run here on small settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.cli.outputs import SCHEMAS, with_schema

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "json.md"

RUNS = {
    "advise-coup": ["advise", "coup", "--hand", "Duke,Contessa", "--history",
                    "Income;Tax (claims Duke)", "--json"],
    "advise-coup-exact": ["advise", "coup", "duke/contessa/3;?/contessa/0;move:0", "--exact",
                          "--json"],
    "advise-cobardes": ["advise", "cobardes", "--mine", "0,1,2", "--theirs", "1,2,3",
                        "--score", "1-2", "--json"],
    "advise-coup-table": ["advise", "coup", "--players", "3", "--hand", "Duke,Contessa", "--history", "",
                          "--rollouts", "40", "--json"],
    "match": ["coup", "match", "--agents", "honest,bluffer", "--games", "10", "--json"],
    "whatif": ["whatif", "cobardes", "--param", "kinds=warriors", "--param", "victories=2",
               "--json"],
}
SLOW = {"advise-coup-exact"}  # a minute's solve under load
NOT_RUN = {
    "advise-coup-blueprint": "needs a built blueprint (farol coup blueprint build: hours)",
    "blueprint-info": "needs a built blueprint",
    "coup-balance": "plays a table of strong agents: minutes (its keys are those of "
                    "SeatBalance.to_json, checked in tests/coup/test_coup_balance.py)",
}


def documented() -> dict[str, tuple[int, dict[str, bool]]]:
    """Each schema of docs/json.md: its version and its keys (key to "always")."""
    out = {}
    for block in re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.M)[1:]:
        name, version = re.match(r"([a-z-]+)/(\d+)", block).groups()
        keys = {}
        for row in re.findall(r"^\| (`[^|]+) \| (yes|no) \|", block, flags=re.M):
            for key in re.findall(r"`([^`]+)`", row[0]):
                keys[key] = row[1] == "yes"
        out[name] = (int(version), keys)
    return out


def _matches(key: str, pattern: str) -> bool:
    return key == pattern or (pattern.startswith("<") and
                              re.fullmatch(r"\w+" + re.escape(pattern.split(">", 1)[1]), key))


def test_every_schema_is_documented_at_its_version():
    docs = documented()
    assert {name: version for name, (version, _) in docs.items()} == SCHEMAS
    assert set(RUNS) | set(NOT_RUN) == set(SCHEMAS)


@pytest.fixture()
def sandbox(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield tmp_path


@pytest.mark.parametrize("kind", [pytest.param(k, marks=[pytest.mark.slow] if k in SLOW else [])
                                  for k in sorted(RUNS)])
def test_each_json_output_has_its_schema_and_documented_keys(kind, sandbox, capsys):
    argv = RUNS[kind] + (["--out", str(sandbox / "out")] if kind == "whatif" else [])
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    record = out[0] if isinstance(out, list) else out
    assert record["schema"] == f"{kind}/{SCHEMAS[kind]}"
    version, keys = documented()[kind]
    undocumented = [k for k in record if not any(_matches(k, p) for p in keys)]
    assert not undocumented, f"{kind}: keys not in docs/json.md: {undocumented}"
    missing = [k for k, always in keys.items() if always and k not in record]
    assert not missing, f"{kind}: keys docs/json.md says are always there: {missing}"


def test_the_schema_heads_the_record():
    assert list(with_schema("match", {"seats": []})) == ["schema", "seats"]


def test_the_changelog_notes_the_renamed_keys():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for said in ("advise-coup/2", "`actions`", "`moves`", "`opponent_hand`",
                 "`opponent_hands`"):
        assert said in text
