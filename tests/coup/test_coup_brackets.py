"""Bounds on uncapped Coup endgame values from capped solves
(``analysis/coup/solvers/brackets.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.coup.model import BracketRecord, Endgame
from analysis.coup.solvers.brackets import compile_endgame, solve_bracket, with_cap_payoff
from analysis.solve import CFRSolver, compile_game
from games.coup import endgame_game

SMALL = Endgame(3, 3, "inquisitor", turn_cap=1)


@pytest.mark.parametrize("payoff", [-1.0, 1.0])
def test_one_compile_serves_both_cap_payoffs(payoff):
    """Replacing the cap's 0 by ``payoff`` gives exactly the tree compiled with that payoff."""
    swapped = with_cap_payoff(compile_endgame(SMALL), payoff)
    game = endgame_game(SMALL.position(), deck=SMALL.deck, turn_cap=SMALL.turn_cap,
                        cap_payoff=payoff)
    direct = compile_game(game)
    for name in ("kind", "infoset", "edge_start", "edge_child", "edge_prob", "edge_action",
                 "utility", "infoset_player", "infoset_offset", "infoset_actions"):
        assert np.array_equal(getattr(swapped, name), getattr(direct, name)), name
    assert swapped.infoset_keys == direct.infoset_keys
    assert np.count_nonzero(direct.utility == payoff) > np.count_nonzero(swapped.utility == 0)


def test_with_cap_payoff_refuses_a_tree_with_other_payoffs():
    game = endgame_game(SMALL.position(), deck=SMALL.deck, turn_cap=1, cap_payoff=0.5)
    with pytest.raises(ValueError, match="not a cap-0 endgame"):
        with_cap_payoff(compile_game(game), 1.0)


def _capped_value(endgame: Endgame, payoff: float) -> tuple[float, float]:
    game = endgame_game(endgame.position(), deck=endgame.deck, turn_cap=endgame.turn_cap,
                        cap_payoff=payoff)
    solver = CFRSolver(compile_game(game), "cfr+")
    report = solver.run(target_exploitability=1e-5, iterations=20_000, progress=False)
    return report.value, report.exploitability


def test_brackets_narrow_and_contain_the_values_of_larger_caps():
    """V_c(-1) <= V_c'(x) <= V_c(+1) for c' >= c and any cap payoff x; the bracket never
    widens as the cap grows (``docs/coup_analysis.md``)."""
    one = solve_bracket(SMALL)
    two = solve_bracket(Endgame(3, 3, "inquisitor", turn_cap=2))
    assert one["lower"] <= two["lower"] + 1e-9 and two["upper"] <= one["upper"] + 1e-9
    assert two["width"] < one["width"] - 0.1  # the second turn really narrows it here
    # The second turn is the other player's: content with the cap counted as the mover's
    # loss, they take Income (which nobody can challenge or block), so the mover's lower
    # end cannot move; only the upper end does (to within the solves' exploitability).
    assert abs(two["lower"] - one["lower"]) <= 2 * (one["low"]["exploitability"]
                                                    + two["low"]["exploitability"])
    for payoff in (-1.0, 0.5, 1.0):
        value, err = _capped_value(Endgame(3, 3, "inquisitor", turn_cap=2), payoff)
        # The capped value is known to within twice the exploitability of its solve.
        for bracket in (one, two):
            assert bracket["lower"] - 2 * err <= value <= bracket["upper"] + 2 * err
    # The bounds are guarantees of the solved strategies, so they sit outside the
    # solver's estimates of V_c(-1) and V_c(+1), within the exploitability.
    for rec in (one, two):
        assert rec["lower"] <= rec["low"]["value"] + 1e-12
        assert rec["upper"] >= rec["high"]["value"] - 1e-12
        assert rec["low"]["value"] - rec["lower"] <= 2 * rec["low"]["exploitability"] + 1e-12
        assert abs(rec["lower_win"] - (1 + rec["lower"]) / 2) < 1e-12


def test_a_mover_with_seven_coins_has_a_closed_bracket_at_cap_one():
    """«Si empiezas tu turno con 7 monedas o más puedes dar un golpe de estado»: the Coup
    cannot be blocked or challenged, so the mover wins at once and the cap never binds."""
    rec = solve_bracket(Endgame(7, 2, "ambassador", turn_cap=1))
    # CFR+ stops at exploitability 1e-4: its average strategy keeps a trace of other moves.
    assert rec["lower_win"] == pytest.approx(1.0, abs=2e-4)
    assert rec["upper_win"] == pytest.approx(1.0, abs=2e-4)
    assert rec["converged"]


def test_a_passive_opponent_keeps_the_bracket_fully_open_at_cap_two():
    """With one card each, a game ends only by a Coup (7 coins), an unblocked
    assassination (3 coins) or a lost challenge. A player who only takes Income and never
    challenges or blocks cannot be beaten within the cap by an opponent who cannot afford
    either in time: with 1 coin each the mover (turns 1 and 3 would be needed) cannot win
    in 2 turns, nor can the other in its single turn, so the bracket is exactly [0, 1]."""
    rec = solve_bracket(Endgame(1, 1, "inquisitor", turn_cap=2))
    assert rec["lower_win"] == pytest.approx(0.0, abs=1e-12)
    assert rec["upper_win"] == pytest.approx(1.0, abs=1e-12)


def _fake_bracket(directory, eg: Endgame, width: float) -> None:
    import json

    from analysis.coup.model import SWEEP_VERSION, bracket_path

    path = bracket_path(directory, eg)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"width": width, "lower_win": 0.5 - width / 2,
                                "upper_win": 0.5 + width / 2, "version": SWEEP_VERSION}))


def test_the_sweep_orders_by_the_bracket_one_cap_lower(tmp_path):
    """Widest first narrows the worst brackets first; narrowest-open first runs only the
    brackets still open, the likeliest to close first, and leaves out the converged."""
    from analysis.coup.studies.sweep import narrowest_open_first, widest_first

    widths = {(0, 0): 0.7, (6, 3): 0.03, (1, 7): 0.02, (5, 9): 0.0}
    for (a, b), w in widths.items():
        _fake_bracket(tmp_path, Endgame(a, b, "inquisitor", turn_cap=3), w)
    cap4 = [Endgame(a, b, "inquisitor", turn_cap=4) for a, b in [*widths, (2, 2)]]
    coins = lambda egs: [(e.mover_coins, e.other_coins) for e in egs]  # noqa: E731
    assert coins(widest_first(cap4, tmp_path)) == [(0, 0), (6, 3), (1, 7), (5, 9), (2, 2)]
    assert coins(narrowest_open_first(cap4, tmp_path)) == [(1, 7), (6, 3), (0, 0)]
    # A second directory (the other pricing) counts too: its closed bracket at cap 2
    # closes 6/3, its narrower one for 0/0 puts 0/0 before 6/3.
    other = tmp_path / "markov"
    _fake_bracket(other, Endgame(6, 3, "inquisitor", turn_cap=2), 0.0)
    _fake_bracket(other, Endgame(0, 0, "inquisitor", turn_cap=2), 0.01)
    assert coins(narrowest_open_first(cap4, tmp_path, other)) == [(0, 0), (1, 7)]


def test_an_unknown_order_is_refused_by_name(capsys):
    from analysis.cli import main

    assert main(["coup", "brackets", "--order", "random"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--order 'random'" in err


def test_the_sweep_compiles_within_the_memory_budget_it_is_given(capsys, tmp_path):
    """``--max-memory`` reaches each compile: an endgame over it is skipped with a line
    that names it and the budget, nothing is written, and the sweep goes on to the next
    endgame; a malformed size is refused by name."""
    from analysis.cli import main

    args = ["coup", "brackets", "--markov", "--caps", "2", "--decks", "inquisitor",
            "--workers", "1", "--directory", str(tmp_path)]
    assert main([*args, "--pairs", "6/6,6/5", "--max-memory", "1MB"]) == 0
    out, err = capsys.readouterr()
    skipped = [line for line in err.splitlines() if line.startswith("skipped")]
    assert len(skipped) == 2 and "memory budget of 1" in skipped[0]
    assert {line.split(":")[0] for line in skipped} == {
        f"skipped {Endgame(6, other, 'inquisitor', turn_cap=2).slug()}" for other in (5, 6)}
    assert list(tmp_path.iterdir()) == [] and out.strip().startswith("0 brackets")
    assert main([*args, "--pairs", "6/6", "--max-memory", "lots"]) == 2
    assert "'lots'" in capsys.readouterr().err


def test_the_tightest_bracket_intersects_every_cap():
    """The report's per-endgame bracket: the largest lower end and the smallest upper end
    over the caps on disk, with the caps they come from."""
    from analysis.report.facts.coup.readers import tightest

    def rec(cap, lower, upper):
        return BracketRecord(endgame=Endgame(1, 7, "inquisitor", turn_cap=cap),
                             lower_win=lower, upper_win=upper)

    by_cap = {3: [rec(3, 0.0769, 0.0962)], 4: [rec(4, 0.0769, 0.0962)],
              5: [rec(5, 0.0960, 0.0965)]}
    (row,) = tightest(by_cap).itertuples()
    assert (row.lower_win, row.upper_win) == (0.0960, 0.0962)
    assert (row.lower_cap, row.upper_cap) == (5, 3)
    assert row.width == pytest.approx(0.0002)
