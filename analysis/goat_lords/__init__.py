"""Goat Lords studied by bot tournaments: seat advantage, what a wild is worth, duels.

Modules
-------
:mod:`analysis.goat_lords.bots`
    The greedy, MCTS and ISMCTS bots, registered for ``farol play`` on import.
:mod:`analysis.goat_lords.tournament`
    Seeded batches of games (:class:`~analysis.goat_lords.tournament.Experiment`),
    played over processes into a resumable CSV.
:mod:`analysis.goat_lords.statistics`
    Win rates, duel success, the worth of a wild, round length (95% intervals).
:mod:`analysis.goat_lords.plan`
    The experiments of the report, grouped by question, and their budgets.

The report sections live in :mod:`analysis.report.goat_lords`.
"""

GAME = "python_goat_lords"
