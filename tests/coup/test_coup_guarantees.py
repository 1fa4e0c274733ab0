"""Markov guarantees and the brackets whose cap pays them (``analysis.coup.guarantees``)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from coup_helpers import data_without

from analysis.coup import guarantees as M
from analysis.coup.model import Endgame
from analysis.coup.solvers.brackets import (
    compile_endgame,
    compile_markov,
    solve_bracket,
    with_cap_bounds,
)
from games.coup import cards as C
from games.coup import engine as E
from games.coup.walker import DecisiveCoupWalker

REVEALED = ("contessa", "contessa")


@pytest.fixture(scope="module")
def inquisitor():
    return M.guarantees_for("inquisitor", REVEALED)


def _evaluate(graph: M.PositionGraph, player: int, policy: np.ndarray,
              choice: np.ndarray) -> np.ndarray:
    """``player``'s winning chance when the other plays the edge ``choice[i]`` at each of
    their positions ``i``: plain policy evaluation, no minimum anywhere."""
    kind, start = graph.kind, graph.edge_start
    weight = M.edge_weights(graph, player, policy)
    for i in np.flatnonzero(kind == 2 + (1 - player)):
        weight[start[i]:start[i + 1]] = 0.0
        weight[choice[i]] = 1.0
    value = (graph.winner == player).astype(float)
    inner = np.flatnonzero(kind != 0)  # terminals have no edges: the segments stay whole
    for _ in range(20_000):
        new = np.add.reduceat(value[graph.edge_child] * weight, start[inner])
        done = np.max(np.abs(new - value[inner])) < 1e-13
        value[inner] = new
        if done:
            break
    return value


def test_a_policy_is_a_mix_per_key(inquisitor):
    """A Markov policy is one mix per key: its probabilities sum to 1 on every key and
    every position of a key offers the same actions (the graph refuses otherwise)."""
    graph = inquisitor.graph
    for player in (0, 1):
        policy, _ = M.markov_policy(graph, player, rounds=2)
        sums = np.bincount(graph.slot_key[player], weights=policy)
        assert np.allclose(sums, 1.0)
        mine = graph.slot[player] >= 0
        nodes = np.repeat(np.arange(graph.num_positions), np.diff(graph.edge_start))
        assert set(graph.kind[nodes[mine]]) == {2 + player}


def test_the_guarantee_is_the_worst_an_opponent_can_do(inquisitor):
    """``W_p`` is the minimum over the other player's choices: equal to the winning
    chance against the choices it minimises with, below it against any other."""
    graph = inquisitor.graph
    player = 0
    policy = M.uniform_policy(graph, player)
    policy = M.improve(graph, player, policy, M.guarantee(graph, player, policy))
    w = M.guarantee(graph, player, policy)
    start, child = graph.edge_start, graph.edge_child
    theirs = np.flatnonzero(graph.kind == 2 + (1 - player))
    argmin = np.array([start[i] + np.argmin(w[child[start[i]:start[i + 1]]]) for i in theirs])
    choice = np.zeros(graph.num_positions, dtype=np.int64)
    choice[theirs] = argmin
    assert np.allclose(_evaluate(graph, player, policy, choice), w, atol=1e-9)
    rng = np.random.default_rng(0)
    for _ in range(3):
        choice[theirs] = start[theirs] + rng.integers(0, np.diff(start)[theirs])
        assert np.all(_evaluate(graph, player, policy, choice) >= w - 1e-9)


def test_two_guarantees_never_add_up_to_more_than_certainty(inquisitor):
    """Each player's guarantee holds against every opponent, the other's policy too, so
    ``W_0 + W_1 <= 1`` at every position; and improvement made them useful."""
    w0, w1 = inquisitor.win
    assert np.all(w0 + w1 <= 1 + 1e-9)
    turn_start = np.array([i for i in range(inquisitor.graph.num_positions)
                           if inquisitor.graph.kind[i] in (2, 3)])
    assert np.median((w0 + w1)[turn_start]) > 0.9


def test_seven_coins_against_the_last_card_is_a_certain_win(inquisitor):
    """«Golpe de Estado ... la acción no puede ser contrarrestada»: the player to move
    with 7 coins wins whatever they hold, so their guarantee is 1 and the other's 0."""
    game = Endgame(7, 2, "inquisitor").game()
    root = DecisiveCoupWalker(game.config, history=False).root()
    assert root.cur == E.CHANCE
    assert inquisitor.of(root) == pytest.approx((1.0, 0.0))


def test_the_cap_position_is_the_next_turn():
    """The cap stops the game between turns: the position priced is the next player's
    turn start, same cards and coins."""
    game = Endgame(2, 3, "inquisitor", turn_cap=1).game()
    walker = DecisiveCoupWalker(game.config)
    s = walker.root()
    while not s.over:
        s = walker.child(s, (walker.chance_outcomes(s)[0][0] if s.cur == E.CHANCE
                             else C.encode_turn_action(C.INCOME)))
    assert s.winner == -1
    c = M.continuation(s)
    assert (c.actor, c.cur, c.queue, c.coins, c.hands) == (1, 1, ((E.S_ACTION,),),
                                                           (3, 3), s.hands)
    with pytest.raises(ValueError, match="turn cap"):
        M.continuation(c)


def test_markov_cap_payoffs_lie_between_loss_and_win():
    """The codes become payoffs in [-1, 1]; low never above high; the tree is the
    decisive-Coup tree with the same nodes."""
    eg = Endgame(4, 6, "inquisitor", turn_cap=2)
    tree, bounds = compile_markov(eg)
    plain = compile_endgame(eg, decisive=True)
    assert tree.num_nodes == plain.num_nodes
    coded = tree.utility >= M.CODE_BASE
    assert coded.sum() == np.count_nonzero(plain.utility == 0.0)
    assert np.all(bounds[:, 0] <= bounds[:, 1] + 1e-12)
    assert np.all((bounds >= -1) & (bounds <= 1))
    low, high = (with_cap_bounds(tree, bounds, side).utility for side in (0, 1))
    assert np.all(low[~coded] == plain.utility[~coded])
    assert np.all((low <= high) & (np.abs(high) <= 1))
    with pytest.raises(ValueError, match="beyond"):
        with_cap_bounds(tree, bounds * 3, 0)


def test_the_markov_bracket_is_inside_the_plain_one_and_holds_the_value():
    """Inquisitor 5/7: the plain bracket closes at cap 3 (width < 1e-3); at cap 2 it is
    wide, the Markov one inside it and already closed on the same value."""
    plain2 = solve_bracket(Endgame(5, 7, "inquisitor", turn_cap=2), decisive=True)
    plain3 = solve_bracket(Endgame(5, 7, "inquisitor", turn_cap=3), decisive=True)
    markov2 = solve_bracket(Endgame(5, 7, "inquisitor", turn_cap=2), markov=True)
    assert plain3["converged"] and not plain2["converged"]
    assert markov2["converged"] and markov2["cap_payoffs"] == "markov"
    tol = 2e-4  # the solves stop at exploitability 1e-4
    assert plain2["lower_win"] - tol <= markov2["lower_win"]
    assert markov2["upper_win"] <= plain2["upper_win"] + tol
    assert markov2["lower_win"] - tol <= plain3["upper_win"]
    assert plain3["lower_win"] - tol <= markov2["upper_win"]
    w0, w1 = markov2["markov"]["root_guarantee"]
    assert w0 <= markov2["upper_win"] + tol and 1 - w1 >= markov2["lower_win"] - tol


def test_markov_rejects_a_tree_compiled_elsewhere():
    eg = Endgame(4, 6, "inquisitor", turn_cap=1)
    with pytest.raises(ValueError, match="compiles its own tree"):
        solve_bracket(eg, compiled=compile_endgame(eg), markov=True)


def test_the_bracket_command_writes_markov_records(tmp_path, capsys):
    from analysis.cli import main

    assert main(["coup", "brackets", "--markov", "--caps", "2", "--pairs", "5/7",
                 "--decks", "inquisitor", "--workers", "1",
                 "--directory", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    assert record["cap_payoffs"] == "markov" and record["decisive_coup"]
    assert record["endgame"]["turn_cap"] == 2 and record["converged"]
    assert "1 brackets" in capsys.readouterr().out


def test_a_key_is_encoded_exactly():
    """The graph's tables hold keys as bytes: equal keys give equal bytes however their
    parts are shared in memory, and different keys (a coin, a card) give different ones."""
    hand = (C.DUKE,)
    shared = (0, (hand, hand), (3, 4), ((E.S_ACTION,),))
    fresh = (0, ((C.DUKE,), tuple([C.DUKE])), (3, 4), ((E.S_ACTION,),))
    assert M.encode_key(shared) == M.encode_key(fresh)
    assert M.encode_key(shared) != M.encode_key((0, (hand, hand), (3, 5), ((E.S_ACTION,),)))
    assert M.encode_key(shared) != M.encode_key((0, (hand, (C.CAPTAIN,)), (3, 4),
                                                 ((E.S_ACTION,),)))


def test_the_in_place_guarantee_stops_at_the_fixed_point(inquisitor):
    """In-place value iteration reaches the fixed point: one more Bellman step (every
    position at once, from the result) moves no value by more than the tolerance."""
    graph = inquisitor.graph
    policy = M.uniform_policy(graph, 1)
    w = M.guarantee(graph, 1, policy)
    weight = M.edge_weights(graph, 1, policy)
    inner = np.flatnonzero(graph.kind != 0)
    seg = graph.edge_start[inner]
    reached = w[graph.edge_child]
    step = np.where(graph.kind[inner] == 2, np.minimum.reduceat(reached, seg),
                    np.minimum(np.add.reduceat(reached * weight, seg), 1.0))
    assert np.max(np.abs(step - w[inner])) < 1e-9
    assert np.all((w >= 0) & (w <= 1))


def test_the_markov_mix_is_the_policy_the_guarantee_prices(inquisitor):
    """``Guarantees.mix`` reads the improved policy of a position's Markov key: one
    probability per legal action of the decisive-Coup walker, summing to 1, the same at
    every position sharing the key, and only the Coup where a player can win by it."""
    graph = inquisitor.graph
    game = Endgame(3, 2, "inquisitor").game()
    walker = DecisiveCoupWalker(game.config, history=False)
    seen: dict[tuple, np.ndarray] = {}
    stack, visited = [walker.root()], 0
    while stack and visited < 3000:
        s = stack.pop()
        visited += 1
        if s.over:
            continue
        if s.cur == E.CHANCE:
            stack.extend(walker.child(s, a) for a, _ in s.chance_outcomes())
            continue
        actions = walker.legal_actions(s)
        mix = inquisitor.mix(s, s.cur)
        assert mix is not None and len(mix) == len(actions)
        assert mix.sum() == pytest.approx(1.0) and (mix >= 0).all()
        key = (s.cur, M.markov_key(s, s.cur))
        if key in seen:
            assert np.array_equal(seen[key], mix)
        seen[key] = mix
        if s.coins[s.cur] >= C.COUP_COST and len(actions) == 1:
            assert mix.tolist() == [1.0]
        stack.extend(walker.child(s, a) for a in actions)
    assert len(seen) > 100 and len(graph.key_slots[0]) > 100


def test_the_guarantees_are_cached_per_deck(inquisitor):
    assert M.guarantees_for("inquisitor", REVEALED) is inquisitor
    assert dataclasses.is_dataclass(inquisitor) and inquisitor.rounds == M.ROUNDS


def test_the_report_section_renders_from_the_committed_data(tmp_path, monkeypatch):
    """A row per cap and deck with Markov records, the convergence count over every
    bracket on disk (never below the plain brackets' own), and no contradiction: every
    endgame's tightest bracket is non-empty. Without records, how to run them."""
    from analysis.report import ReportContext
    from analysis.report.coup.brackets import section_markov_brackets
    from analysis.report.facts.coup.readers import markov_brackets, plain_brackets, tightest
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path)
    markov = markov_brackets()
    text = section_markov_brackets(ctx)
    assert text.startswith("## Pricing the cap: Markov guarantees")
    if markov:
        rows = [line for line in text.splitlines() if line.startswith("| 2 |")
                or line.startswith("| 3 |")]
        assert len(rows) >= 2
        tight = tightest(plain_brackets(), markov)
        plain = tightest(plain_brackets())
        assert (tight["width"] >= -1e-9).all()
        assert (tight["width"] <= 1e-3).sum() >= (plain["width"] <= 1e-3).sum()
        assert f"{int((tight['width'] <= 1e-3).sum())} of {len(tight)} endgames" in text
    with data_without(tmp_path, "brackets_markov"):
        assert "--markov" in section_markov_brackets(ctx)


def test_the_revealed_section_lists_every_endgame_and_only_disjoint_changes(tmp_path,
                                                                           monkeypatch):
    """The revealed-cards section has a row per endgame of the grid with each pair's
    tightest bracket; an endgame is called changed for sure exactly when another pair's
    bracket and the main pair's do not overlap (checked against the records themselves).
    Without records for the other pairs, how to run them."""
    from analysis.coup.model import MAIN_REVEALED
    from analysis.report import ReportContext
    from analysis.report.coup.revealed import (
        revealed_brackets,
        revealed_changes,
        section_revealed_brackets,
    )
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path)
    tights = revealed_brackets()
    text = section_revealed_brackets(ctx)
    assert text.startswith("## Revealed cards without a cap")
    others = [rv for rv in tights if rv != MAIN_REVEALED]
    if others:
        keys = {(r.deck, r.mover, r.other) for t in tights.values() for r in t.itertuples()}
        rows = [line for line in text.splitlines()
                if line.startswith(("| ambassador | ", "| inquisitor | ")) and "/" in line
                and line.split(" | ")[1].count("/") == 1 and "-" not in line.split(" | ")[1]]
        assert len(rows) == len(keys)
        main = {(r.deck, r.mover, r.other): r for r in tights[MAIN_REVEALED].itertuples()}
        expected = set()
        for rv in others:
            # Every record of the pair, bracket by bracket, as read by the sweep's helpers.
            for r in tights[rv].itertuples():
                m = main.get((r.deck, r.mover, r.other))
                if m is not None and max(r.lower_win, m.lower_win) > min(r.upper_win,
                                                                         m.upper_win):
                    expected.add((r.deck, r.mover, r.other, rv))
            assert (tights[rv]["width"] >= -1e-9).all()  # no contradiction within a pair
        found = {(d, a, b, rv) for d, a, b, rv, *_ in revealed_changes(tights)}
        assert found == expected
        if expected:
            assert f"In {len(expected)} endgames the revealed cards change" in text
    with data_without(tmp_path, "brackets_markov"):
        assert "--revealed" in section_revealed_brackets(ctx)


@pytest.mark.parametrize("deck", ["inquisitor", "ambassador"])
def test_a_markov_key_never_knows_more_than_the_player(deck):
    """The policy may use only what its player sees: every history of one perfect-recall
    information state (same information-state string) has the same Markov key, for both
    players, at every node of a two-turn endgame (exchanges and examinations included)."""
    from games.coup.walker import CoupWalker

    game = Endgame(3, 4, deck, turn_cap=2).game()
    walker = CoupWalker(game.config, history=True)
    keys: dict[tuple[int, str], set] = {}
    stack = [walker.root()]
    while stack:
        s = stack.pop()
        if s.over:
            continue
        if s.cur != E.CHANCE:
            for player in (0, 1):
                text = walker.information_state_string(s, player)
                keys.setdefault((player, text), set()).add(M.markov_key(s, player))
        moves = ([a for a, _ in s.chance_outcomes()] if s.cur == E.CHANCE
                 else walker.legal_actions(s))
        stack.extend(walker.child(s, a) for a in moves)
    assert len(keys) > 1000
    assert all(len(found) == 1 for found in keys.values())
