"""Coup solved: 1v1 endgames, larger endgames, the bluffing study, balance and advice.

Modules
-------
:mod:`analysis.coup.model`
    The 1v1 endgame, the shared constants and the stored records (through
    :mod:`analysis.shared.store`).
:mod:`analysis.coup.solvers.endgames`
    One 1v1 endgame (one face-down card each, dealt by chance) solved on the
    perfect-recall tree with Farol's engine, its equilibrium walked for values,
    bluff and challenge rates, and checked with OpenSpiel's ``exploitability``.
:mod:`analysis.coup.studies.sweep`, :mod:`analysis.coup.studies.runner`
    Every coin pair, both decks: parallel, resumable, one JSON file per endgame.
:mod:`analysis.coup.studies.bluffing`, :mod:`analysis.coup.studies.balance`
    The questions asked of the sweep: bluff rates, character values, seat balance.
:mod:`analysis.coup.guarantees`
    Markov guarantees: what a player secures from a bare position, to price the cap.
:mod:`analysis.coup.solvers.brackets`, :mod:`analysis.coup.studies.full_game`
    Rigorous bounds on the uncapped values (endgames, the full 2-player game).
:mod:`analysis.coup.studies.abstraction`
    The state-keyed estimate beyond the cap, with its loss measured at cap 3.
:mod:`analysis.coup.studies.larger`
    2v1 and 2v2 endgames: sizes, times, and the state-keyed abstraction's loss.
:mod:`analysis.coup.advice.endgame`
    ``farol advise coup`` and the ``solved`` bot for ``farol play python_coup``.

The report's sections are in :mod:`analysis.report.coup`, the command line in
:mod:`analysis.cli.coup`.
"""
