"""Keeps `make test-slow` meaningful: at least one slow test exists and is collected."""

import pyspiel
import pytest


@pytest.mark.slow
def test_kuhn_random_sim_many_games():
    """OpenSpiel's simulation checks over many Kuhn games (a slow-suite smoke test)."""
    pyspiel.random_sim_test(pyspiel.load_game("kuhn_poker"), num_sims=2000, serialize=False, verbose=False)
