"""The state-keyed estimate of uncapped Coup endgames (``analysis/coup/studies/abstraction.py``)."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.coup.model import SWEEP_VERSION, Endgame, bracket_path
from analysis.coup.studies import abstraction as A
from analysis.coup.studies.larger import abstraction_loss
from analysis.shared import store
from analysis.solve import CFRSolver, compile_game

TINY = Endgame(3, 3, "inquisitor", turn_cap=1)


def test_at_cap_one_the_abstraction_is_exact():
    """One turn: the players forget nothing yet, so the graph's value is the tree's."""
    rec = A.loss_at_cap(TINY, 1)
    assert rec["loss"] >= 0
    assert rec["loss"] <= 2e-4  # only the CFR+ residual (target 1e-4)
    assert rec["abstraction"]["value"] == pytest.approx(rec["exact_value"], abs=5e-4)
    assert rec["abstract_value_in_tree"] == pytest.approx(rec["exact_value"], abs=5e-4)


def test_the_loss_at_cap_two_is_consistent():
    """Two turns: the other player forgets the mover's claim when it is their turn, so the
    abstract strategy loses value in the perfect-recall tree. Its value there lies within
    NashConv (twice the loss) of the exact value, up to the exact solve's own error."""
    eg = Endgame(3, 3, "inquisitor", turn_cap=2)
    rec = A.loss_at_cap(eg, 2)
    assert rec["loss"] > 1e-2  # forgetting costs real value here
    slack = 2 * rec["loss"] + 2 * rec["tree_exploitability"] + 1e-9
    assert abs(rec["abstract_value_in_tree"] - rec["exact_value"]) <= slack
    br0, br1 = rec["abstract_best_response_in_tree"]
    assert br0 >= rec["exact_value"] - 2 * rec["tree_exploitability"]
    assert -br1 <= rec["exact_value"] + 2 * rec["tree_exploitability"]


def test_the_key_mapping_agrees_with_the_openspiel_route():
    """The engine maps tree information sets to abstract keys during the tree's walk;
    ``larger.abstraction_loss`` goes through OpenSpiel's tabular policy. Both measure
    the same loss."""
    from analysis.solve import exploitability
    from analysis.solve.abstraction import graph_strategy_on_tree

    eg = Endgame(2, 3, "ambassador", turn_cap=2)
    game = eg.game()
    graph = compile_game(game, graph=True)
    solver = CFRSolver(graph, "cfr+")
    solver.run(iterations=300, progress=False)
    tree = compile_game(game, abstract_keys=True)
    ours = exploitability(tree, graph_strategy_on_tree(
        graph, solver.average_strategy(), tree)).exploitability
    theirs = abstraction_loss(game, solver.average_strategy(), graph, compile_game(game))
    assert ours == pytest.approx(theirs, abs=1e-12)


def _fake(values: dict[int, float]):
    def solve_at(cap):
        if cap not in values:
            return {"cap": cap, "status": "over the node limit", "seconds": 0.0}
        return {"cap": cap, "status": "solved", "value": values[cap], "seconds": 1.0}
    return solve_at


def test_the_cap_loop_stops_when_the_value_converges():
    out = A.cap_loop(_fake({4: 0.1, 8: 0.3, 16: 0.3004, 32: 0.5}), (4, 8, 16, 32))
    assert [r["cap"] for r in out["caps"]] == [4, 8, 16]
    assert out["converged"] and out["stopped"] == "value converged"
    assert out["estimate_cap"] == 16 and out["win"] == pytest.approx(0.6502)


def test_the_cap_loop_reports_limits_without_convergence():
    out = A.cap_loop(_fake({4: 0.1, 8: 0.3}), (4, 8, 16, 32))
    assert not out["converged"] and out["stopped"] == "over the node limit"
    assert out["estimate_cap"] == 8 and out["value"] == 0.3
    timed = A.cap_loop(_fake({4: 0.1, 8: 0.3, 16: 0.5}), (4, 8, 16), seconds=1.5)
    assert timed["stopped"] == "time limit" and timed["estimate_cap"] == 8


def test_a_real_cap_loop_converges_when_the_mover_coups_at_once():
    """«Si empiezas tu turno con 7 monedas o más puedes dar un golpe de estado»: the mover
    wins on the first turn whatever the cap, so two caps agree and the loop stops."""
    eg = Endgame(7, 2, "ambassador")
    out = A.cap_loop(lambda cap: A.graph_solve(eg, cap)[0], (1, 2, 4))
    assert out["converged"] and out["estimate_cap"] == 2
    assert out["win"] == pytest.approx(1.0, abs=1e-3)


def _write_bracket(directory, eg: Endgame, lower: float, upper: float) -> None:
    rec = {"endgame": {"deck": eg.deck, "mover_coins": eg.mover_coins,
                       "other_coins": eg.other_coins, "turn_cap": eg.turn_cap},
           "lower_win": lower, "upper_win": upper, "width": upper - lower,
           "low": {"exploitability": 1e-4}, "high": {"exploitability": 5e-5},
           "version": SWEEP_VERSION}
    path = bracket_path(directory, eg)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rec))


def test_the_bracket_is_the_intersection_and_a_value_outside_is_flagged(tmp_path):
    _write_bracket(tmp_path, Endgame(1, 1, "inquisitor", turn_cap=2), 0.15, 0.86)
    _write_bracket(tmp_path, Endgame(1, 1, "inquisitor", turn_cap=3), 0.20, 0.95)
    bracket = A.bracket_of(Endgame(1, 1, "inquisitor"), tmp_path)
    assert (bracket["lower_win"], bracket["upper_win"]) == (0.20, 0.86)
    assert (bracket["lower_cap"], bracket["upper_cap"]) == (3, 2)
    assert A.compare(0.5, bracket) == {"inside": True, "outside_by": 0.0}
    out = A.compare(0.9, bracket)
    assert not out["inside"] and out["outside_by"] == pytest.approx(0.04)
    assert A.compare(0.1, bracket)["outside_by"] == pytest.approx(0.10)
    assert A.bracket_of(Endgame(0, 0, "inquisitor"), tmp_path) is None


def test_the_sweep_writes_and_resumes(tmp_path, monkeypatch):
    eg = Endgame(7, 2, "inquisitor")
    records = A.sweep([eg], tmp_path, caps=(1, 2), loss_cap=1, progress=False)
    rec = records[0]
    assert rec.converged and rec.estimate_cap == 2
    assert rec.loss["loss"] <= 2e-4
    assert (tmp_path / f"{A.slug(eg)}.json").exists()

    def boom(*args):
        raise AssertionError("an endgame on disk was solved again")

    monkeypatch.setattr(A, "run_task", boom)
    assert A.sweep([eg], tmp_path, caps=(1, 2), loss_cap=1, progress=False) == records


@pytest.mark.parametrize("argv, needle", [
    (["--decks", "tarot"], "--decks 'tarot'"),
    (["--caps", "8,4"], "increasing"),
    (["--caps", "four"], "write turn caps"),
    (["--caps", "0,4"], "increasing numbers >= 1"),
    (["--jobs", "0"], "--jobs 0"),
    (["--pairs", "1-2"], "--pairs '1-2'"),
    (["--pairs", "3/12"], "--pairs '3/12'"),
])
def test_bad_command_line_input_gives_one_clear_error(capsys, argv, needle):
    assert main(["coup", "abstraction", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err


def test_the_report_section_renders_from_the_committed_data(tmp_path, monkeypatch):
    """One table row per committed estimate, the heatmap saved; without data, how to run."""
    from analysis.report import ReportContext
    from analysis.report.coup.beyond_cap import abstraction_bullet, section_abstraction
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path)
    records = A.cached(store.data("coup", "abstraction"))
    text = section_abstraction(ctx)
    assert text.startswith("## Beyond the cap")
    if records:
        rows = [line for line in text.splitlines()
                if line.startswith(("| ambassador |", "| inquisitor |"))]
        assert len(rows) == len(records)
        assert (tmp_path / "coup_abstraction_win.png").exists()
        assert "not an exact value" in text
    with store.use(tmp_path / "nothing"):
        assert "farol coup abstraction" in section_abstraction(ctx)
        assert abstraction_bullet() == []
