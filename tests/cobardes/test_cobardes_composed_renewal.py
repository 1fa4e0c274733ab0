"""The war with courtiers renewed, composed from one battle solution a pairing
(:mod:`analysis.cobardes.studies.composed_renewal`): checked against the stochastic game solved
directly here by value iteration, with the renewal written out independently.

"When a battle ends, prepare the next one: ... renew them with others of the same type.
If you did not play your villain or courtier you may decide not to replace them and
keep them for the next battle."
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.cli import main
from analysis.cobardes.model import ENDINGS, OUTCOME_NAMES, USED, initial_position, outcome_totals
from analysis.cobardes.solvers.graph import BattleGraph
from analysis.cobardes.studies import composed_renewal as CR
from analysis.cobardes.studies import hidden_sweep
from analysis.cobardes.studies.renewal import RenewalModel
from games.errors import InvalidParameterError

DECK = ("Standard-Bearer", "Maiden", "Squire", "Wolf")
WIN, LOSS, CROWN, CROWN_LOSS, DRAW = range(5)
TO_WIN = 3


def _random_endings(model: RenewalModel, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {p: rng.dirichlet(np.full(ENDINGS, 0.5)) for p in model.pairings}


def _draws(pair, renew0, renew1):
    pool = [c for c in DECK if c not in pair]
    if renew0 and renew1:
        return [(x, y) for x in pool for y in pool if x != y]
    if renew0:
        return [(x, pair[1]) for x in pool]
    if renew1:
        return [(pair[0], y) for y in pool]
    return [pair]


def _direct_values(endings: dict, sweeps: int = 4000, to_win: int = TO_WIN) -> dict:
    """Value iteration on the war's states (score, pairing), the war won with ``to_win``
    Victory tokens: after each battle player 0 keeps an unplayed courtier or renews it,
    then player 1, knowing that choice."""
    pairs = [p for p in itertools.permutations(DECK, 2)]
    scores = [(a, b) for a in range(to_win) for b in range(to_win)]
    v = {(s, p): 0.0 for s in scores for p in pairs}

    def renewal(score, pair, used):
        opts0 = [False, True] if not used & 1 else [True]
        opts1 = [False, True] if not used & 2 else [True]
        return max(min(np.mean([v[(score, q)] for q in _draws(pair, r0, r1)])
                       for r1 in opts1) for r0 in opts0)

    for _ in range(sweeps):
        new = {}
        for (a, b), pair in v:
            total = 0.0
            for kind in range(len(OUTCOME_NAMES)):
                for used in USED:
                    p = endings[pair][kind * len(USED) + used]
                    if kind == CROWN or (kind == WIN and a + 1 == to_win):
                        total += p
                    elif kind == CROWN_LOSS or (kind == LOSS and b + 1 == to_win):
                        total -= p
                    else:
                        nxt = {WIN: (a + 1, b), LOSS: (a, b + 1), DRAW: (a, b)}[kind]
                        total += p * renewal(nxt, pair, used)
            new[((a, b), pair)] = total
        change = max(abs(new[k] - v[k]) for k in v)
        v = new
        if change < 1e-14:
            break
    return v


@pytest.mark.parametrize("seed", [1, 2])
def test_the_composed_war_is_the_stochastic_game_solved_directly(seed):
    model = RenewalModel(DECK, 3, 3)
    endings = _random_endings(model, seed)
    sol = CR.compose_renewal(endings, model)
    want = _direct_values(endings)
    for state, value in want.items():
        assert sol.values[model.index[state]] == pytest.approx(value, abs=1e-9)
    assert sol.residual < 1e-9
    # The battles end as given, whatever the score.
    assert sol.reach[model.index[((2, 1), model.pairings[0])]] == pytest.approx(
        endings[model.pairings[0]])


@pytest.mark.parametrize("victories", [1, 2, 4])
def test_a_war_to_other_victories_is_composed_as_solved_directly(victories):
    """The war game's ``victories``: the composed war, and the direct value iteration
    with the war won at that many tokens, agree on every score."""
    model = RenewalModel(DECK, 3, 3, victories)
    endings = _random_endings(model, 4)
    sol = CR.compose_renewal(endings, model)
    want = _direct_values(endings, to_win=victories)
    assert len(want) == len(model.states) == victories ** 2 * len(model.pairings)
    for state, value in want.items():
        assert sol.values[model.index[state]] == pytest.approx(value, abs=1e-9)
    printed = CR.compose_renewal(endings, RenewalModel(DECK, 3, 3))
    assert sol.value(model.pairings[0]) != pytest.approx(printed.value(model.pairings[0]))


def test_keeping_an_unplayed_decisive_courtier_is_chosen():
    """The Wolf's holder (in every battle it is in) wins the battle with its Wolf never
    played, every other battle is a coin flip played out with both courtiers: the
    holder keeps the Wolf, so its war is won for sure."""
    model = RenewalModel(DECK, 3, 3)
    coin = np.zeros(ENDINGS)
    coin[WIN * 4 + 3] = coin[LOSS * 4 + 3] = 0.5
    endings = {}
    for pair in model.pairings:
        ends = np.zeros(ENDINGS)
        if pair[0] == "Wolf":
            ends[WIN * 4 + 2] = 1.0   # player 0 wins, only player 1 played its courtier
        elif pair[1] == "Wolf":
            ends[LOSS * 4 + 1] = 1.0
        else:
            ends = coin
        endings[pair] = ends
    sol = CR.compose_renewal(endings, model)
    assert sol.value(("Wolf", "Maiden")) == pytest.approx(1.0)
    assert sol.value(("Maiden", "Wolf")) == pytest.approx(-1.0)
    assert sol.renewal((1, 0), ("Wolf", "Maiden"), 2).choice0 == "keep"
    assert -1.0 < sol.value(("Maiden", "Squire")) < 1.0


def test_bad_battles_are_refused_in_one_line():
    model = RenewalModel(DECK, 3, 3)
    endings = _random_endings(model, 3)
    with pytest.raises(InvalidParameterError, match="20 probabilities"):
        CR.FixedBattle(np.full(5, 0.2))
    with pytest.raises(InvalidParameterError, match="missing, e.g."):
        CR.compose_renewal(dict(list(endings.items())[1:]), model)


def test_a_villain_free_battles_endings_are_its_solution():
    """Its five outcomes are the battle graph's (computed another way), split by the
    courtiers played."""
    pair = ("Squire", "Maiden")
    ends = CR.villain_free_endings(pair, 3, 3)
    cfg, pos, _ = initial_position({"kinds": "warriors+courtiers", "courtier0": pair[0],
                                    "courtier1": pair[1], "warriors": 3, "combats": 3})
    want = BattleGraph(cfg, pos).solve((1.0, -1.0, 3.0, -3.0, 0.0)).outcome_probs
    assert outcome_totals(ends) == pytest.approx(want, abs=1e-9)


class _Record:
    """A stand-in matchup record: how its battle ends (the 20 endings)."""

    def __init__(self, endings):
        self.endings = endings
        self.exploitability_lower_bound = 0.004

    def battle_endings(self):
        return self.endings


def test_farol_cobardes_renewal_villains_composes_the_stored_matchups(monkeypatch, capsys):
    """The whole court: the Wolf's holder wins without playing it, every other battle is
    an even one that plays both courtiers. With one matchup missing it says how many are
    stored and how to solve the rest, in one line."""
    model = RenewalModel()
    coin = np.zeros(ENDINGS)
    coin[WIN * 4 + 3] = coin[LOSS * 4 + 3] = 0.5
    records = {}
    for pair in model.pairings:
        ends = coin
        if "Wolf" in pair:
            ends = np.zeros(ENDINGS)
            ends[WIN * 4 + 2 if pair[0] == "Wolf" else LOSS * 4 + 1] = 1.0
        records[pair] = _Record(ends)
    monkeypatch.setattr(hidden_sweep, "load_hidden", lambda **kw: records)
    assert main(["cobardes", "renewal", "--villains"]) == 0
    out = capsys.readouterr().out
    wolf = next(line for line in out.splitlines() if line.startswith("Wolf "))
    assert wolf.split()[1:] == ["100.0%", "100%"]
    assert "first player: 50.0% of wars won" in out and "a lower bound" in out
    del records[model.pairings[5]]
    assert main(["cobardes", "renewal", "--villains"]) == 2
    err = capsys.readouterr().err.strip()
    assert "89 of 90 are" in err and len(err.splitlines()) == 1
