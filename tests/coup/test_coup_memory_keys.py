"""The claim-memory abstraction of Coup (``games.coup.walker.MemoryWalker``)."""

from __future__ import annotations

import random

import pytest

from analysis.cli import main
from analysis.coup.model import Endgame
from analysis.coup.studies import abstraction as A
from analysis.shared import store
from analysis.solve import compile_game
from games.coup import cards as C
from games.coup import engine as E
from games.coup.walker import NO_CARD, CoupWalker, MemoryWalker, memory_step

P = E.PUBLIC
EMPTY = ((0, 0), ((NO_CARD, NO_CARD), (NO_CARD, NO_CARD)))


def _bits(*cards):
    return sum(1 << c for c in cards)


def test_a_claim_is_remembered_and_income_is_not_a_claim():
    """«puedes declarar el personaje que quieras» — a Tax is a claim to the Duke, Income
    claims nothing, so only the Tax enters the memory."""
    mem = memory_step(EMPTY, [(P, E.E_ACT, 0, C.INCOME, -1), (P, E.E_ACT, 1, C.TAX, -1)])
    assert mem[0] == (0, _bits(C.DUKE))
    mem = memory_step(mem, [(P, E.E_ACT, 1, C.STEAL, 0)])
    assert mem[0] == (0, _bits(C.DUKE, C.CAPTAIN))


def test_a_block_is_a_claim():
    """«Bloquear es declarar un personaje»: blocking a steal as the Ambassador claims it."""
    mem = memory_step(EMPTY, [(P, E.E_ACT, 0, C.STEAL, 1), (P, E.E_BLOCK, 1, C.EXCHANGER)])
    assert mem[0] == (_bits(C.CAPTAIN), _bits(C.EXCHANGER))


@pytest.mark.parametrize("event", [
    (P, E.E_LOSE, 1, C.DUKE),          # a card lost
    (P, E.E_PROVEN, 1, C.DUKE),        # a proven claim: the card goes back, another drawn
    (2, E.E_XDRAW, 1, C.CAPTAIN),      # an exchange (the draw private, the fact public)
    (2, E.E_XDRAW2, 1, (0, 1)),
    (P, E.E_IFORCE, 0, 1),             # an examined player forced to swap
])
def test_a_changed_hand_forgets_its_claims_and_sightings(event):
    """Once a player's hand has changed, their old claims and the card an examiner saw
    no longer say what they hold; the other player's memory is kept."""
    start = ((_bits(C.ASSASSIN), _bits(C.DUKE)), ((NO_CARD, C.DUKE), (NO_CARD, NO_CARD)))
    claims, seen = memory_step(start, [event])
    assert claims == (_bits(C.ASSASSIN), 0)
    assert seen == ((NO_CARD, NO_CARD), (NO_CARD, NO_CARD))


def test_an_examination_is_remembered_by_the_examiner():
    """«El Inquisidor puede mirar una carta de otro jugador»: after the card is kept, P0
    still knows P1's card."""
    events = [(P, E.E_ACT, 0, C.EXAMINE, 1), (3, E.E_SHOW, 1, 0, C.CONTESSA),
              (P, E.E_IKEEP, 0, 1)]
    claims, seen = memory_step(EMPTY, events)
    assert claims == (_bits(C.EXCHANGER), 0)
    assert seen == ((NO_CARD, C.CONTESSA), (NO_CARD, NO_CARD))


def _playout(walker, game, rng, steps=60):
    s = walker.root()
    path = [s]
    while walker.actor(s) != E.TERMINAL and len(path) < steps:
        if walker.actor(s) == E.CHANCE:
            outcomes = walker.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(walker.legal_actions(s))
        s = walker.child(s, action)
        path.append(s)
    return path


@pytest.mark.parametrize("deck", ["ambassador", "inquisitor"])
def test_the_memory_is_the_same_with_and_without_the_log(deck):
    """Graph mode drops the log and reads each move's events alone; tree mode keeps the
    log. Along the same random plays both carry the same memory and the same keys."""
    game = Endgame(2, 3, deck, turn_cap=12).game()
    with_log, without = MemoryWalker(game.config, True), MemoryWalker(game.config, False)
    for seed in range(30):
        a = _playout(with_log, game, random.Random(seed))
        b = _playout(without, game, random.Random(seed))
        assert [s.memory for s in a] == [s.memory for s in b]
        for x, y in zip(a, b, strict=True):
            assert with_log.state_key(x) == without.state_key(y)
            assert all(with_log.infoset_key(x, p) == without.infoset_key(y, p) for p in (0, 1))


def test_the_memory_keys_refine_the_plain_keys():
    """Every perfect-recall information set maps to one memory key and one plain key, and
    two sets sharing a memory key share the plain key: the memory only adds."""
    game = Endgame(3, 3, "inquisitor", turn_cap=2).game()
    memory = compile_game(game, abstract_keys=True, walker=MemoryWalker(game.config, True))
    plain = compile_game(game, abstract_keys=True, walker=CoupWalker(game.config, True))
    assert memory.infoset_keys == plain.infoset_keys
    by_memory = {}
    for m, p in zip(memory.infoset_abstract_keys, plain.infoset_abstract_keys, strict=True):
        assert by_memory.setdefault(m, p) == p
    assert len(set(memory.infoset_abstract_keys)) > len(set(plain.infoset_abstract_keys))


def test_remembering_the_examined_card_removes_the_loss_at_cap_two():
    """Two turns, Inquisitor deck: the plain keys forget the card an examination showed
    and lose real value in the perfect-recall game; with the memory keys the abstract
    strategy is an equilibrium there (only the CFR+ residual is left)."""
    eg = Endgame(3, 3, "inquisitor", turn_cap=2)
    plain = A.loss_at_cap(eg, 2)
    memory = A.loss_at_cap(eg, 2, keys="memory")
    assert plain["loss"] > 1e-2
    assert 0 <= memory["loss"] <= 2e-4
    assert memory["abstract_value_in_tree"] == pytest.approx(memory["exact_value"], abs=5e-4)
    assert memory["abstraction"]["nodes"] > plain["abstraction"]["nodes"]


def test_the_sweep_records_its_keys(tmp_path):
    eg = Endgame(7, 2, "inquisitor")
    (rec,) = A.sweep([eg], tmp_path, caps=(1, 2), loss_cap=1, progress=False, keys="memory")
    assert rec.keys == "memory" and rec.solver == A.MEMORY_SOLVER
    assert rec.converged and rec.win == pytest.approx(1.0, abs=1e-3)


def test_unknown_keys_are_refused_by_name(capsys):
    with pytest.raises(Exception, match="keys 'perfect'"):
        A.estimate(Endgame(7, 2, "inquisitor"), keys="perfect")
    assert main(["coup", "abstraction", "--keys", "perfect"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--keys 'perfect'" in err


def test_the_report_section_renders_from_the_committed_data(tmp_path, monkeypatch):
    """One row per committed memory-keyed record, beside the plain loss; without data, how
    to run it."""
    from analysis.report import ReportContext
    from analysis.report.coup.beyond_cap import section_memory_keys
    from games import catalog

    ctx = ReportContext(catalog.family("coup"), tmp_path)
    records = A.cached(store.data("coup", "abstraction_memory"))
    text = section_memory_keys(ctx)
    assert text.startswith("### Remembering claims and sightings")
    rows = [line for line in text.splitlines()
            if line.startswith(("| ambassador |", "| inquisitor |"))]
    assert len(rows) == len(records)
    if records:
        assert "In numbers" in text and A.MEMORY_SOLVER in text
    with store.use(tmp_path / "nothing"):
        assert "--keys memory" in section_memory_keys(ctx)
