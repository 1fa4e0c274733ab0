"""The farol command: listing, playing, reporting, and one-line errors for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from analysis import cli
from analysis.cli import games as cli_games
from analysis.play.session import play_game
from analysis.report.context import ReportContext
from analysis.shared import store
from analysis.shared.params import load_game, parse_params
from games import catalog
from games.errors import InvalidParameterError


def test_games_lists_every_game(capsys):
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    for entry in catalog.entries():
        assert entry.name in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["play", "no_such_game"], "unknown game 'no_such_game'"),
        (["play", "leduc_poker", "--param", "bogus=1"], "no parameter 'bogus'"),
        (["play", "leduc_poker", "--param", "players=two"], "whole number"),
        (["play", "leduc_poker", "--param", "players"], "key=value"),
        (["report", "no_such_family"], "unknown game family 'no_such_family'"),
        (["play", "leduc_poker", "--seat", "5"], "seat 5 does not exist"),
        (["play", "leduc_poker", "--opponent", "nobody"], "no bot 'nobody'"),
    ],
)
def test_bad_input_gives_one_clear_line(argv, needle, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_parse_params_types_values():
    assert parse_params("leduc_poker", ["players=3", "action_mapping=true"]) == {
        "players": 3,
        "action_mapping": True,
    }
    with pytest.raises(InvalidParameterError):
        parse_params("leduc_poker", ["action_mapping=maybe"])


def test_load_game_wraps_openspiel_errors():
    with pytest.raises(InvalidParameterError, match="cannot load leduc_poker"):
        load_game("leduc_poker", {"players": 1})


def _scripted(answers):
    it = iter(answers)

    def read(_prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_play_kuhn_to_the_end_shows_only_own_card():
    game = load_game("kuhn_poker")
    lines: list[str] = []
    returns = play_game(game, seat=0, opponent="random", seed=3, read=_scripted(["a"] * 10), write=lines.append)
    assert returns is not None and sum(returns) == 0
    text = "\n".join(lines)
    assert "Game over" in text
    assert "  a) " in text  # legal actions are listed by letter


@pytest.mark.parametrize("entry", catalog.entries(), ids=lambda e: e.name)
def test_play_each_of_our_games_against_random(entry):
    """A scripted person who always picks the first legal action finishes a game."""
    game = load_game(entry.name)
    lines: list[str] = []
    returns = play_game(game, seat=0, opponent="random", seed=1, read=_scripted(["a"] * 100_000), write=lines.append)
    assert returns is not None
    assert len(returns) == game.num_players()


def test_play_quits_on_eof():
    game = load_game("kuhn_poker")
    lines: list[str] = []
    assert play_game(game, 0, "random", 1, read=_scripted([]), write=lines.append) is None


def test_play_rejects_an_unknown_move_then_accepts_a_name():
    game = load_game("kuhn_poker")
    lines: list[str] = []
    returns = play_game(game, 0, "random", 1, read=_scripted(["xyzzy", "Pass", "Pass", "a"]), write=lines.append)
    assert any("is not one of your legal actions" in line for line in lines)
    assert returns is not None


def test_report_all_writes_index_and_reports(tmp_path, capsys, monkeypatch):
    unlabelled = []
    save = ReportContext.save_figure

    def checked(self, fig, stem):
        # Every chart's axes say what they show (colour bars carry their own label).
        for ax in fig.axes:
            if ax.get_label() != "<colorbar>" and ax.axison and not (
                    ax.get_xlabel() and ax.get_ylabel()):
                unlabelled.append(f"{self.family.key}_{stem}: {ax.get_title()!r}")
        return save(self, fig, stem)

    monkeypatch.setattr(ReportContext, "save_figure", checked)
    assert cli.main(["report", "all", "--out", str(tmp_path), "--quick"]) == 0
    assert not unlabelled, "\n".join(unlabelled)
    index = (tmp_path / "index.md").read_text()
    for fam in catalog.families():
        md = tmp_path / f"{fam.key}.md"
        assert md.exists()
        assert f"({fam.key}.md)" in index
        text = md.read_text()
        assert "## The rules in brief" in text
        for entry in fam.games:
            assert entry.name in text
        for line in text.splitlines():
            if line.startswith("![") and "](" in line:
                assert (tmp_path / line.split("](")[1].rstrip(")")).exists()


def test_data_option_points_the_run_at_a_folder(tmp_path, monkeypatch, capsys):
    """``farol --data DIR COMMAND``: the command reads and writes its stored results under
    DIR; afterwards the data root is what it was."""
    seen = []
    monkeypatch.setattr(cli_games, "run", lambda args: seen.append(store.data_root()) or 0)
    before = store.data_root()
    assert cli.main(["--data", str(tmp_path), "games"]) == 0
    assert seen == [tmp_path]
    assert store.data_root() == before
    assert cli.main(["games"]) == 0
    assert seen == [tmp_path, before]
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "--data DIR" in capsys.readouterr().out


def test_moves_are_typed_by_letter_name_or_card_number():
    """Letters list the moves, so a number typed is a card's: after the 5 is played,
    ``6`` plays warrior 6 (not the sixth move listed), as do ``warrior 6`` and the name."""
    from analysis.play.session import match_move, menu_code

    names = ["play warrior 0", "play warrior 1", "play warrior 2", "play warrior 3",
             "play warrior 4", "play warrior 6", "play villain Thug"]
    for answer in ("6", "warrior 6", "play warrior 6", "PLAY  Warrior 6", "f"):
        assert match_move(answer, names) == 5, answer
    assert match_move("5", names) is None  # the 5 is gone: refused, not another move
    assert match_move("thug", names) == 6
    assert match_move("warrior", names) == [0, 1, 2, 3, 4, 5]  # ambiguous: all listed
    assert [menu_code(i) for i in (0, 25, 26, 27, 52)] == ["a", "z", "aa", "ab", "ba"]
    coup = ["Income", "Tax (claims Duke)", "Steal from P1 (claims Captain)"]
    assert match_move("duke", coup) == 1 and match_move("tax", coup) == 1


def test_an_ambiguous_move_lists_what_it_could_be():
    game = load_game("python_cobardes_battle", {"kinds": "warriors"})
    lines: list[str] = []
    returns = play_game(game, 0, "random", 1, read=_scripted(["warrior"] + ["a"] * 50),
                        write=lines.append)
    assert returns is not None
    assert any("'warrior' could be: play warrior 0 (prince), play warrior 1" in line
               for line in lines)


def test_each_command_starts_on_its_own():
    """A command imports only its own module, so each must import alone, whatever was
    loaded before in other runs: ``farol COMMAND --help`` in a fresh process, every
    command at once."""
    code = "import sys; from analysis.cli import main; sys.exit(main())"
    runs = {name: subprocess.Popen([sys.executable, "-c", code, name, "--help"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   cwd=Path(__file__).resolve().parents[2])
            for name, _, _ in cli.COMMANDS}
    for name, run in runs.items():
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0 and f"usage: farol {name}" in out, (name, err[-500:])
