"""Shared fixtures: every test runs with Farol's games registered and quick budgets.

The tests sit in one folder per wing of the code (``tests/coup/`` for ``analysis/coup/``,
``tests/games/`` for the rules...); the helpers they share (``coup_helpers.py``...) sit
here, importable from every folder, as are the few tests other tests borrow from
(the browser's page driver, the lifted walk's cases): test files keep unique names.
"""

import os
import sys
import tempfile
from pathlib import Path

_TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(_TESTS)] + sorted(str(p) for p in _TESTS.iterdir() if p.is_dir()
                                      and not p.name.startswith((".", "_")))

os.environ.setdefault("FAROL_QUICK", "1")
# Tests never read the caches of the machine they run on (a blueprint built there would
# change what advice a test gets): each run starts from an empty cache folder.
os.environ["FAROL_CACHE_DIR"] = tempfile.mkdtemp(prefix="farol-test-cache-")
# Progress lines on stderr (analysis/shared/progress.py) only where a test asks for them, so that a
# slow machine does not change what another test reads there.
os.environ.setdefault("FAROL_PROGRESS", "0")

import pytest  # noqa: E402

import games  # noqa: E402,F401  (registers the games)
from analysis.coup.model import Endgame  # noqa: E402
from analysis.coup.solvers import blueprint as B  # noqa: E402
from analysis.solve.cyclic import CyclicCFR  # noqa: E402

ENDGAME_START = "1v1"


@pytest.fixture(scope="session")
def endgames():
    """A blueprint of the 1v1 endgames' whole graph (every coin pair, one card each):
    the graph, the solver after 100 iterations, its average strategies, and the uncapped
    config and start for play on the graph."""
    starts = {ENDGAME_START: Endgame(2, 2).game()}
    dg = B.walk("ambassador", starts)
    solver = CyclicCFR(dg.graph, dg.root_vector(ENDGAME_START))
    solver.run(100)
    strategies = (solver.average_strategy(0), solver.average_strategy(1))
    config, roots = B.history_roots(starts)
    return dg, solver, strategies, config, roots[ENDGAME_START]
