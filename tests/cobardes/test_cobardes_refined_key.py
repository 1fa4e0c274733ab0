"""The refined trunk key (the order of the rival's plays while its villain is hidden):
each refined information set lies inside one coarse one, and on the same strategy the
best response the refined abstraction measures (a lower bound on the true
exploitability) is never below the coarse one's."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest

from analysis.cobardes.solvers.trunk import compile_cut
from analysis.solve import CFRSolver
from analysis.solve.best_response import best_response
from games.cobardes import keys as K

GAME = "python_cobardes_battle"
PROCURESS = {"kinds": "all", "warriors": 1, "combats": 3, "courtier0": "Procuress",
             "courtier1": "Fortune-Teller",
             "villain_deck": "King's Ghost/Sheep/Seductress/Executioner"}


def project(coarse, strategy: np.ndarray, refined, coarse_of: dict) -> np.ndarray:
    """``strategy`` (of the coarse graph) read at every refined information set."""
    index = {key: i for i, key in enumerate(coarse.infoset_keys)}
    out = np.zeros(refined.infoset_actions.shape[0])
    for i, key in enumerate(refined.infoset_keys):
        j = index[coarse_of[key]]
        lo, hi = refined.infoset_offset[i], refined.infoset_offset[i + 1]
        clo, chi = coarse.infoset_offset[j], coarse.infoset_offset[j + 1]
        row = dict(zip(coarse.infoset_actions[clo:chi].tolist(), strategy[clo:chi], strict=True))
        out[lo:hi] = [row[a] for a in refined.infoset_actions[lo:hi].tolist()]
    return out


@pytest.fixture(scope="module")
def graphs():
    game = pyspiel.load_game(GAME, PROCURESS)
    coarse = compile_cut(game, graph=True).compiled
    cut = compile_cut(game, graph=True, ordered=True, record=True)
    return coarse, cut.compiled, cut.coarse_of


def test_each_refined_information_set_lies_inside_one_coarse_one(graphs):
    coarse, refined, coarse_of = graphs
    assert refined.num_infosets > coarse.num_infosets  # the order splits some of them
    assert set(coarse_of) == set(refined.infoset_keys)
    assert set(coarse_of.values()) == set(coarse.infoset_keys)


@pytest.mark.parametrize("iterations", [1, 30])
def test_the_refined_lower_bound_is_never_below_the_coarse_one(graphs, iterations):
    coarse, refined, coarse_of = graphs
    solver = CFRSolver(coarse, "cfr+")
    solver.run(iterations=iterations, progress=False)
    strategy = solver.average_strategy()
    same = project(coarse, strategy, refined, coarse_of)
    for player in (0, 1):
        coarse_gain, _ = best_response(coarse, strategy, player)
        refined_gain, _ = best_response(refined, same, player)
        assert refined_gain >= coarse_gain - 1e-9


def test_the_order_is_kept_only_while_a_rival_villain_is_hidden():
    game = pyspiel.load_game(GAME, PROCURESS)
    state = game.new_initial_state()
    while state.is_chance_node():  # the deals: villains dealt face down
        state.apply_action(state.chance_outcomes()[0][0])
    pos = state._s
    assert not pos.pending and pos.h[1] & K.C.VILLAIN_MASK
    for player in (0, 1):
        assert K.ordered_infoset_key(pos, player)[0] == K.infoset_key(pos, player)
    known = pos.copy()
    known.kv = (known.h[1], known.h[0])  # every villain known to the other player
    known.field = ((0, 1), (1, 0), (1, 2))
    assert K.rival_order(known, 0) == () and K.rival_order(known, 1) == ()
    hidden = known.copy()
    hidden.kv = (0, 0)
    assert K.rival_order(hidden, 0) == (0, 2) and K.rival_order(hidden, 1) == (1,)
    assert K.ordered_infoset_key(hidden, 0) == (K.infoset_key(hidden, 0), (0, 2))


def test_the_report_says_what_the_refined_key_measured(tmp_path):
    from analysis.report.cobardes.hidden_villains import refined_text

    def row(deck, key, true, ratio):
        return {"deck": deck, "key": key, "true": true, "ratio": ratio, "within": true / ratio}

    rows = [row("Procuress vs Fortune-Teller", "coarse", 4e-3, 4.0),
            row("Procuress vs Fortune-Teller", "refined", 1e-2, 12.0),
            row("Thug/Sheep", "coarse", 2e-3, 1.1), row("Thug/Sheep", "refined", 1e-3, 1.02)]
    path = tmp_path / "refined.json"
    path.write_text(json.dumps({"iterations": 50, "rows": rows, "refined_helps": False}))
    text = refined_text(path)
    assert "1.0e-02 in the true game (12.0x" in text and "4.0e-03 (4.0x)" in text
    assert "50 CFR+ iterations" in text and "makes it worse" in text
    assert "at most 1.02x" in text and "4.0 times too low" in text
    path.write_text(json.dumps({"iterations": 50, "rows": rows, "refined_helps": True}))
    assert "the finer key is the better one" in refined_text(path)
    assert refined_text(tmp_path / "missing.json") == ""
