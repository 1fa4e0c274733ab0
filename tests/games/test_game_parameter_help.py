"""``farol games`` says in one line what each parameter of each game does, in the words
of the game that declares the parameter (``GameEntry.parameter_help``)."""

from __future__ import annotations

import pytest

from analysis.cli import main
from analysis.shared.params import game_parameter_spec
from games import catalog


@pytest.mark.parametrize("entry", catalog.entries(), ids=lambda e: e.name)
def test_every_parameter_is_described_in_one_line(entry):
    spec = game_parameter_spec(entry.name)
    assert set(entry.parameter_help) == set(spec), "a parameter without its line, or a stale one"
    for key, text in entry.parameter_help.items():
        assert text and "\n" not in text and len(text) <= 100, key


def test_farol_games_prints_each_line_beside_its_parameter(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    for entry in catalog.entries():
        for key, text in entry.parameter_help.items():
            assert any(line.strip().startswith(f"{key} = ") and line.endswith(text)
                       for line in out), (entry.name, key)
