"""Coup solved and played: endgames, the whole game's blueprint, agents, studies and advice.

The wing is sorted by kind, one folder a floor; a floor imports its own folder, the
floors below it and the ground, never one above (``tests/project/test_architecture.py``,
``COUP_LAYERS``):

:mod:`analysis.coup.advice`
    Advice at a spot: the exact endgame solve (``farol advise coup POSITION``), the
    shipped openings, the blueprint with its re-solves (also ``farol play``'s coach), the
    re-solve over the public beliefs.
:mod:`analysis.coup.studies`
    The questions asked: the 1v1 endgame sweeps and what they say of bluffing and
    balance, brackets of the full game and of larger endgames, the state-keyed estimate
    beyond the cap, the blueprint's bluffs and bounds, seat balance at 2-8 players on
    duplicate deals, the strongest agent's play tables.
:mod:`analysis.coup.agents`
    One module per bot, named after it, and ``BOTS``, the table from a bot's name to its
    module (``farol coup match --agents``, ``farol play --opponent``).
:mod:`analysis.coup.solvers`
    Exact beliefs, re-solving, the blueprint and its leaf table, brackets of capped
    games, solved endgames, the cards-and-coins value of a position.
The ground, this package's top
    :mod:`analysis.coup.model` (the 1v1 endgame, the 2-player game from the deal, the
    shared constants and the stored records, through :mod:`analysis.shared.store`) and
    :mod:`analysis.coup.guarantees` (the position graph and the Markov guarantees that
    price the turn cap).

The report's sections are in :mod:`analysis.report.coup`, the command line in
:mod:`analysis.cli.coup`.
"""
