"""¡Cobardes! solved: the questions users ask of the game, answered by solvers.

The wing's floors, from the ground up (each imports only its own floor, those below and
the ground; ``tests/project/test_architecture.py`` checks it):

* ``model``: a battle's specification and starting position, how a battle ends
  (outcomes, courtiers used) and the war's scores;
* ``solvers/``: exact backward induction of public battles (``exact``, ``fast_exact``,
  ``graph``, ``fast_outcomes``), the war over its scores (``war``), hidden villains on
  the state-keyed engine and the trunk left once public subgames are cut off
  (``villains``, ``trunk``, ``packed_walk``, ``subgames``, ``hidden_solution``) and a
  spot read off a stored solution (``hidden_advice``);
* ``agents/``: one module per bot, named after it (``solved``, which ``best`` plays);
* ``studies/``: the sweeps over courtier pairings and matchups, the renewal war, the
  balance answers, the stored openings and the what-if;
* ``advice/``: ``farol advise cobardes`` at a position or a spot (``advise``), and a
  later spot of a full battle re-solved (``spot_resolve``).
"""
