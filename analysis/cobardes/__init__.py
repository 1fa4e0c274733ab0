"""¡Cobardes! solved: the questions users ask of the game, answered by solvers.

Modules
-------
``exact``
    Backward induction over the public positions of battles without hidden cards
    (warriors only, courtiers, named villains): one matrix game per face-down
    confrontation, exact values and strategies at every position.
``graph``
    A villain-free battle compiled once, re-solved fast for new terminal payoffs.
``war``
    The war composed over the score states (drawn battles repeat the score).
``villains``
    Hidden villains with the state-keyed engine, and the abstraction's measured loss.
``balance``
    Tier list, courtier and villain matchups, which cards matter at which combat.
``sweep``
    Every pairing solved in parallel (processes or Dask), cached and resumable.
``advise``, ``bot``, ``command``, ``report``
    ``farol advise cobardes``, the ``solved`` bot for ``farol play``, ``farol cobardes``
    and the report sections.
"""
