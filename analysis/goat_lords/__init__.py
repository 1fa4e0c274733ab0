"""Goat Lords studied by bot tournaments: seat advantage, what a wild is worth, duels.

``bots`` (greedy, MCTS, ISMCTS; registered for ``farol play`` on import), ``tournament``
(seeded games into a resumable CSV), ``statistics`` (the answers, with 95% intervals) and
``plan`` (the report's experiments). The report sections are :mod:`analysis.report.goat_lords`.
"""

GAME = "python_goat_lords"
