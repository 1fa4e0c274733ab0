"""Goat Lords studied by bot tournaments: seat advantage, what a wild is worth, duels.

``bots`` (greedy, MCTS, ISMCTS, the ``lord`` search agent and ``best``; registered for
``farol play`` on import), ``heuristic`` (the greedy scores), ``belief`` (the hidden cards
as one seat knows them), ``search`` (the ``lord`` agent), ``tournament``
(seeded games into a resumable CSV), ``statistics`` (the answers, with 95% intervals),
``plan`` (the report's experiments) and ``habits`` (the strongest agent's games kept move
by move, read by the guide's How to play). The report sections are
:mod:`analysis.report.goat_lords`.
"""

GAME = "python_goat_lords"
