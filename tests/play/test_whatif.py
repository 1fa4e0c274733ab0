"""The designer's what-if (``farol whatif``): rules as parameters, the printed rules given
as parameters coming out with no difference, variants whose effect is worked out by hand,
the record (parameters, version, commit, seed) and resuming.

Tests of printed defaults quote the rules texts (Spanish for Coup and Goat Lords, with a
translation; the ¡Cobardes! rulebook in English).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from analysis.cli import main
from analysis.cobardes.model import DRAW, BattleSpec, initial_position
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.studies import whatif as CW
from analysis.coup.studies import whatif as KW
from analysis.goat_lords.studies import whatif as GW
from analysis.play.bots import make_bot, sample_chance
from analysis.play.match import play_games
from analysis.play.whatif import WhatIf
from analysis.shared import store
from analysis.shared.store import CorruptFileError
from analysis.solve import CFRSolver, compile_game
from games.coup import cards as C
from games.errors import InvalidParameterError
from games.goat_lords.cards import KINDS


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "data"):
        yield tmp_path


def coup(params):
    return pyspiel.load_game("python_coup", params)


# ---------------------------------------------------------------- rules as parameters
def test_coup_numbers_default_to_the_printed_rules():
    """«Golpe de Estado (pagas 7 monedas ...)» (a Coup costs 7), «Asesino, paga 3 monedas»
    (an Assassination 3), «Con diez monedas o más estás obligado a dar un golpe de Estado»
    (10 coins force a Coup), «Ingreso (coges 1 moneda ...)», «Ayuda exterior (coges 2
    monedas ...)», «cobra impuestos y coge 3 monedas» (Income 1, Foreign Aid 2, Tax 3),
    «quita 2 monedas» (Steal 2), «Cada persona coge dos monedas» (2 coins each),
    «Separad tres cartas de cada uno de los cinco personajes» (3 copies), «Repartid dos
    cartas boca abajo a cada persona» (2 cards each) — coup_rules_es_basic.txt."""
    assert (C.PRINTED.coup_cost, C.PRINTED.assassination_cost, C.PRINTED.forced_coup_coins,
            C.PRINTED.income, C.PRINTED.foreign_aid, C.PRINTED.tax, C.PRINTED.steal,
            C.PRINTED.starting_coins, C.PRINTED.hand_size) == (7, 3, 10, 1, 2, 3, 2, 2, 2)
    game = coup({"players": 3})
    assert game.config.numbers == C.PRINTED and game.config.copies == 3
    params = game.get_parameters()
    assert all(params[k] == getattr(C.PRINTED, k) for k in C.NUMBER_PARAMS)


@pytest.mark.parametrize(("params", "words"), [
    ({"assassination_cost": -1}, "cannot be negative"),
    ({"coup_cost": 0}, "at least 1"),
    ({"coup_cost": 11}, "forced_coup_coins"),
    ({"hand_size": 3}, "1 or 2"),
    ({"players": 6, "copies": 2}, "court"),
    ({"players": 8, "starting_coins": 7}, "total_coins"),
])
def test_coup_nonsense_is_refused_in_one_line(params, words):
    with pytest.raises(InvalidParameterError, match=words) as err:
        coup(params)
    assert "\n" not in str(err.value)


def test_coup_variant_numbers_reach_the_engine():
    game = coup({"players": 3, "income": 2, "starting_coins": 4, "copies": 4, "hand_size": 1})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    core = state.core
    assert core.coins == (4, 4, 4) and all(len(h) == 1 for h in core.hands)
    assert sum(core.court) == 4 * C.NUM_CHARACTERS - 3
    actor = core.actor
    state.apply_action(C.A_INCOME)
    assert state.core.coins[actor] == 6


def test_an_assassination_nobody_can_afford_is_never_played():
    """Worked out by hand: with an Assassination costing more than every coin in the
    game, no player can ever hold its price, so it is never legal and never played, even
    by agents that play every legal move at random."""
    game = coup({"players": 3, "assassination_cost": 51, "total_coins": 50})
    for seed in range(6):
        rng = np.random.default_rng(seed)
        bots = [make_bot("random", game, s, seed * 10 + s) for s in range(3)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            assert not any(C.A_ASSASSINATE <= a < C.A_STEAL for a in legal)
            state.apply_action(bots[state.current_player()](state))


def test_goat_lords_wilds_and_hand_size_are_parameters():
    """«4 cartas a cada jugador (5 si juega con 2-3 jugadores)» (goat_lords_rules_es.txt):
    hand_size 0 keeps it; the published deck's 4 Goat Lords and 8 Magical Goatini are the
    wilds' defaults."""
    game = pyspiel.load_game("python_goat_lords", {"players": 3})
    assert game.config.hand_size == 5 and game.config.counts[0] == 4 and game.config.counts[1] == 8
    game = pyspiel.load_game("python_goat_lords",
                             {"players": 4, "hand_size": 6, "copies_goat_lord": 0})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        assert KINDS[0].key == "goat_lord" and 0 not in outcomes  # no Goat Lord left to draw
        state.apply_action(sample_chance(state, rng))
    assert all(sum(h) == 6 for h in state.table.hands)
    with pytest.raises(InvalidParameterError, match="deck has"):
        pyspiel.load_game("python_goat_lords", {"players": 6, "hand_size": 20,
                                                "copies_goat_lord": 0, "copies_goatini": 0})
    with pytest.raises(InvalidParameterError, match="Goat Lord"):
        pyspiel.load_game("python_goat_lords", {"copies_goat_lord": -2})


def test_the_wars_victories_are_a_parameter():
    """«The first to do either of the following wins the war ...: gain 3 Victory tokens»
    (cobardes_rulebook_en.txt)."""
    assert pyspiel.load_game("python_cobardes_war").rules.victories == 3
    with pytest.raises(InvalidParameterError, match="victories"):
        pyspiel.load_game("python_cobardes_war", {"victories": 0})
    with pytest.raises(InvalidParameterError, match="tokens0"):
        pyspiel.load_game("python_cobardes_war", {"victories": 2, "tokens0": 2})


# ---------------------------------------------------------------- the printed rules, twice
def test_coup_printed_rules_as_parameters_show_no_difference(data):
    printed = {k: getattr(C.PRINTED, k) for k in ("assassination_cost", "coup_cost", "tax")}
    result = KW.run_whatif(printed, players=3, agent="honest", strong="bluffer",
                           precision=0.2, skill_precision=0.3, max_games=60, progress=False)
    assert result.metrics and all(
        m.difference.holds(0.0) for m in result.metrics if not math.isnan(m.difference.value))
    assert result.metric("seat_1").printed == result.metric("seat_1").variant


def test_the_printed_numbers_spelled_out_play_the_very_same_games():
    """Below the what-if's records (which file the printed rules given as parameters with
    the printed rules' games): the games themselves, seed for seed, are the same."""
    printed = {k: getattr(C.PRINTED, k) for k in C.NUMBER_PARAMS}
    agents = ("random", "bluffer", "honest")
    assert (play_games("python_coup", agents, 12, 5, {"players": 3})
            == play_games("python_coup", agents, 12, 5, {"players": 3} | printed))
    spelled = {"copies_goat_lord": 4, "copies_goatini": 8, "hand_size": 5, "target_score": 1000}
    assert (play_games("python_goat_lords", ("greedy", "random"), 6, 5, {},
                       build=GW.build_bot, schedule=GW.SCHEDULE)
            == play_games("python_goat_lords", ("greedy", "random"), 6, 5, spelled,
                          build=GW.build_bot, schedule=GW.SCHEDULE))


def test_goat_lords_printed_rules_as_parameters_show_no_difference(data):
    result = GW.run_whatif({"copies_goat_lord": 4, "hand_size": 0}, players=2,
                           strong="greedy", precision=0.2, skill_precision=0.3,
                           max_games=60, skill_max_games=20, progress=False)
    assert all(m.difference.holds(0.0) for m in result.metrics)


def test_cobardes_printed_rules_as_parameters_show_no_difference(data):
    result = CW.run_whatif({"kinds": "warriors", "victories": 3}, progress=False)
    assert all(m.difference.exact and m.difference.holds(0.0) for m in result.metrics)
    assert result.metric("first_player_edge").printed.value == pytest.approx(0.0, abs=1e-9)


def test_a_war_to_one_victory_is_the_battle(data):
    """Worked out by hand: to one victory, the war is one battle replayed until it is not
    drawn, so its value is the battle's with a draw paying that value again, and the first
    player wins it with P(win or Crown) / (1 - P(draw)). Checked against the battle solved
    by the other solver (the Python graph's backward induction)."""
    war = CW.solve_pairing({"kinds": "warriors"}, (None, None), 1)
    cfg, pos, _ = initial_position(BattleSpec(C_WARRIORS, C_COMBATS, (None, None)).params())
    sol = BattleGraph(cfg, pos).solve((1.0, -1.0, 1.0, -1.0, war.value))
    q = sol.outcome_probs
    assert sol.value == pytest.approx(war.value, abs=1e-8)
    assert war.win == pytest.approx((q[0] + q[2]) / (1 - q[DRAW]), abs=1e-8)
    assert war.battles == pytest.approx(1 / (1 - q[DRAW]), abs=1e-8)


C_WARRIORS, C_COMBATS = 6, 7


# ---------------------------------------------------------------- record and resuming
def test_a_whatif_records_its_parameters_version_commit_and_seed_and_resumes(data, tmp_path,
                                                                            capsys):
    argv = ["whatif", "coup", "--param", "income=2", "--players", "2", "--agent", "honest",
            "--strong", "bluffer", "--precision", "0.2", "--skill-precision", "0.3",
            "--max-games", "40", "--seed", "3", "--out", str(tmp_path / "out"), "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["variant"] == {"income": 2} and first["seed"] == 3
    assert first["version"] and first["commit"]
    assert first.pop("schema") == "whatif/1"
    assert WhatIf.from_json(first).to_json() == first
    # Its games are kept in the cache; nothing is written in the data folder (the
    # repository's reports/data by default), only the page under --out.
    files = sorted((data / "cache" / "whatif" / "games").iterdir())
    assert not (data / "data").exists() or not any((data / "data").rglob("*"))
    sizes = [f.stat().st_size for f in files]
    # Interrupted after one game: the rest is played again, the kept games are read.
    with open(files[0], "rb+") as fh:
        lines = fh.read().splitlines(keepends=True)
        fh.seek(0)
        fh.truncate()
        fh.writelines(lines[:2])
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert [f.stat().st_size for f in files] == sizes
    assert again["metrics"] == first["metrics"]
    page = tmp_path / "out" / "whatif" / "income=2"
    assert (page / "index.md").exists() and (page / "chart.svg").exists()
    assert "income=2" in (page / "index.md").read_text()


def test_the_command_refuses_nonsense_in_one_line(data, capsys):
    assert main(["whatif", "coup", "--param", "assassination_cost=-1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "assassination_cost" in err
    assert main(["whatif", "goat-lords", "--param", "hand_size=31"]) == 2
    assert main(["whatif", "coup", "--param", "players=3"]) == 2
    assert main(["whatif", "coup", "--agent", "blueprint", "--param", "coup_cost=6",
                 "--players", "2"]) == 2
    assert "blueprint" in capsys.readouterr().err
    # The ¡Cobardes! war is solved from its start with no cap on battles: a cap or tokens
    # at the start are refused, not silently left out.
    assert main(["whatif", "cobardes", "--param", "max_battles=4"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "max_battles" in err and "cannot vary" in err
    assert main(["whatif", "cobardes", "--param", "tokens0=1"]) == 2
    assert "tokens0" in capsys.readouterr().err


@pytest.mark.slow
def test_processes_and_a_local_dask_cluster_give_the_same_whatif(tmp_path, monkeypatch):
    from distributed import LocalCluster

    small = dict(players=3, agent="honest", strong="bluffer", precision=0.2,
                 skill_precision=0.3, max_games=60, progress=False)
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "cache"))
    with store.use(tmp_path / "pool"):
        pooled = KW.run_whatif({"tax": 4}, workers=2, **small)
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, store.use(tmp_path / "dask"):
        dasked = KW.run_whatif({"tax": 4}, scheduler=cluster.scheduler_address, **small)
        wars = CW.run_whatif({"kinds": "warriors", "victories": 2},
                             scheduler=cluster.scheduler_address, progress=False)
    assert [m.to_json() for m in pooled.metrics] == [m.to_json() for m in dasked.metrics]
    assert wars.metric("length").variant.value < wars.metric("length").printed.value


# ---------------------------------------------------------------- warm start
def test_a_battle_variant_with_the_same_tree_starts_from_the_printed_solution(tmp_path):
    """Brown & Sandholm's warm start: the printed rules' regrets on the variant's tree
    (a Crown worth 2, not 3: the same tree, other payoffs); another tree is refused."""
    battle = {"kinds": "warriors+villains", "warriors": 1, "combats": 2,
              "villain_deck": "Thug/Sheep/Executioner"}
    printed = compile_game(pyspiel.load_game("python_cobardes_battle", battle))
    variant = compile_game(pyspiel.load_game("python_cobardes_battle",
                                             battle | {"crown_value": 2.0,
                                                       "crown_loss_value": -2.0}))
    base = CFRSolver(printed)
    base.iterate(300)
    path = tmp_path / "printed.npz"
    base.save_checkpoint(path)
    warm, cold = CFRSolver(variant), CFRSolver(variant)
    warm.warm_start(path)
    assert np.array_equal(warm.regret, base.regret) and warm.iteration == 0
    warm.iterate(5)
    cold.iterate(5)
    assert warm.exploitability().exploitability < cold.exploitability().exploitability
    other = compile_game(pyspiel.load_game("python_cobardes_battle", battle | {"combats": 1}))
    with pytest.raises(CorruptFileError, match="another graph"):
        CFRSolver(other).warm_start(path)


def test_an_interrupted_war_resumes_from_the_pairings_kept(data):
    first = CW.run_whatif({"kinds": "warriors", "victories": 2}, progress=False)
    path, _ = CW.record_file({"kinds": "warriors", "victories": 2})
    text = Path(path).read_text()
    with open(path, "w") as fh:
        fh.write(text[:-20])  # the pairing's line cut short, as by a stop while writing
    again = CW.run_whatif({"kinds": "warriors", "victories": 2}, progress=False)
    assert Path(path).read_text() == text
    assert [m.to_json() for m in again.metrics] == [m.to_json() for m in first.metrics]
    with open(path, "w") as fh:
        fh.write("not a record\n")
    with pytest.raises(CorruptFileError, match="not a what-if"):
        CW.run_whatif({"kinds": "warriors", "victories": 2}, progress=False)


def test_a_strong_agent_that_does_not_beat_greedy_is_said_so():
    """The skill measure names its strong agent's strength: where it does not beat greedy
    under the printed rules, the page says so and names the stronger search."""
    from analysis.play.whatif import Estimate, Metric

    def skill(low, high):
        est = Estimate((low + high) / 2, low, high)
        return Metric("skill_greedy_2p", "", "share", est, est, Estimate(0, -0.1, 0.1), "")

    assert GW.weak_strong_notes([skill(0.55, 0.65)], "lord:24", (2,)) == ()
    (note,) = GW.weak_strong_notes([skill(0.40, 0.52)], "lord:24", (2,))
    assert "does not beat greedy" in note and "--strong lord" in note


def test_a_cobardes_whatif_keeps_its_wars_in_the_cache_unless_shipped(data):
    """A variant's solved wars go to the cache, not the data folder (the repository's
    reports/data by default); a war shipped in the data folder is read there."""
    path, header = CW.record_file({"kinds": "warriors", "victories": 2})
    assert Path(path).is_relative_to(data / "cache")
    shipped = data / "data" / "cobardes" / "whatif" / Path(path).name
    shipped.parent.mkdir(parents=True)
    shipped.write_text(json.dumps(header) + "\n")
    assert Path(CW.record_file({"kinds": "warriors", "victories": 2})[0]) == shipped


def test_exact_differences_are_never_drawn_or_captioned_as_intervals():
    """An exact difference that prints as +0.0 points is no change (the chart coloured
    such a one red as "a real change"), and a chart of exact figures says so rather than
    "95% interval"; an interval leaving 0 out is a change."""
    from analysis.play.whatif import Estimate, Metric, exact
    from analysis.report.whatif import changed, chart_caption

    tiny = exact(0.0004)  # +0.04 points: printed +0.0
    assert not changed(tiny) and changed(exact(0.012))
    assert changed(Estimate(0.03, 0.01, 0.05)) and not changed(Estimate(0.01, -0.01, 0.03))
    solved = [Metric("seat_1", "seat 1", "share", exact(0.5), exact(0.5004), tiny, "solver")]
    caption = chart_caption(solved)
    assert "95%" not in caption and "solved exactly" in caption
    sampled = [Metric("seat_1", "seat 1", "share", Estimate(0.5, 0.48, 0.52),
                      Estimate(0.51, 0.49, 0.53), Estimate(0.01, -0.01, 0.03), "agent", 0.02)]
    assert "95% interval" in chart_caption(sampled)


@pytest.mark.parametrize("game,players,said", [
    ("goat-lords", "9", "Goat Lords takes 2 to 6 players, not 9"),
    ("goat-lords", "7", "Goat Lords takes 2 to 6 players, not 7"),
    ("coup", "9", "Coup takes 2 to 8 players, not 9"),
    ("cobardes", "3", "¡Cobardes! takes 2 players, not 3"),
])
def test_a_table_size_the_game_does_not_take_is_refused_with_its_own_sizes(game, players, said,
                                                                          capsys):
    """«2 to 6 players» for Goat Lords (the check said Coup's 2 to 8 for every game)."""
    assert main(["whatif", game, "--players", players]) == 2
    assert said in capsys.readouterr().err


def test_a_skill_measure_that_measures_little_says_so_in_the_summary():
    """Goat Lords: where the strong agent does not beat greedy under the printed rules,
    the what-if's summary (what the command prints) says so in one line."""
    from analysis.play.whatif import Estimate, Metric
    from analysis.report.whatif import summary_lines

    weak = Metric("skill_greedy_2p", "the strong agent's win rate against greedy, 2 players",
                  "share", Estimate(0.429, 0.380, 0.477), Estimate(0.43, 0.38, 0.48),
                  Estimate(0.001, -0.02, 0.02), "lord:24", 0.05)
    notes = GW.weak_strong_notes([weak], "lord:24", (2,))
    assert len(notes) == 1 and "lord:24 does not beat greedy" in notes[0]
    result = WhatIf("goat_lords", "x", {"value_dragon": 20}, {}, (weak,), notes, {}, 1,
                    "0", "c", 1.0)
    said = [line for line in summary_lines(result) if "does not beat greedy" in line]
    assert said == [notes[0]]


@pytest.mark.slow
def test_the_same_command_and_seed_give_the_same_figures_whatever_the_workers_and_cache(
        tmp_path, monkeypatch, capsys):
    """Byte-identical figures from one worker or two, and from a cache holding games kept
    by other code (an agent changed since): those are not read as this code's games."""
    argv = ["whatif", "coup", "--param", "income=2", "--players", "2", "--agent", "honest",
            "--strong", "bluffer", "--precision", "0.3", "--skill-precision", "0.4",
            "--max-games", "20", "--seed", "5", "--json"]
    figures = []
    for run, workers in enumerate(("1", "2", "1")):
        monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / f"cache{min(run, 1)}"))
        with store.use(tmp_path / "data"):
            assert main(argv + ["--workers", workers, "--out", str(tmp_path / "out")]) == 0
        record = json.loads(capsys.readouterr().out)
        figures.append(json.dumps(record["metrics"], sort_keys=True))
        if run == 1:  # the kept games rewritten as if other code had played them
            for path in (tmp_path / "cache1" / "whatif" / "games").iterdir():
                lines = path.read_text().splitlines()
                rows = [json.loads(line) for line in lines[1:]]
                for row in rows:  # the other seat wins, one turn later
                    row["shares"], row["turns"] = row["shares"][::-1], row["turns"] + 1
                path.write_text("\n".join([lines[0], *map(json.dumps, rows)]) + "\n")
            from analysis.play import whatif as PW
            monkeypatch.setattr(PW, "code_fingerprint", lambda game: "other code")
    assert figures[0] == figures[1]
    assert figures[2] == figures[0]
