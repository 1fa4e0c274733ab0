"""The typed Coup records give back, key for key, the files committed under the data folder."""

from __future__ import annotations

import json

import pytest

from analysis import store
from analysis.coup.abstraction import Estimate
from analysis.coup.model import BracketRecord, Endgame, EndgameRecord

KINDS = {"endgames": EndgameRecord, "endgames_priced": EndgameRecord,
         "brackets": BracketRecord, "brackets_markov": BracketRecord,
         "abstraction": Estimate, "abstraction_memory": Estimate}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_committed_record_round_trips(kind):
    files = sorted(store.data("coup", kind).glob("*.json"))
    assert files, kind
    for path in files:
        text = path.read_text()
        record = KINDS[kind].from_json(json.loads(text))
        assert isinstance(record.endgame, Endgame)
        assert json.dumps(record.to_json(), indent=1) + "\n" == text, path.name


def test_missing_fields_are_none_and_unknown_keys_refused():
    eg = Endgame(1, 2, "inquisitor", turn_cap=2)
    record = BracketRecord.from_json({"endgame": eg.to_json(), "lower_win": 0.25})
    assert record.upper_win is None and record.lower_win == 0.25
    assert record.to_json() == {"endgame": eg.to_json(), "lower_win": 0.25}
    assert BracketRecord(eg, lower_win=0.5).to_json() == {"endgame": eg.to_json(), "lower_win": 0.5}
    with pytest.raises(ValueError, match="surprise"):
        EndgameRecord.from_json({"endgame": eg.to_json(), "surprise": 1})
