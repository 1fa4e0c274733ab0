"""Goat Lords tournaments: seeded, parallel, resumable, in the data folder; ``farol goat-lords``."""

from __future__ import annotations

import numpy as np

from analysis import cli, store
from analysis.goat_lords.plan import run_plan
from analysis.goat_lords.tournament import (
    Experiment,
    csv_folder,
    csv_path,
    load_rows,
    play_one,
    run_experiment,
    swap_in_a_wild,
)
from games.goat_lords.cards import DECK_COUNTS, IS_WILD
from games.goat_lords.table import STARTER, Config, Table


def test_tournament_is_seeded_parallel_and_resumable(tmp_path):
    exp = Experiment("tiny", 3, ("greedy", "random", "greedy"), 12, seed=9, rotate=True)
    with store.use(tmp_path):
        df = run_experiment(exp, workers=2, chunk=4, progress=False)
        path = csv_path(exp)
    assert path == tmp_path / "goat_lords_tiny.csv"
    assert sorted(df["index"]) == list(range(12))
    # The same game played alone (no pool) gives the same row.
    alone = play_one(exp, 7)
    row = df[df["index"] == 7].iloc[0]
    assert row["winners"] == alone["winners"] and row["points"] == alone["points"]
    assert row["seating"] == ";".join(exp.seating(7))
    lines_before = path.read_text().splitlines()
    # A rerun with more games plays only the new ones; the finished ones are not replayed.
    more = Experiment("tiny", 3, ("greedy", "random", "greedy"), 16, seed=9, rotate=True)
    df2 = run_experiment(more, tmp_path, workers=1, chunk=4, progress=False)
    lines_after = path.read_text().splitlines()
    assert lines_after[: len(lines_before)] == lines_before
    assert len(lines_after) == len(lines_before) + 4
    assert sorted(df2["index"]) == list(range(16))
    # Another experiment under the same name (other seed) does not reuse these rows.
    other = Experiment("tiny", 3, ("greedy", "random", "greedy"), 2, seed=10, rotate=True)
    assert load_rows(other, tmp_path).empty


def test_goat_lords_command(tmp_path, capsys):
    argv = ["goat-lords", "--players", "2", "--bots", "greedy,random", "--games", "6", "--rotate",
            "--out", str(tmp_path), "--workers", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "6 games" in out and "greedy: win rate" in out and "attacker wins" in out
    assert cli.main(["goat-lords", "--players", "3", "--bots", "greedy,random"]) == 2
    assert "names 2 bots for 3 players" in capsys.readouterr().err
    assert cli.main(["goat-lords", "--bots", "nobody", "--out", str(tmp_path)]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err
    assert cli.main(["goat-lords", "--bots", "alphago:10", "--out", str(tmp_path)]) == 2
    assert "no bot 'alphago:10'" in capsys.readouterr().err


def test_goat_lords_command_writes_to_the_data_folder(tmp_path, monkeypatch, capsys):
    """Without ``--out`` the tournament's CSV goes to the store's data root."""
    monkeypatch.setenv("FAROL_DATA_DIR", str(tmp_path))
    assert cli.main(["goat-lords", "--games", "2", "--workers", "1"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert len(list(tmp_path.glob("goat_lords_cli_*.csv"))) == 1


def test_extra_wild_experiment_changes_only_the_treated_hand():
    """The intervention keeps the deal: the treated seat swaps its cheapest goat for a wild."""
    table = Table(Config(players=3))
    rng = np.random.default_rng(0)
    while table.phase != STARTER:
        kinds, probs = zip(*table.chance_outcomes(), strict=True)
        table.apply_chance(int(rng.choice(kinds, p=np.array(probs) / sum(probs))))
    before = [h[:] for h in table.hands]
    swap_in_a_wild(table, 1, np.random.default_rng(1))
    assert table.hands[0] == before[0] and table.hands[2] == before[2]
    wilds = lambda hand: sum(c for c, w in zip(hand, IS_WILD, strict=True) if w)  # noqa: E731
    assert wilds(table.hands[1]) == wilds(before[1]) + 1 and sum(table.hands[1]) == 5
    assert [d + sum(h[k] for h in table.hands) for k, d in enumerate(table.draw)] == list(DECK_COUNTS)


def test_quick_plan_plays_in_the_cache_not_the_data_folder(tmp_path, monkeypatch):
    """Quick (noisy) tournaments never mix with the stored results of the data folder."""
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        assert csv_folder() == tmp_path / "data"
        results = run_plan(True, workers=1, only=lambda exp: exp.name == "quick_seats_random_2p")
    [(exp, df)] = results["seats"]
    assert len(df) == exp.games and (tmp_path / "cache" / "goat_lords" / "goat_lords_quick_seats_random_2p.csv").exists()
    assert not (tmp_path / "data").exists()
