"""The typed Coup records give back, key for key, the files committed under the data folder."""

from __future__ import annotations

import json

import pytest

from analysis.coup.model import BracketRecord, Endgame, EndgameRecord, read_typed_rows
from analysis.coup.studies.abstraction import Estimate
from analysis.coup.studies.full_game import FullGameRow
from analysis.coup.studies.larger import LargerRow
from analysis.coup.studies.sweep import CapStudyRow
from analysis.shared import store

KINDS = {"endgames": EndgameRecord, "endgames_priced": EndgameRecord,
         "brackets": BracketRecord, "brackets_markov": BracketRecord,
         "abstraction": Estimate, "abstraction_memory": Estimate}
# The resumable results files: one JSON object of rows (written by
# analysis.shared.store.write_rows: sorted keys).
ROW_FILES = {"cap_study.json": CapStudyRow, "full_game.json": FullGameRow,
             "full_game_markov.json": FullGameRow, "larger.json": LargerRow,
             "larger_markov.json": LargerRow}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_committed_record_round_trips(kind):
    files = sorted(store.data("coup", kind).glob("*.json"))
    assert files, kind
    for path in files:
        text = path.read_text()
        record = KINDS[kind].from_json(json.loads(text))
        assert isinstance(record.endgame, Endgame)
        assert json.dumps(record.to_json(), indent=1) + "\n" == text, path.name


@pytest.mark.parametrize("name", sorted(ROW_FILES))
def test_every_committed_row_file_round_trips(name):
    path = store.data("coup", name)
    text = path.read_text()
    rows = read_typed_rows(ROW_FILES[name], path)
    assert rows and all(isinstance(r, ROW_FILES[name]) for r in rows.values())
    again = {key: row.to_json() for key, row in rows.items()}
    assert json.dumps(again, indent=1, sort_keys=True) + "\n" == text


def test_missing_fields_are_none_and_unknown_keys_refused():
    eg = Endgame(1, 2, "inquisitor", turn_cap=2)
    record = BracketRecord.from_json({"endgame": eg.to_json(), "lower_win": 0.25})
    assert record.upper_win is None and record.lower_win == 0.25
    assert record.to_json() == {"endgame": eg.to_json(), "lower_win": 0.25}
    assert BracketRecord(endgame=eg, lower_win=0.5).to_json() == {"endgame": eg.to_json(),
                                                                  "lower_win": 0.5}
    with pytest.raises(ValueError, match="surprise"):
        EndgameRecord.from_json({"endgame": eg.to_json(), "surprise": 1})
