"""Goat Lords studied by bot tournaments: seat advantage, what a wild is worth, duels.

The wing's floors, from the ground up (``tests/project/test_architecture.py`` checks
that each imports only its own floor, those below and the ground):

* ``model``: the hidden cards as one seat knows them (:class:`~.model.Belief`);
* ``agents/``: one module per bot, named after it (``greedy``, ``mcts``, ``ismcts``,
  ``lord``, ``best``), the table of them and bots by name with a budget (``by_name``);
* ``studies/``: seeded games into a resumable CSV (``tournament``), the answers with
  95% intervals (``statistics``), the report's experiments (``plan``, ``balance``),
  the strongest agent's games kept move by move (``habits``) and the what-if.

Goat Lords has no solver and no advice of its own. The report sections are
:mod:`analysis.report.goat_lords`.
"""

GAME = "python_goat_lords"
