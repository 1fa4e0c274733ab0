"""The 2-player belief agent (``belief``): legal play in every deck and 2-player setup,
worlds dealt only from its beliefs (what the seat sees untouched, the claim's exact
chance respected), a posterior over the opponent's style that learns, and seeded
replay."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from coup_helpers import play_bots as play

from analysis.cli import bots as cli_bots  # noqa: F401  (registers every bot)
from analysis.coup.agents import belief as B
from analysis.coup.agents.rules_of_thumb import View
from analysis.coup.agents.search import Budget
from analysis.play.bots import make_bot
from games.coup import cards as C
from games.coup import engine as E
from games.errors import InvalidParameterError

PANEL = ("random", "honest", "bluffer", "bluffer-bold", "search")
QUICK = Budget(deals_action=2, deals_react=2, horizon=1)


@pytest.mark.parametrize("setup", ("basic", "standard", "draft"))
@pytest.mark.parametrize("deck", C.DECKS)
def test_belief_agent_plays_every_deck_and_setup(setup, deck):
    game = pyspiel.load_game("python_coup", {"two_player_setup": setup, "deck": deck,
                                             "starting_player": -1})
    for i, opponent in enumerate(PANEL):
        me = i % 2
        bots = [B.BeliefSearchAgent(game, s, i, QUICK) if s == me
                else make_bot(opponent, game, s, i) for s in range(2)]
        state, _ = play(game, bots, seed=i)
        assert state.core.winner in (0, 1)


def test_worlds_come_from_the_beliefs():
    """At every decision of a game: each dealt world keeps what the seat sees, gives the
    opponent a hand the beliefs allow, and facing a claim the worlds' weights on the
    claim being true add up to its exact chance."""
    game = pyspiel.load_game("python_coup", {"two_player_setup": "standard"})
    agent = B.BeliefSearchAgent(game, 0, 3, QUICK)
    checked = [0]

    def watch(state, seat):
        if seat != 0 or len(state.legal_actions(0)) < 2:
            return
        core = state.core
        agent.belief.update(core)
        allowed = {w.hands[1] for p, w in agent.belief.worlds() if p > 0}
        view = View.of(state, 0)
        worlds = agent.deals(view, core, 8)
        assert sum(w for w, _ in worlds) == pytest.approx(1.0)
        for _, world in worlds:
            assert world.hands[0] == core.hands[0] and world.coins == core.coins
            assert world.revealed == core.revealed and world.queue == core.queue
            assert world.hands[1] in allowed
        if view.step[0] == E.S_CHAL:
            claimant, claim = view.step[1], view.step[2]
            true = sum(w for w, world in worlds if claim in world.hands[claimant])
            assert true == pytest.approx(agent.belief.holds(claim))
        checked[0] += 1

    for seed in range(3):
        agent = B.BeliefSearchAgent(game, 0, seed, QUICK)
        play(game, [agent, make_bot("bluffer-bold", game, 1, seed)], seed, watch)
    assert checked[0] > 10


def test_the_style_posterior_learns_a_heavy_bluffer():
    """Against bluffer-bold the heavy-bluffing model gains weight over a game; against
    honest the nearly honest one does."""
    game = pyspiel.load_game("python_coup", {})
    ends = {}
    for opponent in ("honest", "bluffer-bold"):
        totals = np.zeros(len(B.STYLES))
        for seed in range(6):
            agent = B.BeliefSearchAgent(game, 0, seed, QUICK)
            last = {}

            def watch(state, seat, agent=agent, last=last):
                if seat == 0 and len(state.legal_actions(0)) > 1:
                    agent.belief.update(state.core)
                    last["w"] = agent.belief.style_weights()

            play(game, [agent, make_bot(opponent, game, 1, seed)], seed, watch)
            totals += last["w"]
        ends[opponent] = totals / 6
    assert ends["honest"][0] > ends["bluffer-bold"][0]
    assert ends["bluffer-bold"][2] > ends["honest"][2]


def test_same_seed_same_game():
    game = pyspiel.load_game("python_coup", {"two_player_setup": "draft"})
    runs = [play(game, [make_bot("belief", game, 0, 9), make_bot("search", game, 1, 9)], 9)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_more_players_are_refused_in_one_line():
    game = pyspiel.load_game("python_coup", {"players": 3})
    with pytest.raises(InvalidParameterError, match="2-player"):
        make_bot("belief", game, 0)


@pytest.mark.parametrize(("players", "agent"), [(2, "resolve"), (3, "fast")])
def test_a_match_says_which_agent_best_was(players, agent, capsys):
    import json

    from analysis import cli

    argv = ["coup", "match", "--agents", "best", "--players", str(players), "--games", "2"]
    assert cli.main(argv) == 0
    assert f"best here is {agent}:" in capsys.readouterr().out
    assert cli.main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best_is"]["agent"] == agent
    assert data["best_is"]["strength_measured_in"].startswith("benchmarks/results/")


def test_a_match_without_best_says_nothing_of_it(capsys):
    from analysis import cli

    assert cli.main(["coup", "match", "--agents", "honest,search", "--games", "2"]) == 0
    assert "best here" not in capsys.readouterr().out


def test_play_and_a_goat_lords_match_say_what_best_is(capsys, monkeypatch):
    import json

    from analysis import cli

    moves = iter(["q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(moves))
    cli.main(["play", "python_coup", "--opponent", "best", "--seed", "1"])
    assert "Your opponent: best here is resolve:" in capsys.readouterr().out
    argv = ["goat-lords", "match", "--agents", "best,greedy", "--games", "2", "--json"]
    assert cli.main(argv) == 0
    assert json.loads(capsys.readouterr().out)["best_is"]["agent"] == "lord"


def test_what_best_is_carries_its_measured_strength():
    from analysis.play.bots import what_stands_behind

    results = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
    # At 2 players best is resolve: its line against search, and the exploiter's line.
    about = what_stands_behind("best", pyspiel.load_game("python_coup", {}))
    assert about["strength_measured_in"] == "benchmarks/results/coup_resolve_agent.txt"
    data = json.loads((results / "coup_resolve_agent.json").read_text())
    line = next(x for x in data["matches"] if x["opponent"] == "search")
    lo, hi = line["ci95"]
    assert about["strength"].startswith(
        f"wins {100 * line['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] against search "
        f"({line['deck']}, {line['setup']}, {line['games']:,} games); above 50% in "
        f"{sum(x['above_half'] for x in data['matches'])} of {len(data['matches'])} ")
    exploiter = next(x for x in json.loads((results / "coup_exploiter.json").read_text())["lines"]
                     if x["agent"] == "resolve")
    assert f"({exploiter['gain']:+.2f} of a game [{exploiter['gain_ci95'][0]:+.2f}, " in about[
        "strength"]
    # At 4 players best is fast: its pooled strength at a table of search agents.
    about = what_stands_behind("best", pyspiel.load_game("python_coup", {"players": 4}))
    x = json.loads((results / "coup_fast_agent_pooled.json").read_text())["strength"]
    lo, hi = x["ci95_over_deals"]
    assert about["strength"] == (
        f"wins {100 * x['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] at a "
        f"{x['players']}-player table of search agents (fair share {100 * x['fair_share']:.0f}%, "
        f"{x['games']:,} games of duplicate deals)")
    lord = what_stands_behind("best", pyspiel.load_game("python_goat_lords"))
    assert "% [" in lord["strength"] and "against greedy" in lord["strength"]
    assert what_stands_behind("honest", pyspiel.load_game("python_coup")) is None
