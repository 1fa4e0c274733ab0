"""The winning-Coup reduction for solvers (``games.coup.walker.DecisiveCoupWalker``)."""

from __future__ import annotations

import pytest

from analysis.coup.model import Endgame
from analysis.coup.solvers.brackets import compile_endgame, solve_bracket
from games.coup import cards as C
from games.coup import endgame_game
from games.coup import engine as E
from games.coup.walker import CoupWalker, DecisiveCoupWalker, decisive_coup


def _first_turn(position: str, deck: str = "inquisitor"):
    """The position's first turn action, the hidden cards dealt (the first outcome each)."""
    game = endgame_game(position, deck=deck, turn_cap=4)
    walker = CoupWalker(game.config)
    s = walker.root()
    while walker.actor(s) == E.CHANCE:
        s = walker.child(s, walker.chance_outcomes(s)[0][0])
    assert s.queue[0][0] == E.S_ACTION
    return s


def test_a_coup_against_the_last_card_is_the_only_action():
    """«Golpe de Estado: Paga 7 monedas y mata a un personaje rival (la acción no puede ser
    contrarrestada)»: with 7 coins against a lone opponent with one card, it wins."""
    s = _first_turn("?/contessa/7;?/contessa/2;move:0")
    coup = C.encode_turn_action(C.COUP, 1)
    assert decisive_coup(s) == coup
    assert coup in s.legal_actions() and len(s.legal_actions()) > 1
    game = endgame_game("?/contessa/7;?/contessa/2;move:0", deck="inquisitor", turn_cap=4)
    assert DecisiveCoupWalker(game.config).legal_actions(s) == [coup]


@pytest.mark.parametrize("position", [
    "?/contessa/6;?/contessa/2;move:0",        # cannot afford the Coup
    "?/contessa/7;?+?/-/2;move:0",             # the opponent would keep a card
    "?/contessa/7;?/contessa/2;?/duke/2;move:0",  # two opponents: the game goes on
])
def test_no_reduction_when_the_coup_does_not_end_the_game(position):
    s = _first_turn(position)
    assert decisive_coup(s) is None
    game = endgame_game(position, deck="inquisitor", turn_cap=4)
    assert DecisiveCoupWalker(game.config).legal_actions(s) == s.legal_actions()


def test_only_turn_actions_are_reduced():
    """A challenge window is not a turn action: nothing is removed there."""
    s = _first_turn("?/contessa/7;?/contessa/7;move:0")
    game = endgame_game("?/contessa/7;?/contessa/7;move:0", deck="inquisitor", turn_cap=4)
    walker = CoupWalker(game.config)
    s = walker.child(s, C.encode_turn_action(C.TAX))
    assert s.queue[0][0] == E.S_CHAL and decisive_coup(s) is None


def test_the_reduced_tree_gives_the_same_bracket():
    """1 coin against 7, two turns: the other player's Coup ends most lines, so the
    reduced tree is far smaller, and the bracket (the strategies' guarantees by exact
    best response) is the same to the solver's tolerance."""
    eg = Endgame(1, 7, "inquisitor", turn_cap=2)
    full, reduced = solve_bracket(eg), solve_bracket(eg, decisive=True)
    assert reduced["decisive_coup"] and not full["decisive_coup"]
    assert reduced["nodes"] < full["nodes"] / 3
    assert reduced["lower_win"] == pytest.approx(full["lower_win"], abs=2e-4)
    assert reduced["upper_win"] == pytest.approx(full["upper_win"], abs=2e-4)


def test_the_reduced_tree_has_the_same_value_where_a_coup_comes_later():
    """6 coins each at cap 3: the mover takes Income and can Coup on their next turn; the
    reduction cuts only the histories that decline it, and the value stays."""
    from analysis.solve import CFRSolver

    eg = Endgame(6, 6, "inquisitor", turn_cap=3)
    values = []
    for decisive in (False, True):
        tree = compile_endgame(eg, decisive=decisive)
        solver = CFRSolver(tree, "cfr+")
        values.append((tree.num_nodes, solver.run(target_exploitability=1e-4,
                                                  progress=False).value))
    (full_nodes, full_value), (nodes, value) = values
    assert nodes < full_nodes
    assert value == pytest.approx(full_value, abs=4e-4)


def test_the_command_line_brackets_chosen_pairs_with_the_reduction(tmp_path, capsys):
    import json

    from analysis.cli import main

    argv = ["coup", "brackets", "--caps", "1", "--pairs", "7/2,8/2", "--decks", "inquisitor",
            "--decisive-coup", "--workers", "1", "--directory", str(tmp_path)]
    assert main(argv) == 0
    records = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in records] == [
        "inquisitor_contessa-contessa_m7_o2_cap1.json",
        "inquisitor_contessa-contessa_m8_o2_cap1.json"]
    for path in records:
        rec = json.loads(path.read_text())
        assert rec["decisive_coup"] and rec["nodes"] < 100
        assert rec["lower_win"] == pytest.approx(1.0, abs=1e-9)
    assert main(["coup", "brackets", "--pairs", "7-2"]) == 2
    assert "--pairs '7-2'" in capsys.readouterr().err


def test_only_the_bracket_command_takes_pairs(capsys):
    """``--pairs`` belongs to ``farol coup brackets``; the endgame sweep refuses it."""
    from analysis.cli import main

    with pytest.raises(SystemExit):
        main(["coup", "sweep", "--pairs", "1/7"])
    assert "--pairs" in capsys.readouterr().err
