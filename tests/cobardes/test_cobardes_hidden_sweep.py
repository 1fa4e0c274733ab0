"""The sweep of courtier matchups with both villains dealt hidden: records, resume, Dask."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pyspiel
import pytest

from analysis.cli import main
from analysis.cobardes.model import (
    ENDING_NAMES,
    OUTCOME_NAMES,
    USED,
    hidden_params,
    is_mirror,
    outcome_totals,
)
from analysis.cobardes.solvers import openings, war
from analysis.cobardes.solvers.hidden_solution import HiddenSolution, solution_path
from analysis.cobardes.studies import hidden_sweep as H
from analysis.shared import store
from analysis.shared.store import CorruptFileError
from analysis.solve.errors import SolveError
from analysis.solve.floor import FloorRule
from games.cobardes import cards as C

RULE = FloorRule(every=5, patience=2, gain=0.05, max_iterations=10)
SMALL = {"warriors": 2, "combats": 2, "rule": RULE}
PAIRS = [("Squire", "Archer"), ("Archer", "Squire"), ("Wolf", "Wolf")]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Solved strategies go to a fresh cache folder, not the user's."""
    monkeypatch.setenv("FAROL_CACHE_DIR", str(tmp_path / "cache"))


def _numbers(record: H.HiddenMatchupRecord) -> dict:
    """What a record says about the battle (its timings and provenance aside)."""
    data = record.to_json()
    for key in ("compile_seconds", "solve_seconds", "provenance"):
        data.pop(key)
    return data


def test_there_are_100_matchups_with_10_mirrors():
    matchups = H.hidden_matchups()
    assert len(matchups) == len(set(matchups)) == 100
    assert sum(a == b for a, b in matchups) == 10


def test_a_record_reads_back_and_gives_each_villains_value(tmp_path):
    record, _ = H.solve_hidden_matchup(("Wolf", "Wolf"), 2, 2, rule=RULE)
    assert record.hypothetical  # one Wolf card: a mirror is a hypothetical battle
    assert record.provenance["seed"] is None and record.provenance["version"]
    again = H.HiddenMatchupRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    # The method and its stopping rule are recorded, and the kept strategy's iterations
    # are among those run.
    assert record.method == H.METHOD and record.rule == RULE.to_json()
    assert record.iterations <= record.total_iterations <= RULE.max_iterations
    assert H.METHOD in record.solver and "checks in a row" in record.solver
    # The walk is shared between villain deals: fewer positions walked than nodes.
    assert 0 < record.walked < record.nodes
    # 72 deals: 9 villains for player 0, the 8 others for player 1.
    assert len(record.deals) == 9 and all(len(row) == 8 for row in record.deals.values())
    # Before the deal, every deal is equally likely: the value is their mean, and the
    # mean of each player's villain values.
    mean = sum(v for row in record.deals.values() for v in row.values()) / 72
    assert record.value == pytest.approx(mean, abs=1e-9)
    for player, sign in ((0, 1), (1, -1)):
        values = record.villain_values(player)
        assert len(values) == 9
        assert sign * sum(values.values()) / 9 == pytest.approx(record.value, abs=1e-9)
    with pytest.raises(ValueError):
        H.HiddenMatchupRecord.from_json(dict(record.to_json(), version=0))


def test_a_record_says_how_each_deal_ends_and_that_prices_at_its_value():
    """Each deal's ending probabilities (outcome and courtiers played, under the solved
    strategy) sum to 1 and, times the battle's payoffs, give the deal's value; a record
    from before the sweep kept the courtiers played reads its outcomes but is solved
    again; one from before it kept either still reads, with none."""
    record, _ = H.solve_hidden_matchup(("Squire", "Archer"), 2, 2, rule=RULE)
    pay = {"win": 1.0, "loss": -1.0, "crown": 3.0, "crown_loss": -3.0, "draw": 0.0}
    for mine, row in record.outcomes.items():
        for theirs, ends in row.items():
            assert set(ends) == set(ENDING_NAMES)
            assert sum(ends.values()) == pytest.approx(1.0, abs=1e-6)
            assert sum(pay[k.split("/")[0]] * p for k, p in ends.items()) == pytest.approx(
                record.deals[mine][theirs], abs=1e-6)
    endings = record.battle_endings()
    assert len({j % len(USED) for j in np.flatnonzero(endings > 1e-6)}) > 1
    assert H.complete(record)
    five = {mine: {theirs: dict(zip(OUTCOME_NAMES, outcome_totals(
        [ends[k] for k in ENDING_NAMES]).tolist(), strict=True))
        for theirs, ends in row.items()} for mine, row in record.outcomes.items()}
    earlier = H.HiddenMatchupRecord.from_json(dict(record.to_json(), outcomes=five))
    assert earlier.battle_outcomes() == pytest.approx(record.battle_outcomes(), abs=1e-9)
    assert earlier.battle_endings() is None and not H.complete(earlier)
    battle = record.battle_outcomes()
    assert sum(pay[k] * p for k, p in battle.items()) == pytest.approx(record.value, abs=1e-6)
    assert len({round(p, 6) for p in battle.values()}) > 2  # not a trivial battle
    older = {k: v for k, v in record.to_json().items() if k != "outcomes"}
    assert H.HiddenMatchupRecord.from_json(older).battle_outcomes() is None
    assert H.HiddenMatchupRecord.from_json(older).war_value() is None
    # The war of such battles: from 2-2 one battle decides unless drawn, so V(2, 2) is
    # (win + crown - loss - crown loss) / (1 - draw); from 0-0 it is between -1 and 1,
    # and the rival's war (the endings seen from the other side) is its negative.
    b = battle
    assert war.composed_values(b)[(2, 2)] == pytest.approx(
        (b["win"] + b["crown"] - b["loss"] - b["crown_loss"]) / (1 - b["draw"]))
    assert -1 < record.war_value() < 1
    rival = {"win": b["loss"], "loss": b["win"], "crown": b["crown_loss"],
             "crown_loss": b["crown"], "draw": b["draw"]}
    assert war.composed_values(rival)[(0, 0)] == pytest.approx(-record.war_value())


def test_a_solved_matchups_solution_is_stored_for_advice_when_asked():
    game = pyspiel.load_game(H.GAME, hidden_params(("Squire", "Archer"), 2, 2))
    path = solution_path(game)
    H.solve_hidden_matchup(("Squire", "Archer"), 2, 2, rule=RULE)
    assert not path.exists()  # a sweep keeps only its records unless asked
    record, _ = H.solve_hidden_matchup(("Squire", "Archer"), 2, 2, rule=RULE, keep=True)
    solution = HiddenSolution.load(path)
    assert solution is not None and solution.game == str(game)
    assert solution.iterations == record.iterations and solution.method == record.method
    assert solution.value == pytest.approx(record.value)
    # Player 0's value after each deal is the stored value of the node the deal reaches.
    values = np.asarray(solution.values)
    for v0, row in record.deals.items():
        for v1, value in row.items():
            node = _deal_node(solution, C.villain_id(v0), C.villain_id(v1))
            assert values[node] == pytest.approx(value, abs=1e-9)
    # Another game has another file; a damaged file is refused naming it.
    other = pyspiel.load_game(H.GAME, hidden_params(("Archer", "Squire"), 2, 2))
    assert HiddenSolution.load(solution_path(other)) is None
    path.write_bytes(b"damaged")
    with pytest.raises(CorruptFileError, match="solution_"):
        HiddenSolution.load(path)


def _deal_node(solution, v0, v1):
    """The node after player 0 is dealt ``v0`` and player 1 ``v1`` (the root deals)."""
    node = 0
    for card in (v0, v1):
        start, end = int(solution.edge_start[node]), int(solution.edge_start[node + 1])
        edge = next(e for e in range(start, end) if int(solution.edge_action[e]) == card)
        node = int(solution.edge_child[edge])
    return node


def test_the_sweep_resumes_without_recomputing(tmp_path, monkeypatch):
    first = H.run_hidden_sweep(PAIRS[:2], directory=tmp_path, workers=1, progress=False,
                               **SMALL)
    assert set(first) == set(PAIRS[:2])
    path = H.record_path(tmp_path, PAIRS[0], 2, 2)
    stamp = path.stat().st_mtime_ns

    def refuse(*args, **kwargs):
        raise AssertionError("a stored matchup was solved again")

    solve = H.solve_hidden_matchup
    monkeypatch.setattr(H, "solve_hidden_matchup", refuse)
    again = H.run_hidden_sweep(PAIRS[:2], directory=tmp_path, workers=1, progress=False,
                               **SMALL)
    assert path.stat().st_mtime_ns == stamp
    assert again == first
    # A damaged record is refused in one line naming it, never misread as missing;
    # once deleted, the matchup is solved again.
    path.write_text("{not json")
    monkeypatch.setattr(H, "solve_hidden_matchup", solve)
    with pytest.raises(CorruptFileError, match=path.name):
        H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False, **SMALL)
    path.unlink()
    healed = H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False,
                                **SMALL)
    assert _numbers(healed[PAIRS[0]]) == _numbers(first[PAIRS[0]])


def test_the_sweep_stores_each_matchups_opening_for_both_seats(tmp_path):
    """Beside each record, the advice at the battle's first decision of each seat for
    every villain it can hold: the second seat's after what it saw of the first's
    opening moves (Squire vs Archer: a card prepared face down)."""
    H.run_hidden_sweep(PAIRS[:1], directory=tmp_path / "pairings", workers=1,
                       progress=False, **SMALL)
    table = openings.OpeningAdvice.load(
        openings.table_path(PAIRS[0], 2, 2, tmp_path / "openings"))
    record = H.load_hidden(PAIRS[:1], 2, 2, tmp_path / "pairings")[PAIRS[0]]
    assert table.iterations == record.iterations and table.method == record.method
    assert table.exploitability == pytest.approx(record.exploitability_lower_bound)
    first, second = table.seats
    assert len(first) == 1 and first[0]["seen"] == []  # the first seat moves first
    assert set(first[0]["answers"]) == {C.CARD_NAMES[v] for v in C.VILLAINS}
    assert second and all(entry["seen"] for entry in second)
    assert any("prepares a card" in text for e in second for text in e["seen"])
    for seat in (0, 1):
        for villain in ("Thug", "Sheep"):
            (_, answer), *_ = table.entries(villain, seat)
            assert sum(p for _, p in answer["mix"]) == pytest.approx(1.0)
            assert sum(answer["opponent_hand"].values()) == pytest.approx(1.0)
            assert villain not in answer["opponent_hand"]  # one card of each villain
            # The seat's value holding the villain: the record's, from its side.
            values = record.villain_values(seat)
            assert answer["value"] == pytest.approx(values[villain], abs=1e-9)


def test_a_record_without_endings_is_read_then_solved_again(tmp_path):
    first = H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False,
                               **SMALL)[PAIRS[0]]
    path = H.record_path(tmp_path, PAIRS[0], 2, 2)
    older = {k: v for k, v in first.to_json().items() if k != "outcomes"}
    path.write_text(json.dumps(older))
    assert H.load_hidden(PAIRS[:1], 2, 2, tmp_path)[PAIRS[0]].outcomes is None
    again = H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False,
                               **SMALL)[PAIRS[0]]
    assert again.outcomes == first.outcomes and _numbers(again) == _numbers(first)


def test_an_opening_without_the_decisions_to_the_commit_is_solved_again(tmp_path):
    """A matchup whose opening was stored before each seat's decisions up to its commit
    were kept is solved again: the same record (the solve is deterministic), the table
    with them."""
    first = H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False,
                               **SMALL)[PAIRS[0]]
    where = H.openings_dir(tmp_path)
    table = openings.OpeningAdvice.load(openings.table_path(PAIRS[0], 2, 2, where))
    assert table.to_commit and H.stored_complete(tmp_path, PAIRS[0], 2, 2)
    dataclasses.replace(table, later=None).save(where)
    assert not H.stored_complete(tmp_path, PAIRS[0], 2, 2)
    again = H.run_hidden_sweep(PAIRS[:1], directory=tmp_path, workers=1, progress=False,
                               **SMALL)[PAIRS[0]]
    assert _numbers(again) == _numbers(first) and again.outcomes == first.outcomes
    redone = openings.OpeningAdvice.load(openings.table_path(PAIRS[0], 2, 2, where))
    assert redone.later == table.later and redone.seats == table.seats


def test_processes_and_a_local_dask_cluster_give_the_same_records(tmp_path):
    from distributed import LocalCluster

    pooled = H.run_hidden_sweep(PAIRS, directory=tmp_path / "pool", workers=2,
                                progress=False, **SMALL)
    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        dasked = H.run_hidden_sweep(PAIRS, directory=tmp_path / "dask",
                                    scheduler=cluster.scheduler_address, progress=False,
                                    **SMALL)
    assert set(pooled) == set(dasked) == set(PAIRS)
    for pair in PAIRS:
        assert _numbers(pooled[pair]) == _numbers(dasked[pair])


def test_the_command_solves_named_matchups_and_refuses_bad_ones(tmp_path, capsys):
    with store.use(tmp_path):
        assert main(["cobardes", "sweep", "--kind", "hidden", "--matchups", "wolf/maiden",
                     "--warriors", "2", "--combats", "2", "--max-iterations", "5",
                     "--workers", "1"]) == 0
        out = capsys.readouterr().out
        assert "1 of 1 matchups solved" in out
        assert H.load_hidden([("Wolf", "Maiden")], 2, 2)
        game = pyspiel.load_game(H.GAME, hidden_params(("Wolf", "Maiden"), 2, 2))
        assert not solution_path(game).exists()
        assert main(["cobardes", "sweep", "--kind", "hidden", "--matchups", "maiden/wolf",
                     "--warriors", "2", "--combats", "2", "--max-iterations", "5",
                     "--workers", "1", "--keep-solutions", "--method", "cfr+"]) == 0
        game = pyspiel.load_game(H.GAME, hidden_params(("Maiden", "Wolf"), 2, 2))
        kept = HiddenSolution.load(solution_path(game))
        assert kept.iterations <= 5 and kept.method == "cfr+" != H.METHOD
        assert H.load_hidden([("Maiden", "Wolf")], 2, 2)[("Maiden", "Wolf")].method == "cfr+"
        assert openings.stored(("Maiden", "Wolf"), 2, 2).method == "cfr+"
        capsys.readouterr()
        assert main(["cobardes", "sweep", "--kind", "battle", "--keep-solutions"]) == 2
        assert "--keep-solutions goes with --kind hidden" in capsys.readouterr().err
        assert main(["cobardes", "sweep", "--kind", "battle", "--method", "cfr+"]) == 2
        assert "--method and --max-iterations go with --kind hidden" in capsys.readouterr().err
        for bad, message in (("wolf", "is not two courtiers as A/B"),
                             ("wolf/duke", "unknown ¡Cobardes! courtier 'duke'")):
            assert main(["cobardes", "sweep", "--kind", "hidden", "--matchups", bad]) == 2
            err = capsys.readouterr().err
            assert message in err and len(err.strip().splitlines()) == 1


def test_matchups_are_solved_dealt_first_in_a_fixed_random_order():
    """A sweep stopped part way holds a random sample of the dealt matchups: they come
    first, shuffled the same way every run, and the mirrors (never dealt) last."""
    matchups = H.hidden_matchups()
    order = H.solving_order(matchups)
    assert sorted(order) == sorted(matchups)
    dealt = [p for p in matchups if not is_mirror(p)]
    assert all(not is_mirror(p) for p in order[:len(dealt)])
    assert order[:len(dealt)] != dealt  # shuffled, not in the courtiers' order
    assert order == H.solving_order(matchups)


def test_a_procuress_matchups_opening_answers_after_a_swap_exactly():
    """With the Procuress the second seat may reach its first decision with both villains
    swapped and known: no villain is hidden any more, the trunk ends there, and the
    answer is the exact solve's (one world; the rival now holds the villain the seat was
    dealt)."""
    record, table = H.solve_hidden_matchup(("Procuress", "Maiden"), 2, 3, rule=RULE)
    swapped = [e for e in table.seats[1] if any("swaps villains" in t for t in e["seen"])]
    assert swapped and len(table.seats[1]) > len(swapped)
    for entry in swapped:
        (villain, answer), = entry["answers"].items()
        assert answer["worlds"] == 1 and answer["opponent_hand"] == {villain: 1.0}
        assert sum(p for _, p in answer["mix"]) == pytest.approx(1.0)
    assert record.battle_endings() is not None


def test_what_the_second_seat_saw_reads_in_its_words():
    from analysis.cobardes.advice.advise import _rival_words

    assert _rival_words(("P1 shows their villain to P0", "P0 swaps villains"), 1) == (
        "you show your villain to the rival", "the rival swaps villains")
    assert _rival_words(("P1 holds the Wolf back",), 0) == ("the rival holds the Wolf back",)


def test_a_matchup_that_fails_is_named_and_the_others_are_stored(tmp_path, monkeypatch):
    solve = H.solve_hidden_matchup

    def failing(pairing, *args, **kwargs):
        if pairing == PAIRS[0]:
            raise ValueError("a test's failure")
        return solve(pairing, *args, **kwargs)

    monkeypatch.setattr(H, "solve_hidden_matchup", failing)
    with pytest.raises(SolveError, match="1 of 2 matchups failed.*Squire/Archer.*a test's"):
        H.run_hidden_sweep(PAIRS[:2], directory=tmp_path, workers=1, progress=False, **SMALL)
    assert set(H.load_hidden(PAIRS[:2], 2, 2, tmp_path)) == {PAIRS[1]}
